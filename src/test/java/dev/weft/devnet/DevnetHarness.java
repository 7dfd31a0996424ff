package dev.weft.devnet;

import dev.weft.config.WeftConfig;
import dev.weft.devnet.config.DevnetConfig;
import dev.weft.devnet.gen.ChainSpec;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.DevnetWallet;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Instant;

/**
 * A devnet started through the real node start-up chain (role devnet only), and blocking HTTP calls to it; the fixture
 * stops it at the end of the scope it was started in.
 */
final class DevnetHarness {
    static final String GENESIS = "2025-06-01T00:00:00Z";
    private final Vertx vertx;
    private final WeftNode node;
    private final LocalHttp http = new LocalHttp();
    final int rpcPort;
    final int restPort;
    final int evmPort;
    /** Signs as the devnet's test keys with the chains' account numbers and sequences. */
    final DevnetWallet wallet = new DevnetWallet(this::restPort, this::rpcPort);

    private DevnetHarness(Vertx vertx, WeftNode node) {
        this.vertx = vertx;
        this.node = node;
        this.rpcPort = dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .generated()
                .rpcPort();
        this.restPort = dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .generated()
                .restPort();
        this.evmPort = dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .generated()
                .jsonRpcPort();
    }

    /** A history-mode devnet of {@code blocks} blocks with a fixed genesis time (deterministic answers). */
    static TestConfig history(long blocks) {
        return TestConfig.defaults()
                .roles("devnet")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", blocks)
                .set("devnet.genesis_time", GENESIS)
                .set("devnet.seed", 42)
                .set("devnet.txs_per_block", 20);
    }

    /** On a Vert.x of its own, as each devnet had before the fixture: two devnets never share an event bus. */
    static DevnetHarness start(WeftExtension weft, TestConfig config) {
        Vertx vertx = weft.newVertx();
        return new DevnetHarness(vertx, weft.start(vertx, config));
    }

    Vertx vertx() {
        return vertx;
    }

    WeftNode node() {
        return node;
    }

    /**
     * A replica of the served chain: the same spec gives the same chain, so tests read the model from their own copy
     * (the servers' answers must agree with it byte for byte).
     */
    DevnetChain replica() {
        WeftConfig c = node.context().config();
        return new DevnetChain(
                ChainSpec.of(DevnetConfig.from(c.source()), Instant.parse(GENESIS)),
                DevnetConfig.from(c.source()).historyBlocks());
    }

    HttpResponse<String> get(int port, String pathAndQuery) {
        return http.get(port, pathAndQuery);
    }

    HttpResponse<String> post(int port, String body) {
        return post(port, "/", body);
    }

    HttpResponse<String> post(int port, String path, String body) {
        return http.post(port, path, body);
    }

    /** The CometBFT RPC port of a chain of the multi-chain devnet. */
    int rpcPort(String chainId) {
        return dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .chain(chainId)
                .orElseThrow()
                .rpcPort();
    }

    int restPort(String chainId) {
        return dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .chain(chainId)
                .orElseThrow()
                .restPort();
    }

    /** CometBFT RPC GET; the whole JSON-RPC response. */
    JsonObject rpc(String pathAndQuery) {
        return new JsonObject(get(rpcPort, pathAndQuery).body());
    }

    JsonObject rest(String pathAndQuery) {
        return new JsonObject(get(restPort, pathAndQuery).body());
    }

    /** One EVM JSON-RPC call; the whole response object. */
    JsonObject eth(String method, Object... params) {
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", method)
                .put("params", new JsonArray(java.util.List.of(params)));
        return new JsonObject(post(evmPort, req.encode()).body());
    }

    JsonArray ethBatch(JsonArray calls) {
        return new JsonArray(post(evmPort, calls.encode()).body());
    }

    static String hex(long n) {
        return "0x" + Long.toHexString(n);
    }
}
