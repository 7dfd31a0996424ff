package dev.weft.ingest.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.config.WeftConfig;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.WeftExtension;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The account views' rows are row tables like the others: an EVM log and an account's category edge changed by hand are
 * reported by {@code verify}, and {@code reindex} rewrites them and recounts the account's per-category counters.
 */
class RangeViewsTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long BLOCKS = 30;

    static final String VIEWS = """
      SELECT concat_ws(' | ',
        (SELECT md5(string_agg(account_id || ':' || category || ':' || txs, ',' ORDER BY account_id, category))
           FROM account_category_stats),
        (SELECT count(*) FROM tx_account_category),
        (SELECT md5(string_agg(sequence || ':' || log_position || ':' || encode(topic0, 'hex'), ','
                               ORDER BY sequence, log_position)) FROM evm_log))""";

    @Test
    @DisplayName("a changed EVM log and a removed category edge are reported with their keys and repaired by reindex")
    void accountViewRows() throws Exception {
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
            String before =
                    RangeCommandTest.text(url, VIEWS) + " " + RangeCommandTest.text(url, RangeCommandTest.STATE);

            String log = RangeCommandTest.text(
                    url,
                    "SELECT height || ' ' || sequence || ' ' || log_position FROM evm_log ORDER BY sequence LIMIT 1");
            String[] l = log.split(" ");
            String edge = RangeCommandTest.text(
                    url,
                    "SELECT t.height || ' ' || c.sequence || ' ' || c.account_id || ' ' || c.category"
                            + " FROM tx_account_category c JOIN tx t USING (sequence)"
                            + " WHERE t.height <> " + l[0] + " ORDER BY c.sequence LIMIT 1");
            String[] e = edge.split(" ");
            RangeCommandTest.exec(
                    url,
                    "UPDATE evm_log SET topic0 = '\\x00'::bytea WHERE sequence = " + l[1] + " AND log_position = "
                            + l[2] + "; DELETE FROM tx_account_category WHERE sequence = " + e[1]
                            + " AND account_id = " + e[2] + " AND category = " + e[3]
                            + "; UPDATE account_category_stats SET txs = txs + 5 WHERE account_id = " + e[2]);

            RangeCommandTest.Result found =
                    RangeCommandTest.run(config, "verify", "--from", "1", "--to", String.valueOf(BLOCKS));
            assertEquals(1, found.code(), found.err());
            List<String> expected = new java.util.ArrayList<>(List.of(
                    l[0] + " evm_log sequence=" + l[1] + ",log_position=" + l[2],
                    e[0] + " tx_account_category sequence=" + e[1] + ",account_id=" + e[2] + ",category=" + e[3]));
            expected.sort(java.util.Comparator.comparingLong(s -> Long.parseLong(s.split(" ")[0])));
            assertEquals(expected, found.out());

            RangeCommandTest.Result reindex =
                    RangeCommandTest.run(config, "reindex", "--from", "1", "--to", String.valueOf(BLOCKS));
            assertEquals(0, reindex.code(), reindex.err());
            assertEquals(2, reindex.out().size(), String.valueOf(reindex.out()));
            RangeCommandTest.Result again =
                    RangeCommandTest.run(config, "verify", "--from", "1", "--to", String.valueOf(BLOCKS));
            assertEquals(0, again.code(), again.out() + again.err());
            assertEquals(
                    before,
                    RangeCommandTest.text(url, VIEWS) + " " + RangeCommandTest.text(url, RangeCommandTest.STATE),
                    "category counters, edges and logs as ingestion left them");
        } finally {
            weft.stop(node);
        }
    }
}
