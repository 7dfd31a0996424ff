package dev.weft.route;

import dev.weft.route.graph.Edge;
import dev.weft.route.graph.PoolMath;
import dev.weft.route.graph.RouteGraph;
import dev.weft.route.graph.RoutePath;
import dev.weft.route.json.RegistryJson;
import dev.weft.route.json.SkipJson;
import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.Registry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/** The Skip {@code Route} JSON of a path: operations, chains, fees, USD values, duration, warnings. */
final class RouteBuilder {
    static final BigDecimal IMPACT_WARNING_PERCENT = BigDecimal.valueOf(5);
    static final BigInteger BPS = BigInteger.valueOf(10_000);

    private RouteBuilder() {}

    /** @param shared the registry's assets and venues, shared by the answers (frozen): an answer's own parts are new */
    static ComputedRoute build(
            RouteGraph g,
            RegistryJson shared,
            GasQuote gas,
            RouteRequest req,
            Asset source,
            Asset dest,
            boolean evmSigned,
            RoutePath path) {
        Registry r = g.registry();
        List<String> visits = new ArrayList<>();
        visits.add(source.chainId());
        int n = path.edges().size();
        int[] fromVisit = new int[n];
        int[] toVisit = new int[n];
        JsonArray ops = new JsonArray();
        JsonArray fees = new JsonArray();
        List<String> extraWarnings = new ArrayList<>();
        boolean opHook = false;
        int feeOp = -1;
        for (int i = 0; i < n; i++) if (path.edges().get(i).isSwap()) feeOp = i;
        BigInteger feeBase = feeOp < 0 ? path.amountIn() : path.amounts().get(feeOp + 1);
        BigInteger affiliateFee =
                feeBase.multiply(BigInteger.valueOf(req.affiliateBps())).divide(BPS);
        if (affiliateFee.signum() > 0 && feeOp > 0 && hookEntryPoint(g, path, feeOp - 1) != null) {
            // the swap runs from an ibc-hooks memo: its output goes straight to the recipient, no msg can take a fee
            throw dev.weft.bus.BusError.badRequest("cumulative_affiliate_fee_bps: the route's swap runs on IBC arrival"
                    + " (ibc-hooks), where no fee can be taken; set it to \"0\" or restrict the route");
        }
        for (int i = 0; i < n; i++) {
            Edge e = path.edges().get(i);
            Asset in = g.asset(e.from());
            Asset out = g.asset(e.to());
            fromVisit[i] = visits.size() - 1;
            if (!out.chainId().equals(visits.get(visits.size() - 1))) visits.add(out.chainId());
            toVisit[i] = visits.size() - 1;
            // after the fee is taken every operation carries the amount net of it (the swap itself shows its output)
            BigInteger net = i > feeOp ? affiliateFee : BigInteger.ZERO;
            BigInteger amountIn = path.amounts().get(i).subtract(net);
            BigInteger amountOut = path.amounts().get(i + 1).subtract(net);
            int tx = path.txIndex().get(i);
            JsonObject variant = switch (e.kind()) {
                case IBC -> new JsonObject().put("transfer", transfer(r, e, in, out, hookEntryPoint(g, path, i)));
                case OP_DEPOSIT, OP_WITHDRAW -> new JsonObject().put("op_init_transfer", opInit(e, in, out));
                case LAYER_ZERO -> new JsonObject().put("layer_zero_transfer", layerZero(r, shared, e, in, out));
                case SWAP ->
                    new JsonObject()
                            .put(
                                    "swap",
                                    swap(shared, e, in, out, amountIn, amountOut, path.swapQuote())
                                            .put(
                                                    "estimated_affiliate_fee",
                                                    (i == feeOp ? affiliateFee : BigInteger.ZERO) + out.denom()));
            };
            ops.add(variant.put("tx_index", tx)
                    .put("amount_in", amountIn.toString())
                    .put("amount_out", amountOut.toString()));
            if (e.kind() == Edge.Kind.LAYER_ZERO) {
                Asset feeAsset = r.asset(in.chainId(), e.lane().feeDenom());
                fees.add(fee(
                        "BRIDGE",
                        "LAYER_ZERO",
                        e.lane().messagingFee(),
                        r,
                        shared,
                        feeAsset,
                        in.chainId(),
                        tx,
                        i,
                        "FEE_BEHAVIOR_ADDITIONAL"));
            }
            if (e.isSwap()) {
                for (PoolMath.Quote pq : path.poolQuotes()) {
                    if (pq.fee().signum() <= 0) continue;
                    Asset feeAsset = r.asset(in.chainId(), pq.feeDenom());
                    fees.add(fee(
                            "SWAP", null, pq.fee(), r, shared, feeAsset, in.chainId(), tx, i, "FEE_BEHAVIOR_DEDUCTED"));
                }
            }
            if (affiliateFee.signum() > 0 && (i == feeOp || feeOp < 0 && i == 0)) {
                // Skip's fee types have none for integrators: a fee on the swap is a SWAP fee; the fee of a
                // transfer-only route (Weft's extension) is typed AFFILIATE
                Asset feeAsset = feeOp < 0 ? in : out;
                fees.add(fee(
                        feeOp < 0 ? "AFFILIATE" : "SWAP",
                        null,
                        affiliateFee,
                        r,
                        shared,
                        feeAsset,
                        in.chainId(),
                        tx,
                        i,
                        "FEE_BEHAVIOR_DEDUCTED"));
            }
            if (e.kind() == Edge.Kind.OP_WITHDRAW) {
                extraWarnings.add("Withdrawals from " + e.bridge().l2ChainId() + " through OPinit bridge "
                        + e.bridge().bridgeId()
                        + " are claimable on " + e.bridge().l1ChainId() + " after ~"
                        + humanDuration(e.durationSeconds())
                        + " (the bridge's finalization period) and must be claimed there.");
            }
            if (e.wrapper() != null) opHook = true;
        }
        // Skip lists fees by operation; the gas of each tx comes after them (one GAS entry per Cosmos tx)
        fees.addAll(gas.entries(g, path.edges(), evmSigned));
        PoolMath.Quote q = path.swapQuote();
        Edge swapEdge = path.edges().stream().filter(Edge::isSwap).findFirst().orElse(null);
        JsonObject venue = swapEdge == null ? null : shared.venue(swapEdge.venue());
        JsonObject warning = null;
        if (q != null && q.impactPercent().compareTo(IMPACT_WARNING_PERCENT) > 0) {
            warning = new JsonObject()
                    .put("type", "BAD_PRICE_WARNING")
                    .put(
                            "message",
                            "swap price impact is " + percent(q.impactPercent()) + "%, above " + IMPACT_WARNING_PERCENT
                                    + "%: the swap returns much less than the spot price");
        }
        BigInteger amountOut = path.amountOut().subtract(affiliateFee);
        JsonObject json = new JsonObject()
                .put("amount_in", path.amountIn().toString())
                .put("amount_out", amountOut.toString())
                .put("source_asset_chain_id", req.sourceChainId())
                .put("source_asset_denom", req.sourceDenom())
                .put("dest_asset_chain_id", req.destChainId())
                .put("dest_asset_denom", req.destDenom())
                .put("operations", ops)
                .put("chain_ids", new JsonArray(List.copyOf(visits)))
                .put("required_chain_addresses", new JsonArray(List.copyOf(visits)))
                .put("does_swap", q != null)
                .put("estimated_amount_out", amountOut.toString())
                .put("txs_required", path.txsRequired())
                .put("swap_venues", venue == null ? new JsonArray() : new JsonArray().add(venue))
                .put("swap_venue", venue)
                .put("swap_price_impact_percent", q == null ? null : percent(q.impactPercent()))
                .put("usd_amount_in", SkipJson.usd(r, source, path.amountIn()))
                .put("usd_amount_out", SkipJson.usd(r, dest, amountOut))
                .put("estimated_fees", fees)
                .put("estimated_route_duration_seconds", path.durationSeconds())
                .put("warning", warning)
                .put("extra_warnings", new JsonArray(extraWarnings))
                .put("required_op_hook", opHook)
                .put("extra_infos", new JsonArray());
        return new ComputedRoute(
                req, source, dest, evmSigned, path, List.copyOf(visits), fromVisit, toVisit, json, affiliateFee, feeOp);
    }

