package dev.weft.ingest.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.config.WeftConfig;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.WeftExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code verify} and {@code reindex} run in-process through their entry point against a devnet history indexed by a
 * real node: a row changed by hand is reported with its height, table and key, reindex of the range repairs it, and
 * the counters and totals end as ingestion left them.
 */
class RangeCommandTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long BLOCKS = 30;

    record Result(int code, List<String> out, String err) {}

    static Result run(WeftConfig config, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = RangeCommand.run(
                args,
                config,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8).strip();
        return new Result(
                code, o.isEmpty() ? List.of() : Arrays.asList(o.split("\n")), err.toString(StandardCharsets.UTF_8));
    }

    static String text(String url, String sql) throws Exception {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    static void exec(String url, String sql) throws Exception {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    static final String STATE = """
      SELECT concat_ws(' | ',
        (SELECT blocks || ',' || txs || ',' || evm_txs FROM ingest_totals),
        (SELECT md5(string_agg(account_id || ':' || txs || ':' || signer_txs || ':' || evm_txs || ':' || evm_signer_txs, ','
                               ORDER BY account_id)) FROM account_tx_stats),
        (SELECT md5(string_agg(msg_type_id || ':' || txs, ',' ORDER BY msg_type_id)) FROM msg_type_stats),
        (SELECT count(*) FROM tx), (SELECT count(*) FROM tx_account), (SELECT count(*) FROM evm_tx_account))""";

    @Test
    @DisplayName(
            "verify reports exactly the changed rows and exits 1; reindex of the range repairs them with the counters exact; verify then exits 0")
    void verifyThenReindex() throws Exception {
        TestConfig c = weft.config()
                .roles("devnet", "ingest")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 42)
                .set("devnet.txs_per_block", 8)
                .set("ingest.poll_interval", "50ms")
                .set("ingest.commit_blocks", 10);
        WeftNode node = weft.start(c);
        try {
            String url = (String) c.get("database.url");
            Await.cursor(url, "ingest", BLOCKS, 90);
            WeftConfig config = node.context().config();
            String before = text(url, STATE);

            Result clean = run(config, "verify", "--from", "1", "--to", String.valueOf(BLOCKS));
            assertEquals(0, clean.code(), clean.err());
            assertEquals(List.of(), clean.out());

            String seq = text(url, "SELECT min(sequence)::text FROM tx WHERE height = 12");
            String account = text(url, "SELECT min(account_id)::text FROM tx_account WHERE sequence = " + seq);
            exec(
                    url,
                    "UPDATE tx SET code = 77 WHERE sequence = " + seq + "; UPDATE tx_account SET signer = NOT signer"
                            + " WHERE sequence = " + seq + " AND account_id = " + account);

            Result found = run(config, "verify", "--from", "10", "--to", "14");
            assertEquals(1, found.code(), found.err());
            assertEquals(
                    List.of("12 tx sequence=" + seq, "12 tx_account sequence=" + seq + ",account_id=" + account),
                    found.out());

            Result reindex = run(
                    config,
                    "reindex",
                    "--from",
                    "10",
                    "--to",
                    "14",
                    "--chain",
                    config.chain().chainId());
            assertEquals(0, reindex.code(), reindex.err());
            assertEquals(List.of("replaced 12 tx,tx_account"), reindex.out());

            Result again = run(config, "verify", "--from", "1", "--to", String.valueOf(BLOCKS));
            assertEquals(0, again.code(), again.err());
            assertEquals(List.of(), again.out());
            assertEquals(before, text(url, STATE), "totals, counters and row counts as ingestion left them");
            assertEquals(
                    "10 14 1",
                    text(
                            url,
                            "SELECT concat_ws(' ', payload->>'from_height', payload->>'to_height', payload->>'heights_replaced')"
                                    + " FROM event_log WHERE topic = 'reindexed'"));

            // bad arguments: exit 2, the argument named
            Result chain = run(config, "verify", "--from", "1", "--to", "2", "--chain", "no-such-chain");
            assertEquals(2, chain.code());
            assertTrue(chain.err().contains("--chain no-such-chain"), chain.err());
            Result above = run(config, "verify", "--from", "1", "--to", String.valueOf(BLOCKS + 100));
            assertEquals(2, above.code());
            assertTrue(above.err().contains("--to " + (BLOCKS + 100)), above.err());
        } finally {
            weft.stop(node);
        }
    }

    @Test
    @DisplayName(
            "--chain names a chains entry: verify and reindex read that chain's node and its own schema, not the default chain's")
    void chainsEntry() throws Exception {
        String l1 = "weft-l1-1";
        String schema = "chain_weft_l1_1";
        TestConfig c = weft.config()
                .roles("devnet", "ingest")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 42)
                .set("devnet.txs_per_block", 4)
                .set("ingest.poll_interval", "50ms")
                .set(
                        "chains",
                        new io.vertx.core.json.JsonObject()
                                .put(l1, new io.vertx.core.json.JsonObject().put("vm", "move")));
        WeftNode node = weft.start(c);
        try {
            String url = (String) c.get("database.url");
            Await.until(
                    l1 + " indexed to " + BLOCKS,
                    90,
                    () -> Long.parseLong(text(
                                    url, "SELECT height FROM " + schema + ".pipeline_cursor WHERE name = 'ingest'"))
                            >= BLOCKS);
            WeftConfig config = node.context().config();
            Result clean = run(config, "verify", "--from", "1", "--to", String.valueOf(BLOCKS), "--chain", l1);
            assertEquals(0, clean.code(), clean.err());
            assertEquals(List.of(), clean.out());
            assertTrue(clean.err().contains("of " + l1), clean.err());

            // a change in the entry's schema is found there (the default chain's rows are another schema's)
            exec(url, "UPDATE " + schema + ".block SET gas_used = gas_used + 1 WHERE height = 7");
            Result found = run(config, "verify", "--from", "5", "--to", "9", "--chain", l1);
            assertEquals(1, found.code(), found.err());
            assertEquals(List.of("7 block height=7"), found.out());
            Result other = run(config, "verify", "--from", "5", "--to", "9");
            assertEquals(0, other.code(), "the default chain is untouched: " + other.err());

            Result reindex = run(config, "reindex", "--from", "5", "--to", "9", "--chain", l1);
            assertEquals(0, reindex.code(), reindex.err());
            assertEquals(List.of("replaced 7 block"), reindex.out());
            Result again = run(config, "verify", "--from", "1", "--to", String.valueOf(BLOCKS), "--chain", l1);
            assertEquals(0, again.code(), again.err());
        } finally {
            weft.stop(node);
        }
    }

    @Test
    @DisplayName("bad arguments exit 2 with a line naming the argument")
    void badArguments() {
        for (String[] args : List.of(
                new String[] {"verify", "--to", "5"},
                new String[] {"verify", "--from", "x", "--to", "5"},
                new String[] {"reindex", "--from", "6", "--to", "5"},
                new String[] {"verify", "--from", "1", "--to", "5", "--bogus"})) {
            Result r = run(null, args);
            assertEquals(2, r.code(), String.join(" ", args));
            String named = args[args.length - 1].startsWith("--bogus")
                    ? "--bogus"
                    : args[1].equals("--to") ? "--from" : args[1];
            assertTrue(r.err().contains(named), r.err());
        }
    }
}
