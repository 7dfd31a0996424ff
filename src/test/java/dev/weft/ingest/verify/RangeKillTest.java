package dev.weft.ingest.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reindex} run by the real launcher in a child JVM is killed with SIGKILL once it has replaced its first height:
 * every height of the range is then wholly old or wholly new (a height's rows and its counters change in one
 * transaction), and a second reindex finishes the repair with the counters as ingestion left them.
 */
class RangeKillTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long BLOCKS = 60;
    static final long FROM = 10;
    static final long TO = 55;

    static List<String> column(String url, String sql) throws Exception {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            List<String> values = new ArrayList<>();
            while (rs.next()) values.add(rs.getString(1));
            return values;
        }
    }

    static String text(String url, String sql) throws Exception {
        return column(url, sql).get(0);
    }

    /** Per changed tx: "new" (both rows rebuilt), "old" (both still changed by hand) or "mixed". */
    static Map<Long, String> states(String url, Map<Long, String> originals) throws Exception {
        Map<Long, String> states = new LinkedHashMap<>();
        for (Map.Entry<Long, String> e : originals.entrySet()) {
            String now = text(
                    url,
                    "SELECT t.code || ',' || a.signer FROM tx t JOIN tx_account a USING (sequence)"
                            + " WHERE t.sequence = " + e.getKey() + " ORDER BY a.account_id LIMIT 1");
            String orig = e.getValue();
            String changed = "77," + (orig.endsWith(",true") ? "false" : "true");
            states.put(e.getKey(), now.equals(orig) ? "new" : now.equals(changed) ? "old" : "mixed " + now);
        }
        return states;
    }

    @Test
    @DisplayName(
            "kill -9 during reindex: each height wholly old or wholly new; a second reindex repairs the rest exactly")
    void killMidRange(@TempDir Path dir) throws Exception {
        TestConfig c = weft.config()
                .roles("devnet", "ingest")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 7)
                .set("devnet.txs_per_block", 4)
                .set("ingest.poll_interval", "50ms")
                .set("ingest.commit_blocks", 10);
        WeftNode node = weft.start(c);
        try {
            String url = (String) c.get("database.url");
            Await.cursor(url, "ingest", BLOCKS, 90);
            String before = text(url, RangeCommandTest.STATE);

            // one tx per height of the range: its code and its first account edge's signer flag changed by hand
            Map<Long, String> originals = new LinkedHashMap<>();
            for (String seq : column(
                    url,
                    "SELECT min(sequence)::text FROM tx WHERE height BETWEEN " + FROM + " AND " + TO
                            + " GROUP BY height ORDER BY height")) {
                long s = Long.parseLong(seq);
                originals.put(
                        s,
                        text(
                                url,
                                "SELECT t.code || ',' || a.signer FROM tx t JOIN tx_account a USING (sequence)"
                                        + " WHERE t.sequence = " + s + " ORDER BY a.account_id LIMIT 1"));
            }
            assertTrue(originals.size() > 20, "heights with txs in the range: " + originals.size());
            for (long s : originals.keySet()) {
                RangeCommandTest.exec(
                        url,
                        "UPDATE tx SET code = 77 WHERE sequence = " + s + ";"
                                + " UPDATE tx_account SET signer = NOT signer WHERE sequence = " + s
                                + " AND account_id = (SELECT min(account_id) FROM tx_account WHERE sequence = " + s
                                + ")");
            }

            var chain = node.context().config().chain();
            TestConfig child = TestConfig.of(c.json())
                    .set("chain.rpc", new JsonArray(chain.rpcUrls()))
                    .set("chain.rest", new JsonArray(chain.restUrls()))
                    .set("chain.json_rpc", new JsonArray(chain.jsonRpcUrls()));
            Path cfg = dir.resolve("reindex.json");
            Files.writeString(cfg, child.json().encodePrettily());
            Path log = dir.resolve("reindex.log");
            Process reindex = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            "dev.weft.Main",
                            "reindex",
                            "--from",
                            String.valueOf(FROM),
                            "--to",
                            String.valueOf(TO),
                            "--config",
                            cfg.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                Await.until(
                        "the child replaced its first height",
                        120,
                        () -> Files.readString(log).contains("replaced ") || !reindex.isAlive());
                reindex.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            } finally {
                reindex.destroyForcibly();
            }
            assertTrue(Files.readString(log).contains("replaced "), Files.readString(log));

            Map<Long, String> afterKill = states(url, originals);
            long fresh = afterKill.values().stream().filter("new"::equals).count();
            long old = afterKill.values().stream().filter("old"::equals).count();
            assertEquals(originals.size(), fresh + old, "no height half replaced: " + afterKill);
            assertTrue(fresh >= 1, "the first replaced height is new: " + afterKill);

            RangeCommandTest.Result again = RangeCommandTest.run(
                    node.context().config(), "reindex", "--from", String.valueOf(FROM), "--to", String.valueOf(TO));
            assertEquals(0, again.code(), again.err());
            assertEquals(old, again.out().size(), "the second reindex replaces exactly the heights left old");
            RangeCommandTest.Result verify = RangeCommandTest.run(
                    node.context().config(), "verify", "--from", "1", "--to", String.valueOf(BLOCKS));
            assertEquals(0, verify.code(), verify.out() + verify.err());
            assertEquals(before, text(url, RangeCommandTest.STATE), "totals, counters and row counts exact");
        } finally {
            weft.stop(node);
        }
    }
}
