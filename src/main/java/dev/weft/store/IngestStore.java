package dev.weft.store;

import dev.weft.chain.AccountAddress;
import dev.weft.ingest.BlockJson;
import dev.weft.ingest.IndexedBlock;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Commits a run of consecutive blocks in one transaction: locks the ingest cursor and the totals, skips heights that
 * are already committed (so re-processing is a no-op and counters never double count), refuses a gap, assigns the
 * global tx and EVM tx sequences, and writes every table with one {@code unnest} statement each, pipelined on the
 * transaction's connection. The cursor moves in the same transaction.
 */
public final class IngestStore {
  private static final String LOCK = """
      SELECT c.height, t.blocks, t.txs, t.evm_txs, (SELECT b.time_ns FROM block b WHERE b.height = c.height)
      FROM pipeline_cursor c CROSS JOIN ingest_totals t WHERE c.name = 'ingest' FOR UPDATE OF c, t""";
  private static final String INSERT_BLOCKS = """
      INSERT INTO block (height, hash, time, time_ns, block_time_ms, proposer_address, proposer_moniker,
                         proposer_operator, gas_used, gas_wanted, tx_count, evm_tx_count, total_fee, json)
      SELECT h, hs, timestamptz 'epoch' + (ns / 1000) * interval '1 microsecond', ns, bt, pa, pm, po, gu, gw, tc, ec, tf::jsonb, j
      FROM unnest($1::bigint[], $2::bytea[], $3::bigint[], $4::bigint[], $5::bytea[], $6::text[], $7::text[],
                  $8::bigint[], $9::bigint[], $10::int[], $11::int[], $12::text[], $13::bytea[])
           AS u(h, hs, ns, bt, pa, pm, po, gu, gw, tc, ec, tf, j)
      ON CONFLICT (height) DO NOTHING""";
  private static final String INSERT_TXS = """
      INSERT INTO tx (sequence, height, tx_index, hash, code, signer_id, json)
      SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::bytea[], $5::int[], $6::bigint[], $7::bytea[])
      ON CONFLICT (sequence) DO NOTHING""";
  private static final String INSERT_TX_ACCOUNTS = """
      INSERT INTO tx_account (account_id, sequence, signer)
      SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bool[]) ON CONFLICT DO NOTHING""";
  private static final String INSERT_TX_MSG_TYPES = """
      INSERT INTO tx_msg_type (msg_type_id, sequence)
      SELECT * FROM unnest($1::int[], $2::bigint[]) ON CONFLICT DO NOTHING""";
  private static final String INSERT_MULTI_MSG = """
      INSERT INTO tx_multi_msg (sequence, msg_type_ids)
      SELECT s, m::int[] FROM unnest($1::bigint[], $2::text[]) AS u(s, m) ON CONFLICT DO NOTHING""";
  private static final String INSERT_EVM_TXS = """
      INSERT INTO evm_tx (sequence, height, tx_index, hash, signer_id, json)
      SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::bytea[], $5::bigint[], $6::bytea[])
      ON CONFLICT (sequence) DO NOTHING""";
  private static final String INSERT_EVM_TX_ACCOUNTS = """
      INSERT INTO evm_tx_account (account_id, sequence, signer)
      SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bool[]) ON CONFLICT DO NOTHING""";
  private static final String UPSERT_ACCOUNT_STATS = """
      INSERT INTO account_tx_stats AS s (account_id, txs, signer_txs, evm_txs, evm_signer_txs)
      SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
      ON CONFLICT (account_id) DO UPDATE SET txs = s.txs + EXCLUDED.txs, signer_txs = s.signer_txs + EXCLUDED.signer_txs,
        evm_txs = s.evm_txs + EXCLUDED.evm_txs, evm_signer_txs = s.evm_signer_txs + EXCLUDED.evm_signer_txs""";
  private static final String UPSERT_MSG_TYPE_STATS = """
      INSERT INTO msg_type_stats AS s (msg_type_id, txs) SELECT * FROM unnest($1::int[], $2::bigint[])
      ON CONFLICT (msg_type_id) DO UPDATE SET txs = s.txs + EXCLUDED.txs""";
  private static final String UPDATE_TOTALS = "UPDATE ingest_totals SET blocks = blocks + $1, txs = $2, evm_txs = $3 WHERE id = 1";

  /** A committed block: what the {@code block indexed} event and the metrics need. */
  public record Committed(long height, byte[] hash, int txCount, int evmTxCount, long timeNs) {}

  /** The ingest position: the last committed height, its block time, and the totals. */
  public record Position(long height, Long timeNs, long blocks, long txs, long evmTxs) {}

