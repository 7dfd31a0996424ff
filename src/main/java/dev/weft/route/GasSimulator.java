package dev.weft.route;

import dev.weft.bus.BusError;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.client.NodeHttp;
import dev.weft.config.RouteConfig;
import dev.weft.config.RouteGasConfig;
import dev.weft.route.msgs.MsgProto;
import dev.weft.route.registry.ChainEndpoints;
import dev.weft.route.registry.Registry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code /v2/fungible/msgs} learns from the chains once its txs are built: each Cosmos tx simulated on its chain's
 * node ({@code POST /cosmos/tx/v1beta1/simulate} with the signer's sequence and no key, as a wallet's "auto" gas does)
 * replaces the per-message estimate of its GAS entry and {@code fee}; with {@code enable_gas_warnings}, each signer's
 * balance of the fee asset ({@code /cosmos/bank/v1beta1/balances/{address}/by_denom}) against what its tx needs.
 *
 * <p>Bounded: one simulation (after one account read) per tx, single attempts of {@code route.gas.simulate_timeout}
 * each, at most {@code route.gas.simulate_concurrency} requests in flight per chain. A node that fails, times out or
 * refuses the tx (an account that does not exist yet, funds that only a previous tx of the route brings) leaves the
 * estimate ({@code gas_source: "ESTIMATE"}); a balance that cannot be read gives no warning.
 */
final class GasSimulator {
    static final String ETHSECP256K1 = "/initia.crypto.v1beta1.ethsecp256k1.PubKey";

    private final Vertx vertx;
    private final RouteConfig config;
    private final Map<String, NodeHttp> clients = new HashMap<>();

    GasSimulator(Vertx vertx, RouteConfig config) {
        this.vertx = vertx;
        this.config = config;
    }

    /** {@code enable_gas_warnings} of a msgs body: false when absent; a 400 when not a boolean. */
    static boolean warnings(JsonObject body) {
        Object v = body.getValue("enable_gas_warnings");
        if (v == null) return false;
        if (!(v instanceof Boolean b)) throw BusError.badRequest("enable_gas_warnings must be a boolean");
        return b;
    }

    /** The msgs answer with simulated gas where the nodes answered, and the gas warning when asked and due. */
    Future<JsonObject> refine(RouteService s, JsonObject body, JsonObject answer) {
        boolean warn = warnings(body);
        GasQuote quote = s.gas();
        RouteGasConfig cfg = quote.config();
        JsonArray txs = answer.getJsonArray("txs");
        List<Future<Void>> steps = new ArrayList<>();
        List<JsonObject> entries = new ArrayList<>();
        for (int k = 0; k < txs.size(); k++) {
            JsonObject tx = txs.getJsonObject(k);
            JsonObject evm = tx.getJsonObject("evm_tx");
            if (evm != null) {
                entries.add(entryOf(answer, tx));
                if (EvmGasEstimates.quoted(evm)) steps.add(evmStep(s, answer, tx, k, entries));
                continue;
            }
            JsonObject cosmos = tx.getJsonObject("cosmos_tx");
            JsonObject entry = cosmos == null || cosmos.getJsonObject("fee") == null ? null : entryOf(answer, tx);
            entries.add(entry);
            if (entry == null || !cfg.simulate()) continue;
            NodeHttp http = client(s.registry(), cosmos.getString("chain_id"));
            if (http == null) continue;
            steps.add(simulate(http, cosmos)
                    .map(used -> {
                        JsonObject sim = quote.entry(
                                entry.getString("chain_id"),
                                entry.getInteger("tx_index"),
                                entry.getInteger("operation_index"),
                                used,
                                GasQuote.SIMULATION);
                        if (sim != null) {
                            entry.mergeIn(sim);
                            cosmos.put("fee", GasQuote.stdFee(entry));
                        }
                        return (Void) null;
                    })
                    .recover(e -> Future.succeededFuture()));
        }
        return Future.join(steps)
                .transform(ar -> warn ? warning(s, body, answer, entries) : Future.succeededFuture())
                .map(w -> {
                    if (w != null) answer.put("warning", w);
                    return answer;
                });
    }

