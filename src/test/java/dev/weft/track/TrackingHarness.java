package dev.weft.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.bus.Addresses;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.DevnetWallet;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.RelayedTxs;
import dev.weft.testsupport.RouteTxs;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A node running the multi-chain devnet, the route verticle, the tracker and the API on one database, driven over
 * HTTP the way a wallet drives Weft: route → msgs → sign → broadcast to the chain → track → poll the status. It also
 * records every {@code transfer updated} event published on the bus.
 */
final class TrackingHarness {
    private final WeftNode node;
    private final LocalHttp http = new LocalHttp();
    final int api;
    /** Signs as the devnet's test keys ({@code DevnetAccounts}), with the chains' account numbers and sequences. */
    final DevnetWallet wallet;

    final Map<String, List<String>> events = new ConcurrentHashMap<>();

    private TrackingHarness(Vertx vertx, WeftNode node) {
        this.node = node;
        this.api = TestNodes.httpPort(node);
        this.wallet = new DevnetWallet(this::restPort, this::rpcPort);
        vertx.eventBus()
                .<JsonObject>consumer(
                        Addresses.TRANSFER_UPDATED,
                        m -> events.computeIfAbsent(
                                        m.body().getString("chain_id") + "/"
                                                + m.body().getString("tx_hash"),
                                        k -> new java.util.concurrent.CopyOnWriteArrayList<>())
                                .add(m.body().getString("state")));
    }

