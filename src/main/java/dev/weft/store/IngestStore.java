package dev.weft.store;

import dev.weft.chain.AccountAddress;
import dev.weft.model.ingest.BlockJson;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.model.nft.NftFold;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
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
 * double counts. That check is what makes a repeated run harmless, so the row inserts carry no {@code ON CONFLICT}
 * clause (a speculative insertion costs a unique-index probe per row): a row that came twice would fail its commit
 * loudly instead of being skipped. Account ids are resolved before the run is prepared ({@link #accountIds}: the new addresses are
 * added and committed on their own, and an id never changes once committed), so the rows carry ids; message type ids
 * are resolved by joins inside the statements, so no statement of the burst waits for another's result. The run's NFT changes, folded per token in chain order, are part of the same
 * burst ({@link NftWrites}), and so are, on an EVM chain, the run's fungible transfer rows and the bank denoms its coin
 * events move (what the rich list reads). The cursor moves in the same transaction.
 */
public final class IngestStore {
  private static final String POSITION = """
      SELECT c.height, t.blocks, t.txs, t.evm_txs, (SELECT b.time_ns FROM block b WHERE b.height = c.height)
      FROM pipeline_cursor c CROSS JOIN ingest_totals t WHERE c.name = 'ingest'""";
  private static final String EXPECT = "SELECT weft_ingest_expect($1, $2, $3)";
  /**
   * Adds the addresses not in the dictionary yet and answers the id of every address given: the inserted ones from
   * the insert, the others from the statement's snapshot (which does not see its own insert, so none comes twice). An
   * address another writer inserted after that snapshot is in neither: {@link #accountIds} asks again for it.
   */
  private static final String ACCOUNT_IDS = """
      WITH v AS (SELECT DISTINCT address FROM unnest($1::bytea[]) AS u(address)),
      added AS (INSERT INTO account (address) SELECT address FROM v ORDER BY address ON CONFLICT (address) DO NOTHING RETURNING id, address)
      SELECT id, address FROM added UNION ALL SELECT a.id, a.address FROM account a JOIN v ON v.address = a.address""";
  private static final String NEW_MSG_TYPES = """
      INSERT INTO msg_type (name) SELECT DISTINCT v FROM unnest($1::text[]) AS v ORDER BY v ON CONFLICT (name) DO NOTHING""";
  private static final String INSERT_BLOCKS = """
      INSERT INTO block (height, hash, time, time_ns, block_time_ms, proposer_address, proposer_moniker,
                         proposer_operator, gas_used, gas_wanted, tx_count, evm_tx_count, total_fee, json)
      SELECT h, hs, timestamptz 'epoch' + (ns / 1000) * interval '1 microsecond', ns, bt, pa, pm, po, gu, gw, tc, ec, tf::jsonb, j
      FROM unnest($1::bigint[], $2::bytea[], $3::bigint[], $4::bigint[], $5::bytea[], $6::text[], $7::text[],
                  $8::bigint[], $9::bigint[], $10::int[], $11::int[], $12::text[], $13::bytea[])
           AS u(h, hs, ns, bt, pa, pm, po, gu, gw, tc, ec, tf, j)""";
  private static final String INSERT_TXS = """
      INSERT INTO tx (sequence, height, tx_index, hash, code, signer_id, json)
      SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::bytea[], $5::int[], $6::bigint[], $7::bytea[])""";
  private static final String INSERT_TX_ACCOUNTS = """
      INSERT INTO tx_account (account_id, sequence, signer) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bool[])""";
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
      SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::bytea[], $5::bigint[], $6::bytea[])""";
  private static final String INSERT_EVM_TX_ACCOUNTS = """
      INSERT INTO evm_tx_account (account_id, sequence, signer) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bool[])""";
  private static final String UPSERT_ACCOUNT_STATS = """
      INSERT INTO account_tx_stats AS s (account_id, txs, signer_txs, evm_txs, evm_signer_txs)
      SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
      ON CONFLICT (account_id) DO UPDATE SET txs = s.txs + EXCLUDED.txs, signer_txs = s.signer_txs + EXCLUDED.signer_txs,
        evm_txs = s.evm_txs + EXCLUDED.evm_txs, evm_signer_txs = s.evm_signer_txs + EXCLUDED.evm_signer_txs""";
  private static final String UPSERT_MSG_TYPE_STATS = """
      INSERT INTO msg_type_stats AS s (msg_type_id, txs)
      SELECT m.id, u.t FROM unnest($1::text[], $2::bigint[]) AS u(n, t) JOIN msg_type m ON m.name = u.n
      ON CONFLICT (msg_type_id) DO UPDATE SET txs = s.txs + EXCLUDED.txs""";
  private static final String INSERT_TRANSFERS = """
      INSERT INTO fungible_transfer (height, sequence, transfer_index, kind, token, from_address, to_address, amount)
      SELECT u.h, u.s, u.i, u.k, u.t, u.f, u.r, u.a::numeric
      FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::smallint[], $5::bytea[], $6::bytea[], $7::bytea[], $8::text[])
           AS u(h, s, i, k, t, f, r, a)""";
  private static final String NEW_COIN_DENOMS = """
      INSERT INTO coin_denom (denom, first_height) SELECT u.d, u.h FROM unnest($1::text[], $2::bigint[]) AS u(d, h) ORDER BY u.d
      ON CONFLICT (denom) DO NOTHING""";
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
    private final Set<String> msgTypes;
    private final Set<String> coinDenoms;

    private Batch(List<IndexedBlock> blocks, Position before, Position after, Set<String> msgTypes, Set<String> coinDenoms) {
      this.blocks = blocks;
      this.before = before;
      this.after = after;
      this.msgTypes = msgTypes;
      this.coinDenoms = coinDenoms;
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
  private final boolean evmChain;
  /** Committed account ids by address. */
  private final Lru<AccountAddress, Long> accountIdCache;
  /** Dictionary values known to be committed: left out of the dictionary inserts. */
  private final Lru<String, Boolean> knownMsgTypes = new Lru<>(10_000);
  private final Lru<String, Boolean> knownCoinDenoms = new Lru<>(10_000);

  /** An EVM chain's store (NFT collections dated by the earliest tx touching the contract). */
  public IngestStore(Pool pool, int accountCacheSize) {
    this(pool, accountCacheSize, true);
  }

  public IngestStore(Pool pool, int accountCacheSize, boolean evmChain) {
    this.pool = pool;
    this.accountIdCache = new Lru<>(accountCacheSize);
    this.evmChain = evmChain;
  }

  public Future<Position> position() {
    return position(pool);
  }

  private static Future<Position> position(SqlClient client) {
    return client.query(POSITION).execute().map(rows -> {
      Row r = rows.iterator().next();
      return new Position(r.getLong(0), r.getLong(4), r.getLong(1), r.getLong(2), r.getLong(3));
    });
  }

  /**
   * The dictionary id of every account and signer of a run: from the cache, else from the database, which adds the
   * addresses it does not hold yet in a transaction of their own (an address without txs is harmless, and the run that
   * needs it is retried until it commits).
   */
  public Future<Map<AccountAddress, Long>> accountIds(List<IndexedBlock> run) {
    Map<AccountAddress, Long> ids = new HashMap<>();
    Set<AccountAddress> unknown = new LinkedHashSet<>();
    for (IndexedBlock b : run) {
      for (IndexedBlock.Tx t : b.txs()) {
        lookUp(t.signer(), ids, unknown);
        for (AccountAddress a : t.accounts().keySet()) lookUp(a, ids, unknown);
      }
      for (IndexedBlock.EvmTx t : b.evmTxs()) {
        lookUp(t.from(), ids, unknown);
        for (AccountAddress a : t.accounts().keySet()) lookUp(a, ids, unknown);
      }
    }
    return unknown.isEmpty() ? Future.succeededFuture(ids) : addAccounts(new ArrayList<>(unknown), ids, 1);
  }

  private void lookUp(AccountAddress a, Map<AccountAddress, Long> ids, Set<AccountAddress> unknown) {
    if (a == null || ids.containsKey(a)) return;
    Long id = accountIdCache.get(a);
    if (id != null) ids.put(a, id);
    else unknown.add(a);
  }

  private Future<Map<AccountAddress, Long>> addAccounts(List<AccountAddress> unknown, Map<AccountAddress, Long> ids, int attempt) {
    Buffer[] addresses = new Buffer[unknown.size()];
    for (int i = 0; i < addresses.length; i++) addresses[i] = Buffer.buffer(unknown.get(i).bytes());
    return pool.preparedQuery(ACCOUNT_IDS).execute(Tuple.tuple().addValue(addresses)).compose(rows -> {
      Map<AccountAddress, Long> found = new HashMap<>();
      for (Row r : rows) found.put(AccountAddress.of(r.getBuffer(1).getBytes()), r.getLong(0));
      accountIdCache.putAll(found);
      ids.putAll(found);
      List<AccountAddress> missing = new ArrayList<>();
      for (AccountAddress a : unknown) if (!found.containsKey(a)) missing.add(a);
      if (missing.isEmpty()) return Future.succeededFuture(ids);
      // inserted by another writer after this statement's snapshot: the next statement sees them
      if (attempt >= 3) return Future.failedFuture(new IllegalStateException(missing.size() + " account ids not resolved"));
      return addAccounts(missing, ids, attempt + 1);
    });
  }

  /**
   * Builds the statements of a run of consecutive blocks that directly follows {@code before}, with the account ids of
   * {@link #accountIds}. Pure CPU work (array building, block JSON): call it on a worker thread.
   */
  public Batch prepare(List<IndexedBlock> blocks, Position before, Map<AccountAddress, Long> accountIds) {
    IndexedBlock first = blocks.get(0);
    if (!before.empty() && first.height() != before.height() + 1) {
      throw new IllegalArgumentException("block " + first.height() + " does not follow height " + before.height());
    }
    for (int i = 1; i < blocks.size(); i++) {
      if (blocks.get(i).height() != blocks.get(i - 1).height() + 1) throw new IllegalArgumentException("blocks are not consecutive");
    }
    IngestRows c = new IngestRows(blocks, first.height() == before.height() + 1 ? before.timeNs() : null, before.txs(), before.evmTxs(),
        accountIds);
    IndexedBlock last = blocks.get(blocks.size() - 1);
    Position after = new Position(last.height(), last.timeNs(), before.blocks() + blocks.size(), before.txs() + c.txCount,
        before.evmTxs() + c.evmCount);
    Batch b = new Batch(blocks, before, after, c.typeNames, c.coinDenoms.keySet());
    b.add(EXPECT, Tuple.of(before.height(), before.txs(), before.evmTxs()));
    List<String> unknownTypes = new ArrayList<>();
    for (String t : c.typeNames) if (knownMsgTypes.get(t) == null) unknownTypes.add(t);
    if (!unknownTypes.isEmpty()) b.add(NEW_MSG_TYPES, Tuple.tuple().addValue(unknownTypes.toArray(new String[0])));
    b.add(INSERT_BLOCKS, c.blocks());
    if (c.txCount > 0) {
      b.add(INSERT_TXS, Tuple.tuple().addValue(SqlArrays.longs(c.txSeq)).addValue(SqlArrays.longs(c.txHeight)).addValue(SqlArrays.ints(c.txIndex))
          .addValue(SqlArrays.bufs(c.txHash)).addValue(SqlArrays.ints(c.txCode)).addValue(SqlArrays.longs(c.txSigner)).addValue(SqlArrays.bufs(c.txJson)));
      b.add(INSERT_TX_ACCOUNTS, Tuple.tuple().addValue(SqlArrays.longs(c.accId)).addValue(SqlArrays.longs(c.accSeq)).addValue(c.accSigner.toArray(new Boolean[0])));
      if (!c.msgSeq.isEmpty()) b.add(INSERT_TX_MSG_TYPES, Tuple.tuple().addValue(SqlArrays.strings(c.msgName)).addValue(SqlArrays.longs(c.msgSeq)));
      if (!c.multiSeq.isEmpty()) b.add(INSERT_MULTI_MSG, Tuple.tuple().addValue(SqlArrays.longs(c.multiSeq)).addValue(SqlArrays.strings(c.multiName)));
      if (!c.typeStats.isEmpty()) {
        b.add(UPSERT_MSG_TYPE_STATS, Tuple.tuple().addValue(SqlArrays.strings(new ArrayList<>(c.typeStats.keySet())))
            .addValue(SqlArrays.longs(new ArrayList<>(c.typeStats.values()))));
      }
    }
    if (c.evmCount > 0) {
      b.add(INSERT_EVM_TXS, Tuple.tuple().addValue(SqlArrays.longs(c.evmSeq)).addValue(SqlArrays.longs(c.evmHeight)).addValue(SqlArrays.ints(c.evmIndex))
          .addValue(SqlArrays.bufs(c.evmHash)).addValue(SqlArrays.longs(c.evmFrom)).addValue(SqlArrays.bufs(c.evmJson)));
      b.add(INSERT_EVM_TX_ACCOUNTS, Tuple.tuple().addValue(SqlArrays.longs(c.evmAccId)).addValue(SqlArrays.longs(c.evmAccSeq))
          .addValue(c.evmAccSigner.toArray(new Boolean[0])));
    }
    if (!c.accountStats.isEmpty()) b.add(UPSERT_ACCOUNT_STATS, c.accountStats());
    // what the rich list reads: the transfer rows on every VM, the bank denoms to map to ERC-20s on EVM chains only
    if (!c.transferSeq.isEmpty()) b.add(INSERT_TRANSFERS, c.transfers());
    if (evmChain) {
      List<String> newDenoms = new ArrayList<>();
      List<Long> firstHeights = new ArrayList<>();
      c.coinDenoms.forEach((d, h) -> {
        if (knownCoinDenoms.get(d) == null) {
          newDenoms.add(d);
          firstHeights.add(h);
        }
      });
      if (!newDenoms.isEmpty()) b.add(NEW_COIN_DENOMS, Tuple.tuple().addValue(SqlArrays.strings(newDenoms)).addValue(SqlArrays.longs(firstHeights)));
    }
    NftWrites.add(nftFold(blocks, c.firstSeq), evmChain, b::add);
    b.add(UPDATE_TOTALS, Tuple.of(after.blocks(), after.txs(), after.evmTxs()));
    b.add(StatusStore.ADVANCE, Tuple.of(StatusStore.INGEST, after.height()));
    return b;
  }

  private static NftFold nftFold(List<IndexedBlock> blocks, List<Long> firstSeq) {
    List<NftFold.Block> in = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      IndexedBlock b = blocks.get(i);
      if (b.nfts().isEmpty()) continue;
      List<AccountAddress> signers = new ArrayList<>(b.txs().size());
      for (IndexedBlock.Tx t : b.txs()) signers.add(t.signer());
      in.add(new NftFold.Block(b.height(), b.timeNs(), firstSeq.get(i), signers, b.nfts()));
    }
    return NftFold.of(in);
  }

  /**
   * Commits a prepared run: every statement is sent at once on one connection and runs in one transaction. Fails with
   * {@link PositionMovedException} when the database is not at {@link Batch#before()}. A commit whose answer was lost
   * but which went through succeeds.
   */
  public Future<Void> commit(Batch b) {
    return CommitBurst.resolve(b.statements.run(pool), null, StatusStore.INGEST,
        () -> CommitBurst.afterWriters(pool, StatusStore.INGEST, IngestStore::position).map(b.after()::equals)).onSuccess(v -> {
      Map<String, Boolean> types = new HashMap<>();
      for (String t : b.msgTypes) types.put(t, Boolean.TRUE);
      knownMsgTypes.putAll(types);
      Map<String, Boolean> denoms = new HashMap<>();
      for (String d : b.coinDenoms) denoms.put(d, Boolean.TRUE);
      knownCoinDenoms.putAll(denoms);
    });
  }

}
