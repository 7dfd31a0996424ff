package dev.weft.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.ingest.IngestDump;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Database faults while a node (devnet + ingest + evm + richlist) catches up a history-mode devnet: its connections
 * terminated again and again, and its PostgreSQL server stopped and started again. Every pipeline must resume from its
 * last committed height and end with the database of a clean run, row for row, each height announced once, in order.
 */
class DatabaseFaultTest {
    static final long BLOCKS = 240;
    static Vertx vertx;
    static WebClient client;
    static Map<String, List<String>> clean;

    @BeforeAll
    static void start() {
        vertx = TestNodes.newVertx();
        client = WebClient.create(vertx);
    }

    @AfterAll
    static void stop() {
        TestNodes.await(vertx.close());
    }

    /** The writing roles on a history-mode devnet (the same chain in every run), retrying fast. */
    static TestConfig config(String dbUrl, String... extraRoles) {
        List<String> roles = new ArrayList<>(List.of("devnet", "ingest", "evm", "richlist"));
        roles.addAll(List.of(extraRoles));
        return TestConfig.defaults()
                .roles(roles.toArray(new String[0]))
                .set("database.url", dbUrl)
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
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
                .set("evm.poll_interval", "50ms")
                .set("richlist.poll_interval", "50ms")
                .set("richlist.commit_blocks", 13)
                .set("cluster.standby_poll", "50ms")
                .set("database.connect_timeout_ms", 2000);
    }

    static Map<String, List<String>> dump(String url) throws Exception {
        Map<String, List<String>> out = new LinkedHashMap<>(IngestDump.dump(url));
        out.putAll(IngestDump.dump(url, IngestDump.INTERNAL_TX_QUERIES));
        out.putAll(IngestDump.dump(url, IngestDump.RICH_LIST_QUERIES));
        return out;
    }

    /** The last height with EVM txs: where the tracer's cursor ends. */
    static long lastEvmHeight(String url) throws Exception {
        return IngestDump.scalar(url, "SELECT max(height) FROM block WHERE evm_tx_count > 0");
    }

