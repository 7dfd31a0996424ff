package dev.weft.node;

import dev.weft.devnet.DevnetEndpoints;
import dev.weft.ingest.IngestDump;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The devnet's three chains as the multi-chain fault tests use them: a history devnet whose three chains all carry
 * generated traffic up to a fixed height, an indexing node's configuration pointing at its endpoints (so the indexer may
 * run in another JVM), and each chain's indexed rows per schema as comparable dumps.
 */
final class DevnetChains {
    static final String EVM = "weft-devnet-1";
    static final String L1 = "weft-l1-1";
    static final String MOVE = "weft-move-1";
    static final List<String> ALL = List.of(EVM, L1, MOVE);

    private DevnetChains() {}

    /** A history devnet (same seed and genesis every run) with traffic on all three chains up to {@code height}. */
    static TestConfig devnet(TestConfig c, long height, int txsPerBlock) {
        c.roles("devnet")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", height)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 42)
                .set("devnet.txs_per_block", txsPerBlock);
        for (String id : List.of(L1, MOVE))
            c.set("devnet.chains." + id + ".traffic_blocks", height).set("devnet.chains." + id + ".txs_per_block", 4);
        return c;
    }

    /**
     * An ingest node's configuration for the three chains at the devnet's endpoints (explicit URLs: no devnet role),
     * with short retries and small commit runs, so faults and kills land mid-way.
     */
    static TestConfig indexer(TestConfig c, DevnetEndpoints devnet) {
        DevnetEndpoints.Chain evm = devnet.chain(EVM).orElseThrow();
        c.roles("ingest")
                .set("bridge.tcp_enabled", false)
                .set("ingest.poll_interval", "50ms")
                .set("ingest.retry_base", "5ms")
                .set("ingest.retry_max", "200ms")
                .set("ingest.request_timeout", "5s")
                .set("ingest.window", 8)
                .set("ingest.commit_blocks", 10)
                .set("cluster.standby_poll", "200ms")
                .set("chain.rpc", new JsonArray().add(devnet.url(evm.rpcPort())))
                .set("chain.rest", new JsonArray().add(devnet.url(evm.restPort())))
                .set("chain.json_rpc", new JsonArray().add(devnet.url(evm.jsonRpcPort())));
        for (String id : List.of(L1, MOVE)) {
            DevnetEndpoints.Chain ch = devnet.chain(id).orElseThrow();
            c.set(
                    "chains." + id,
                    new JsonObject()
                            .put("vm", "move")
                            .put("bech32_prefix", "init")
                            .put("rpc", new JsonArray().add(devnet.url(ch.rpcPort())))
                            .put("rest", new JsonArray().add(devnet.url(ch.restPort()))));
        }
        return c;
    }

    static String url(TestConfig c) {
        return (String) c.get("database.url");
    }

    /** The schema of a chain's tables: {@code public} for the chain block's, {@code chain_<id>} for the others. */
    static String schema(String chainId) {
        return chainId.equals(EVM) ? "public" : "chain_" + chainId.replace('-', '_');
    }

    /** A chain's ingest cursor: 0 before its first commit (or before its schema exists), -1 if unreadable. */
    static long cursor(String url, String chainId) {
        try (Connection c = TestDatabase.jdbc(url);
                Statement set = c.createStatement()) {
            set.execute("SET search_path TO " + schema(chainId) + ", public");
            try (PreparedStatement st = c.prepareStatement("SELECT height FROM pipeline_cursor WHERE name = 'ingest'");
                    ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        } catch (SQLException e) {
            return e.getSQLState() != null && e.getSQLState().equals("42P01") ? 0 : -1;
        }
    }

    /**
     * Every ingest table of one chain's schema ({@link IngestDump#QUERIES}, dictionary ids replaced by what they stand
     * for), the shared event log filtered to the chain's own events, and a digest per table over the rows.
     */
    static Map<String, List<String>> dump(String url, String chainId) throws SQLException {
        Map<String, String> queries = new LinkedHashMap<>(IngestDump.QUERIES);
        // the event log is shared by every chain (public): one chain's events in log order
        queries.put(
                "event_log",
                "SELECT chain_id, topic, height, encode(account,'hex'), encode(tx_hash,'hex'), payload::text FROM event_log "
                        + "WHERE topic IN ('blocks', 'txs') AND chain_id = '" + chainId + "' ORDER BY sequence");
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            st.execute("SET search_path TO " + schema(chainId) + ", public");
            for (Map.Entry<String, String> q : queries.entrySet()) {
                List<String> rows = new ArrayList<>();
                try (ResultSet rs = st.executeQuery(q.getValue())) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        StringBuilder sb = new StringBuilder();
                        for (int i = 1; i <= n; i++) sb.append(i > 1 ? "|" : "").append(rs.getString(i));
                        rows.add(sb.toString());
                    }
                }
                out.put(q.getKey(), rows);
            }
        }
        return out;
    }
}