    /** Fast chains (100 ms blocks, 200 ms relayer and executor delays) and a tracker polling every 100 ms. */
    static TestConfig config() {
        return TestConfig.defaults()
                .roles("devnet", "route", "track", "api")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 20)
                .set("devnet.block_interval", "100ms")
                .set("devnet.txs_per_block", 3)
                .set("devnet.relayer.delay", "200ms")
                .set("devnet.opinit.delay", "200ms")
                .set("devnet.opinit.output_interval", "300ms")
                .set("track.poll_interval", "100ms")
                .set("track.stall_timeout", "60s")
                .set("route.registries", new JsonArray().add("conf/registry/devnet.json"));
    }

    /** On a Vert.x of its own, as each harness had before the fixture; stopped at the end of the scope it started in. */
    static TrackingHarness start(WeftExtension weft, TestConfig config) {
        Vertx vertx = weft.newVertx();
        return new TrackingHarness(vertx, weft.start(vertx, config));
    }

    WeftNode node() {
        return node;
    }

    int rpcPort(String chain) {
        return dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .chain(chain)
                .orElseThrow()
                .rpcPort();
    }

    int restPort(String chain) {
        return dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .chain(chain)
                .orElseThrow()
                .restPort();
    }

    HttpResponse<String> get(int port, String pathAndQuery) {
        return http.get(port, pathAndQuery);
    }

    HttpResponse<String> post(int port, String path, JsonObject body) {
        return http.post(port, path, body.encode());
    }

    /** /v2/fungible/route then /v2/fungible/msgs for these addresses (one per required chain); the msgs answer. */
    JsonObject msgs(
            String amount,
            String srcChain,
            String srcDenom,
            String dstChain,
            String dstDenom,
            List<String> addresses,
            Long timeoutSeconds) {
        return msgs(new JsonObject(), amount, srcChain, srcDenom, dstChain, dstDenom, addresses, timeoutSeconds);
    }

    /** The same with more route request fields ({@code is_op_withdraw}…). */
    JsonObject msgs(
            JsonObject extra,
            String amount,
            String srcChain,
            String srcDenom,
            String dstChain,
            String dstDenom,
            List<String> addresses,
            Long timeoutSeconds) {
        JsonObject req = extra.copy()
                .put("amount_in", amount)
                .put("source_asset_chain_id", srcChain)
                .put("source_asset_denom", srcDenom)
                .put("dest_asset_chain_id", dstChain)
                .put("dest_asset_denom", dstDenom);
        var route = post(api, "/v2/fungible/route", req);
        assertEquals(200, route.statusCode(), route.body());
        JsonObject r = new JsonObject(route.body());
        JsonObject m = req.copy()
                .put("address_list", new JsonArray(new ArrayList<>(addresses)))
                .put("operations", r.getJsonArray("operations"));
        if (timeoutSeconds != null) m.put("timeout_seconds", timeoutSeconds);
        var msgs = post(api, "/v2/fungible/msgs", m);
        assertEquals(200, msgs.statusCode(), msgs.body());
        return new JsonObject(msgs.body());
    }

    /** broadcast_tx_commit of the first tx of a msgs answer on its chain; the commit result, after checking it succeeded. */
    JsonObject broadcast(JsonObject msgs, String feeDenom) {
        JsonObject result = broadcastResult(msgs, feeDenom);
        assertEquals(0, result.getJsonObject("tx_result").getInteger("code"), result.encode());
        return result;
    }

    /** broadcast_tx_commit of the first tx of a msgs answer on its chain; the commit result, whatever the tx's code. */
    JsonObject broadcastResult(JsonObject msgs, String feeDenom) {
        String chain = msgs.getJsonArray("txs")
                .getJsonObject(0)
                .getJsonObject("cosmos_tx")
                .getString("chain_id");
        byte[] raw = RouteTxs.txRaw(msgs, 0, wallet, feeDenom);
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", "broadcast_tx_commit")
                .put("params", new JsonObject().put("tx", RouteTxs.base64(raw)));
        JsonObject res = new JsonObject(post(rpcPort(chain), "/", req).body());
        JsonObject result = res.getJsonObject("result");
        if (result == null) fail(res.encode());
        return result;
    }

    HttpResponse<String> track(String hash, String chain) {
        return post(api, "/v2/tx/track", new JsonObject().put("tx_hash", hash).put("chain_id", chain));
    }

    HttpResponse<String> status(String hash, String chain) {
        return get(
                api, "/v2/tx/status?tx_hash=" + URLEncoder.encode(hash, StandardCharsets.UTF_8) + "&chain_id=" + chain);
    }

    /** Polls the status until its state is {@code state} (generous deadline); the status. */
    JsonObject awaitState(String hash, String chain, String state) {
        return await(
                () -> {
                    var r = status(hash, chain);
                    if (r.statusCode() != 200) return null;
                    JsonObject s = new JsonObject(r.body());
                    return s.getString("state").equals(state) ? s : null;
                },
                hash + " on " + chain + " reaching " + state);
    }

    /**
     * The status once the transfer is in {@code state} and every IBC hop has its receive tx: the ack of a later hop can
     * be seen before its receive on a chain the tracker only started reading (the transfer is final then, and the
     * tracker goes on looking for the receive, {@code TransferBook#missingReceipt}).
     */
    JsonObject awaitStateAndReceives(String hash, String chain, String state) {
        return await(
                () -> {
                    var r = status(hash, chain);
                    if (r.statusCode() != 200) return null;
                    JsonObject s = new JsonObject(r.body());
                    if (!s.getString("state").equals(state)) return null;
                    for (Object step : s.getJsonArray("transfer_sequence")) {
                        JsonObject ibc = ((JsonObject) step).getJsonObject("ibc_transfer");
                        if (ibc != null && ibc.getJsonObject("packet_txs").getValue("receive_tx") == null) return null;
                    }
                    return s;
                },
                hash + " on " + chain + " reaching " + state + " with every receive tx");
    }

    /** The one tx of a chain a query matches, once there (generous deadline). */
    JsonObject awaitTx(String chain, String query) {
        return await(
                () -> {
                    String q = URLEncoder.encode("\"" + query + "\"", StandardCharsets.UTF_8);
                    JsonArray txs = new JsonObject(
                                    get(rpcPort(chain), "/tx_search?query=" + q).body())
                            .getJsonObject("result")
                            .getJsonArray("txs");
                    return txs.isEmpty() ? null : RelayedTxs.onlyMessageOfPacket(txs.getJsonObject(0), query);
                },
                query + " on " + chain);
    }

    static <T> T await(Await.Probe<T> probe, String what) {
        return Await.value(what, 90, probe);
    }

    /** The status with every {@code on_chain_at} checked (an RFC 3339 time) and replaced by {@code "<time>"}. */
    static JsonObject normalized(JsonObject status) {
        return (JsonObject) normalize(status.copy());
    }

    private static Object normalize(Object v) {
        if (v instanceof JsonObject o) {
            for (String k : new ArrayList<>(o.fieldNames())) {
                if (k.equals("on_chain_at")) {
                    Instant.parse(o.getString(k));
                    o.put(k, "<time>");
                } else {
                    o.put(k, normalize(o.getValue(k)));
                }
            }
            return o;
        }
        if (v instanceof JsonArray a) {
            for (int i = 0; i < a.size(); i++) a.set(i, normalize(a.getValue(i)));
            return a;
        }
        return v;
    }

    List<String> events(String chain, String hash) {
        return List.copyOf(events.getOrDefault(chain + "/" + hash, List.of()));
    }
}