    static List<Long> evmHeights(String url) throws Exception {
        List<Long> out = new ArrayList<>();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT height FROM block WHERE evm_tx_count > 0 ORDER BY height")) {
            while (rs.next()) out.add(rs.getLong(1));
        }
        return out;
    }

    /** Every cursor at the end of the chain. */
    static void awaitCaughtUp(String url) throws Exception {
        Await.cursor(url, "ingest", BLOCKS, 120);
        Await.cursor(url, "evm", lastEvmHeight(url), 120);
        Await.cursor(url, "richlist", BLOCKS, 120);
    }

    static void assertConsistent(String url) throws Exception {
        IngestDump.assertConsistent(url);
        IngestDump.assertInternalTxsConsistent(url);
        IngestDump.assertRichListConsistent(url);
    }

    /** Every pipeline catches up and the database equals the clean run's; every event was published once. */
    static void assertEndsAsCleanRun(String url, Events events) throws Exception {
        awaitCaughtUp(url);
        assertConsistent(url);
        IngestDump.assertSame(cleanRun(), dump(url));
        events.assertNoSkipNoRepeat(url);
    }

    static synchronized Map<String, List<String>> cleanRun() throws Exception {
        if (clean != null) return clean;
        String url = TestDatabase.freshUrl();
        WeftNode node = TestNodes.start(vertx, config(url).build());
        try {
            awaitCaughtUp(url);
        } finally {
            TestNodes.await(node.stop());
        }
        assertConsistent(url);
        clean = dump(url);
        assertTrue(
                clean.get("evm_internal_tx").size() > 500
                        && clean.get("rich_list").size() > 500,
                clean.get("evm_internal_tx").size() + " internal txs, "
                        + clean.get("rich_list").size() + " balances");
        return clean;
    }

    /** The heights of the events a node publishes, per address. */
    static final class Events implements AutoCloseable {
        final List<Long> blocks = Collections.synchronizedList(new ArrayList<>());
        final List<Long> internalTxs = Collections.synchronizedList(new ArrayList<>());
        final List<Long> richList = Collections.synchronizedList(new ArrayList<>());
        /** height → the sequence its block indexed event named */
        final Map<Long, Long> blockSequences = new java.util.concurrent.ConcurrentHashMap<>();

        final Map<Long, Long> internalTxSequences = new java.util.concurrent.ConcurrentHashMap<>();
        final Map<Long, Long> richListSequences = new java.util.concurrent.ConcurrentHashMap<>();
        /** the highest sequence a "there is more" notification named */
        final java.util.concurrent.atomic.AtomicLong appended = new java.util.concurrent.atomic.AtomicLong();

        private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();

        Events() {
            consumers.add(vertx.eventBus().consumer(Addresses.BLOCK_INDEXED, m -> {
                blocks.add(m.body().getLong("height"));
                if (m.body().getLong("sequence") != null)
                    blockSequences.put(m.body().getLong("height"), m.body().getLong("sequence"));
            }));
            consumers.add(vertx.eventBus().consumer(Addresses.EVENTS_APPENDED, m -> {
                Long s = m.body().getLong("sequence");
                if (s != null) appended.accumulateAndGet(s, Math::max);
            }));
            consumers.add(vertx.eventBus()
                    .consumer(
                            Addresses.INTERNAL_TXS_INDEXED,
                            m -> internalTxs.add(m.body().getLong("height"))));
            consumers.add(vertx.eventBus().consumer(Addresses.RICH_LIST_UPDATED, m -> {
                richList.add(m.body().getLong("height"));
                if (m.body().getLong("sequence") != null)
                    richListSequences.put(m.body().getLong("height"), m.body().getLong("sequence"));
            }));
            consumers.add(vertx.eventBus().consumer(Addresses.INTERNAL_TXS_INDEXED, m -> {
                if (m.body().getLong("sequence") != null)
                    internalTxSequences.put(m.body().getLong("height"), m.body().getLong("sequence"));
            }));
            consumers.forEach(c -> TestNodes.await(c.completion()));
        }

        /** Each height announced once, in order: every block, every height with EVM txs; rich-list heights increasing to the end. */
        void assertNoSkipNoRepeat(String url) throws Exception {
            List<Long> want = new ArrayList<>();
            for (long h = 1; h <= BLOCKS; h++) want.add(h);
            Await.until("the last block indexed event", 20, () -> blocks.contains(BLOCKS));
            assertEquals(want, new ArrayList<>(blocks), "block indexed");
            // the events were written with the data (IngestDump's checks); every block indexed named its event's
            // sequence, also after a lost answer, and the notifications reached the last event of the ingest log
            assertEquals(logged(url, "blocks"), new java.util.HashMap<>(blockSequences), "block indexed sequences");
            // what a push reader (/v1/events, every subscription) reads: in sequence order, each height's block event
            // exactly once, those of commits whose answer was lost included, and no tx event twice
            List<Long> read = new ArrayList<>();
            try (Connection c = TestDatabase.jdbc(url);
                    Statement st = c.createStatement();
                    ResultSet rs =
                            st.executeQuery("SELECT height FROM event_log WHERE topic = 'blocks' ORDER BY sequence")) {
                while (rs.next()) read.add(rs.getLong(1));
            }
            assertEquals(want, read, "the log's block events, read as a subscriber reads them");
            assertEquals(
                    0L,
                    IngestDump.scalar(
                            url,
                            "SELECT count(*) FROM (SELECT 1 FROM event_log WHERE topic = 'txs'"
                                    + " GROUP BY chain_id, height, tx_hash, account HAVING count(*) > 1) twice"),
                    "no tx event twice");
            long lastIngestEvent =
                    IngestDump.scalar(url, "SELECT max(sequence) FROM event_log WHERE topic IN ('blocks', 'txs')");
            Await.until("the last ingest event announced", 20, () -> appended.get() >= lastIngestEvent);
            List<Long> traced = evmHeights(url);
            Await.until(
                    "the last internal txs indexed event",
                    20,
                    () -> internalTxs.contains(traced.get(traced.size() - 1)));
            assertEquals(traced, new ArrayList<>(internalTxs), "internal txs indexed");
            Await.until("the last rich list updated event", 20, () -> richList.contains(BLOCKS));
            List<Long> rich = new ArrayList<>(richList);
            for (int i = 1; i < rich.size(); i++)
                assertTrue(rich.get(i) > rich.get(i - 1), "rich list updated heights increase: " + rich);
            // the sequences the announcements named are their events' (an announcement may lack one only when it
            // could not be read back)
            Map<Long, Long> internal = logged(url, "internal-txs");
            internalTxSequences.forEach((h, s) -> assertEquals(internal.get(h), s, "internal txs indexed at " + h));
            assertEquals(traced.size(), internal.size(), "an internal-txs event per traced height");
            Map<Long, Long> richLogged = logged(url, "richlist");
            richListSequences.forEach((h, s) -> assertEquals(richLogged.get(h), s, "rich list updated at " + h));
        }

        static Map<Long, Long> logged(String url, String topic) throws Exception {
            Map<Long, Long> out = new java.util.HashMap<>();
            try (Connection c = TestDatabase.jdbc(url);
                    Statement st = c.createStatement();
                    ResultSet rs =
                            st.executeQuery("SELECT height, sequence FROM event_log WHERE topic = '" + topic + "'")) {
                while (rs.next()) out.put(rs.getLong(1), rs.getLong(2));
            }
            return out;
        }

        @Override
        public void close() {
            consumers.forEach(c -> TestNodes.await(c.unregister()));
        }
    }

    /** Terminates every other session on the database (the node's pool and its writer leases); how many there were. */
    static int terminateBackends(String url) throws Exception {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                                + "WHERE datname = current_database() AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    static boolean caughtUp(String url) {
        try {
            return Await.cursorHeight(url, "ingest") >= BLOCKS
                    && Await.cursorHeight(url, "richlist") >= BLOCKS
                    && Await.cursorHeight(url, "evm") >= lastEvmHeight(url);
        } catch (Exception e) {
            return false;
        }
    }

    /** How many of the node's single-writer kinds (ingest, evm, richlist) run (hold their lease). */
    static int writersActive(WeftNode node) {
        JsonObject kinds = node.describe().getJsonObject("kinds");
        int n = 0;
        for (String k : List.of("ingest", "evm", "richlist"))
            if (kinds.getJsonObject(k).getBoolean("active")) n++;
        return n;
    }

    static long progress(String url) {
        return Await.cursorHeight(url, "ingest") + Await.cursorHeight(url, "evm") + Await.cursorHeight(url, "richlist");
    }

    @Test
    @DisplayName(
            "the node's database connections terminated again and again mid-catch-up: every pipeline resumes, the database equals a clean run's, each height announced once")
    void connectionsTerminated() throws Exception {
        cleanRun();
        String url = TestDatabase.freshUrl();
        try (Events events = new Events()) {
            WeftNode node = TestNodes.start(vertx, config(url).build());
            try {
                int kills = 0;
                int terminated = 0;
                // a kill each time the pipelines have made progress since the last one, until they are all caught up
                while (kills < 15) {
                    long before = progress(url);
                    if (caughtUp(url)) break;
                    terminated += terminateBackends(url);
                    kills++;
                    Await.until("progress after kill " + kills, 60, () -> progress(url) > before + 40 || caughtUp(url));
                }
                assertTrue(kills >= 3 && terminated >= kills, kills + " kills, " + terminated + " sessions terminated");
                assertEndsAsCleanRun(url, events);
            } finally {
                TestNodes.await(node.stop());
            }
        }
    }

    @Test
    @DisplayName(
            "commits that went through but whose answer was lost (the connection cut right after COMMIT): nothing skipped or written twice, each height announced once")
    void commitAnswersLost() throws Exception {
        behindCommitCuttingProxy(15, 0, 8);
    }

    @Test
    @DisplayName(
            "commit answers lost while the database cannot be reached for a while: decided when the position is read again, each height still announced once")
    void commitAnswersLostWhileUnreachable() throws Exception {
        // one pooled connection, the one cut: the writer cannot ask at once whether its commit went through
        behindCommitCuttingProxy(6, 500, 1);
    }

    /** The node behind a {@link CommitCuttingProxy} cutting every third COMMIT, {@code cuts} times, then left to catch up. */
    static void behindCommitCuttingProxy(int cuts, long refuseMs, int poolSize) throws Exception {
        cleanRun();
        String url = TestDatabase.freshUrl();
        var direct = io.vertx.pgclient.PgConnectOptions.fromUri(url);
        try (CommitCuttingProxy proxy = new CommitCuttingProxy(vertx, direct.getHost(), direct.getPort());
                Events events = new Events()) {
            String password =
                    direct.getPassword() == null || direct.getPassword().isEmpty() ? "" : ":" + direct.getPassword();
            String proxied = "postgresql://" + direct.getUser() + password + "@127.0.0.1:" + proxy.port() + "/"
                    + direct.getDatabase();
            WeftNode node = TestNodes.start(
                    vertx, config(proxied).set("database.pool_size", poolSize).build());
            try {
                proxy.cutEvery(3, cuts, refuseMs);
                Await.until(cuts + " commits cut", 60, () -> proxy.cuts() >= cuts || caughtUp(url));
                awaitCaughtUp(url);
                assertTrue(proxy.cuts() >= cuts / 3, proxy.cuts() + " commits cut");
                assertEndsAsCleanRun(url, events);
            } finally {
                TestNodes.await(node.stop());
            }
        }
    }

    @Test
    @DisplayName(
            "the node's PostgreSQL server stopped mid-catch-up and started again on the same data and port: the node recovers by itself, /ready is 503 meanwhile, the database equals a clean run's")
    void serverRestarted() throws Exception {
        cleanRun();
        Path dir = Files.createTempDirectory("weft-dbfault");
        int port = Ports.free();
        EmbeddedPostgresServer pg = EmbeddedPostgresServer.start(dir, port, false, Map.of());
        try (Events events = new Events()) {
            String url = pg.url();
            WeftNode node = TestNodes.start(vertx, config(url, "api").build());
            try {
                int api = TestNodes.httpPort(node);
                assertEquals(200, TestNodes.get(client, api, "/ready").statusCode());
                Await.cursor(url, "ingest", BLOCKS / 3, 60);
                assertTrue(!caughtUp(url), "stopped mid-catch-up");
                pg.close();
                // the writers lose their leases with their connections and stand by, retrying, until the server is back
                Await.until("every writer standing by", 30, () -> writersActive(node) == 0);
                // the server stays down for 2 s, ten times the retry backoff's cap; /ready and /health are probed
                // throughout
                io.vertx.core.Timer downtime = vertx.timer(2, java.util.concurrent.TimeUnit.SECONDS);
                for (int probe = 0; probe < 20 || !downtime.isComplete(); probe++) {
                    var r = TestNodes.get(client, api, "/ready");
                    assertEquals(503, r.statusCode(), "/ready while the database is down: " + r.bodyAsString());
                    assertEquals(14, r.bodyAsJsonObject().getInteger("code"), r.bodyAsString());
                    assertEquals(
                            200,
                            TestNodes.get(client, api, "/health").statusCode(),
                            "alive while the database is down");
                }
                assertEquals(0, writersActive(node), "no writer runs without its database");
                pg = EmbeddedPostgresServer.start(dir, port, false, Map.of());
                Await.until(
                        "/ready 200 once the database is back",
                        60,
                        () -> TestNodes.get(client, api, "/ready").statusCode() == 200);
                Await.until("every writer running again", 60, () -> writersActive(node) == 3);
                assertEndsAsCleanRun(url, events);
            } finally {
                TestNodes.await(node.stop());
            }
        } finally {
            pg.close();
            TestDatabase.deleteTree(dir);
        }
    }
}
