package dev.weft.evm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.ingest.IngestDump;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The tracer on a node running devnet + ingest + evm + api (the default run's path): the devnet in history mode is
 * indexed up to height 120, the node stops, and a new node on the same database serves the same chain grown to 300
 * blocks (the devnet is deterministic per height). The internal txs must equal the devnet's own
 * {@code debug_traceBlockByNumber} flattened, with no gap or duplicate across the restart.
 */
class EvmTraceDevnetTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long FIRST = 120;
    static final long BLOCKS = 300;
    static Vertx vertx;
    static WebClient client;
    static String dbUrl;
    static WeftNode node;
    static String api;
    static String jsonRpc;
    static long firstCursor;
    static final List<Long> secondRunEvents = Collections.synchronizedList(new ArrayList<>());

    static TestConfig config(long blocks) {
        return weft.config()
                .roles("devnet", "ingest", "evm", "api")
                .set("database.url", dbUrl)
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", blocks)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 42)
                .set("devnet.txs_per_block", 8)
                .set("ingest.poll_interval", "50ms")
                .set("ingest.retry_base", "5ms")
                .set("ingest.retry_max", "200ms")
                .set("ingest.window", 16)
                .set("ingest.commit_blocks", 10)
                .set("evm.window", 4)
                .set("evm.window_max", 4)
                .set("evm.commit_heights", 7)
                .set("evm.poll_interval", "50ms");
    }

    @BeforeAll
    static void start() throws Exception {
        dbUrl = TestDatabase.freshUrl();
        vertx = weft.vertx();
        client = WebClient.create(vertx);
        WeftNode first = weft.start(config(FIRST));
        try {
            awaitInternalTxHeight(first, FIRST);
            firstCursor = scalar("SELECT height FROM pipeline_cursor WHERE name = 'evm'");
        } finally {
            weft.stop(first);
        }
        MessageConsumer<JsonObject> consumer = vertx.eventBus()
                .consumer(
                        Addresses.INTERNAL_TXS_INDEXED,
                        m -> secondRunEvents.add(m.body().getLong("height")));
        TestNodes.await(consumer.completion());
        node = weft.start(config(BLOCKS));
        api = "http://127.0.0.1:" + TestNodes.httpPort(node);
        jsonRpc = node.context().config().chain().jsonRpcUrls().get(0);
        awaitInternalTxHeight(node, BLOCKS);
        long last = scalar("SELECT height FROM pipeline_cursor WHERE name = 'evm'");
        Await.until("the last event", 20, () -> secondRunEvents.contains(last));
        TestNodes.await(consumer.unregister());
    }

    static void awaitInternalTxHeight(WeftNode n, long h) {
        String base = "http://127.0.0.1:" + TestNodes.httpPort(n);
        Await.until("internal_tx_height " + h, 120, () -> get(base, "/status").getLong("internal_tx_height") >= h);
    }

    static long scalar(String sql) throws Exception {
        return IngestDump.scalar(dbUrl, sql);
    }

    static JsonObject get(String base, String uri) {
        var r = TestNodes.await(client.getAbs(base + uri).send());
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    static Object rpc(String method, JsonArray params) {
        var r = TestNodes.await(client.postAbs(jsonRpc)
                .sendJsonObject(new JsonObject()
                        .put("jsonrpc", "2.0")
                        .put("id", 1)
                        .put("method", method)
                        .put("params", params)));
        JsonObject body = r.bodyAsJsonObject();
        assertTrue(body.getValue("error") == null, method + ": " + body.encode());
        return body.getValue("result");
    }

    /** The devnet's own trace of a height, flattened by {@link ExpectedItems}; Cosmos entries (top-level error) skipped. */
    static List<JsonObject> expected(long h, int[] skipped) {
        String q = "0x" + Long.toHexString(h);
        JsonArray traces = (JsonArray) rpc(
                "debug_traceBlockByNumber", new JsonArray().add(q).add(new JsonObject().put("tracer", "callTracer")));
        Map<String, String> gas = new HashMap<>();
        for (Object o : (JsonArray) rpc("eth_getBlockReceipts", new JsonArray().add(q))) {
            gas.put(((JsonObject) o).getString("transactionHash"), ((JsonObject) o).getString("gasUsed"));
        }
        List<JsonObject> out = new ArrayList<>();
        for (Object o : traces) {
            JsonObject e = (JsonObject) o;
            if (e.getString("error") != null) {
                skipped[0]++;
                continue;
            }
            out.addAll(ExpectedItems.of(
                    h, e.getString("txHash"), e.getJsonObject("result"), gas.get(e.getString("txHash"))));
        }
        return out;
    }

    @Test
    @DisplayName("every height's internal txs equal the devnet's debug_traceBlockByNumber flattened; totals are exact")
    void sameAsTheDevnetTrace() throws Exception {
        int[] skipped = {0};
        long rows = 0;
        int evmBlocks = 0;
        for (long h = 1; h <= BLOCKS; h++) {
            List<JsonObject> want = expected(h, skipped);
            JsonObject page = get(
                    api,
                    "/indexer/tx/v1/evm-internal-txs/by_height/" + h
                            + "?pagination.reverse=false&pagination.limit=1000");
            List<JsonObject> got = new ArrayList<>();
            page.getJsonArray("internal_txs").forEach(o -> got.add((JsonObject) o));
            assertEquals(want, got, "height " + h);
            assertEquals(
                    Integer.toString(want.size()),
                    page.getJsonObject("pagination").getString("total"));
            rows += want.size();
            if (!want.isEmpty()) evmBlocks++;
        }
        assertTrue(
                skipped[0] > 100 && evmBlocks > 100 && rows > 1000,
                skipped[0] + " Cosmos entries skipped, " + evmBlocks + " blocks, " + rows + " rows");
        assertEquals(
                Long.toString(rows),
                get(api, "/indexer/tx/v1/evm-internal-txs?pagination.limit=1")
                        .getJsonObject("pagination")
                        .getString("total"));
        assertEquals(rows, scalar("SELECT internal_txs FROM evm_internal_totals"));
        assertEquals(BLOCKS, get(api, "/status").getLong("internal_tx_height"));
        assertEquals(BLOCKS, get(api, "/status").getLong("height"));
    }

    static double traceRetries() {
        var c = io.micrometer.core.instrument.search.Search.in(
                        io.vertx.micrometer.backends.BackendRegistries.getDefaultNow())
                .name("weft_evm_errors_total")
                .tag("chain_id", "weft-devnet-1")
                .tag("stage", "trace")
                .counter();
        return c == null ? 0 : c.count();
    }

    /** The tracer's tables as comparable rows. */
    static Map<String, List<String>> dump(String url) throws Exception {
        return IngestDump.dump(url, IngestDump.INTERNAL_TX_QUERIES);
    }

    @Test
    @DisplayName(
            "devnet faults (500s, cut answers, delays on every API, traces included): the same tables, row for row")
    void faults() throws Exception {
        String clean = dbUrl;
        String url = TestDatabase.freshUrl();
        // one attempt per request: every fault fails the whole height, so the tracer's own retry is what recovers
        TestConfig c = config(BLOCKS)
                .set("database.url", url)
                .set("ingest.retry_attempts", 1)
                .set("devnet.faults.error_rate", 0.15)
                .set("devnet.faults.truncate_rate", 0.05)
                .set("devnet.faults.delay_rate", 0.1)
                .set("devnet.faults.delay", "20ms");
        double retriedBefore = traceRetries();
        WeftNode n = weft.start(c);
        try {
            awaitInternalTxHeight(n, BLOCKS);
        } finally {
            weft.stop(n);
        }
        assertTrue(traceRetries() - retriedBefore >= 5, "heights retried: " + (traceRetries() - retriedBefore));
        IngestDump.assertSame(dump(clean), dump(url));
    }

    @Test
    @DisplayName(
            "the restart resumed after the first run's cursor: gapless sequences in chain order, each height announced once")
    void resumedWithoutGapOrDuplicate() throws Exception {
        assertTrue(firstCursor > FIRST / 2 && firstCursor <= FIRST, "first run traced up to " + firstCursor);
        try (Connection c = TestDatabase.jdbc(dbUrl);
                Statement st = c.createStatement()) {
            assertEquals(
                    0,
                    IngestDump.scalar(
                            st,
                            "SELECT count(*) FROM (SELECT sequence, row_number() OVER (ORDER BY sequence) r FROM evm_internal_tx) x WHERE sequence <> r"),
                    "gaps");
            assertEquals(
                    0,
                    IngestDump.scalar(
                            st,
                            "SELECT count(*) FROM (SELECT height, lag(height) OVER (ORDER BY sequence) p FROM evm_internal_tx) x WHERE height < p"),
                    "order");
            assertEquals(
                    0,
                    IngestDump.scalar(
                            st,
                            "SELECT count(*) FROM (SELECT hash, frame_index, count(*) FROM evm_internal_tx GROUP BY 1, 2 HAVING count(*) > 1) x"),
                    "duplicates");
            assertEquals(
                    0,
                    IngestDump.scalar(
                            st,
                            "SELECT count(*) FROM block b WHERE b.evm_tx_count > 0 AND NOT EXISTS (SELECT 1 FROM evm_internal_tx t WHERE t.height = b.height)"),
                    "a block with EVM txs was not traced");
            assertEquals(0, IngestDump.scalar(st, """
          SELECT count(*) FROM account_internal_tx_stats s
          WHERE s.internal_txs <> (SELECT count(*) FROM evm_internal_tx_account x WHERE x.account_id = s.account_id)"""), "account counters");
            assertEquals(
                    IngestDump.scalar(st, "SELECT max(height) FROM block WHERE evm_tx_count > 0"),
                    IngestDump.scalar(st, "SELECT height FROM pipeline_cursor WHERE name = 'evm'"));
            List<Long> want = new ArrayList<>();
            try (var rs = st.executeQuery("SELECT height FROM block WHERE evm_tx_count > 0 AND height > " + firstCursor
                    + " ORDER BY height")) {
                while (rs.next()) want.add(rs.getLong(1));
            }
            assertEquals(
                    want, new ArrayList<>(secondRunEvents), "the second run announced exactly the heights it traced");
        }
    }
}
