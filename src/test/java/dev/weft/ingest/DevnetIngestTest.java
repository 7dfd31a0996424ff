package dev.weft.ingest;

import static dev.weft.ingest.IngestDump.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.chain.model.Rfc3339;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ingestion of the devnet (a simulated minievm chain speaking the real protocols): what the API serves equals what the
 * chain's own REST and JSON-RPC answer; node faults, a stopped node and a killed process all end in the same database,
 * row for row, as a clean run; live follow has no gap.
 */
class DevnetIngestTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long BLOCKS = 150;
    static Vertx vertx;
    static WebClient client;
    static Map<String, List<String>> clean;

    @BeforeAll
    static void start() throws Exception {
        vertx = weft.vertx();
        client = WebClient.create(vertx);
    }

    /** A history-mode devnet: the same seed and genesis give the same chain in every test. */
    static TestConfig devnet(TestConfig c, long blocks) {
        return c.set("devnet.mode", "history")
                .set("devnet.history_blocks", blocks)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 42)
                .set("devnet.txs_per_block", 8);
    }

    static TestConfig fastIngest(TestConfig c) {
        return c.set("ingest.poll_interval", "50ms")
                .set("ingest.retry_base", "5ms")
                .set("ingest.retry_max", "200ms")
                .set("ingest.request_timeout", "5s")
                .set("ingest.window", 16)
                .set("ingest.commit_blocks", 10);
    }

    static String url(TestConfig c) {
        return (String) c.get("database.url");
    }

    static synchronized Map<String, List<String>> cleanRun() throws Exception {
        if (clean != null) return clean;
        TestConfig c = fastIngest(devnet(weft.config().roles("devnet", "ingest"), BLOCKS));
        WeftNode node = weft.start(c);
        try {
            Await.cursor(url(c), "ingest", BLOCKS, 90);
            IngestDump.assertConsistent(url(c));
            clean = IngestDump.dump(url(c));
        } finally {
            weft.stop(node);
        }
        return clean;
    }

    static JsonObject get(String base, String uri) {
        var r = TestNodes.await(client.getAbs(base + uri).send());
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    static JsonObject rpc(String base, String method, JsonArray params) {
        var r = TestNodes.await(client.postAbs(base)
                .sendJsonObject(new JsonObject()
                        .put("jsonrpc", "2.0")
                        .put("id", 1)
                        .put("method", method)
                        .put("params", params)));
        return r.bodyAsJsonObject();
    }

    @Test
    @DisplayName(
            "the API serves what the chain's own REST and JSON-RPC answer: txs (= tx_response without @type), blocks, receipts")
    void sameAsTheNode() throws Exception {
        TestConfig c = fastIngest(devnet(weft.config().roles("devnet", "ingest", "api"), BLOCKS));
        WeftNode node = weft.start(c);
        Await.cursor(url(c), "ingest", BLOCKS, 90);
        IngestDump.assertSame(cleanRun(), IngestDump.dump(url(c)));
        String api = "http://127.0.0.1:" + TestNodes.httpPort(node);
        var chain = node.context().config().chain();
        String rpcUrl = chain.rpcUrls().get(0);
        String restUrl = chain.restUrls().get(0);
        String evmUrl = chain.jsonRpcUrls().get(0);
        long txTotal = Long.parseLong(get(api, "/indexer/tx/v1/txs?pagination.limit=1")
                .getJsonObject("pagination")
                .getString("total"));
        assertEquals(scalar(url(c), "SELECT count(*) FROM tx"), txTotal);
        int checkedTxs = 0;
        int checkedReceipts = 0;
        for (long h = 1; h <= BLOCKS; h += 7) {
            JsonObject block = get(rpcUrl, "/block?height=" + h).getJsonObject("result");
            JsonObject ours = get(api, "/indexer/block/v1/blocks/" + h).getJsonObject("block");
            assertEquals(block.getJsonObject("block_id").getString("hash"), ours.getString("hash"));
            assertEquals(
                    Integer.toString(block.getJsonObject("block")
                            .getJsonObject("data")
                            .getJsonArray("txs")
                            .size()),
                    ours.getString("tx_count"));
            String blockTime = Rfc3339.nanos(Rfc3339.parseNanos(
                    block.getJsonObject("block").getJsonObject("header").getString("time")));
            for (Object o : get(api, "/indexer/tx/v1/txs/by_height/" + h + "?pagination.limit=1000")
                    .getJsonArray("txs")) {
                JsonObject tx = ((JsonObject) o).copy();
                JsonObject expected = get(restUrl, "/cosmos/tx/v1beta1/txs/" + tx.getString("txhash"))
                        .getJsonObject("tx_response");
                // rollytics' record is the SDK's TxResponse with three differences: the tx without its @type
                // wrapper, the
                // block time with nanoseconds (the SDK prints whole seconds), and events encoded by Go's
                // encoding/json
                // (false index omitted; gRPC-gateway prints it), except that an empty value is kept
                expected.getJsonObject("tx").remove("@type");
                assertEquals(blockTime, tx.remove("timestamp"));
                assertEquals(Rfc3339.seconds(Rfc3339.parseNanos(blockTime)), expected.remove("timestamp"));
                expected.put("events", goEvents(expected.getJsonArray("events")));
                assertEquals(expected, tx, "tx " + tx.getString("txhash"));
                checkedTxs++;
            }
            for (Object o : get(api, "/indexer/tx/v1/evm-txs/by_height/" + h + "?pagination.limit=1000")
                    .getJsonArray("txs")) {
                JsonObject r = (JsonObject) o;
                JsonObject node0 = rpc(
                                evmUrl,
                                "eth_getTransactionReceipt",
                                new JsonArray().add(r.getString("transactionHash")))
                        .getJsonObject("result");
                for (String f : r.fieldNames()) {
                    // a contract creation's to: null is answered as "" (rollytics' EvmTx.To is a Go string)
                    Object want = f.equals("to") && node0.getValue(f) == null ? "" : node0.getValue(f);
                    if (!f.equals("logs")) assertEquals(want, r.getValue(f), f);
                }
                assertEquals(
                        node0.getJsonArray("logs").size(),
                        r.getJsonArray("logs").size());
                checkedReceipts++;
            }
        }
        assertTrue(
                checkedTxs > 50 && checkedReceipts > 10, checkedTxs + " txs, " + checkedReceipts + " receipts checked");
    }

    /** Events as Weft stores them: Go's encoding/json of abci.Event (omitempty on type, attributes, key, index), every value kept. */
    static JsonArray goEvents(JsonArray events) {
        JsonArray out = new JsonArray();
        for (Object o : events) {
            JsonObject e = (JsonObject) o;
            JsonObject g = new JsonObject();
            if (!e.getString("type", "").isEmpty()) g.put("type", e.getString("type"));
            JsonArray attrs = new JsonArray();
            for (Object a : e.getJsonArray("attributes", new JsonArray())) {
                JsonObject at = (JsonObject) a;
                JsonObject ga = new JsonObject();
                if (!at.getString("key", "").isEmpty()) ga.put("key", at.getString("key"));
                ga.put("value", at.getString("value", "")); // Weft always writes it (CometBFT 0.38 drops an empty one)
                if (at.getBoolean("index", false)) ga.put("index", true);
                attrs.add(ga);
            }
            if (!attrs.isEmpty()) g.put("attributes", attrs);
            out.add(g);
        }
        return out;
    }

    @Test
    @DisplayName(
            "devnet faults (500s, delays, cut answers, short REST pages): the database equals a clean run's, row for row")
    void faults() throws Exception {
        Map<String, List<String>> expected = cleanRun();
        TestConfig c = fastIngest(devnet(weft.config().roles("devnet", "ingest"), BLOCKS))
                .set("devnet.faults.error_rate", 0.15)
                .set("devnet.faults.delay_rate", 0.1)
                .set("devnet.faults.delay", "20ms")
                .set("devnet.faults.truncate_rate", 0.05)
                .set("devnet.faults.short_rest_rate", 0.5)
                .set("devnet.faults.short_rest_attempts", 2);
        WeftNode node = weft.start(c);
        Await.cursor(url(c), "ingest", BLOCKS, 90);
        IngestDump.assertConsistent(url(c));
        IngestDump.assertSame(expected, IngestDump.dump(url(c)));
    }

    @Test
    @DisplayName(
            "the indexer node stopped mid-way and a new one started on the same database: no gap, no duplicate, each event once")
    void restartTheNode() throws Exception {
        Map<String, List<String>> expected = cleanRun();
        TestConfig dc = devnet(weft.config().roles("devnet"), BLOCKS)
                .set("devnet.faults.delay_rate", 1.0)
                .set("devnet.faults.delay", "3ms");
        WeftNode devnet = weft.start(dc);
        var chain = devnet.context().config().chain();
        TestConfig ic = fastIngest(weft.config().roles("ingest"))
                .set("chain.rpc", new JsonArray(chain.rpcUrls()))
                .set("chain.rest", new JsonArray(chain.restUrls()))
                .set("chain.json_rpc", new JsonArray(chain.jsonRpcUrls()));
        List<Long> events = Collections.synchronizedList(new ArrayList<>());
        MessageConsumer<JsonObject> consumer = vertx.eventBus()
                .consumer(Addresses.BLOCK_INDEXED, m -> events.add(m.body().getLong("height")));
        TestNodes.await(consumer.completion());
        try {
            WeftNode first = weft.start(ic);
            Await.cursor(url(ic), "ingest", BLOCKS / 3, 90);
            weft.stop(first);
            long stoppedAt = Await.cursorHeight(url(ic), "ingest");
            assertTrue(stoppedAt < BLOCKS, "stopped mid-way at " + stoppedAt);
            WeftNode second = weft.start(ic);
            try {
                Await.cursor(url(ic), "ingest", BLOCKS, 90);
                IngestDump.assertConsistent(url(ic));
                IngestDump.assertSame(expected, IngestDump.dump(url(ic)));
                Await.until("every event", 20, () -> events.size() >= BLOCKS);
                List<Long> want = new ArrayList<>();
                for (long h = 1; h <= BLOCKS; h++) want.add(h);
                assertEquals(want, new ArrayList<>(events));
            } finally {
                weft.stop(second);
            }
        } finally {
            TestNodes.await(consumer.unregister());
            weft.stop(devnet);
        }
    }

    @Test
    @DisplayName("the indexer process killed (SIGKILL) mid-way: a new one resumes with no gap and no duplicate")
    void killTheProcess() throws Exception {
        Map<String, List<String>> expected = cleanRun();
        TestConfig dc = devnet(weft.config().roles("devnet"), BLOCKS)
                .set("devnet.faults.delay_rate", 1.0)
                .set("devnet.faults.delay", "5ms");
        WeftNode devnet = weft.start(dc);
        var chain = devnet.context().config().chain();
        TestConfig ic = fastIngest(weft.config().roles("ingest"))
                .set("chain.rpc", new JsonArray(chain.rpcUrls()))
                .set("chain.rest", new JsonArray(chain.restUrls()))
                .set("chain.json_rpc", new JsonArray(chain.jsonRpcUrls()))
                .set("bridge.tcp_enabled", false);
        Path dir = java.nio.file.Files.createTempDirectory("weft-kill");
        try {
            Process p = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            "dev.weft.Main",
                            "--config",
                            ic.writeTo(dir).toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("node.log").toFile())
                    .start();
            try {
                Await.cursor(url(ic), "ingest", BLOCKS / 3, 90);
            } finally {
                p.destroyForcibly().waitFor();
            }
            long killedAt = Await.cursorHeight(url(ic), "ingest");
            assertTrue(killedAt < BLOCKS, "killed mid-way at " + killedAt);
            IngestDump.assertConsistent(url(ic));
            WeftNode second = weft.start(ic);
            try {
                Await.cursor(url(ic), "ingest", BLOCKS, 90);
                IngestDump.assertConsistent(url(ic));
                IngestDump.assertSame(expected, IngestDump.dump(url(ic)));
            } finally {
                weft.stop(second);
            }
        } finally {
            weft.stop(devnet);
            dev.weft.testsupport.TestDatabase.deleteTree(dir);
        }
    }

    @Test
    @DisplayName("live mode: catch-up and follow in one loop, every height once and in order")
    void live() throws Exception {
        TestConfig c = fastIngest(weft.config().roles("devnet", "ingest"))
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 30)
                .set("devnet.block_interval", "100ms")
                .set("devnet.txs_per_block", 4);
        List<Long> events = Collections.synchronizedList(new ArrayList<>());
        MessageConsumer<JsonObject> consumer = vertx.eventBus()
                .consumer(Addresses.BLOCK_INDEXED, m -> events.add(m.body().getLong("height")));
        TestNodes.await(consumer.completion());
        WeftNode node = weft.start(c);
        try {
            Await.cursor(url(c), "ingest", 60, 90);
            IngestDump.assertConsistent(url(c));
            Await.until("60 events", 20, () -> events.size() >= 60);
            List<Long> got = new ArrayList<>(events).subList(0, 60);
            List<Long> want = new ArrayList<>();
            for (long h = 1; h <= 60; h++) want.add(h);
            assertEquals(want, got);
        } finally {
            TestNodes.await(consumer.unregister());
            weft.stop(node);
        }
    }
}
