package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.StreamingReplica;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.micrometer.backends.BackendRegistries;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code database.read_urls} against a real streaming replica the test starts (a hot standby of an embedded primary):
 * reads go to it while it keeps up, to the primary while its replay is paused past {@code database.max_replica_lag},
 * and the API keeps answering when it is stopped.
 */
class ReadReplicaTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static StreamingReplica pg;

    @BeforeAll
    static void startReplica() {
        pg = StreamingReplica.start();
    }

    @AfterAll
    static void stopReplica() {
        if (pg != null) pg.close();
    }

    private static double reads(String target) {
        double n = 0;
        for (Counter c : BackendRegistries.getDefaultNow()
                .find("weft_db_reads_total")
                .tag("target", target)
                .counters()) n += c.count();
        return n;
    }

    private static double gauge(String name, String replica) {
        var g = BackendRegistries.getDefaultNow()
                .find(name)
                .tag("replica", replica)
                .gauge();
        return g == null ? Double.NaN : g.value();
    }

    /** The ingest height as the standby itself has replayed it. */
    private static long standbyHeight() throws Exception {
        try (Connection c = pg.standbyJdbc();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT height FROM pipeline_cursor WHERE name = 'ingest'")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** The newest height up to {@code h} whose block holds txs (the fixture leaves some empty). */
    private static long newestWithTxs(long h) {
        while (h > 0 && FixtureChain.txCount(h) == 0) h--;
        return h;
    }

    @Test
    @DisplayName(
            "API reads come from the replica while it keeps up; paused past the lag bound it leaves the rotation and the API shows the primary's new height; stopped, the API still answers")
    void replicaInAndOutOfRotation() throws Exception {
        FixtureChain chain = FixtureChain.start(weft.vertx(), "fixture-1", 10);
        weft.closeAfter(chain::close);
        WeftNode node = weft.start(chain.configure(weft.config().roles("api", "ingest"))
                .set("database.url", pg.primaryUrl())
                .set("database.read_urls", new JsonArray().add(pg.standbyUrl()))
                .set("database.max_replica_lag", "1s")
                .set("database.replica_check_interval", "50ms")
                .set("ingest.poll_interval", "50ms")
                .set("ingest.retry_base", "5ms")
                .set("ingest.retry_max", "100ms"));
        WebClient client = WebClient.create(weft.vertx());
        int port = TestNodes.httpPort(node);
        String name = pg.standbyName();

        // caught up: the standby replayed height 10 and serves the reads
        Await.until("height 10 on the standby", 60, () -> standbyHeight() >= 10);
        Await.until("the standby in rotation", 30, () -> {
            JsonObject s = TestNodes.get(client, port, "/status").bodyAsJsonObject();
            JsonObject r = s.getJsonArray("replicas").getJsonObject(0);
            return r.getBoolean("in_rotation") && s.getLong("height") == 10;
        });
        JsonObject status = TestNodes.get(client, port, "/status").bodyAsJsonObject();
        JsonObject replica = status.getJsonArray("replicas").getJsonObject(0);
        assertEquals(name, replica.getString("replica"));
        assertTrue(replica.getDouble("lag_seconds") <= 1.0, replica.encode());
        assertEquals(1.0, gauge("weft_db_replica_in_rotation", name));
        double onReplica = reads(name);
        double onPrimary = reads("primary");
        String txs = "/indexer/tx/v1/txs?pagination.limit=3";
        for (int i = 0; i < 3; i++) {
            var r = TestNodes.get(client, port, txs);
            assertEquals(200, r.statusCode());
            assertEquals(
                    "10",
                    r.bodyAsJsonObject().getJsonArray("txs").getJsonObject(0).getString("height"));
        }
        assertTrue(reads(name) - onReplica >= 3, "tx pages read on the standby");
        assertEquals(onPrimary, reads("primary"), "nothing read on the primary while the standby keeps up");

        // replay paused: the standby keeps height 10 while the primary indexes up to 20
        pg.pauseReplay();
        chain.head(20);
        Await.cursor(pg.primaryUrl(), "ingest", 20, 60);
        assertEquals(10, standbyHeight(), "the paused standby still shows height 10");
        Await.until(
                "the paused standby out of rotation",
                30,
                () -> !TestNodes.get(client, port, "/status")
                        .bodyAsJsonObject()
                        .getJsonArray("replicas")
                        .getJsonObject(0)
                        .getBoolean("in_rotation"));
        status = TestNodes.get(client, port, "/status").bodyAsJsonObject();
        assertEquals(20, status.getLong("height"), "out of rotation: the primary's height");
        replica = status.getJsonArray("replicas").getJsonObject(0);
        assertTrue(replica.getDouble("lag_seconds") > 1.0, replica.encode());
        assertTrue(replica.getString("problem").contains("behind the primary"), replica.encode());
        assertEquals(0.0, gauge("weft_db_replica_in_rotation", name));
        // the page kept at the standby's cursor is not served for the primary's: the newest txs are the primary's
        assertTrue(newestWithTxs(20) > 10, "the fixture has txs above height 10");
        onReplica = reads(name);
        onPrimary = reads("primary");
        for (int i = 0; i < 3; i++)
            assertEquals(
                    Long.toString(newestWithTxs(20)),
                    TestNodes.get(client, port, txs)
                            .bodyAsJsonObject()
                            .getJsonArray("txs")
                            .getJsonObject(0)
                            .getString("height"));
        assertEquals(onReplica, reads(name), "nothing read on the lagging standby");
        assertTrue(reads("primary") - onPrimary >= 3, "reads fell back to the primary");

        // replay resumed: back in rotation once it has caught up, with the new height
        pg.resumeReplay();
        Await.until("height 20 on the standby", 60, () -> standbyHeight() >= 20);
        Await.until(
                "the standby back in rotation",
                30,
                () -> TestNodes.get(client, port, "/status")
                        .bodyAsJsonObject()
                        .getJsonArray("replicas")
                        .getJsonObject(0)
                        .getBoolean("in_rotation"));
        onReplica = reads(name);
        assertEquals(
                20, TestNodes.get(client, port, "/status").bodyAsJsonObject().getLong("height"));
        assertTrue(reads(name) > onReplica, "the caught-up standby serves again");

        // stopped: it leaves the rotation as unreachable and the API answers from the primary
        pg.stopStandby();
        // at once, before or after a check has seen it: a read the standby cannot answer runs on the primary
        for (int i = 0; i < 5; i++) {
            var r = TestNodes.get(client, port, txs);
            assertEquals(200, r.statusCode(), "right after the stop → " + r.bodyAsString());
        }
        Await.until("the stopped standby out of rotation", 30, () -> {
            JsonObject r = TestNodes.get(client, port, "/status")
                    .bodyAsJsonObject()
                    .getJsonArray("replicas")
                    .getJsonObject(0);
            return !r.getBoolean("in_rotation") && r.getString("problem").startsWith("unreachable");
        });
        for (String uri : new String[] {"/status", txs, "/indexer/block/v1/blocks?pagination.limit=2"}) {
            var r = TestNodes.get(client, port, uri);
            assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        }
        assertFalse(
                TestNodes.get(client, port, "/metrics")
                        .bodyAsString()
                        .contains("weft_db_replica_in_rotation{replica=\"" + name + "\"} 1"),
                "the metric shows it out of rotation");
    }
}
