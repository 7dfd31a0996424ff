package dev.weft.evm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code /status.internal_tx_height}: the tracer's cursor, or the ingest height when nothing above it has EVM txs; monotonic. */
class InternalTxHeightTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static void block(Statement st, long h, int evmTxs) throws Exception {
        st.execute(
                "INSERT INTO block (height, hash, time, time_ns, block_time_ms, proposer_address, proposer_moniker, proposer_operator, "
                        + "gas_used, gas_wanted, tx_count, evm_tx_count, total_fee, json) VALUES (" + h
                        + ", '\\x00', now(), 0, 0, '\\x00', '', '', 0, 0, "
                        + evmTxs + ", " + evmTxs + ", '[]', '\\x7b7d')");
    }

    static void cursors(Statement st, long ingest, long evm) throws Exception {
        st.execute("UPDATE pipeline_cursor SET height = " + ingest + " WHERE name = 'ingest'");
        st.execute("UPDATE pipeline_cursor SET height = " + evm + " WHERE name = 'evm'");
    }

    @Test
    @DisplayName(
            "caught up over blocks without EVM txs → the ingest height; a new EVM block above the cursor never takes it back")
    void semantics() throws Exception {
        String url = TestDatabase.freshUrl();
        Vertx vertx = weft.vertx();
        WeftNode node = weft.start(weft.config().roles("api").set("database.url", url));
        WebClient client = WebClient.create(vertx);
        int port = TestNodes.httpPort(node);
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            java.util.function.LongSupplier height = () ->
                    TestNodes.get(client, port, "/status").bodyAsJsonObject().getLong("internal_tx_height");
            assertEquals(0, height.getAsLong());
            block(st, 1, 0);
            block(st, 2, 3);
            block(st, 3, 0);
            cursors(st, 3, 0);
            assertEquals(0, height.getAsLong(), "block 2 has EVM txs the tracer has not traced");
            cursors(st, 3, 2);
            assertEquals(3, height.getAsLong(), "nothing to trace above 2 up to 3");
            block(st, 4, 0);
            block(st, 5, 1);
            cursors(st, 5, 2);
            assertEquals(3, height.getAsLong(), "block 5 is not traced yet, but the height reported before stays");
            cursors(st, 5, 5);
            assertEquals(5, height.getAsLong());
        }
    }

    @Test
    @DisplayName("a chain without an EVM reports 0 whatever the cursors say")
    void notEvm() throws Exception {
        String url = TestDatabase.freshUrl();
        Vertx vertx = weft.vertx();
        WeftNode node =
                weft.start(weft.config().roles("api").set("database.url", url).set("chain.vm", "move"));
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            block(st, 1, 0);
            cursors(st, 1, 0);
            var status = TestNodes.get(WebClient.create(vertx), TestNodes.httpPort(node), "/status")
                    .bodyAsJsonObject();
            assertEquals(1L, status.getLong("height"));
            assertEquals(0L, status.getLong("internal_tx_height"));
        }
    }
}
