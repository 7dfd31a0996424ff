package dev.weft.store;

import dev.weft.model.ingest.IndexedBlock;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code verify} and {@code reindex} need of the database, one block at a time: a block's rows rebuilt from the
 * chain by ingestion's own code ({@link IngestRows}, {@link RowTables}), compared with the stored rows of its height
 * (per table, each row's key and a digest of its columns as PostgreSQL renders them, for both sides), and replaced in
 * one transaction that also recounts the counters of the accounts (txs, per category) and message types the height
 * names.
 */
public final class RangeStore {
    private static final String START = """
      SELECT (SELECT time_ns FROM block WHERE height = $1 - 1),
             coalesce((SELECT sequence FROM tx WHERE height < $1 ORDER BY height DESC, sequence DESC LIMIT 1), 0),
             coalesce((SELECT sequence FROM evm_tx WHERE height < $1 ORDER BY height DESC, sequence DESC LIMIT 1), 0),
             (SELECT height FROM pipeline_cursor WHERE name = 'ingest'),
             (SELECT height FROM pipeline_cursor WHERE name = 'richlist')""";
    /** The last tx and EVM tx sequence the stored history gives a height: the next height's first, less one. */
    private static final String SEQUENCE_ENDS = """
      SELECT coalesce((SELECT sequence - 1 FROM tx WHERE height > $1 ORDER BY height, sequence LIMIT 1), t.txs),
             coalesce((SELECT sequence - 1 FROM evm_tx WHERE height > $1 ORDER BY height, sequence LIMIT 1), t.evm_txs)
      FROM ingest_totals t""";
    // The counters of every account and message type the height names are recounted from their rows once the rows are
    // replaced, so they end equal to what the rows say even when a hand-made change had put them out of step. Their
    // rows are locked first, in id order: the writer's commit (which adds to them) waits for this one or has ended, and
    // the recount, a later statement with its own snapshot, sees every row the writer has committed.
    private static final String LOCK_ACCOUNT_STATS =
            "SELECT account_id FROM account_tx_stats WHERE account_id = ANY($1) ORDER BY account_id FOR UPDATE";
    private static final String LOCK_MSG_TYPE_STATS =
            "SELECT msg_type_id FROM msg_type_stats WHERE msg_type_id = ANY($1) ORDER BY msg_type_id FOR UPDATE";
    private static final String REMOVE_TX_ACCOUNTS =
            "DELETE FROM tx_account WHERE account_id = ANY($3) AND sequence BETWEEN $1 AND $2";
    private static final String REMOVE_EVM_TX_ACCOUNTS =
            "DELETE FROM evm_tx_account WHERE account_id = ANY($3) AND sequence BETWEEN $1 AND $2";
    private static final String LOCK_CATEGORY_STATS =
            "SELECT account_id FROM account_category_stats WHERE account_id = ANY($1) ORDER BY account_id, category FOR UPDATE";
    private static final String REMOVE_CATEGORIES =
            "DELETE FROM tx_account_category WHERE account_id = ANY($3) AND sequence BETWEEN $1 AND $2";
    private static final String REMOVE_EVM_LOGS = "DELETE FROM evm_log WHERE sequence BETWEEN $1 AND $2";
    private static final String RECOUNT_CATEGORY_STATS = """
      INSERT INTO account_category_stats AS s (account_id, category, txs)
      SELECT account_id, category, count(*) FROM tx_account_category WHERE account_id = ANY($1)
      GROUP BY account_id, category ORDER BY account_id, category
      ON CONFLICT (account_id, category) DO UPDATE SET txs = EXCLUDED.txs""";
    private static final String DROP_EMPTY_CATEGORY_STATS = """
      DELETE FROM account_category_stats s WHERE s.account_id = ANY($1) AND NOT EXISTS (
        SELECT 1 FROM tx_account_category c WHERE c.account_id = s.account_id AND c.category = s.category)""";
    private static final String REMOVE_TX_MSG_TYPES = "DELETE FROM tx_msg_type WHERE sequence BETWEEN $1 AND $2";
    private static final String RECOUNT_ACCOUNT_STATS = """
      INSERT INTO account_tx_stats AS s (account_id, txs, signer_txs, evm_txs, evm_signer_txs)
      SELECT a.id,
             (SELECT count(*) FROM tx_account WHERE account_id = a.id),
             (SELECT count(*) FROM tx_account WHERE account_id = a.id AND signer),
             (SELECT count(*) FROM evm_tx_account WHERE account_id = a.id),
             (SELECT count(*) FROM evm_tx_account WHERE account_id = a.id AND signer)
      FROM unnest($1::bigint[]) AS a(id) ORDER BY a.id
      ON CONFLICT (account_id) DO UPDATE SET txs = EXCLUDED.txs, signer_txs = EXCLUDED.signer_txs,
        evm_txs = EXCLUDED.evm_txs, evm_signer_txs = EXCLUDED.evm_signer_txs""";
    private static final String RECOUNT_MSG_TYPE_STATS = """
      INSERT INTO msg_type_stats AS s (msg_type_id, txs)
      SELECT m.id, (SELECT count(*) FROM tx_msg_type WHERE msg_type_id = m.id) FROM unnest($1::int[]) AS m(id) ORDER BY m.id
      ON CONFLICT (msg_type_id) DO UPDATE SET txs = EXCLUDED.txs""";
    // ingestion never leaves a counter at zero (it adds one only for an account or type a tx names)
    private static final String DROP_ZERO_ACCOUNT_STATS =
            "DELETE FROM account_tx_stats WHERE account_id = ANY($1) AND txs = 0 AND evm_txs = 0";
    private static final String DROP_ZERO_MSG_TYPE_STATS =
            "DELETE FROM msg_type_stats WHERE msg_type_id = ANY($1) AND txs = 0";
    private static final String REMOVE_TX_MULTI_MSG = "DELETE FROM tx_multi_msg WHERE sequence BETWEEN $1 AND $2";
    private static final String REMOVE_TXS = "DELETE FROM tx WHERE sequence BETWEEN $1 AND $2";
    private static final String REMOVE_EVM_TXS = "DELETE FROM evm_tx WHERE sequence BETWEEN $1 AND $2";
    private static final String REMOVE_BLOCK = "DELETE FROM block WHERE height = $1";
    private static final String REMOVE_TRANSFERS = "DELETE FROM fungible_transfer WHERE height = $1";
    private static final String INSERT_EVENT = """
      INSERT INTO event_log (chain_id, topic, height, payload) VALUES ($1, $2, $3, $4::text::jsonb) RETURNING sequence""";

    /** Where a range starts in the stored history, and how far ingestion and the rich list have come. */
    public record Start(
            Long previousTimeNs, long txsBefore, long evmTxsBefore, long ingestHeight, Long richListHeight) {}

    /** A stored row that differs from the chain's, is missing, or should not be there: {@code key} is {@code col=value,…}. */
    public record Mismatch(long height, String table, String key) {
        @Override
        public String toString() {
            return height + " " + table + " " + key;
        }
    }

    /** One block's rows as ingestion builds them, with the tx and EVM tx sequences they take. */
    public static final class Rebuilt {
        private final IndexedBlock block;
        private final IngestRows rows;
        private final long txsBefore;
        private final long evmTxsBefore;
        private final Map<RowTables.RowTable, Tuple> tables = new LinkedHashMap<>();

        private Rebuilt(IndexedBlock block, IngestRows rows, long txsBefore, long evmTxsBefore) {
            this.block = block;
            this.rows = rows;
            this.txsBefore = txsBefore;
            this.evmTxsBefore = evmTxsBefore;
            RowTables.rows(rows, tables::put);
        }

        public long height() {
            return block.height();
        }

        public long timeNs() {
            return block.timeNs();
        }

        /** The last tx sequence of this block (the next block's txs follow it). */
        public long txsAfter() {
            return txsBefore + rows.txCount;
        }

        public long evmTxsAfter() {
            return evmTxsBefore + rows.evmCount;
        }
    }

    private final Pool pool;
    private final DictionaryStore dictionaries;

    public RangeStore(Pool pool, int accountCacheSize) {
        this.pool = pool;
        this.dictionaries = new DictionaryStore(pool, accountCacheSize);
    }

    public Future<Start> start(long height) {
        return pool.preparedQuery(START).execute(Tuple.of(height)).map(rows -> {
            Row r = rows.iterator().next();
            return new Start(
                    r.getLong(0), r.getLong(1), r.getLong(2), r.getLong(3) == null ? 0 : r.getLong(3), r.getLong(4));
        });
    }

    /**
     * A block's rows, its txs numbered from {@code txsBefore + 1}, its block time measured from
     * {@code previousTimeNs} (null: the header's own previous block time, as for the first block ingested). Resolves
     * the dictionary ids its rows need, adding an account or message type the dictionaries lack, as ingestion would.
     */
    public Future<Rebuilt> rebuild(IndexedBlock b, Long previousTimeNs, long txsBefore, long evmTxsBefore) {
        List<IndexedBlock> run = List.of(b);
        return dictionaries
                .resolve(run)
                .map(ids -> new Rebuilt(
                        b, new IngestRows(run, previousTimeNs, txsBefore, evmTxsBefore, ids), txsBefore, evmTxsBefore));
    }

    /** The stored rows of the block's height that differ from the rebuilt ones, table by table, in key order. */
    public Future<List<Mismatch>> compare(Rebuilt b) {
        List<Future<List<Mismatch>>> perTable = new ArrayList<>();
        for (RowTables.RowTable t : RowTables.ALL) perTable.add(compare(b, t));
        return Future.all(perTable).map(all -> {
            List<Mismatch> out = new ArrayList<>();
            for (Future<List<Mismatch>> f : perTable) out.addAll(f.result());
            return out;
        });
    }

    private Future<List<Mismatch>> compare(Rebuilt b, RowTables.RowTable t) {
        Tuple arrays = b.tables.get(t);
        Future<Map<String, String>> rebuilt = arrays == null
                ? Future.succeededFuture(Map.of())
                : pool.preparedQuery(t.rebuiltDigests()).execute(arrays).map(RangeStore::digests);
        Future<Map<String, String>> stored =
                pool.preparedQuery(t.storedDigests()).execute(scope(b, t)).map(RangeStore::digests);
        return Future.all(rebuilt, stored).map(x -> {
            Map<String, String> want = rebuilt.result();
            Map<String, String> have = stored.result();
            List<Mismatch> out = new ArrayList<>();
            // the chain's rows in key order, then any stored row the chain does not have
            want.forEach((k, d) -> {
                if (!d.equals(have.get(k))) out.add(new Mismatch(b.height(), t.name(), k));
            });
            have.keySet().forEach(k -> {
                if (!want.containsKey(k)) out.add(new Mismatch(b.height(), t.name(), k));
            });
            return out;
        });
    }

    private static Tuple scope(Rebuilt b, RowTables.RowTable t) {
        return switch (t.scope()) {
            case HEIGHT -> Tuple.of(b.height());
            case TX_SEQUENCES -> Tuple.of(b.txsBefore + 1, b.txsAfter());
            case EVM_SEQUENCES -> Tuple.of(b.evmTxsBefore + 1, b.evmTxsAfter());
            case TX_EDGES -> Tuple.of(b.txsBefore + 1, b.txsAfter(), distinct(b.rows.accId));
            case EVM_EDGES -> Tuple.of(b.evmTxsBefore + 1, b.evmTxsAfter(), distinct(b.rows.evmAccId));
        };
    }

    private static Map<String, String> digests(io.vertx.sqlclient.RowSet<Row> rows) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Row r : rows) out.put(r.getString(0), r.getString(1));
        return out;
    }

    /**
     * Why the block's height cannot be replaced in place, or null when it can: its tx or EVM tx count differs from the
     * stored history's (every later height's sequences would move).
     */
    public Future<String> refusal(Rebuilt b) {
        return pool.preparedQuery(SEQUENCE_ENDS).execute(Tuple.of(b.height())).map(rows -> {
            Row r = rows.iterator().next();
            long txEnd = r.getLong(0);
            long evmEnd = r.getLong(1);
            if (txEnd != b.txsAfter())
                return "the chain has " + b.rows.txCount + " txs at height " + b.height() + ", the database "
                        + (txEnd - b.txsBefore) + ": the sequences of every later height would move";
            if (evmEnd != b.evmTxsAfter())
                return "the chain has " + b.rows.evmCount + " EVM txs at height " + b.height() + ", the database "
                        + (evmEnd - b.evmTxsBefore) + ": the sequences of every later height would move";
            return null;
        });
    }

    /**
     * Replaces the stored rows of the block's height with the rebuilt ones in one transaction: readers see the old rows
     * until it commits, then the new. The counters of the accounts and message types the block names are recounted from
     * their rows; the totals do not move (the tx counts are equal: {@link #refusal}).
     */
    public Future<Void> replace(Rebuilt b) {
        CommitBurst burst = new CommitBurst();
        Long[] accounts = b.rows.accountStats.keySet().stream().sorted().toArray(Long[]::new);
        Integer[] types = b.rows.typeStats.keySet().stream().sorted().toArray(Integer[]::new);
        Tuple txs = Tuple.of(b.txsBefore + 1, b.txsAfter());
        Tuple evm = Tuple.of(b.evmTxsBefore + 1, b.evmTxsAfter());
        burst.add(LOCK_ACCOUNT_STATS, Tuple.of(accounts));
        burst.add(LOCK_MSG_TYPE_STATS, Tuple.of(types));
        burst.add(LOCK_CATEGORY_STATS, Tuple.of(accounts));
        burst.add(REMOVE_TX_ACCOUNTS, Tuple.of(b.txsBefore + 1, b.txsAfter(), distinct(b.rows.accId)));
        burst.add(REMOVE_CATEGORIES, Tuple.of(b.txsBefore + 1, b.txsAfter(), distinct(b.rows.accId)));
        burst.add(REMOVE_EVM_LOGS, evm);
        burst.add(REMOVE_EVM_TX_ACCOUNTS, Tuple.of(b.evmTxsBefore + 1, b.evmTxsAfter(), distinct(b.rows.evmAccId)));
        burst.add(REMOVE_TX_MSG_TYPES, txs);
        burst.add(REMOVE_TX_MULTI_MSG, txs);
        burst.add(REMOVE_TXS, txs);
        burst.add(REMOVE_EVM_TXS, evm);
        burst.add(REMOVE_BLOCK, Tuple.of(b.height()));
        burst.add(REMOVE_TRANSFERS, Tuple.of(b.height()));
        b.tables.forEach((t, arrays) -> burst.add(t.insert(), arrays));
        burst.add(RECOUNT_ACCOUNT_STATS, Tuple.of(accounts));
        burst.add(RECOUNT_MSG_TYPE_STATS, Tuple.of(types));
        burst.add(RECOUNT_CATEGORY_STATS, Tuple.of(accounts));
        burst.add(DROP_EMPTY_CATEGORY_STATS, Tuple.of(accounts));
        burst.add(DROP_ZERO_ACCOUNT_STATS, Tuple.of(accounts));
        burst.add(DROP_ZERO_MSG_TYPE_STATS, Tuple.of(types));
        return burst.run(pool);
    }

    private static Long[] distinct(List<Long> ids) {
        return ids.stream().distinct().sorted().toArray(Long[]::new);
    }

    /** Appends the {@code reindexed} event of a range to the event log; answers its sequence. */
    public Future<Long> reindexed(String chainId, long from, long to, long replaced) {
        CommitBurst burst = new CommitBurst();
        burst.add(EventStore.LOCK, Tuple.tuple());
        burst.add(
                INSERT_EVENT,
                Tuple.of(
                        chainId,
                        EventStore.REINDEXED,
                        to,
                        new JsonObject()
                                .put("event", "range reindexed")
                                .put("chain_id", chainId)
                                .put("from_height", from)
                                .put("to_height", to)
                                .put("heights_replaced", replaced)
                                .encode()));
        return burst.run(pool).map(v -> burst.result(1).iterator().next().getLong(0));
    }
}
