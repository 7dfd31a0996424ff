package dev.weft.wallet;

import dev.weft.bus.BusError;
import dev.weft.chain.AccountAddress;
import dev.weft.route.json.SkipJson;
import dev.weft.route.msgs.AddressRules;
import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.Registry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /v2/info/balances} in Skip's shape: {@code {chains: {<chain_id>: {address, denoms[]}}}} →
 * {@code {chains: {<chain_id>: {denoms: {<denom>: {amount, decimals, formatted_amount, price, value_usd, error}}}}}}.
 * Cosmos chains answer from the REST bank module (one request per chain, every denom of the account when none are
 * asked), EVM chains from {@code eth_getBalance} (the gas token) and ERC-20 {@code balanceOf} (one request per
 * denom; the chain's listed tokens when none are asked). The node requests of one call are bounded: at most
 * {@link #MAX_CHAINS} chains and {@link #MAX_DENOMS} denoms in all, else 400. A node failure becomes the
 * {@code error} of the denoms it concerns, not of the call.
 */
public final class BalanceService {
    public static final int MAX_CHAINS = 10;
    public static final int MAX_DENOMS = 100;

    private final ChainGateway gateway;
    private final Registry registry;

    public BalanceService(ChainGateway gateway) {
        this.gateway = gateway;
        this.registry = gateway.chains().registry();
    }

    private record Ask(Chain chain, String address, List<String> denoms) {}

    public Future<JsonObject> balances(JsonObject body) {
        List<Ask> asks = parse(body);
        JsonObject chains = new JsonObject();
        List<Future<Void>> all = new ArrayList<>();
        for (Ask a : asks) {
            JsonObject denoms = new JsonObject();
            chains.put(a.chain().chainId(), new JsonObject().put("denoms", denoms));
            all.add(a.chain().isEvmChain() ? evm(a, denoms) : bank(a, denoms));
        }
        return Future.join(all).transform(x -> Future.succeededFuture(new JsonObject().put("chains", chains)));
    }

    private List<Ask> parse(JsonObject body) {
        if (!(body.getValue("chains") instanceof JsonObject chains))
            throw BusError.badRequest("chains is required: an object of chain id → {address, denoms}");
        if (chains.size() > MAX_CHAINS)
            throw BusError.badRequest(
                    "chains names " + chains.size() + " chains, at most " + MAX_CHAINS + " per request");
        List<Ask> out = new ArrayList<>();
        int denomCount = 0;
        for (String id : chains.fieldNames()) {
            Chain c = registry.chain(id);
            if (c == null) throw BusError.notFound("chain " + id + " is not supported");
            if (!(chains.getValue(id) instanceof JsonObject entry))
                throw BusError.badRequest("chains." + id + " must be an object {address, denoms}");
            Object addr = entry.getValue("address");
            AccountAddress account = addr instanceof String s ? AddressRules.parse(c, s) : null;
            if (account == null) {
                throw BusError.badRequest("chains." + id + ".address must be an address of " + id + " ("
                        + AddressRules.expected(c) + ")");
            }
            List<String> denoms = new ArrayList<>();
            Object d = entry.getValue("denoms");
            if (d != null && !(d instanceof JsonArray))
                throw BusError.badRequest("chains." + id + ".denoms must be an array of denoms");
            if (d instanceof JsonArray arr) {
                for (Object o : arr) {
                    if (!(o instanceof String s) || s.isBlank() || s.length() > 256)
                        throw BusError.badRequest("chains." + id + ".denoms holds a value that is not a denom");
                    if (!denoms.contains(s)) denoms.add(s);
                }
            }
            if (denoms.isEmpty() && c.isEvmChain()) denoms.addAll(listedOn(c));
            denomCount += Math.max(1, denoms.size());
            if (denomCount > MAX_DENOMS)
                throw BusError.badRequest("the request asks for more than " + MAX_DENOMS + " balances");
            out.add(new Ask(c, AddressRules.display(c, account), denoms));
        }
        return out;
    }

    /** The gas token and listed ERC-20s of an EVM chain. */
    private List<String> listedOn(Chain c) {
        List<String> out = new ArrayList<>();
        out.add(c.nativeDenom());
        for (Asset a : registry.assetsOn(c.chainId()))
            if (a.tokenContract() != null && !out.contains(a.denom())) out.add(a.denom());
        return out;
    }

    private Future<Void> bank(Ask a, JsonObject denoms) {
        return gateway.bankBalances(a.chain().chainId(), a.address()).transform(ar -> {
            if (ar.failed()) {
                for (String d : a.denoms()) denoms.put(d, failed(a.chain(), d, ar.cause()));
                return Future.succeededFuture();
            }
            Map<String, String> held = new LinkedHashMap<>(ar.result());
            List<String> wanted = a.denoms().isEmpty() ? List.copyOf(held.keySet()) : a.denoms();
            for (String d : wanted) denoms.put(d, entry(a.chain(), d, new BigInteger(held.getOrDefault(d, "0"))));
            return Future.succeededFuture();
        });
    }

    private Future<Void> evm(Ask a, JsonObject denoms) {
        List<Future<Void>> each = new ArrayList<>();
        for (String d : a.denoms()) {
            denoms.putNull(d); // keeps the asked order
            Future<String> amount;
            if (d.equals(a.chain().nativeDenom()))
                amount = gateway.nativeBalance(a.chain().chainId(), a.address());
            else if (dev.weft.chain.Hex.isHex(d, 20))
                amount = gateway.erc20Balance(a.chain().chainId(), d, a.address());
            else
                amount = Future.failedFuture(new IllegalArgumentException(
                        "not a denom of " + a.chain().chainId() + " (its gas token or an ERC-20 0x address)"));
            each.add(amount.transform(ar -> {
                denoms.put(
                        d,
                        ar.succeeded()
                                ? entry(a.chain(), d, new BigInteger(ar.result()))
                                : failed(a.chain(), d, ar.cause()));
                return Future.succeededFuture();
            }));
        }
        return Future.join(each).mapEmpty();
    }

    private JsonObject entry(Chain c, String denom, BigInteger amount) {
        Asset asset = registry.resolve(c.chainId(), denom);
        JsonObject o = new JsonObject().put("amount", amount.toString());
        if (asset == null) return o.put("formatted_amount", amount.toString());
        o.put("decimals", asset.decimals())
                .put(
                        "formatted_amount",
                        new BigDecimal(amount)
                                .movePointLeft(asset.decimals())
                                .stripTrailingZeros()
                                .toPlainString());
        BigDecimal price = registry.usdPrice(asset);
        if (price != null)
            o.put("price", price.toPlainString()).put("value_usd", SkipJson.usd(registry, asset, amount));
        return o;
    }

    private static JsonObject failed(Chain c, String denom, Throwable cause) {
        String why = cause instanceof IllegalArgumentException
                ? cause.getMessage()
                : "the node of " + c.chainId() + " did not answer";
        return new JsonObject()
                .put("amount", "0")
                .put("formatted_amount", "0")
                .put("error", new JsonObject().put("message", why));
    }
}
