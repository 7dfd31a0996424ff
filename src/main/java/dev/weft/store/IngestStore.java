package dev.weft.store;

import dev.weft.chain.AccountAddress;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.model.nft.NftFold;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Writes runs of consecutive blocks, one transaction per run. A run is prepared off the event loop into one
 * {@code unnest} statement per table ({@link #prepare}, pure CPU), then committed as a single pipelined burst
 * ({@link #commit}): its first statement locks the cursor and the totals and aborts the transaction unless they are
 * exactly where the writer expects them, so a commit never leaves a gap, never writes a height twice and never
 * double counts. That check is what makes a repeated run harmless, so the row inserts carry no {@code ON CONFLICT}
 * clause (a speculative insertion costs a unique-index probe per row): a row that came twice would fail its commit
 * loudly instead of being skipped. Dictionary ids (accounts, message types) are resolved before the run is prepared
 * ({@link DictionaryStore}), so the rows carry ids, join nothing by value, and no statement of the burst waits for
 * another's result. The run's NFT changes, folded per token in chain order, are part of the same
 * burst ({@link NftWrites}), and so are, on an EVM chain, the run's fungible transfer rows and the bank denoms its coin
 * events move (what the rich list reads). The cursor moves in the same transaction.
 */
public final class IngestStore {
    private static final String POSITION = """
      SELECT c.height, t.blocks, t.txs, t.evm_txs, (SELECT b.time_ns FROM block b WHERE b.height = c.height), c.commit_token
      FROM pipeline_cursor c CROSS JOIN ingest_totals t WHERE c.name = 'ingest'""";
    private static final String EXPECT = "SELECT weft_ingest_expect($1, $2, $3)";
    // The row inserts zip their column arrays with unnest calls in the select list (PostgreSQL walks equal-length
    // arrays
    // in step), which streams the rows into the insert. Written as FROM unnest(a, b, …), the function scan first copies
    // every row into a tuplestore, and a run's tx JSON (~900 txs of ~4.8 KB) passed work_mem: a temp file written and
    // read
    // back per commit. On a 50-block run of the tx table: 18.9 ms a statement that way, 15.0 ms this way (100 runs
    // each).
    private static final String INSERT_BLOCKS = """
      INSERT INTO block (height, hash, time, time_ns, block_time_ms, proposer_address, proposer_moniker,
                         proposer_operator, gas_used, gas_wanted, tx_count, evm_tx_count, total_fee, json)
      SELECT h, hs, timestamptz 'epoch' + (ns / 1000) * interval '1 microsecond', ns, bt, pa, pm, po, gu, gw, tc, ec, tf::jsonb, j
      FROM (SELECT unnest($1::bigint[]) AS h, unnest($2::bytea[]) AS hs, unnest($3::bigint[]) AS ns, unnest($4::bigint[]) AS bt,
                   unnest($5::bytea[]) AS pa, unnest($6::text[]) AS pm, unnest($7::text[]) AS po, unnest($8::bigint[]) AS gu,
                   unnest($9::bigint[]) AS gw, unnest($10::int[]) AS tc, unnest($11::int[]) AS ec, unnest($12::text[]) AS tf,
                   unnest($13::bytea[]) AS j) AS u""";
    private static final String INSERT_TXS = """
      INSERT INTO tx (sequence, height, tx_index, hash, code, signer_id, json)
      SELECT unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::int[]), unnest($4::bytea[]), unnest($5::int[]),
             unnest($6::bigint[]), unnest($7::bytea[])""";
    private static final String INSERT_TX_ACCOUNTS = """
      INSERT INTO tx_account (account_id, sequence, signer) SELECT unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::bool[])""";
    private static final String INSERT_TX_MSG_TYPES = """
      INSERT INTO tx_msg_type (msg_type_id, sequence) SELECT unnest($1::int[]), unnest($2::bigint[])""";
    private static final String INSERT_MULTI_MSG = """
      INSERT INTO tx_multi_msg (sequence, msg_type_ids)
      SELECT u.s, array_agg(u.m ORDER BY u.m) FROM unnest($1::bigint[], $2::int[]) AS u(s, m) GROUP BY u.s""";
    private static final String INSERT_EVM_TXS = """
      INSERT INTO evm_tx (sequence, height, tx_index, hash, signer_id, json)
      SELECT unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::int[]), unnest($4::bytea[]), unnest($5::bigint[]), unnest($6::bytea[])""";
    private static final String INSERT_EVM_TX_ACCOUNTS = """
      INSERT INTO evm_tx_account (account_id, sequence, signer) SELECT unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::bool[])""";
    // the rows it inserts (xmax = 0: not an update of an existing row) are the accounts seen for the first time
    private static final String UPSERT_ACCOUNT_STATS = """
      WITH up AS (
        INSERT INTO account_tx_stats AS s (account_id, txs, signer_txs, evm_txs, evm_signer_txs)
        SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
        ON CONFLICT (account_id) DO UPDATE SET txs = s.txs + EXCLUDED.txs, signer_txs = s.signer_txs + EXCLUDED.signer_txs,
          evm_txs = s.evm_txs + EXCLUDED.evm_txs, evm_signer_txs = s.evm_signer_txs + EXCLUDED.evm_signer_txs
        RETURNING (s.xmax = 0) AS inserted)
      UPDATE view_totals SET accounts = accounts + (SELECT count(*) FROM up WHERE inserted) WHERE id = 1""";
    // a (day, account) pair is inserted once; the day's active_accounts grows by the pairs actually inserted
    private static final String UPSERT_DAILY = """
      WITH ins AS (
        INSERT INTO daily_active_account (day, account_id)
        SELECT date '1970-01-01' + u.d, u.a FROM unnest($3::int[], $4::bigint[]) AS u(d, a) ORDER BY 1, 2
        ON CONFLICT DO NOTHING RETURNING day),
      n AS (SELECT day, count(*) AS k FROM ins GROUP BY day)
      INSERT INTO daily_stats AS s (day, txs, active_accounts)
      SELECT date '1970-01-01' + u.d, u.t, coalesce((SELECT n.k FROM n WHERE n.day = date '1970-01-01' + u.d), 0)
      FROM unnest($1::int[], $2::bigint[]) AS u(d, t)
      ON CONFLICT (day) DO UPDATE SET txs = s.txs + EXCLUDED.txs, active_accounts = s.active_accounts + EXCLUDED.active_accounts""";
    private static final String INSERT_EVM_LOGS = """
      INSERT INTO evm_log (height, sequence, log_position, address, topic0, topic1, topic2, topic3, json)
      SELECT unnest($1::bigint[]), unnest($2::bigint[]), unnest($3::int[]), unnest($4::bytea[]), unnest($5::bytea[]),
             unnest($6::bytea[]), unnest($7::bytea[]), unnest($8::bytea[]), unnest($9::bytea[])""";
    private static final String INSERT_CATEGORIES = """
      INSERT INTO tx_account_category (account_id, category, sequence)
      SELECT unnest($1::bigint[]), unnest($2::smallint[]), unnest($3::bigint[])""";
    private static final String UPSERT_CATEGORY_STATS = """
      INSERT INTO account_category_stats AS s (account_id, category, txs)
      SELECT * FROM unnest($1::bigint[], $2::smallint[], $3::bigint[])
      ON CONFLICT (account_id, category) DO UPDATE SET txs = s.txs + EXCLUDED.txs""";
    private static final String UPSERT_MSG_TYPE_STATS = """
      INSERT INTO msg_type_stats AS s (msg_type_id, txs) SELECT * FROM unnest($1::int[], $2::bigint[])
      ON CONFLICT (msg_type_id) DO UPDATE SET txs = s.txs + EXCLUDED.txs""";
    private static final String INSERT_TRANSFERS = """
      INSERT INTO fungible_transfer (height, sequence, transfer_index, kind, token, from_address, to_address, amount)
      SELECT u.h, u.s, u.i, u.k, u.t, u.f, u.r, u.a::numeric
      FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::smallint[], $5::bytea[], $6::bytea[], $7::bytea[], $8::text[])
           AS u(h, s, i, k, t, f, r, a)""";
    private static final String NEW_COIN_DENOMS = """
      INSERT INTO coin_denom (denom, first_height) SELECT u.d, u.h FROM unnest($1::text[], $2::bigint[]) AS u(d, h) ORDER BY u.d
      ON CONFLICT (denom) DO NOTHING""";
    private static final String UPDATE_TOTALS =
            "UPDATE ingest_totals SET blocks = $1, txs = $2, evm_txs = $3 WHERE id = 1";

    /**
     * Where ingestion stands: the last committed height, its block time (null when none), the totals, and the token of the
     * commit that left it there (null before the first), which tells two commits of the same heights apart.
     */
    public record Position(long height, Long timeNs, long blocks, long txs, long evmTxs, UUID commit) {
        public boolean empty() {
            return height == 0 && blocks == 0;
        }
    }

    /**
     * A committed block: what the {@code block indexed} event and the metrics need; {@code sequence} is its event's in
     * the log (null when the commit's answer was lost: {@link EventStore#sequencesAt} finds it).
     */
    public record Committed(long height, byte[] hash, int txCount, int evmTxCount, long timeNs, Long sequence) {}

    /** A run of blocks ready to commit: its statements, and the position before and after it. */
    public static final class Batch {
        private final List<IndexedBlock> blocks;
        private final Position before;
        private final Position after;
        private final CommitBurst statements = new CommitBurst();
        private final Set<String> coinDenoms;
        private int eventsAt = -1;
        /** The last event sequence and the block events' sequences, once the commit answered (null otherwise). */
        private Long lastSequence;

        private Long[] blockSequences;

        private Batch(List<IndexedBlock> blocks, Position before, Position after, Set<String> coinDenoms) {
            this.blocks = blocks;
            this.before = before;
            this.after = after;
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

        /** The run's last event sequence, when its commit answered (null when its answer was lost). */
        public Long lastSequence() {
            return lastSequence;
        }

        /** The committed blocks, with their events' sequences when known ({@code sequences}: height → sequence, may be empty). */
        public List<Committed> committed(Map<Long, Long> sequences) {
            List<Committed> out = new ArrayList<>(blocks.size());
            for (int i = 0; i < blocks.size(); i++) {
                IndexedBlock b = blocks.get(i);
                Long s = blockSequences != null ? blockSequences[i] : sequences.get(b.height());
                out.add(new Committed(
                        b.height(), b.hash(), b.txCount(), b.evmTxs().size(), b.timeNs(), s));
            }
            return out;
        }

        public List<Committed> committed() {
            return committed(Map.of());
        }

        /** Whether the block events' sequences are known (the commit answered). */
        public boolean sequencesKnown() {
            return blockSequences != null;
        }
    }

    private final Pool pool;
    private final boolean evmChain;
    private final DictionaryStore dictionaries;
    /** Bank denoms known to be committed: left out of their insert. */
    private final Lru<String, Boolean> knownCoinDenoms = new Lru<>(10_000);

    private final String chainId;

    /** An EVM chain's store (NFT collections dated by the earliest tx touching the contract). */
    public IngestStore(Pool pool, int accountCacheSize, String chainId) {
        this(pool, accountCacheSize, true, chainId);
    }

    /** @param chainId the chain the run's events name */
    public IngestStore(Pool pool, int accountCacheSize, boolean evmChain, String chainId) {
        this.pool = pool;
        this.chainId = chainId;
        this.dictionaries = new DictionaryStore(pool, accountCacheSize);
        this.evmChain = evmChain;
    }

    public Future<Position> position() {
        return position(pool);
    }

    private static Future<Position> position(SqlClient client) {
        return client.query(POSITION).execute().map(rows -> {
            Row r = rows.iterator().next();
            return new Position(r.getLong(0), r.getLong(4), r.getLong(1), r.getLong(2), r.getLong(3), r.getUUID(5));
        });
    }

    /**
     * The dictionary ids a run's rows need: resolve them before {@link #prepare}.
     */
    public Future<DictionaryStore.Ids> ids(List<IndexedBlock> run) {
        return dictionaries.resolve(run);
    }

    /**
     * Builds the statements of a run of consecutive blocks that directly follows {@code before}, with the dictionary ids
     * of {@link #ids}. Pure CPU work (array building, block JSON): call it on a worker thread.
     */
    public Batch prepare(List<IndexedBlock> blocks, Position before, DictionaryStore.Ids ids) {
        IndexedBlock first = blocks.get(0);
        if (!before.empty() && first.height() != before.height() + 1) {
            throw new IllegalArgumentException(
                    "block " + first.height() + " does not follow height " + before.height());
        }
        for (int i = 1; i < blocks.size(); i++) {
            if (blocks.get(i).height() != blocks.get(i - 1).height() + 1)
                throw new IllegalArgumentException("blocks are not consecutive");
        }
        IngestRows c = new IngestRows(
                blocks,
                first.height() == before.height() + 1 ? before.timeNs() : null,
                before.txs(),
                before.evmTxs(),
                ids);
        IndexedBlock last = blocks.get(blocks.size() - 1);
        Position after = new Position(
                last.height(),
                last.timeNs(),
                before.blocks() + blocks.size(),
                before.txs() + c.txCount,
                before.evmTxs() + c.evmCount,
                UUID.randomUUID());
        Batch b = new Batch(blocks, before, after, c.coinDenoms.keySet());
        b.add(EXPECT, Tuple.of(before.height(), before.txs(), before.evmTxs()));
        b.add(INSERT_BLOCKS, c.blocks());
        if (c.txCount > 0) {
            b.add(
                    INSERT_TXS,
                    Tuple.tuple()
                            .addValue(SqlArrays.longs(c.txSeq))
                            .addValue(SqlArrays.longs(c.txHeight))
                            .addValue(SqlArrays.ints(c.txIndex))
                            .addValue(SqlArrays.bufs(c.txHash))
                            .addValue(SqlArrays.ints(c.txCode))
                            .addValue(SqlArrays.longs(c.txSigner))
                            .addValue(SqlArrays.bufs(c.txJson)));
            b.add(
                    INSERT_TX_ACCOUNTS,
                    Tuple.tuple()
                            .addValue(SqlArrays.longs(c.accId))
                            .addValue(SqlArrays.longs(c.accSeq))
                            .addValue(c.accSigner.toArray(new Boolean[0])));
            if (!c.msgSeq.isEmpty())
                b.add(
                        INSERT_TX_MSG_TYPES,
                        Tuple.tuple().addValue(SqlArrays.ints(c.msgTypeId)).addValue(SqlArrays.longs(c.msgSeq)));
            if (!c.multiSeq.isEmpty())
                b.add(
                        INSERT_MULTI_MSG,
                        Tuple.tuple().addValue(SqlArrays.longs(c.multiSeq)).addValue(SqlArrays.ints(c.multiTypeId)));
            if (!c.typeStats.isEmpty()) {
                b.add(
                        UPSERT_MSG_TYPE_STATS,
                        Tuple.tuple()
                                .addValue(SqlArrays.ints(new ArrayList<>(c.typeStats.keySet())))
                                .addValue(SqlArrays.longs(new ArrayList<>(c.typeStats.values()))));
            }
        }
        if (c.evmCount > 0) {
            b.add(
                    INSERT_EVM_TXS,
                    Tuple.tuple()
                            .addValue(SqlArrays.longs(c.evmSeq))
                            .addValue(SqlArrays.longs(c.evmHeight))
                            .addValue(SqlArrays.ints(c.evmIndex))
                            .addValue(SqlArrays.bufs(c.evmHash))
                            .addValue(SqlArrays.longs(c.evmFrom))
                            .addValue(SqlArrays.bufs(c.evmJson)));
            if (!c.logSeq.isEmpty()) b.add(INSERT_EVM_LOGS, c.logs());
            b.add(
                    INSERT_EVM_TX_ACCOUNTS,
                    Tuple.tuple()
                            .addValue(SqlArrays.longs(c.evmAccId))
                            .addValue(SqlArrays.longs(c.evmAccSeq))
                            .addValue(c.evmAccSigner.toArray(new Boolean[0])));
        }
        if (!c.accountStats.isEmpty()) b.add(UPSERT_ACCOUNT_STATS, c.accountStats());
        if (!c.dayTxs.isEmpty()) b.add(UPSERT_DAILY, c.daily());
        if (!c.catSeq.isEmpty()) {
            b.add(INSERT_CATEGORIES, c.categories());
            b.add(UPSERT_CATEGORY_STATS, c.categoryStats());
        }
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
            if (!newDenoms.isEmpty())
                b.add(
                        NEW_COIN_DENOMS,
                        Tuple.tuple().addValue(SqlArrays.strings(newDenoms)).addValue(SqlArrays.longs(firstHeights)));
        }
        NftWrites.add(nftFold(blocks, c.firstSeq), evmChain, b::add);
        // the events last: the lock that orders their sequences is held from here to the commit
        b.add(EventStore.LOCK, Tuple.tuple());
        b.eventsAt = b.statements.size();
        b.add(EventStore.INSERT_INGEST, c.events(chainId));
        b.add(UPDATE_TOTALS, Tuple.of(after.blocks(), after.txs(), after.evmTxs()));
        b.add(StatusStore.ADVANCE, Tuple.of(StatusStore.INGEST, after.height(), after.commit()));
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
        return CommitBurst.resolve(
                        b.statements.run(pool).onSuccess(v -> {
                            Row r = b.statements.result(b.eventsAt).iterator().next();
                            b.lastSequence = r.getLong(0);
                            b.blockSequences = r.getArrayOfLongs(1);
                        }),
                        null,
                        StatusStore.INGEST,
                        () -> CommitBurst.landed(
                                pool, StatusStore.INGEST, b.after().commit()))
                .onSuccess(v -> {
                    Map<String, Boolean> denoms = new HashMap<>();
                    for (String d : b.coinDenoms) denoms.put(d, Boolean.TRUE);
                    knownCoinDenoms.putAll(denoms);
                });
    }
}