  private final Pool pool;
  private final AccountStore accounts;
  private final MsgTypeStore msgTypes;

  public IngestStore(Pool pool, AccountStore accounts, MsgTypeStore msgTypes) {
    this.pool = pool;
    this.accounts = accounts;
    this.msgTypes = msgTypes;
  }

  public Future<Position> position() {
    return pool.query(LOCK.replace(" FOR UPDATE OF c, t", "")).execute().map(rows -> position(rows.iterator().next()));
  }

  private static Position position(Row r) {
    return new Position(r.getLong(0), r.getLong(4), r.getLong(1), r.getLong(2), r.getLong(3));
  }

  /** Commits {@code batch} (consecutive heights, ascending); the future holds the blocks actually written. */
  public Future<List<Committed>> commit(List<IndexedBlock> batch) {
    Set<AccountAddress> addrs = new LinkedHashSet<>();
    Set<String> types = new LinkedHashSet<>();
    for (IndexedBlock b : batch) {
      for (IndexedBlock.Tx t : b.txs()) {
        addrs.addAll(t.accounts().keySet());
        types.addAll(t.msgTypes());
      }
      for (IndexedBlock.EvmTx t : b.evmTxs()) addrs.addAll(t.accounts().keySet());
    }
    Map<AccountAddress, Long>[] accountIds = new Map[1];
    Map<String, Integer>[] typeIds = new Map[1];
    return pool.withTransaction(conn -> {
      Future<Position> lock = conn.query(LOCK).execute().map(rows -> position(rows.iterator().next()));
      Future<Map<AccountAddress, Long>> acc = accounts.resolve(conn, addrs);
      Future<Map<String, Integer>> msg = msgTypes.resolve(conn, types);
      return Future.all(lock, acc, msg).compose(x -> {
        accountIds[0] = acc.result();
        typeIds[0] = msg.result();
        return write(conn, batch, lock.result(), acc.result(), msg.result());
      });
    }).onSuccess(done -> {
      accounts.remember(accountIds[0]);
      msgTypes.remember(typeIds[0]);
    });
  }

  private Future<List<Committed>> write(SqlConnection conn, List<IndexedBlock> batch, Position pos,
                                        Map<AccountAddress, Long> accountIds, Map<String, Integer> typeIds) {
    List<IndexedBlock> todo = new ArrayList<>();
    for (IndexedBlock b : batch) if (b.height() > pos.height()) todo.add(b);
    if (todo.isEmpty()) return Future.succeededFuture(List.of());
    long expected = pos.height() + 1;
    boolean empty = pos.height() == 0 && pos.blocks() == 0;
    if (!empty && todo.get(0).height() != expected) {
      return Future.failedFuture(new IllegalStateException("refusing a gap: cursor at " + pos.height() + ", next block " + todo.get(0).height()));
    }
    for (int i = 1; i < todo.size(); i++) {
      if (todo.get(i).height() != todo.get(i - 1).height() + 1) return Future.failedFuture(new IllegalStateException("batch is not consecutive"));
    }
    Rows rows = new Rows(todo, pos, accountIds, typeIds);
    List<Future<?>> writes = new ArrayList<>();
    writes.add(conn.preparedQuery(INSERT_BLOCKS).execute(rows.blocks()));
    if (rows.txCount > 0) {
      writes.add(conn.preparedQuery(INSERT_TXS).execute(rows.txs()));
      writes.add(conn.preparedQuery(INSERT_TX_ACCOUNTS).execute(rows.txAccounts()));
      if (!rows.msgSeq.isEmpty()) writes.add(conn.preparedQuery(INSERT_TX_MSG_TYPES).execute(rows.txMsgTypes()));
      if (!rows.multiSeq.isEmpty()) writes.add(conn.preparedQuery(INSERT_MULTI_MSG).execute(rows.multiMsg()));
      if (!rows.typeStats.isEmpty()) writes.add(conn.preparedQuery(UPSERT_MSG_TYPE_STATS).execute(rows.typeStats()));
    }
    if (rows.evmCount > 0) {
      writes.add(conn.preparedQuery(INSERT_EVM_TXS).execute(rows.evmTxs()));
      writes.add(conn.preparedQuery(INSERT_EVM_TX_ACCOUNTS).execute(rows.evmTxAccounts()));
    }
    if (!rows.accountStats.isEmpty()) writes.add(conn.preparedQuery(UPSERT_ACCOUNT_STATS).execute(rows.accountStats()));
    writes.add(conn.preparedQuery(UPDATE_TOTALS).execute(Tuple.of((long) todo.size(), pos.txs() + rows.txCount, pos.evmTxs() + rows.evmCount)));
    writes.add(StatusStore.advance(conn, StatusStore.INGEST, todo.get(todo.size() - 1).height()));
    return Future.all(writes).map(x -> {
      List<Committed> out = new ArrayList<>(todo.size());
      for (IndexedBlock b : todo) out.add(new Committed(b.height(), b.hash(), b.txCount(), b.evmTxs().size(), b.timeNs()));
      return out;
    });
  }