    /** The EVM tx's entry from its node (price, {@code eth_estimateGas}), in place of the estimate's or added. */
    private static Future<Void> evmStep(
            RouteService s, JsonObject answer, JsonObject tx, int k, List<JsonObject> entries) {
        int first = tx.getJsonArray("operations_indices").getInteger(0);
        return EvmGasEstimates.entry(s, tx.getJsonObject("evm_tx"), k, first).map(e -> {
            if (e == null) return null;
            JsonObject old = entries.get(k);
            if (old != null) {
                old.mergeIn(e);
            } else {
                answer.getJsonArray("estimated_fees").add(e);
                entries.set(k, e);
            }
            return null;
        });
    }

    /** The GAS entry of a tx of the answer (its chain's, starting at the tx's first operation). */
    private static JsonObject entryOf(JsonObject answer, JsonObject tx) {
        int first = tx.getJsonArray("operations_indices").getInteger(0);
        for (Object o : answer.getJsonArray("estimated_fees")) {
            JsonObject f = (JsonObject) o;
            if ("GAS".equals(f.getString("fee_type")) && f.getInteger("operation_index") == first) return f;
        }
        return null;
    }

    /** The account's sequence, then the gas the node's simulation of the tx uses. */
    private Future<Long> simulate(NodeHttp http, JsonObject cosmos) {
        String signer = cosmos.getString("signer_address");
        List<CosmosTx.Any> anys = new ArrayList<>();
        for (Object o : cosmos.getJsonArray("msgs")) {
            JsonObject m = (JsonObject) o;
            anys.add(MsgProto.any(m.getString("msg_type_url"), new JsonObject(m.getString("msg"))));
        }
        JsonObject fee = cosmos.getJsonObject("fee");
        JsonObject coin = fee.getJsonArray("amount").getJsonObject(0);
        return http.get("/cosmos/auth/v1beta1/accounts/" + encode(signer), GasSimulator::sequence)
                .compose(seq -> {
                    byte[] raw = new CosmosTx(
                                    anys,
                                    "",
                                    0,
                                    List.of(new CosmosTx.SignerInfo(ETHSECP256K1, null, seq)),
                                    new CosmosTx.Fee(
                                            List.of(new CosmosTx.Coin(
                                                    coin.getString("denom"), coin.getString("amount"))),
                                            Long.parseLong(fee.getString("gas")),
                                            "",
                                            ""),
                                    List.of(new byte[0]))
                            .encode();
                    Buffer req = new JsonObject()
                            .put("tx_bytes", Base64.getEncoder().encodeToString(raw))
                            .toBuffer();
                    return http.post("/cosmos/tx/v1beta1/simulate", req, GasSimulator::gasUsed);
                });
    }

    /** A BaseAccount's sequence (also under {@code base_account} for other account types). */
    private static long sequence(Buffer b) {
        JsonObject acc = new JsonObject(b).getJsonObject("account", new JsonObject());
        if (acc.getValue("sequence") == null && acc.getJsonObject("base_account") != null)
            acc = acc.getJsonObject("base_account");
        return Long.parseLong(String.valueOf(acc.getValue("sequence", "0")));
    }

    private static long gasUsed(Buffer b) {
        JsonObject info = new JsonObject(b).getJsonObject("gas_info");
        long used = Long.parseLong(String.valueOf(info.getValue("gas_used")));
        if (used <= 0) throw new IllegalStateException("simulation used no gas");
        return used;
    }

