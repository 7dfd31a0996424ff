package dev.weft.route;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.route.graph.Edge;
import dev.weft.route.graph.RouteGraph;
import dev.weft.route.msgs.Abi;
import dev.weft.route.msgs.AddressRules;
import dev.weft.route.msgs.Bcs;
import dev.weft.route.msgs.CosmosMsgs;
import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.LayerZeroLane;
import dev.weft.route.registry.Registry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The signable transactions of a route ({@code /v2/fungible/msgs}): one {@code cosmos_tx} or {@code evm_tx} per user tx
 * of the route, with the operations it executes, the legacy flat {@code msgs}, and {@code min_amount_out}.
 *
 * <p>Amounts: the slippage tolerance turns the amount out of a route with a swap into {@code min_amount_out} (a route
 * without one keeps its exact amount); a swap gets
 * {@code min_return} = its estimate less the tolerance, and what follows the swap moves that guaranteed amount (the
 * rest, if the swap does better, stays with the signer on the swap chain); a swap through two pools is one call of the
 * venue's entry point ({@code swap_and_action}, the minimum on its output only). IBC hops that the route forwards with PFM
 * are one {@code MsgTransfer} whose memo nests a {@code forward} per further hop; a swap the route runs on arrival (Move
 * ibc-hooks) is the last hop's memo calling the venue's hook entry point, whose receiver is that function.
 *
 * <p>EVM sources: a LayerZero lane is an {@code evm_tx} calling the OFT's
 * {@code send((uint32,bytes32,uint256,uint256,bytes,bytes,bytes),(uint256,uint256),address)} with the messaging fee as
 * value and, for an OFT adapter, an exact-amount ERC-20 approval. A minievm source named by its ERC-20 contract signs an
 * {@code evm_tx} to the Cosmos precompile's {@code execute_cosmos(string,uint64)} carrying the tx's Cosmos message.
 */
public final class MsgsBuilder {
    /** minievm's Cosmos precompile. */
    public static final String COSMOS_PRECOMPILE = "0x00000000000000000000000000000000000000f1";

    static final String EXECUTE_COSMOS = "execute_cosmos(string,uint64)";
    static final long EXECUTE_COSMOS_GAS = 500_000;
    static final String OFT_SEND = "send((uint32,bytes32,uint256,uint256,bytes,bytes,bytes),(uint256,uint256),address)";

    private final RouteGraph g;
    private final Registry r;
    private final ComputedRoute route;
    /** The route's amount in, then each operation's amount out: the route's, or the estimates the client accepted. */
    private final List<BigInteger> amounts;

    private final List<AccountAddress> addresses;
    private final BigDecimal keep;
    private final long timeoutNanos;
    private final String pfmTimeout;
    private final String hookData;
    /** The affiliates paid where the route takes its fee (none without one), and what each gets. */
    private final List<MsgsRequest.Affiliate> affiliates;

    private BigInteger[] affiliatePaid = new BigInteger[0];
    private final GasQuote gas;
    /** The GAS entries of the txs built, by tx. */
    private final JsonArray gasFees = new JsonArray();

    private MsgsBuilder(
            RouteGraph g,
            ComputedRoute route,
            List<BigInteger> amounts,
            List<AccountAddress> addresses,
            BigDecimal slippagePercent,
            Duration timeout,
            Instant now,
            String hookData,
            List<MsgsRequest.Affiliate> affiliates,
            GasQuote gas) {
        this.gas = gas;
        this.affiliates = affiliates;
        this.g = g;
        this.r = g.registry();
        this.route = route;
        this.amounts = amounts;
        this.addresses = addresses;
        this.keep = keep(slippagePercent);
        this.timeoutNanos = (now.getEpochSecond() + timeout.toSeconds()) * 1_000_000_000L;
        this.pfmTimeout = timeout.toSeconds() % 60 == 0 ? timeout.toSeconds() / 60 + "m" : timeout.toSeconds() + "s";
        this.hookData = hookData;
    }

    /**
     * @param amounts   the route's amount in and each operation's amount out: {@code route.path().amounts()}, or the swap
     *                  estimates the client accepted when the pools have moved since (the minimums follow them)
     * @param addresses one validated account per {@code route.chainIds()} entry
     * @param hookData  the base64 signed OP hook carried by a deposit into a wrapped ERC-20 ("" when none)
     * @param affiliates the affiliates paid on the chain where the route takes its fee (empty without one)
     * @param gas       the gas estimates: each Cosmos tx gets a {@code fee} and a GAS entry of its own messages
     */
    public static JsonObject build(
            RouteGraph g,
            ComputedRoute route,
            List<BigInteger> amounts,
            List<AccountAddress> addresses,
            BigDecimal slippagePercent,
            Duration timeout,
            Instant now,
            String hookData,
            List<MsgsRequest.Affiliate> affiliates,
            GasQuote gas) {
        return new MsgsBuilder(g, route, amounts, addresses, slippagePercent, timeout, now, hookData, affiliates, gas)
                .build();
    }

