package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The indexed database as comparable rows: every ingest table ({@link #QUERIES}), the EVM tracer's
 * ({@link #INTERNAL_TX_QUERIES}) and the rich list's ({@link #RICH_LIST_QUERIES}), with dictionary ids replaced by
 * what they stand for (ids depend on batch boundaries, which faults change), JSON columns as digests. Two runs that
 * indexed the same chain must produce equal dumps.
 */
public final class IngestDump {
    private IngestDump() {}

    public static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put(
                "block",
                "SELECT height, encode(hash,'hex'), time, time_ns, block_time_ms, encode(proposer_address,'hex'), proposer_moniker, proposer_operator, gas_used, gas_wanted, tx_count, evm_tx_count, total_fee::text, md5(json) FROM block ORDER BY height");
        QUERIES.put(
                "tx",
                "SELECT t.sequence, t.height, t.tx_index, encode(t.hash,'hex'), t.code, encode(a.address,'hex'), md5(t.json) FROM tx t LEFT JOIN account a ON a.id = t.signer_id ORDER BY t.sequence");
        QUERIES.put(
                "tx_account",
                "SELECT encode(a.address,'hex'), x.sequence, x.signer FROM tx_account x JOIN account a ON a.id = x.account_id ORDER BY 2, 1");
        QUERIES.put(
                "tx_msg_type",
                "SELECT m.name, x.sequence FROM tx_msg_type x JOIN msg_type m ON m.id = x.msg_type_id ORDER BY 2, 1");
        QUERIES.put(
                "tx_multi_msg",
                "SELECT x.sequence, (SELECT string_agg(m.name, ',' ORDER BY m.name) FROM msg_type m WHERE m.id = ANY(x.msg_type_ids)) FROM tx_multi_msg x ORDER BY 1");
        QUERIES.put(
                "evm_tx",
                "SELECT t.sequence, t.height, t.tx_index, encode(t.hash,'hex'), encode(a.address,'hex'), md5(t.json) FROM evm_tx t LEFT JOIN account a ON a.id = t.signer_id ORDER BY t.sequence");
        QUERIES.put(
                "evm_tx_account",
                "SELECT encode(a.address,'hex'), x.sequence, x.signer FROM evm_tx_account x JOIN account a ON a.id = x.account_id ORDER BY 2, 1");
        QUERIES.put(
                "account_tx_stats",
                "SELECT encode(a.address,'hex'), s.txs, s.signer_txs, s.evm_txs, s.evm_signer_txs FROM account_tx_stats s JOIN account a ON a.id = s.account_id ORDER BY 1");
        QUERIES.put(
                "msg_type_stats",
                "SELECT m.name, s.txs FROM msg_type_stats s JOIN msg_type m ON m.id = s.msg_type_id ORDER BY 1");
        QUERIES.put(
                "account",
                "SELECT encode(address,'hex') FROM account WHERE id IN (SELECT account_id FROM tx_account UNION SELECT account_id FROM evm_tx_account) ORDER BY 1");
        // the durable event log's ingest events, in log order (sequences left out: a rolled-back commit leaves a gap)
        QUERIES.put(
                "event_log",
                "SELECT chain_id, topic, height, encode(account,'hex'), encode(tx_hash,'hex'), payload::text FROM event_log "
                        + "WHERE topic IN ('blocks', 'txs') ORDER BY sequence");
        QUERIES.put("ingest_totals", "SELECT blocks, txs, evm_txs FROM ingest_totals");
        QUERIES.put("cursor", "SELECT height FROM pipeline_cursor WHERE name = 'ingest'");
        QUERIES.put(
                "nft_collection",
                "SELECT encode(addr,'hex'), name, origin_name, search, encode(creator,'hex'), height, time_ns, nft_count FROM nft_collection ORDER BY 1");
        QUERIES.put(
                "nft",
                "SELECT encode(collection,'hex'), token_id, encode(object_addr,'hex'), encode(owner,'hex'), uri, height, time_ns FROM nft ORDER BY 1, 2");
        QUERIES.put(
                "tx_nft",
                "SELECT encode(k.collection,'hex'), k.token_id, x.sequence FROM tx_nft x JOIN nft_key k ON k.id = x.nft_id ORDER BY 3, 1, 2");
        QUERIES.put("nft_totals", "SELECT collections FROM nft_totals");
        QUERIES.put(
                "nft_activity",
                "SELECT encode(collection,'hex'), sequence, position, token_id, kind, encode(account,'hex'), height FROM nft_activity ORDER BY 1, 2, 3");
        QUERIES.put("nft_collection_tx", "SELECT encode(addr,'hex'), sequence FROM nft_collection ORDER BY 1");
        // row by row on the natural key: a pair without live tokens has no row, however commit runs were cut
        QUERIES.put(
                "nft_owner_collection",
                "SELECT encode(owner,'hex'), encode(collection,'hex'), tokens FROM nft_owner_collection ORDER BY 1, 2");
    }

    /** The EVM tracer's tables (account ids replaced by addresses: ids depend on commit order). */
    public static final Map<String, String> INTERNAL_TX_QUERIES = new LinkedHashMap<>();

    static {
        INTERNAL_TX_QUERIES.put(
                "evm_internal_tx",
                "SELECT t.sequence, t.height, encode(t.hash, 'hex'), t.frame_index, t.parent_index, t.type, "
                        + "encode(f.address, 'hex'), encode(a.address, 'hex'), md5(t.input), md5(t.output), encode(t.value, 'hex'), encode(t.gas, 'hex'), "
                        + "encode(t.gas_used, 'hex'), t.error, t.revert_reason, md5(t.json) FROM evm_internal_tx t LEFT JOIN account f ON f.id = t.from_id "
                        + "LEFT JOIN account a ON a.id = t.to_id ORDER BY t.sequence");
        INTERNAL_TX_QUERIES.put(
                "evm_internal_tx_account",
                "SELECT encode(a.address, 'hex'), x.sequence FROM evm_internal_tx_account x JOIN account a ON a.id = x.account_id ORDER BY 2, 1");
        INTERNAL_TX_QUERIES.put(
                "account_internal_tx_stats",
                "SELECT encode(a.address, 'hex'), s.internal_txs FROM account_internal_tx_stats s JOIN account a ON a.id = s.account_id ORDER BY 1");
        INTERNAL_TX_QUERIES.put("evm_internal_totals", "SELECT internal_txs FROM evm_internal_totals");
        INTERNAL_TX_QUERIES.put("evm_cursor", "SELECT height FROM pipeline_cursor WHERE name = 'evm'");
        INTERNAL_TX_QUERIES.put(
                "internal_tx_events",
                "SELECT chain_id, height, payload::text FROM event_log WHERE topic = 'internal-txs' ORDER BY sequence");
    }

    /**
     * The rich list's tables: every balance row by contract and account (zero balances included: from genesis a pair has
     * a row once it moved, however runs were cut), holder counts by contract, the denom mapping and the cursor.
     */
    public static final Map<String, String> RICH_LIST_QUERIES = new LinkedHashMap<>();

    static {
        RICH_LIST_QUERIES.put(
                "rich_list",
                "SELECT encode(t.contract, 'hex'), encode(r.account, 'hex'), r.amount::text FROM rich_list r "
                        + "JOIN rich_list_token t ON t.id = r.token_id ORDER BY 1, 2");
        RICH_LIST_QUERIES.put(
                "rich_list_token", "SELECT encode(contract, 'hex'), holders FROM rich_list_token ORDER BY 1");
        RICH_LIST_QUERIES.put(
                "evm_denom", "SELECT denom, denom_key, encode(contract, 'hex') FROM evm_denom ORDER BY 1");
        RICH_LIST_QUERIES.put("richlist_cursor", "SELECT height FROM pipeline_cursor WHERE name = 'richlist'");
    }

    public static Map<String, List<String>> dump(String url) throws SQLException {
        return dump(url, QUERIES);
    }

    /** The rows of each query, by the query's name. */
    public static Map<String, List<String>> dump(String url, Map<String, String> queries) throws SQLException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
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

    /** Table by table, so a difference names its table. */
    public static void assertSame(Map<String, List<String>> expected, Map<String, List<String>> actual) {
        for (String table : expected.keySet()) assertEquals(expected.get(table), actual.get(table), "table " + table);
    }

    /**
     * The event log holds exactly one {@code blocks} event per indexed block and one {@code txs} event per involved
     * account row ({@code tx_account}), nothing else, in height order, each block's event before its txs'.
     */
    static void assertEventsMatchData(Statement st) throws SQLException {
        assertEquals(
                scalar(st, "SELECT count(*) FROM block"),
                scalar(st, "SELECT count(*) FROM event_log WHERE topic = 'blocks'"),
                "block events = blocks indexed");
        assertEquals(
                0,
                scalar(
                        st,
                        "SELECT count(*) FROM block b FULL JOIN (SELECT height FROM event_log WHERE topic = 'blocks') e "
                                + "ON e.height = b.height WHERE b.height IS NULL OR e.height IS NULL"),
                "a block event for every block, none without");
        assertEquals(
                scalar(st, "SELECT count(*) FROM tx_account"),
                scalar(st, "SELECT count(*) FROM event_log WHERE topic = 'txs'"),
                "tx events = involved-account rows");
        assertEquals(0, scalar(st, """
          SELECT count(*) FROM (SELECT a.address, t.hash, t.height FROM tx_account x JOIN account a ON a.id = x.account_id
                                JOIN tx t ON t.sequence = x.sequence) d
          FULL JOIN (SELECT account, tx_hash, height FROM event_log WHERE topic = 'txs') e
            ON e.account = d.address AND e.tx_hash = d.hash AND e.height = d.height
          WHERE d.address IS NULL OR e.account IS NULL"""), "a tx event for every involved account, none without");
        assertEquals(0, scalar(st, """
          SELECT count(*) FROM (SELECT height, topic, lag(height) OVER (ORDER BY sequence) p,
                                       lag(topic) OVER (ORDER BY sequence) pt FROM event_log WHERE topic IN ('blocks', 'txs')) x
          WHERE height < p OR (topic = 'txs' AND pt IS NULL) OR (height > p AND topic <> 'blocks')"""), "events in order");
    }

    /** The counters equal what counting the rows gives, and sequences are gapless. */
    public static void assertConsistent(String url) throws SQLException {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            assertEquals(
                    1,
                    scalar(
                            st,
                            "SELECT count(*) FROM ingest_totals t WHERE t.blocks = (SELECT count(*) FROM block) "
                                    + "AND t.txs = (SELECT count(*) FROM tx) AND t.evm_txs = (SELECT count(*) FROM evm_tx)"),
                    "ingest_totals");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM (SELECT sequence, row_number() OVER (ORDER BY sequence) r FROM tx) x WHERE sequence <> r"),
                    "tx sequence gaps");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM (SELECT sequence, row_number() OVER (ORDER BY height, tx_index) r FROM tx) x WHERE sequence <> r"),
                    "tx sequence order");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM (SELECT sequence, row_number() OVER (ORDER BY height, tx_index) r FROM evm_tx) x WHERE sequence <> r"),
                    "evm sequence");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM block b WHERE tx_count <> (SELECT count(*) FROM tx t WHERE t.height = b.height) "
                                    + "OR evm_tx_count <> (SELECT count(*) FROM evm_tx t WHERE t.height = b.height)"),
                    "block tx counts");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM (SELECT height, lag(height) OVER (ORDER BY height) p FROM block) x WHERE p IS NOT NULL AND height <> p + 1"),
                    "block gaps");
            assertEquals(0, scalar(st, """
          SELECT count(*) FROM account a FULL JOIN account_tx_stats s ON s.account_id = a.id
          WHERE coalesce(s.txs, 0) <> (SELECT count(*) FROM tx_account x WHERE x.account_id = a.id)
             OR coalesce(s.signer_txs, 0) <> (SELECT count(*) FROM tx_account x WHERE x.account_id = a.id AND x.signer)
             OR coalesce(s.evm_txs, 0) <> (SELECT count(*) FROM evm_tx_account x WHERE x.account_id = a.id)
             OR coalesce(s.evm_signer_txs, 0) <> (SELECT count(*) FROM evm_tx_account x WHERE x.account_id = a.id AND x.signer)"""), "account stats");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM msg_type m FULL JOIN msg_type_stats s ON s.msg_type_id = m.id "
                                    + "WHERE coalesce(s.txs, 0) <> (SELECT count(*) FROM tx_msg_type x WHERE x.msg_type_id = m.id)"),
                    "msg type stats");
            assertEquals(
                    1,
                    scalar(
                            st,
                            "SELECT count(*) FROM pipeline_cursor c WHERE c.name = 'ingest' AND c.height = (SELECT coalesce(max(height), 0) FROM block)"),
                    "cursor");
            assertEventsMatchData(st);
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM nft_collection c WHERE nft_count <> (SELECT count(*) FROM nft n WHERE n.collection = c.addr)"),
                    "nft counts");
            assertEquals(
                    1,
                    scalar(
                            st,
                            "SELECT count(*) FROM nft_totals WHERE collections = (SELECT count(*) FROM nft_collection)"),
                    "collection total");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM (SELECT owner, collection, count(*) AS k FROM nft GROUP BY owner, collection) x "
                                    + "FULL JOIN nft_owner_collection s USING (owner, collection) WHERE coalesce(x.k, 0) <> coalesce(s.tokens, 0)"),
                    "nft owner counts");
            assertEquals(
                    0,
                    scalar(st, "SELECT count(*) FROM nft_owner_collection WHERE tokens <= 0"),
                    "nft owner rows without tokens");
        }
    }

    /** The tracer's counters equal its rows, sequences are gapless in chain order, no frame twice. */
    public static void assertInternalTxsConsistent(String url) throws SQLException {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            assertEquals(
                    1,
                    scalar(
                            st,
                            "SELECT count(*) FROM evm_internal_totals WHERE internal_txs = (SELECT count(*) FROM evm_internal_tx)"),
                    "internal tx total");
            // one internal-txs event per traced height (every height with EVM txs up to the tracer's cursor), with its
            // count, none twice
            assertEquals(0, scalar(st, """
              SELECT count(*) FROM (SELECT b.height, (SELECT count(*) FROM evm_internal_tx t WHERE t.height = b.height) AS n
                                    FROM block b, pipeline_cursor c
                                    WHERE c.name = 'evm' AND b.evm_tx_count > 0 AND b.height <= c.height) d
              FULL JOIN (SELECT height, (payload->>'count')::bigint AS n FROM event_log WHERE topic = 'internal-txs') e
                ON e.height = d.height AND e.n = d.n
              WHERE d.height IS NULL OR e.height IS NULL"""), "an internal-txs event for every traced height, none without");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM (SELECT height FROM event_log WHERE topic = 'internal-txs' GROUP BY height HAVING count(*) > 1) x"),
                    "internal-txs events once per height");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM (SELECT sequence, row_number() OVER (ORDER BY height, sequence) r FROM evm_internal_tx) x WHERE sequence <> r"),
                    "internal tx sequence");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM (SELECT hash, frame_index FROM evm_internal_tx GROUP BY 1, 2 HAVING count(*) > 1) x"),
                    "internal tx duplicates");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM account_internal_tx_stats s "
                                    + "WHERE s.internal_txs <> (SELECT count(*) FROM evm_internal_tx_account x WHERE x.account_id = s.account_id)"),
                    "internal tx account counters");
        }
    }

    /** Holder counts equal the positive balances; no balance is negative. */
    public static void assertRichListConsistent(String url) throws SQLException {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            assertEquals(0, scalar(st, "SELECT count(*) FROM rich_list WHERE amount < 0"), "negative balances");
            // one richlist event per rich-list transaction: heights increasing in log order, the last at the cursor
            assertEquals(0, scalar(st, """
              SELECT count(*) FROM (SELECT height, lag(height) OVER (ORDER BY sequence) p FROM event_log WHERE topic = 'richlist') x
              WHERE height <= p"""), "richlist events: heights increase, none twice");
            assertEquals(1, scalar(st, """
              SELECT count(*) FROM pipeline_cursor c
              WHERE c.name = 'richlist' AND (c.height = 0 OR c.height = (SELECT max(height) FROM event_log WHERE topic = 'richlist'))"""), "the last richlist event is at the cursor");
            assertEquals(
                    0,
                    scalar(
                            st,
                            "SELECT count(*) FROM rich_list_token t WHERE holders <> (SELECT count(*) FROM rich_list r WHERE r.token_id = t.id AND r.amount > 0)"),
                    "holder counters");
        }
    }

    public static long scalar(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    public static long scalar(String url, String sql) throws SQLException {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            return scalar(st, sql);
        }
    }
}