    /** The entry point the transfer at {@code op} calls on arrival, when the next operation is a swap in the same tx. */
    private static String hookEntryPoint(RouteGraph g, RoutePath path, int op) {
        int next = op + 1;
        if (next >= path.edges().size() || !path.edges().get(next).isSwap()) return null;
        if (!path.txIndex().get(next).equals(path.txIndex().get(op))) return null;
        return path.edges().get(next).venue().hookEntryPoint();
    }

    private static JsonObject transfer(Registry r, Edge e, Asset in, Asset out, String entryPoint) {
        Chain to = r.chain(out.chainId());
        JsonObject t = new JsonObject()
                .put("port", e.channel().port())
                .put("channel", e.channel().channelOn(in.chainId()))
                .put("from_chain_id", in.chainId())
                .put("to_chain_id", out.chainId())
                .put("pfm_enabled", to.pfm())
                .put("supports_memo", to.memo())
                .put("denom_in", in.denom())
                .put("denom_out", out.denom())
                .put("bridge_id", "IBC")
                .put("smart_relay", false)
                .put("chain_id", in.chainId())
                .put("dest_denom", out.denom());
        if (entryPoint != null) t.put("to_chain_entry_contract_address", entryPoint);
        return t;
    }

    private static JsonObject opInit(Edge e, Asset in, Asset out) {
        return new JsonObject()
                .put("from_chain_id", in.chainId())
                .put("to_chain_id", out.chainId())
                .put("denom_in", in.denom())
                .put("denom_out", out.denom())
                .put("op_init_bridge_id", Long.toString(e.bridge().bridgeId()))
                .put("bridge_id", "OPINIT")
                .put("smart_relay", false);
    }