    private JsonObject build() {
        List<Edge> edges = route.path().edges();
        BigInteger[] msgAmount = new BigInteger[edges.size()];
        BigInteger carried = route.path().amountIn();
        BigInteger swapMin = null;
        // Skip computes the affiliate fee on the swap's minimum output (skip-go docs/general/affiliate-fees.mdx); on a
        // transfer-only route on the input. What follows the fee carries the rest.
        if (!affiliates.isEmpty() && route.affiliateOp() < 0) carried = carried.subtract(payAffiliates(carried));
        for (int i = 0; i < edges.size(); i++) {
            msgAmount[i] = carried;
            if (edges.get(i).isSwap()) {
                swapMin = floor(amounts.get(i + 1));
                carried = swapMin;
                if (!affiliates.isEmpty() && route.affiliateOp() == i)
                    carried = carried.subtract(payAffiliates(swapMin));
            }
        }
        JsonArray txs = new JsonArray();
        JsonArray legacy = new JsonArray();
        int start = 0;
        while (start < edges.size()) {
            int tx = route.path().txIndex().get(start);
            int end = start;
            while (end + 1 < edges.size() && route.path().txIndex().get(end + 1) == tx) end++;
            JsonArray indices = new JsonArray();
            for (int i = start; i <= end; i++) indices.add(i);
            JsonObject evm =
                    edges.get(start).kind() == Edge.Kind.LAYER_ZERO ? layerZeroTx(start, msgAmount[start]) : null;
            if (evm != null) {
                // Skip's EvmTx has no gas field (swagger EvmTx): the limit is the GAS entry's gas_limit
                String chainId = evm.getString("chain_id");
                JsonObject fee = gas.evmEntry(
                        chainId, tx, start, gas.config().chain(chainId).layerZero(), GasQuote.ESTIMATE, null);
                if (fee != null) gasFees.add(fee);
            }
            if (evm == null) {
                List<CosmosMsgs.Msg> msgs = cosmosMsgs(start, end, msgAmount, swapMin);
                Chain chain = chain(start);
                if (tx == 0 && route.evmSigned()) {
                    if (msgs.size() != 1)
                        throw BusError.badRequest(
                                "an EVM-signed source can carry only one Cosmos message, this route needs "
                                        + msgs.size());
                    evm = evmTx(
                            chain,
                            signer(start),
                            COSMOS_PRECOMPILE,
                            BigInteger.ZERO,
                            Abi.call(EXECUTE_COSMOS, new Abi.Str(msgs.get(0).withType()), Abi.uint(EXECUTE_COSMOS_GAS)),
                            new JsonArray());
                } else {
                    JsonArray path = txPath(start, end);
                    JsonArray list = new JsonArray();
                    for (CosmosMsgs.Msg m : msgs) {
                        list.add(m.json());
                        legacy.add(new JsonObject()
                                .put(
                                        "multi_chain_msg",
                                        new JsonObject()
                                                .put("chain_id", chain.chainId())
                                                .put("path", path.copy())
                                                .put("msg_type_url", m.typeUrl())
                                                .put("msg", m.value().encode())));
                    }
                    JsonObject cosmosTx = new JsonObject()
                            .put("chain_id", chain.chainId())
                            .put("path", path)
                            .put("signer_address", AddressRules.display(chain, signer(start)))
                            .put("msgs", list);
                    JsonObject fee = gas.entry(
                            chain.chainId(),
                            tx,
                            start,
                            gas.estimateOf(
                                    chain.chainId(),
                                    msgs.stream().map(CosmosMsgs.Msg::typeUrl).toList()),
                            GasQuote.ESTIMATE);
                    if (fee != null) {
                        gasFees.add(fee);
                        cosmosTx.put("fee", GasQuote.stdFee(fee));
                    }
                    txs.add(new JsonObject().put("cosmos_tx", cosmosTx).put("operations_indices", indices));
                }
            }
            if (evm != null) {
                txs.add(new JsonObject().put("evm_tx", evm).put("operations_indices", indices));
                legacy.add(new JsonObject().put("evm_tx", evm.copy()));
            }
            start = end + 1;
        }
        return new JsonObject()
                .put("txs", txs)
                .put("msgs", legacy)
                .put("min_amount_out", minAmountOut().toString())
                .put("estimated_fees", fees());
    }

