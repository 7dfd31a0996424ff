package dev.weft.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Future;
import io.vertx.ext.web.client.WebClient;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The default chain's tables live in {@code public}, whose main pool the API, the tracker and webhooks share: its
 * writers have a pool of their own, so with every connection of the main pool held (each waiting on a lock the test
 * holds), the default chain still ingests.
 */
class DefaultChainPoolTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final int POOL_SIZE = 2;
    static final long LOCK = 5_300_053L;

    @Test
    @DisplayName("with the main pool exhausted, the default chain's ingestion still commits (its writers' own pool)")
    void ingestsWhileMainPoolExhausted() throws Exception {
        TestConfig c = weft.config()
                .roles("devnet", "ingest", "api")
                .set("database.pool_size", POOL_SIZE)
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 5)
                .set("devnet.block_interval", "100ms")
                .set("devnet.txs_per_block", 2)
                .set("ingest.poll_interval", "50ms");
        String url = DevnetChains.url(c);
        WeftNode node = weft.start(c);
        Await.cursor(url, "ingest", 5, 120);
        Pool main = node.context().pool();
        try (Connection holder = TestDatabase.jdbc(url);
                Statement st = holder.createStatement();
                Connection watcher = TestDatabase.jdbc(url);
                Statement watch = watcher.createStatement()) {
            st.execute("SELECT pg_advisory_lock(" + LOCK + ")");
            // every connection of the main pool waits on the test's lock: whatever else asks the main pool queues
            List<Future<RowSet<Row>>> held = new ArrayList<>();
            for (int i = 0; i < POOL_SIZE; i++)
                held.add(
                        main.query("SELECT pg_advisory_xact_lock(" + LOCK + ")").execute());
            Await.until("the main pool's connections all wait on the lock", 60, () -> {
                try (ResultSet rs =
                        watch.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                + " AND query LIKE 'SELECT pg_advisory_xact_lock(" + LOCK + ")%'")) {
                    rs.next();
                    return rs.getInt(1) == POOL_SIZE;
                }
            });
            Future<RowSet<Row>> queued = main.query("SELECT 1").execute();
            long before = Await.cursorHeight(url, "ingest");
            Await.until(
                    "the default chain ingests past " + before + " with the main pool exhausted",
                    60,
                    () -> Await.cursorHeight(url, "ingest") >= before + 3);
            assertFalse(queued.isComplete(), "the main pool was exhausted all along: a query on it still queues");
            for (Future<RowSet<Row>> f : held) assertFalse(f.isComplete(), "still waiting on the lock");

            // each pool shows under its own name in the Vert.x pool metrics
            String metrics = TestNodes.get(WebClient.create(weft.vertx()), TestNodes.httpPort(node), "/metrics")
                    .bodyAsString();
            for (String name : List.of("main", "public-writers"))
                assertTrue(
                        metrics.lines()
                                .anyMatch(l ->
                                        l.startsWith("vertx_pool_in_use{") && l.contains("pool_name=\"" + name + "\"")),
                        "vertx_pool_in_use of the " + name + " pool");

            st.execute("SELECT pg_advisory_unlock(" + LOCK + ")");
            for (Future<RowSet<Row>> f : held) TestNodes.await(f);
            assertEquals(1, TestNodes.await(queued).iterator().next().getInteger(0));
        }
    }
}
