package dev.weft.ingest;

import dev.weft.testsupport.TestDatabase;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The indexed database as comparable rows: every ingest table with dictionary ids replaced by what they stand for
 * (ids depend on batch boundaries, which faults change), JSON columns as digests. Two runs that indexed the same chain
 * must produce equal dumps.
 */
public final class IngestDump {
  private IngestDump() {}

  static final Map<String, String> QUERIES = new LinkedHashMap<>();

  static {
    QUERIES.put("block", "SELECT height, encode(hash,'hex'), time, time_ns, block_time_ms, encode(proposer_address,'hex'), proposer_moniker, proposer_operator, gas_used, gas_wanted, tx_count, evm_tx_count, total_fee::text, md5(json) FROM block ORDER BY height");
    QUERIES.put("tx", "SELECT t.sequence, t.height, t.tx_index, encode(t.hash,'hex'), t.code, encode(a.address,'hex'), md5(t.json) FROM tx t LEFT JOIN account a ON a.id = t.signer_id ORDER BY t.sequence");
    QUERIES.put("tx_account", "SELECT encode(a.address,'hex'), x.sequence, x.signer FROM tx_account x JOIN account a ON a.id = x.account_id ORDER BY 2, 1");
    QUERIES.put("tx_msg_type", "SELECT m.name, x.sequence FROM tx_msg_type x JOIN msg_type m ON m.id = x.msg_type_id ORDER BY 2, 1");
    QUERIES.put("tx_multi_msg", "SELECT x.sequence, (SELECT string_agg(m.name, ',' ORDER BY m.name) FROM msg_type m WHERE m.id = ANY(x.msg_type_ids)) FROM tx_multi_msg x ORDER BY 1");
    QUERIES.put("evm_tx", "SELECT t.sequence, t.height, t.tx_index, encode(t.hash,'hex'), encode(a.address,'hex'), md5(t.json) FROM evm_tx t LEFT JOIN account a ON a.id = t.signer_id ORDER BY t.sequence");
    QUERIES.put("evm_tx_account", "SELECT encode(a.address,'hex'), x.sequence, x.signer FROM evm_tx_account x JOIN account a ON a.id = x.account_id ORDER BY 2, 1");
    QUERIES.put("account_tx_stats", "SELECT encode(a.address,'hex'), s.txs, s.signer_txs, s.evm_txs, s.evm_signer_txs FROM account_tx_stats s JOIN account a ON a.id = s.account_id ORDER BY 1");
    QUERIES.put("msg_type_stats", "SELECT m.name, s.txs FROM msg_type_stats s JOIN msg_type m ON m.id = s.msg_type_id ORDER BY 1");
    QUERIES.put("account", "SELECT encode(address,'hex') FROM account WHERE id IN (SELECT account_id FROM tx_account UNION SELECT account_id FROM evm_tx_account) ORDER BY 1");
    QUERIES.put("ingest_totals", "SELECT blocks, txs, evm_txs FROM ingest_totals");
    QUERIES.put("cursor", "SELECT height FROM pipeline_cursor WHERE name = 'ingest'");
    QUERIES.put("nft_collection", "SELECT encode(addr,'hex'), name, origin_name, search, encode(creator,'hex'), height, time_ns, nft_count FROM nft_collection ORDER BY 1");
    QUERIES.put("nft", "SELECT encode(collection,'hex'), token_id, encode(object_addr,'hex'), encode(owner,'hex'), uri, height, time_ns FROM nft ORDER BY 1, 2");
    QUERIES.put("tx_nft", "SELECT encode(k.collection,'hex'), k.token_id, x.sequence FROM tx_nft x JOIN nft_key k ON k.id = x.nft_id ORDER BY 3, 1, 2");
    QUERIES.put("nft_totals", "SELECT collections FROM nft_totals");
  }

  public static Map<String, List<String>> dump(String url) throws SQLException {
    Map<String, List<String>> out = new LinkedHashMap<>();
    try (Connection c = TestDatabase.jdbc(url); Statement st = c.createStatement()) {
      for (Map.Entry<String, String> q : QUERIES.entrySet()) {
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

  /** The counters equal what counting the rows gives, and sequences are gapless. */
  public static void assertConsistent(String url) throws SQLException {
    try (Connection c = TestDatabase.jdbc(url); Statement st = c.createStatement()) {
      assertEquals(1, scalar(st, "SELECT count(*) FROM ingest_totals t WHERE t.blocks = (SELECT count(*) FROM block) "
          + "AND t.txs = (SELECT count(*) FROM tx) AND t.evm_txs = (SELECT count(*) FROM evm_tx)"), "ingest_totals");
      assertEquals(0, scalar(st, "SELECT count(*) FROM (SELECT sequence, row_number() OVER (ORDER BY sequence) r FROM tx) x WHERE sequence <> r"), "tx sequence gaps");
      assertEquals(0, scalar(st, "SELECT count(*) FROM (SELECT sequence, row_number() OVER (ORDER BY height, tx_index) r FROM tx) x WHERE sequence <> r"), "tx sequence order");
      assertEquals(0, scalar(st, "SELECT count(*) FROM (SELECT sequence, row_number() OVER (ORDER BY height, tx_index) r FROM evm_tx) x WHERE sequence <> r"), "evm sequence");
      assertEquals(0, scalar(st, "SELECT count(*) FROM block b WHERE tx_count <> (SELECT count(*) FROM tx t WHERE t.height = b.height) "
          + "OR evm_tx_count <> (SELECT count(*) FROM evm_tx t WHERE t.height = b.height)"), "block tx counts");
      assertEquals(0, scalar(st, "SELECT count(*) FROM (SELECT height, lag(height) OVER (ORDER BY height) p FROM block) x WHERE p IS NOT NULL AND height <> p + 1"), "block gaps");
      assertEquals(0, scalar(st, """
          SELECT count(*) FROM account a FULL JOIN account_tx_stats s ON s.account_id = a.id
          WHERE coalesce(s.txs, 0) <> (SELECT count(*) FROM tx_account x WHERE x.account_id = a.id)
             OR coalesce(s.signer_txs, 0) <> (SELECT count(*) FROM tx_account x WHERE x.account_id = a.id AND x.signer)
             OR coalesce(s.evm_txs, 0) <> (SELECT count(*) FROM evm_tx_account x WHERE x.account_id = a.id)
             OR coalesce(s.evm_signer_txs, 0) <> (SELECT count(*) FROM evm_tx_account x WHERE x.account_id = a.id AND x.signer)"""), "account stats");
      assertEquals(0, scalar(st, "SELECT count(*) FROM msg_type m FULL JOIN msg_type_stats s ON s.msg_type_id = m.id "
          + "WHERE coalesce(s.txs, 0) <> (SELECT count(*) FROM tx_msg_type x WHERE x.msg_type_id = m.id)"), "msg type stats");
      assertEquals(1, scalar(st, "SELECT count(*) FROM pipeline_cursor c WHERE c.name = 'ingest' AND c.height = (SELECT coalesce(max(height), 0) FROM block)"), "cursor");
      assertEquals(0, scalar(st, "SELECT count(*) FROM nft_collection c WHERE nft_count <> (SELECT count(*) FROM nft n WHERE n.collection = c.addr)"), "nft counts");
      assertEquals(1, scalar(st, "SELECT count(*) FROM nft_totals WHERE collections = (SELECT count(*) FROM nft_collection)"), "collection total");
    }
  }

  public static long scalar(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  public static long scalar(String url, String sql) throws SQLException {
    try (Connection c = TestDatabase.jdbc(url); Statement st = c.createStatement()) {
      return scalar(st, sql);
    }
  }
}