    /** The route's fees, its GAS entries replaced by those of the txs built (their own messages, the fee sends too). */
    private JsonArray fees() {
        JsonArray out = new JsonArray();
        for (Object f : route.json().getJsonArray("estimated_fees")) {
            if (!"GAS".equals(((JsonObject) f).getString("fee_type"))) out.add(((JsonObject) f).copy());
        }
        gasFees.forEach(out::add);
        return out;
    }

    /**
     * The slippage tolerance only covers swaps (Skip applies it to swap outputs): a route without one delivers exactly its
     * amount out.
     */
    private BigInteger minAmountOut() {
        boolean swaps = route.path().edges().stream().anyMatch(Edge::isSwap);
        BigInteger out = amounts.get(amounts.size() - 1);
        BigInteger paid = BigInteger.ZERO;
        for (BigInteger p : affiliatePaid) paid = paid.add(p);
        return (swaps ? floor(out) : out).subtract(paid);
    }

    /** Each affiliate's share of {@code base} (rounded down), recorded for the fee msgs; returns their sum. */
    private BigInteger payAffiliates(BigInteger base) {
        affiliatePaid = new BigInteger[affiliates.size()];
        BigInteger sum = BigInteger.ZERO;
        for (int k = 0; k < affiliates.size(); k++) {
            affiliatePaid[k] =
                    base.multiply(BigInteger.valueOf(affiliates.get(k).bps())).divide(RouteBuilder.BPS);
            sum = sum.add(affiliatePaid[k]);
        }
        return sum;
    }

    /** The bank sends of the affiliate fee, from the signer on the fee chain, in {@code denom}. */
    private List<CosmosMsgs.Msg> feeSends(String sender, String denom) {
        List<CosmosMsgs.Msg> out = new ArrayList<>();
        for (int k = 0; k < affiliates.size(); k++) {
            if (affiliatePaid[k].signum() > 0)
                out.add(CosmosMsgs.send(sender, affiliates.get(k).address(), denom, affiliatePaid[k]));
        }
        return out;
    }

    private List<CosmosMsgs.Msg> cosmosMsgs(int start, int end, BigInteger[] msgAmount, BigInteger swapMin) {
        List<Edge> edges = route.path().edges();
        List<CosmosMsgs.Msg> out = new ArrayList<>();
        String sender = address(route.fromVisit()[start]);
        if (start == 0 && route.affiliateOp() < 0 && !affiliates.isEmpty())
            out.addAll(feeSends(sender, g.asset(edges.get(0).from()).denom()));
        int i = start;
        while (i <= end) {
            Edge e = edges.get(i);
            Asset in = g.asset(e.from());
            Asset to = g.asset(e.to());
            switch (e.kind()) {
                case SWAP -> {
                    if (msgAmount[i].compareTo(Bcs.U64_MAX) > 0) {
                        throw BusError.badRequest(
                                "amount " + msgAmount[i] + " does not fit the u64 of a Move swap on " + in.chainId());
                    }
                    if (e.next() == null) {
                        out.add(CosmosMsgs.swap(sender, e.pool(), in.denom(), to.denom(), msgAmount[i], swapMin));
                    } else {
                        out.add(CosmosMsgs.swapAndAction(
                                sender,
                                e.venue().hookEntryPoint(),
                                e.pools(),
                                e.swapDenoms(in.denom()),
                                msgAmount[i],
                                swapMin,
                                sender,
                                timeoutNanos));
                    }
                    if (route.affiliateOp() == i && !affiliates.isEmpty()) out.addAll(feeSends(sender, to.denom()));
                }
                case OP_DEPOSIT ->
                    out.add(CosmosMsgs.deposit(
                            sender,
                            e.bridge().bridgeId(),
                            address(route.toVisit()[i]),
                            in.denom(),
                            msgAmount[i],
                            e.wrapper() != null ? hookData : ""));
                case OP_WITHDRAW ->
                    out.add(CosmosMsgs.withdrawal(sender, address(route.toVisit()[i]), in.denom(), msgAmount[i]));
                case IBC -> {
                    int last = i;
                    while (last + 1 <= end && edges.get(last + 1).kind() == Edge.Kind.IBC) last++;
                    // a swap in the same tx as the transfer that brings its input runs from the last hop's ibc-hooks
                    // memo
                    Edge hook = last + 1 <= end && edges.get(last + 1).isSwap() ? edges.get(last + 1) : null;
                    JsonObject memo = null;
                    String lastReceiver = address(route.toVisit()[last]);
                    if (hook != null) {
                        String entryPoint = hook.venue().hookEntryPoint();
                        memo = CosmosMsgs.moveHookSwap(
                                entryPoint,
                                hook.pools(),
                                hook.swapDenoms(g.asset(hook.from()).denom()),
                                msgAmount[last + 1],
                                swapMin,
                                address(route.toVisit()[last + 1]),
                                timeoutNanos);
                        lastReceiver = CosmosMsgs.hookReceiver(entryPoint);
                    }
                    for (int k = last; k > i; k--) {
                        Edge hop = edges.get(k);
                        memo = CosmosMsgs.forward(
                                k == last ? lastReceiver : address(route.toVisit()[k]),
                                hop.channel().port(),
                                hop.channel().channelOn(g.asset(hop.from()).chainId()),
                                pfmTimeout,
                                memo);
                    }
                    out.add(CosmosMsgs.transfer(
                            e.channel().port(),
                            e.channel().channelOn(in.chainId()),
                            in.denom(),
                            msgAmount[i],
                            sender,
                            last == i ? lastReceiver : address(route.toVisit()[i]),
                            timeoutNanos,
                            memo == null ? "" : memo.encode()));
                    i = hook != null ? last + 1 : last;
                }
                case LAYER_ZERO -> throw BusError.badRequest("a LayerZero transfer must start its own transaction");
            }
            i++;
        }
        return out;
    }