  /** The column arrays of every table for a run of blocks. */
  private static final class Rows {
    final List<IndexedBlock> blocks;
    final Long[] blockTimes;
    final Buffer[] blockJson;
    int txCount;
    int evmCount;
    final List<Long> txSeq = new ArrayList<>();
    final List<Long> txHeight = new ArrayList<>();
    final List<Integer> txIndex = new ArrayList<>();
    final List<Buffer> txHash = new ArrayList<>();
    final List<Integer> txCode = new ArrayList<>();
    final List<Long> txSigner = new ArrayList<>();
    final List<Buffer> txJson = new ArrayList<>();
    final List<Long> accId = new ArrayList<>();
    final List<Long> accSeq = new ArrayList<>();
    final List<Boolean> accSigner = new ArrayList<>();
    final List<Integer> msgId = new ArrayList<>();
    final List<Long> msgSeq = new ArrayList<>();
    final List<Long> multiSeq = new ArrayList<>();
    final List<String> multiIds = new ArrayList<>();
    final List<Long> evmSeq = new ArrayList<>();
    final List<Long> evmHeight = new ArrayList<>();
    final List<Integer> evmIndex = new ArrayList<>();
    final List<Buffer> evmHash = new ArrayList<>();
    final List<Long> evmSigner = new ArrayList<>();
    final List<Buffer> evmJson = new ArrayList<>();
    final List<Long> evmAccId = new ArrayList<>();
    final List<Long> evmAccSeq = new ArrayList<>();
    final List<Boolean> evmAccSigner = new ArrayList<>();
    /** account id → {txs, signer txs, evm txs, evm signer txs} */
    final Map<Long, long[]> accountStats = new HashMap<>();
    final Map<Integer, long[]> typeStats = new HashMap<>();

    Rows(List<IndexedBlock> blocks, Position pos, Map<AccountAddress, Long> accountIds, Map<String, Integer> typeIds) {
      this.blocks = blocks;
      this.blockTimes = new Long[blocks.size()];
      this.blockJson = new Buffer[blocks.size()];
      Long prev = blocks.get(0).height() == pos.height() + 1 ? pos.timeNs() : null;
      long seq = pos.txs();
      long evmSeqNext = pos.evmTxs();
      for (int bi = 0; bi < blocks.size(); bi++) {
        IndexedBlock b = blocks.get(bi);
        long bt = BlockJson.blockTimeMs(b.timeNs(), prev);
        prev = b.timeNs();
        blockTimes[bi] = bt;
        blockJson[bi] = Buffer.buffer(BlockJson.render(b, bt));
        for (int i = 0; i < b.txs().size(); i++) {
          IndexedBlock.Tx t = b.txs().get(i);
          long s = ++seq;
          txSeq.add(s);
          txHeight.add(b.height());
          txIndex.add(i);
          txHash.add(Buffer.buffer(t.hash()));
          txCode.add(t.code());
          txSigner.add(t.signer() == null ? null : accountIds.get(t.signer()));
          txJson.add(Buffer.buffer(t.json()));
          for (Map.Entry<AccountAddress, Boolean> e : t.accounts().entrySet()) {
            long id = accountIds.get(e.getKey());
            accId.add(id);
            accSeq.add(s);
            accSigner.add(e.getValue());
            long[] st = accountStats.computeIfAbsent(id, k -> new long[4]);
            st[0]++;
            if (e.getValue()) st[1]++;
          }
          List<Integer> ids = new ArrayList<>(t.msgTypes().size());
          for (String type : t.msgTypes()) {
            int id = typeIds.get(type);
            ids.add(id);
            msgId.add(id);
            msgSeq.add(s);
            typeStats.computeIfAbsent(id, k -> new long[1])[0]++;
          }
          if (ids.size() > 1) {
            multiSeq.add(s);
            multiIds.add(ids.toString().replace('[', '{').replace(']', '}').replace(" ", ""));
          }
          txCount++;
        }
        for (IndexedBlock.EvmTx t : b.evmTxs()) {
          long s = ++evmSeqNext;
          evmSeq.add(s);
          evmHeight.add(b.height());
          evmIndex.add(t.index());
          evmHash.add(Buffer.buffer(t.hash()));
          evmSigner.add(t.from() == null ? null : accountIds.get(t.from()));
          evmJson.add(Buffer.buffer(t.json()));
          for (Map.Entry<AccountAddress, Boolean> e : t.accounts().entrySet()) {
            long id = accountIds.get(e.getKey());
            evmAccId.add(id);
            evmAccSeq.add(s);
            evmAccSigner.add(e.getValue());
            long[] st = accountStats.computeIfAbsent(id, k -> new long[4]);
            st[2]++;
            if (e.getValue()) st[3]++;
          }
          evmCount++;
        }
      }
    }

