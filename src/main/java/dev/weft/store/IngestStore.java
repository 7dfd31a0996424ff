package dev.weft.store;

import dev.weft.chain.AccountAddress;
import dev.weft.ingest.BlockJson;
import dev.weft.ingest.IndexedBlock;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes runs of consecutive blocks, one transaction per run. A run is prepared off the event loop into one
 * {@code unnest} statement per table ({@link #prepare}, pure CPU), then committed as a single pipelined burst
 * ({@link #commit}): its first statement locks the cursor and the totals and aborts the transaction unless they are
 * exactly where the writer expects them, so a commit never leaves a gap, never writes a height twice and never
 * double counts; dictionary ids (accounts, message types) are resolved by joins inside the statements, so no
 * statement waits for another's result. The cursor moves in the same transaction.
 */
public final class IngestStore {
  private static final String POSITION = """
      SELECT c.height, t.blocks, t.txs, t.evm_txs, (SELECT b.time_ns FROM block b WHERE b.height = c.height)
      FROM pipeline_cursor c CROSS JOIN ingest_totals t WHERE c.name = 'ingest'""";
  private static final String EXPECT = "SELECT weft_ingest_expect($1, $2, $3)";
  private static final String NEW_ACCOUNTS = """
      INSERT INTO account (address) SELECT DISTINCT v FROM unnest($1::bytea[]) AS v ORDER BY v ON CONFLICT (address) DO NOTHING""";
  private static final String NEW_MSG_TYPES = """
      INSERT INTO msg_type (name) SELECT DISTINCT v FROM unnest($1::text[]) AS v ORDER BY v ON CONFLICT (name) DO NOTHING""";
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
      SELECT u.s, u.h, u.i, u.hs, u.c, a.id, u.j
      FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::bytea[], $5::int[], $6::bytea[], $7::bytea[]) AS u(s, h, i, hs, c, sg, j)
      LEFT JOIN account a ON a.address = u.sg
      ON CONFLICT (sequence) DO NOTHING""";
  private static final String INSERT_TX_ACCOUNTS = """
      INSERT INTO tx_account (account_id, sequence, signer)
      SELECT a.id, u.s, u.sg FROM unnest($1::bytea[], $2::bigint[], $3::bool[]) AS u(ad, s, sg) JOIN account a ON a.address = u.ad
      ON CONFLICT DO NOTHING""";
  private static final String INSERT_TX_MSG_TYPES = """
      INSERT INTO tx_msg_type (msg_type_id, sequence)
      SELECT m.id, u.s FROM unnest($1::text[], $2::bigint[]) AS u(n, s) JOIN msg_type m ON m.name = u.n
      ON CONFLICT DO NOTHING""";
  private static final String INSERT_MULTI_MSG = """
      INSERT INTO tx_multi_msg (sequence, msg_type_ids)
      SELECT u.s, array_agg(m.id ORDER BY m.id) FROM unnest($1::bigint[], $2::text[]) AS u(s, n) JOIN msg_type m ON m.name = u.n
      GROUP BY u.s ON CONFLICT DO NOTHING""";
  private static final String INSERT_EVM_TXS = """
      INSERT INTO evm_tx (sequence, height, tx_index, hash, signer_id, json)
      SELECT u.s, u.h, u.i, u.hs, a.id, u.j
      FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::bytea[], $5::bytea[], $6::bytea[]) AS u(s, h, i, hs, f, j)
      LEFT JOIN account a ON a.address = u.f
      ON CONFLICT (sequence) DO NOTHING""";
  private static final String INSERT_EVM_TX_ACCOUNTS = """
      INSERT INTO evm_tx_account (account_id, sequence, signer)
      SELECT a.id, u.s, u.sg FROM unnest($1::bytea[], $2::bigint[], $3::bool[]) AS u(ad, s, sg) JOIN account a ON a.address = u.ad
      ON CONFLICT DO NOTHING""";
  private static final String UPSERT_ACCOUNT_STATS = """
      INSERT INTO account_tx_stats AS s (account_id, txs, signer_txs, evm_txs, evm_signer_txs)
      SELECT a.id, u.t, u.st, u.e, u.se FROM unnest($1::bytea[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
        AS u(ad, t, st, e, se) JOIN account a ON a.address = u.ad
      ON CONFLICT (account_id) DO UPDATE SET txs = s.txs + EXCLUDED.txs, signer_txs = s.signer_txs + EXCLUDED.signer_txs,
        evm_txs = s.evm_txs + EXCLUDED.evm_txs, evm_signer_txs = s.evm_signer_txs + EXCLUDED.evm_signer_txs""";
  private static final String UPSERT_MSG_TYPE_STATS = """
      INSERT INTO msg_type_stats AS s (msg_type_id, txs)
      SELECT m.id, u.t FROM unnest($1::text[], $2::bigint[]) AS u(n, t) JOIN msg_type m ON m.name = u.n
      ON CONFLICT (msg_type_id) DO UPDATE SET txs = s.txs + EXCLUDED.txs""";
  private static final String UPDATE_TOTALS = "UPDATE ingest_totals SET blocks = $1, txs = $2, evm_txs = $3 WHERE id = 1";

  /** Where ingestion stands: the last committed height, its block time (null when none), and the totals. */
  public record Position(long height, Long timeNs, long blocks, long txs, long evmTxs) {
    public boolean empty() {
      return height == 0 && blocks == 0;
    }
  }

  /** A committed block: what the {@code block indexed} event and the metrics need. */
  public record Committed(long height, byte[] hash, int txCount, int evmTxCount, long timeNs) {}

  /** A run of blocks ready to commit: its statements, and the position before and after it. */
  public static final class Batch {
    private final List<IndexedBlock> blocks;
    private final Position before;
    private final Position after;
    private final CommitBurst statements = new CommitBurst();
    private final Set<AccountAddress> accounts;
    private final Set<String> msgTypes;

    private Batch(List<IndexedBlock> blocks, Position before, Position after, Set<AccountAddress> accounts, Set<String> msgTypes) {
      this.blocks = blocks;
      this.before = before;
      this.after = after;
      this.accounts = accounts;
      this.msgTypes = msgTypes;
    }

    private void add(String statement, Tuple t) {
      statements.add(statement, t);
    }

    public Position before() {
      return before;
    }

    public Position after() {
      return after;
    }

    public long firstHeight() {
      return blocks.get(0).height();
    }

    public long lastHeight() {
      return blocks.get(blocks.size() - 1).height();
    }

    public List<Committed> committed() {
      List<Committed> out = new ArrayList<>(blocks.size());
      for (IndexedBlock b : blocks) out.add(new Committed(b.height(), b.hash(), b.txCount(), b.evmTxs().size(), b.timeNs()));
      return out;
    }
  }

  private final Pool pool;
  /** Dictionary values known to be committed: left out of the dictionary inserts. */
  private final Lru<AccountAddress, Boolean> knownAccounts;
  private final Lru<String, Boolean> knownMsgTypes = new Lru<>(10_000);

  public IngestStore(Pool pool, int accountCacheSize) {
    this.pool = pool;
    this.knownAccounts = new Lru<>(accountCacheSize);
  }

  public Future<Position> position() {
    return pool.query(POSITION).execute().map(rows -> {
      Row r = rows.iterator().next();
      return new Position(r.getLong(0), r.getLong(4), r.getLong(1), r.getLong(2), r.getLong(3));
    });
  }

  /**
   * Builds the statements of a run of consecutive blocks that directly follows {@code before}. Pure CPU work (array
   * building, block JSON): call it on a worker thread.
   */
  public Batch prepare(List<IndexedBlock> blocks, Position before) {
    IndexedBlock first = blocks.get(0);
    if (!before.empty() && first.height() != before.height() + 1) {
      throw new IllegalArgumentException("block " + first.height() + " does not follow height " + before.height());
    }
    for (int i = 1; i < blocks.size(); i++) {
      if (blocks.get(i).height() != blocks.get(i - 1).height() + 1) throw new IllegalArgumentException("blocks are not consecutive");
    }
    Columns c = new Columns(blocks, first.height() == before.height() + 1 ? before.timeNs() : null, before.txs(), before.evmTxs());
    IndexedBlock last = blocks.get(blocks.size() - 1);
    Position after = new Position(last.height(), last.timeNs(), before.blocks() + blocks.size(), before.txs() + c.txCount,
        before.evmTxs() + c.evmCount);
    Batch b = new Batch(blocks, before, after, c.addresses, c.typeNames);
    b.add(EXPECT, Tuple.of(before.height(), before.txs(), before.evmTxs()));
    List<Buffer> unknown = new ArrayList<>();
    for (AccountAddress a : c.addresses) if (knownAccounts.get(a) == null) unknown.add(Buffer.buffer(a.bytes()));
    if (!unknown.isEmpty()) b.add(NEW_ACCOUNTS, Tuple.tuple().addValue(unknown.toArray(new Buffer[0])));
    List<String> unknownTypes = new ArrayList<>();
    for (String t : c.typeNames) if (knownMsgTypes.get(t) == null) unknownTypes.add(t);
    if (!unknownTypes.isEmpty()) b.add(NEW_MSG_TYPES, Tuple.tuple().addValue(unknownTypes.toArray(new String[0])));
    b.add(INSERT_BLOCKS, c.blocks());
    if (c.txCount > 0) {
      b.add(INSERT_TXS, Tuple.tuple().addValue(longs(c.txSeq)).addValue(longs(c.txHeight)).addValue(ints(c.txIndex))
          .addValue(bufs(c.txHash)).addValue(ints(c.txCode)).addValue(bufs(c.txSigner)).addValue(bufs(c.txJson)));
      b.add(INSERT_TX_ACCOUNTS, Tuple.tuple().addValue(bufs(c.accAddr)).addValue(longs(c.accSeq)).addValue(c.accSigner.toArray(new Boolean[0])));
      if (!c.msgSeq.isEmpty()) b.add(INSERT_TX_MSG_TYPES, Tuple.tuple().addValue(strings(c.msgName)).addValue(longs(c.msgSeq)));
      if (!c.multiSeq.isEmpty()) b.add(INSERT_MULTI_MSG, Tuple.tuple().addValue(longs(c.multiSeq)).addValue(strings(c.multiName)));
      if (!c.typeStats.isEmpty()) {
        b.add(UPSERT_MSG_TYPE_STATS, Tuple.tuple().addValue(strings(new ArrayList<>(c.typeStats.keySet())))
            .addValue(longs(new ArrayList<>(c.typeStats.values()))));
      }
    }
    if (c.evmCount > 0) {
      b.add(INSERT_EVM_TXS, Tuple.tuple().addValue(longs(c.evmSeq)).addValue(longs(c.evmHeight)).addValue(ints(c.evmIndex))
          .addValue(bufs(c.evmHash)).addValue(bufs(c.evmFrom)).addValue(bufs(c.evmJson)));
      b.add(INSERT_EVM_TX_ACCOUNTS, Tuple.tuple().addValue(bufs(c.evmAccAddr)).addValue(longs(c.evmAccSeq))
          .addValue(c.evmAccSigner.toArray(new Boolean[0])));
    }
    if (!c.accountStats.isEmpty()) b.add(UPSERT_ACCOUNT_STATS, c.accountStats());
    b.add(UPDATE_TOTALS, Tuple.of(after.blocks(), after.txs(), after.evmTxs()));
    b.add(StatusStore.ADVANCE, Tuple.of(StatusStore.INGEST, after.height()));
    return b;
  }

  /**
   * Commits a prepared run: every statement is sent at once on one connection and runs in one transaction. Fails with
   * {@link PositionMovedException} when the database is not at {@link Batch#before()}.
   */
  public Future<Void> commit(Batch b) {
    return b.statements.run(pool).onSuccess(v -> {
      Map<AccountAddress, Boolean> accounts = new HashMap<>();
      for (AccountAddress a : b.accounts) accounts.put(a, Boolean.TRUE);
      knownAccounts.putAll(accounts);
      Map<String, Boolean> types = new HashMap<>();
      for (String t : b.msgTypes) types.put(t, Boolean.TRUE);
      knownMsgTypes.putAll(types);
    });
  }

  private static Long[] longs(List<Long> l) {
    return l.toArray(new Long[0]);
  }

  private static Integer[] ints(List<Integer> l) {
    return l.toArray(new Integer[0]);
  }

  private static String[] strings(List<String> l) {
    return l.toArray(new String[0]);
  }

  private static Buffer[] bufs(List<Buffer> l) {
    return l.toArray(new Buffer[0]);
  }

  /** The column lists of every table for a run of blocks. */
  private static final class Columns {
    final List<IndexedBlock> blocks;
    final Long[] blockTimes;
    final Buffer[] blockJson;
    int txCount;
    int evmCount;
    final Set<AccountAddress> addresses = new LinkedHashSet<>();
    final Set<String> typeNames = new LinkedHashSet<>();
    final List<Long> txSeq = new ArrayList<>();
    final List<Long> txHeight = new ArrayList<>();
    final List<Integer> txIndex = new ArrayList<>();
    final List<Buffer> txHash = new ArrayList<>();
    final List<Integer> txCode = new ArrayList<>();
    final List<Buffer> txSigner = new ArrayList<>();
    final List<Buffer> txJson = new ArrayList<>();
    final List<Buffer> accAddr = new ArrayList<>();
    final List<Long> accSeq = new ArrayList<>();
    final List<Boolean> accSigner = new ArrayList<>();
    final List<String> msgName = new ArrayList<>();
    final List<Long> msgSeq = new ArrayList<>();
    final List<Long> multiSeq = new ArrayList<>();
    final List<String> multiName = new ArrayList<>();
    final List<Long> evmSeq = new ArrayList<>();
    final List<Long> evmHeight = new ArrayList<>();
    final List<Integer> evmIndex = new ArrayList<>();
    final List<Buffer> evmHash = new ArrayList<>();
    final List<Buffer> evmFrom = new ArrayList<>();
    final List<Buffer> evmJson = new ArrayList<>();
    final List<Buffer> evmAccAddr = new ArrayList<>();
    final List<Long> evmAccSeq = new ArrayList<>();
    final List<Boolean> evmAccSigner = new ArrayList<>();
    /** address → {txs, signer txs, evm txs, evm signer txs} */
    final Map<AccountAddress, long[]> accountStats = new LinkedHashMap<>();
    final Map<String, Long> typeStats = new LinkedHashMap<>();

    Columns(List<IndexedBlock> blocks, Long previousTimeNs, long txBase, long evmBase) {
      this.blocks = blocks;
      this.blockTimes = new Long[blocks.size()];
      this.blockJson = new Buffer[blocks.size()];
      Long prev = previousTimeNs;
      long seq = txBase;
      long evmSeqNext = evmBase;
      Map<AccountAddress, Buffer> bufs = new HashMap<>();
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
          txSigner.add(t.signer() == null ? null : buf(bufs, t.signer()));
          txJson.add(t.json());
          for (Map.Entry<AccountAddress, Boolean> e : t.accounts().entrySet()) {
            accAddr.add(buf(bufs, e.getKey()));
            accSeq.add(s);
            accSigner.add(e.getValue());
            long[] st = accountStats.computeIfAbsent(e.getKey(), k -> new long[4]);
            st[0]++;
            if (e.getValue()) st[1]++;
          }
          for (String type : t.msgTypes()) {
            typeNames.add(type);
            msgName.add(type);
            msgSeq.add(s);
            typeStats.merge(type, 1L, Long::sum);
            if (t.msgTypes().size() > 1) {
              multiSeq.add(s);
              multiName.add(type);
            }
          }
          txCount++;
        }
        for (IndexedBlock.EvmTx t : b.evmTxs()) {
          long s = ++evmSeqNext;
          evmSeq.add(s);
          evmHeight.add(b.height());
          evmIndex.add(t.index());
          evmHash.add(Buffer.buffer(t.hash()));
          evmFrom.add(t.from() == null ? null : buf(bufs, t.from()));
          evmJson.add(t.json());
          for (Map.Entry<AccountAddress, Boolean> e : t.accounts().entrySet()) {
            evmAccAddr.add(buf(bufs, e.getKey()));
            evmAccSeq.add(s);
            evmAccSigner.add(e.getValue());
            long[] st = accountStats.computeIfAbsent(e.getKey(), k -> new long[4]);
            st[2]++;
            if (e.getValue()) st[3]++;
          }
          evmCount++;
        }
      }
      addresses.addAll(accountStats.keySet());
    }

    private Buffer buf(Map<AccountAddress, Buffer> bufs, AccountAddress a) {
      return bufs.computeIfAbsent(a, x -> Buffer.buffer(x.bytes()));
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

    Tuple accountStats() {
      int n = accountStats.size();
      Buffer[] ad = new Buffer[n];
      Long[][] c = new Long[4][n];
      int i = 0;
      for (Map.Entry<AccountAddress, long[]> e : accountStats.entrySet()) {
        ad[i] = Buffer.buffer(e.getKey().bytes());
        for (int k = 0; k < 4; k++) c[k][i] = e.getValue()[k];
        i++;
      }
      return Tuple.tuple().addValue(ad).addValue(c[0]).addValue(c[1]).addValue(c[2]).addValue(c[3]);
    }
  }
}
