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
        // the row tables, then the counters their rows add: the same definitions verify and reindex use
        RowTables.rows(c, (table, t) -> b.add(table.insert(), t));
        RowTables.counters(c, b::add);
        // the stats overview's per-day counters (verify and reindex leave them: a replaced height keeps its tx count)
        if (!c.dayTxs.isEmpty()) b.add(UPSERT_DAILY, c.daily());
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