    /**
     * Skip's msgs {@code warning} for the first signer holding less of the fee asset than its tx needs (the fee; for the
     * source tx also the amount in when it is the fee asset): {@code INSUFFICIENT_GAS_AT_SOURCE} (Weft's: Skip's types
     * cover only later chains) for the first tx, Skip's {@code INSUFFICIENT_GAS_AT_INTERMEDIATE} for a later one.
     */
    private Future<JsonObject> warning(RouteService s, JsonObject body, JsonObject answer, List<JsonObject> entries) {
        Registry r = s.registry();
        JsonArray txs = answer.getJsonArray("txs");
        List<Future<JsonObject>> checks = new ArrayList<>();
        for (int k = 0; k < txs.size(); k++) {
            JsonObject entry = entries.get(k);
            if (entry == null) continue;
            JsonObject evm = txs.getJsonObject(k).getJsonObject("evm_tx");
            JsonObject cosmos = evm != null ? evm : txs.getJsonObject(k).getJsonObject("cosmos_tx");
            String chain = cosmos.getString("chain_id");
            NodeHttp http = evm != null ? null : client(r, chain);
            if (evm == null && http == null) continue;
            JsonObject feeAsset = entry.getJsonObject("origin_asset");
            String denom = feeAsset.getString("denom");
            BigInteger need = new BigInteger(entry.getString("amount"));
            // an EVM tx's value (the LayerZero messaging fee) is paid in the native gas token too
            if (evm != null && denom.equals(nativeDenom(r, chain)))
                need = need.add(new BigInteger(evm.getString("value")));
            boolean source = k == 0;
            if (source
                    && chain.equals(body.getString("source_asset_chain_id"))
                    && denom.equals(body.getString("source_asset_denom"))) {
                need = need.add(new BigInteger(String.valueOf(body.getValue("amount_in"))));
            }
            BigInteger needed = need;
            String signer = cosmos.getString("signer_address");
            Future<BigInteger> balance = evm != null
                    ? EvmGasEstimates.balance(s, chain, signer, feeAsset.getInteger("decimals", 18))
                    : http.get(
                            "/cosmos/bank/v1beta1/balances/" + encode(signer) + "/by_denom?denom=" + encode(denom),
                            GasSimulator::balance);
            BigInteger fee = new BigInteger(entry.getString("amount"));
            checks.add(balance.map(held -> held.compareTo(needed) >= 0
                            ? null
                            : new JsonObject()
                                    .put(
                                            "type",
                                            source ? "INSUFFICIENT_GAS_AT_SOURCE" : "INSUFFICIENT_GAS_AT_INTERMEDIATE")
                                    .put(
                                            "message",
                                            signer + " on " + chain + " holds " + held + denom + ", its tx "
                                                    + entry.getInteger("tx_index") + " needs " + needed + denom
                                                    + (needed.equals(fee)
                                                            ? " for gas"
                                                            : evm != null
                                                                    ? " (the value and the gas)"
                                                                    : " (the amount in and the gas)")
                                                    + (entry.getString("usd_amount") == null
                                                            ? ""
                                                            : "; the gas is ~$" + entry.getString("usd_amount"))))
                    .recover(e -> Future.succeededFuture(null)));
        }
        return Future.join(checks).transform(ar -> {
            for (Future<JsonObject> f : checks) {
                if (f.succeeded() && f.result() != null) return Future.succeededFuture(f.result());
            }
            return Future.succeededFuture(null);
        });
    }

    private static String nativeDenom(Registry r, String chainId) {
        var c = r.chain(chainId);
        return c == null ? null : c.nativeDenom();
    }

    private static BigInteger balance(Buffer b) {
        JsonObject bal = new JsonObject(b).getJsonObject("balance", new JsonObject());
        return new BigInteger(String.valueOf(bal.getValue("amount", "0")));
    }

    private synchronized NodeHttp client(Registry r, String chainId) {
        if (clients.containsKey(chainId)) return clients.get(chainId);
        List<String> urls = ChainEndpoints.rest(r, chainId, config.restUrls());
        RouteGasConfig g = config.gas();
        NodeHttp http = urls.isEmpty() ? null : new NodeHttp(vertx, "route-gas", urls, g.simulationClient());
        clients.put(chainId, http);
        return http;
    }

    Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        synchronized (this) {
            for (NodeHttp c : clients.values()) if (c != null) closing.add(c.close());
            clients.clear();
        }
        return Future.join(closing).mapEmpty();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