    private JsonObject layerZeroTx(int op, BigInteger amount) {
        Edge e = route.path().edges().get(op);
        LayerZeroLane lane = e.lane();
        AccountAddress from = signer(op);
        AccountAddress receiver = addresses.get(route.toVisit()[op]);
        if (receiver.length() != 20) throw BusError.badRequest("a LayerZero receiver must be a 20-byte account");
        byte[] data = Abi.call(
                OFT_SEND,
                new Abi.Tuple(List.of(
                        Abi.uint(lane.destinationEndpointId()),
                        Abi.addressAsBytes32(receiver.bytes()),
                        new Abi.Uint(amount),
                        new Abi.Uint(floor(amount)),
                        new Abi.Bytes(new byte[0]),
                        new Abi.Bytes(new byte[0]),
                        new Abi.Bytes(new byte[0]))),
                new Abi.Tuple(List.of(new Abi.Uint(lane.messagingFee()), Abi.uint(0))),
                new Abi.Address(from.bytes()));
        JsonArray approvals = new JsonArray();
        if (lane.adapter()) {
            Asset token = g.asset(e.from());
            approvals.add(new JsonObject()
                    .put("token_contract", token.tokenContract())
                    .put("spender", lane.sourceOftContract())
                    .put("amount", amount.toString()));
        }
        return evmTx(chain(op), from, lane.sourceOftContract(), lane.messagingFee(), data, approvals);
    }

    private JsonObject evmTx(
            Chain chain, AccountAddress signer, String to, BigInteger value, byte[] data, JsonArray approvals) {
        if (signer.length() != 20) {
            throw BusError.badRequest(
                    "the signer on " + chain.chainId() + " must be a 20-byte account to sign an EVM transaction");
        }
        return new JsonObject()
                .put("chain_id", chain.chainId())
                .put("to", to)
                .put("value", value.toString())
                .put("data", Hex.lower(data))
                .put("signer_address", signer.checksumHex())
                .put("required_erc20_approvals", approvals);
    }

    private JsonArray txPath(int start, int end) {
        JsonArray path = new JsonArray().add(route.chainIds().get(route.fromVisit()[start]));
        for (int i = start; i <= end; i++) {
            String c = route.chainIds().get(route.toVisit()[i]);
            if (!c.equals(path.getString(path.size() - 1))) path.add(c);
        }
        return path;
    }

    private Chain chain(int op) {
        return r.chain(route.chainIds().get(route.fromVisit()[op]));
    }

    private AccountAddress signer(int op) {
        return addresses.get(route.fromVisit()[op]);
    }

    private String address(int visit) {
        return AddressRules.display(r.chain(route.chainIds().get(visit)), addresses.get(visit));
    }

    private BigInteger floor(BigInteger amount) {
        return floor(amount, keep);
    }

    /** The share of an amount a slippage tolerance (percent) keeps. */
    static BigDecimal keep(BigDecimal slippagePercent) {
        return BigDecimal.ONE.subtract(slippagePercent.movePointLeft(2));
    }

    /** An amount less the slippage tolerance: the least a swap may give, in whole base units. */
    static BigInteger floor(BigInteger amount, BigDecimal keep) {
        return new BigDecimal(amount)
                .multiply(keep)
                .setScale(0, RoundingMode.FLOOR)
                .toBigInteger();
    }
}
