package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The partitioned history (migration V023) written by real ingestion of the devnet with small partitions: the writer
 * makes the partitions ahead, list queries touch only the partitions they need, and retention drops whole partitions
 * below its bound while the totals keep counting the pruned history and a pruned height answers 410.
 */
class PartitionedHistoryTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long BLOCKS = 60;
    static final long PART = 25;

    static TestConfig config(String url) {
        return weft.config()
                .roles("devnet", "ingest", "evm", "api")
                .set("database.url", url)
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 42)
                .set("devnet.txs_per_block", 4)
                .set("ingest.poll_interval", "50ms")
                .set("ingest.retry_base", "5ms")
                .set("ingest.retry_max", "100ms")
                .set("ingest.commit_blocks", 5)
                .set("evm.poll_interval", "50ms")
                .set("storage.partition_rows", PART)
                .set("storage.partition_check_interval", "50ms");
    }

    @Test
    @DisplayName(
            "partitions made ahead by the writer, pruned list plans, retention by whole partitions with documented totals")
    void partitionsAndRetention() throws Exception {
        String url = TestDatabase.freshUrl();
        WebClient client = WebClient.create(weft.vertx());
        WeftNode node = weft.start(config(url));
        String api = "http://127.0.0.1:" + TestNodes.httpPort(node);
        awaitTraced(client, api);
        long txs = scalar(url, "SELECT txs FROM ingest_totals");
        long internal = scalar(url, "SELECT internal_txs FROM evm_internal_totals");
        assertTrue(txs > 3 * PART, txs + " txs");
        // every history table is partitioned, in partitions of PART sequences covering its stream, one ahead
        for (String t : List.of(
                "tx",
                "tx_account",
                "tx_msg_type",
                "tx_multi_msg",
                "tx_account_category",
                "fungible_transfer",
                "evm_tx",
                "evm_tx_account",
                "evm_log",
                "evm_internal_tx",
                "evm_internal_tx_account",
                "event_log")) {
            assertEquals("p", string(url, "SELECT relkind::text FROM pg_class WHERE oid = '" + t + "'::regclass"), t);
            long parts = scalar(url, "SELECT count(*) FROM weft_partition_bounds('" + t + "') WHERE lo IS NOT NULL");
            assertTrue(parts >= 2, t + ": " + parts + " partitions");
            assertEquals(
                    0,
                    scalar(
                            url,
                            "SELECT count(*) FROM weft_partition_bounds('" + t
                                    + "') WHERE lo IS NOT NULL AND hi - lo <> " + PART),
                    t + ": every partition has storage.partition_rows sequences");
        }
        assertTrue(scalar(url, "SELECT max(hi) FROM weft_partition_bounds('tx')") > txs + 1, "room ahead of the txs");
        assertEquals(0, scalar(url, "SELECT count(*) FROM tx_p0"), "a fresh database: the first partition is empty");

        // a by-account page with a cursor reads only the partitions at or below the cursor
        String account = string(
                url,
                "SELECT encode(a.address, 'hex') FROM account a JOIN account_tx_stats s ON s.account_id = a.id"
                        + " ORDER BY s.txs DESC, a.id LIMIT 1");
        long cursor = PART + 5;
        Set<String> touched = touched(
                url,
                "SELECT t.sequence, t.json FROM tx_account a JOIN tx t ON t.sequence = a.sequence"
                        + " WHERE a.account_id = (SELECT id FROM account WHERE address = '\\x" + account + "'::bytea)"
                        + " AND a.sequence < " + cursor + " ORDER BY a.sequence DESC LIMIT 10");
        assertTrue(touched.containsAll(List.of("tx_account_p26", "tx_p26")), touched.toString());
        touched.removeIf(p -> !p.matches(".+_p[0-9]+")); // the partitions; the account lookup's table is no history
        for (String p : touched)
            assertTrue(
                    p.endsWith("_p0") || p.endsWith("_p1") || p.endsWith("_p26"),
                    p + ": only the partitions holding sequences below " + cursor + " are read (" + touched + ")");
        assertTrue(
                scalar(url, "SELECT count(*) FROM weft_partition_bounds('tx') WHERE lo >= " + cursor) >= 2,
                "partitions above the cursor exist, and were not read");
        // a height range (turned into a sequence range) reads the page from its partitions only
        long firstOfLast = scalar(url, "SELECT min(sequence) FROM tx WHERE height >= " + (BLOCKS - 2));
        Set<String> ranged = touched(
                url,
                // the bounds as the store passes them, found first (finding them probes each partition's height index)
                "SELECT t.sequence FROM tx t WHERE t.sequence BETWEEN " + firstOfLast + " AND " + txs
                        + " ORDER BY t.sequence LIMIT 100");
        ranged.removeIf(p -> !p.startsWith("tx_p"));
        assertFalse(ranged.contains("tx_p1"), ranged + " (the range starts at sequence " + firstOfLast + ")");

        JsonObject before = get(client, api, "/indexer/tx/v1/txs?pagination.limit=1");
        long accountTxs = scalar(url, "SELECT sum(txs) FROM account_tx_stats");
        weft.stop(node);
        long keepTx = scalar(url, "SELECT min(sequence) FROM tx WHERE height > " + (BLOCKS - 20));
        long firstKeptTx = (keepTx - 1) / PART * PART + 1;
        // the height of the last tx retention drops: its floor
        long floor = scalar(url, "SELECT height FROM tx WHERE sequence = " + (firstKeptTx - 1));

        // retention: keep 20 blocks of everything, 10 of the internal txs
        WeftNode pruned = weft.start(config(url)
                .set("retention.keep_blocks", 20)
                .set("retention.internal_txs_keep_blocks", 10)
                .set("retention.interval", "50ms"));
        String api2 = "http://127.0.0.1:" + TestNodes.httpPort(pruned);
        long keepInternal = scalar(url, "SELECT min(sequence) FROM evm_internal_tx WHERE height > " + (BLOCKS - 10));
        Await.until(
                "tx partitions below sequence " + firstKeptTx + " dropped",
                60,
                () -> scalar(url, "SELECT pruned_sequence FROM retention_floor WHERE stream = 'tx'") == firstKeptTx
                        && scalar(
                                        url,
                                        "SELECT count(*) FROM weft_partition_bounds('tx_account') WHERE hi <= "
                                                + firstKeptTx)
                                == 0);
        long firstKeptInternal = (keepInternal - 1) / PART * PART + 1;
        Await.until(
                "internal tx partitions below sequence " + firstKeptInternal + " dropped",
                60,
                () -> scalar(
                                url,
                                "SELECT count(*) FROM weft_partition_bounds('evm_internal_tx_account') WHERE hi <= "
                                        + firstKeptInternal)
                        == 0);
        for (String t : List.of("tx", "tx_account", "tx_msg_type", "fungible_transfer"))
            assertEquals(
                    0,
                    scalar(url, "SELECT count(*) FROM weft_partition_bounds('" + t + "') WHERE hi <= " + firstKeptTx),
                    t);
        assertEquals(
                firstKeptTx,
                scalar(url, "SELECT min(sequence) FROM tx"),
                "whole partitions dropped, no row deleted above");
        assertEquals(txs - firstKeptTx + 1, scalar(url, "SELECT count(*) FROM tx"));
        assertEquals(firstKeptInternal, scalar(url, "SELECT min(sequence) FROM evm_internal_tx"));
        assertEquals(internal - firstKeptInternal + 1, scalar(url, "SELECT count(*) FROM evm_internal_tx"));
        assertEquals(floor, scalar(url, "SELECT pruned_height FROM retention_floor WHERE stream = 'tx'"));
        assertTrue(floor > 0 && floor <= BLOCKS - 20, "floor " + floor);
        // totals keep counting the pruned history (they are counters, not counts)
        JsonObject after = get(client, api2, "/indexer/tx/v1/txs?pagination.limit=1");
        assertEquals(
                String.valueOf(before.getJsonObject("pagination").getValue("total")),
                String.valueOf(after.getJsonObject("pagination").getValue("total")));
        assertEquals(
                String.valueOf(txs),
                String.valueOf(after.getJsonObject("pagination").getValue("total")));
        assertEquals(accountTxs, scalar(url, "SELECT sum(txs) FROM account_tx_stats"));
        assertEquals(BLOCKS, get(client, api2, "/status").getLong("height"));
        assertEquals(BLOCKS, scalar(url, "SELECT count(*) FROM block"), "block rows are kept");

        // a pruned height answers 410; the first kept one its txs
        HttpResponse<Buffer> gone = TestNodes.await(
                client.getAbs(api2 + "/indexer/tx/v1/txs/by_height/" + floor).send());
        assertEquals(410, gone.statusCode(), gone.bodyAsString());
        JsonObject body = gone.bodyAsJsonObject();
        assertEquals(11, body.getInteger("code"));
        assertEquals(
                "height " + floor + " was pruned by retention; the oldest height kept whole is " + (floor + 1),
                body.getString("message"));
        JsonObject info = body.getJsonArray("details").getJsonObject(0);
        assertEquals("HISTORY_PRUNED", info.getString("reason"));
        assertEquals(Long.toString(floor + 1), info.getJsonObject("metadata").getString("oldest_height"));
        JsonObject kept = get(client, api2, "/indexer/tx/v1/txs/by_height/" + (BLOCKS - 1));
        assertEquals(
                scalar(url, "SELECT count(*) FROM tx WHERE height = " + (BLOCKS - 1)),
                kept.getJsonArray("txs").size());
        long internalFloor = scalar(url, "SELECT pruned_height FROM retention_floor WHERE stream = 'internal_tx'");
        assertTrue(internalFloor > 0, "internal floor " + internalFloor);
        assertEquals(
                410,
                TestNodes.await(client.getAbs(api2 + "/indexer/tx/v1/evm-internal-txs/by_height/" + internalFloor)
                                .send())
                        .statusCode());
        weft.stop(pruned);
    }

    static void awaitTraced(WebClient client, String api) {
        Await.until(
                "ingest and tracer at " + BLOCKS,
                120,
                () -> get(client, api, "/status").getLong("height") >= BLOCKS
                        && get(client, api, "/status").getLong("internal_tx_height") >= BLOCKS);
    }

    static JsonObject get(WebClient client, String base, String uri) {
        var r = TestNodes.await(client.getAbs(base + uri).send());
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    static long scalar(String url, String sql) throws Exception {
        return IngestDump.scalar(url, sql);
    }

    static String string(String url, String sql) throws Exception {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * The partitions a query reads: the relations of its plan's scan nodes that ran (EXPLAIN ANALYZE, JSON format; a
     * node pruned at plan time is absent, one pruned at run time reports no loops). The plan is the one a database of
     * real size gets (index scans, nested loops): the devnet's few rows would make the planner scan whole tables.
     */
    static Set<String> touched(String url, String sql) throws Exception {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            st.execute("SET enable_seqscan = off");
            st.execute("SET enable_hashjoin = off");
            st.execute("SET enable_mergejoin = off");
            String json;
            try (ResultSet rs = st.executeQuery("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)) {
                rs.next();
                json = rs.getString(1);
            }
            Set<String> out = new TreeSet<>();
            collect(new JsonArray(json).getJsonObject(0).getJsonObject("Plan"), out);
            return out;
        }
    }

    private static void collect(JsonObject plan, Set<String> out) {
        if (plan.containsKey("Relation Name") && plan.getLong("Actual Loops", 0L) > 0)
            out.add(plan.getString("Relation Name"));
        JsonArray kids = plan.getJsonArray("Plans");
        if (kids == null) return;
        List<JsonObject> list = new ArrayList<>();
        for (int i = 0; i < kids.size(); i++) list.add(kids.getJsonObject(i));
        list.forEach(k -> collect(k, out));
    }
}