    Tuple blocks() {
      int n = blocks.size();
      Long[] h = new Long[n];
      Buffer[] hs = new Buffer[n];
      Long[] ns = new Long[n];
      Buffer[] pa = new Buffer[n];
      String[] pm = new String[n];
      String[] po = new String[n];
      Long[] gu = new Long[n];
      Long[] gw = new Long[n];
      Integer[] tc = new Integer[n];
      Integer[] ec = new Integer[n];
      String[] tf = new String[n];
      for (int i = 0; i < n; i++) {
        IndexedBlock b = blocks.get(i);
        h[i] = b.height();
        hs[i] = Buffer.buffer(b.hash());
        ns[i] = b.timeNs();
        pa[i] = Buffer.buffer(b.proposerAddress());
        pm[i] = b.proposer().moniker();
        po[i] = b.proposer().operatorAddress();
        gu[i] = b.gasUsed();
        gw[i] = b.gasWanted();
        tc[i] = b.txCount();
        ec[i] = b.evmTxs().size();
        tf[i] = BlockJson.totalFee(b);
      }
      return Tuple.tuple().addValue(h).addValue(hs).addValue(ns).addValue(blockTimes).addValue(pa).addValue(pm)
          .addValue(po).addValue(gu).addValue(gw).addValue(tc).addValue(ec).addValue(tf).addValue(blockJson);
    }

    Tuple txs() {
      return Tuple.tuple().addValue(txSeq.toArray(new Long[0])).addValue(txHeight.toArray(new Long[0]))
          .addValue(txIndex.toArray(new Integer[0])).addValue(txHash.toArray(new Buffer[0]))
          .addValue(txCode.toArray(new Integer[0])).addValue(txSigner.toArray(new Long[0]))
          .addValue(txJson.toArray(new Buffer[0]));
    }

    Tuple txAccounts() {
      return Tuple.tuple().addValue(accId.toArray(new Long[0])).addValue(accSeq.toArray(new Long[0]))
          .addValue(accSigner.toArray(new Boolean[0]));
    }

    Tuple txMsgTypes() {
      return Tuple.tuple().addValue(msgId.toArray(new Integer[0])).addValue(msgSeq.toArray(new Long[0]));
    }

    Tuple multiMsg() {
      return Tuple.tuple().addValue(multiSeq.toArray(new Long[0])).addValue(multiIds.toArray(new String[0]));
    }

    Tuple evmTxs() {
      return Tuple.tuple().addValue(evmSeq.toArray(new Long[0])).addValue(evmHeight.toArray(new Long[0]))
          .addValue(evmIndex.toArray(new Integer[0])).addValue(evmHash.toArray(new Buffer[0]))
          .addValue(evmSigner.toArray(new Long[0])).addValue(evmJson.toArray(new Buffer[0]));
    }

    Tuple evmTxAccounts() {
      return Tuple.tuple().addValue(evmAccId.toArray(new Long[0])).addValue(evmAccSeq.toArray(new Long[0]))
          .addValue(evmAccSigner.toArray(new Boolean[0]));
    }

    Tuple accountStats() {
      int n = accountStats.size();
      Long[] id = new Long[n];
      Long[][] c = new Long[4][n];
      int i = 0;
      for (Map.Entry<Long, long[]> e : accountStats.entrySet()) {
        id[i] = e.getKey();
        for (int k = 0; k < 4; k++) c[k][i] = e.getValue()[k];
        i++;
      }
      return Tuple.tuple().addValue(id).addValue(c[0]).addValue(c[1]).addValue(c[2]).addValue(c[3]);
    }

    Tuple typeStats() {
      int n = typeStats.size();
      Integer[] id = new Integer[n];
      Long[] c = new Long[n];
      int i = 0;
      for (Map.Entry<Integer, long[]> e : typeStats.entrySet()) {
        id[i] = e.getKey();
        c[i++] = e.getValue()[0];
      }
      return Tuple.tuple().addValue(id).addValue(c);
    }
  }
}