    private static JsonObject layerZero(Registry r, RegistryJson shared, Edge e, Asset in, Asset out) {
        Asset feeAsset = r.asset(in.chainId(), e.lane().feeDenom());
        return new JsonObject()
                .put("from_chain_id", in.chainId())
                .put("to_chain_id", out.chainId())
                .put("denom_in", in.denom())
                .put("denom_out", out.denom())
                .put("source_oft_contract_address", e.lane().sourceOftContract())
                .put("destination_endpoint_id", e.lane().destinationEndpointId())
                .put("messaging_fee_asset", shared.asset(feeAsset))
                .put("messaging_fee_amount", e.lane().messagingFee().toString())
                .put(
                        "messaging_fee_amount_usd",
                        SkipJson.usd(r, feeAsset, e.lane().messagingFee()))
                .put("bridge_id", "LAYER_ZERO");
    }

    private static JsonObject swap(
            RegistryJson shared,
            Edge e,
            Asset in,
            Asset out,
            BigInteger amountIn,
            BigInteger amountOut,
            PoolMath.Quote q) {
        JsonObject venue = shared.venue(e.venue());
        JsonObject swapIn = new JsonObject()
                .put("swap_venue", venue)
                .put("swap_operations", swapOperations(e, in.denom()))
                .put("swap_amount_in", amountIn.toString())
                .put("price_impact_percent", percent(q.impactPercent()))
                .put("estimated_amount_out", amountOut.toString());
        return new JsonObject()
                .put("swap_in", swapIn)
                .put("estimated_affiliate_fee", "0" + out.denom())
                .put("from_chain_id", in.chainId())
                .put("chain_id", in.chainId())
                .put("denom_in", in.denom())
                .put("denom_out", out.denom())
                .put("swap_venues", new JsonArray().add(venue));
    }

    /** One {@code {pool, denom_in, denom_out}} per pool the swap passes, in order (Skip's multi-hop swap shape). */
    private static JsonArray swapOperations(Edge e, String denomIn) {
        JsonArray ops = new JsonArray();
        List<String> denoms = e.swapDenoms(denomIn);
        for (int k = 0; k < e.pools().size(); k++) {
            ops.add(new JsonObject()
                    .put("pool", e.pools().get(k).pool())
                    .put("denom_in", denoms.get(k))
                    .put("denom_out", denoms.get(k + 1)));
        }
        return ops;
    }

    private static JsonObject fee(
            String type,
            String bridge,
            BigInteger amount,
            Registry r,
            RegistryJson shared,
            Asset asset,
            String chain,
            int tx,
            int operation,
            String behavior) {
        return new JsonObject()
                .put("fee_type", type)
                .put("bridge_id", bridge)
                .put("amount", amount.toString())
                .put("usd_amount", SkipJson.usd(r, asset, amount))
                .put("origin_asset", shared.asset(asset))
                .put("chain_id", chain)
                .put("tx_index", tx)
                .put("operation_index", operation)
                .put("fee_behavior", behavior);
    }

    /** A percentage with at most four decimals ("0.3", "12.5012", "0"). */
    static String percent(BigDecimal p) {
        BigDecimal s = p.setScale(4, RoundingMode.HALF_UP);
        return s.signum() == 0 ? "0" : s.stripTrailingZeros().toPlainString();
    }

    static String humanDuration(long seconds) {
        if (seconds >= 86400 && seconds % 86400 == 0) return plural(seconds / 86400, "day");
        if (seconds >= 3600 && seconds % 3600 == 0) return plural(seconds / 3600, "hour");
        if (seconds >= 60 && seconds % 60 == 0) return plural(seconds / 60, "minute");
        return plural(seconds, "second");
    }

    private static String plural(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }
}
