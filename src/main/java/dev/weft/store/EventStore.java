package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The durable event log ({@code event_log}, migration V013): the writers add their events to their own commit's burst
 * (the statements here are package-private: {@link IngestStore} uses them), readers page it by sequence, and the
 * retention task prunes it from below in bounded sequence ranges.
 *
 * <p>Every event-writing transaction takes {@code weft_event_lock()} (a transaction advisory lock) just before its
 * event insert and holds it to its commit, so sequences are assigned and become visible in increasing order: a reader
 * that has read up to sequence N never sees a later commit add an event below N.
 */
public final class EventStore {
    public static final String BLOCKS = "blocks";
    public static final String TXS = "txs";
    public static final String INTERNAL_TXS = "internal-txs";
    public static final String RICHLIST = "richlist";
    public static final String TRANSFERS = "transfers";
    /** A range of heights replaced by {@code reindex} (its payload names the range). */
    public static final String REINDEXED = "reindexed";
    /** The topics a filter may name. */
    public static final List<String> TOPICS = List.of(BLOCKS, TXS, INTERNAL_TXS, RICHLIST, TRANSFERS, REINDEXED);

    static final String LOCK = "SELECT weft_event_lock()";
    /**
     * An ingest run's events in one set-based insert, in the order of the arrays (each block, then one {@code txs}
     * event per involved account of each of its txs); answers the last sequence and the block events' sequences.
     */
    static final String INSERT_INGEST = """
      WITH ins AS (
        INSERT INTO event_log (chain_id, topic, height, account, tx_hash, payload)
        SELECT $1, unnest($2::text[]), unnest($3::bigint[]), unnest($4::bytea[]), unnest($5::bytea[]), unnest($6::text[])::jsonb
        RETURNING sequence, topic)
      SELECT max(sequence), array_agg(sequence ORDER BY sequence) FILTER (WHERE topic = 'blocks') FROM ins""";

    /**
     * One event per height of a run, of one topic, its payload as the bus carries it; answers the last sequence and
     * the events' sequences, in height order.
     */
    static final String INSERT_PER_HEIGHT = """
      WITH ins AS (
        INSERT INTO event_log (chain_id, topic, height, payload)
        SELECT $1, $2, unnest($3::bigint[]), unnest($4::text[])::jsonb
        RETURNING sequence)
      SELECT max(sequence), array_agg(sequence ORDER BY sequence) FROM ins""";

    private static final String COLUMNS = "sequence, chain_id, topic, height, account, tx_hash, transfer, payload";

    private final Pool pool;

    public EventStore(Pool pool) {
        this.pool = pool;
    }

    /** One stored event. {@code payload} holds the fields beyond the columns (null when there are none). */
    public record Event(
            long sequence,
            String chainId,
            String topic,
            Long height,
            byte[] account,
            byte[] txHash,
            String transfer,
            JsonObject payload) {}

    /** What a reader asks: events after {@code after}, at most {@code limit}, matching every filter given (null: any). */
    public record Query(
            long after, int limit, String chainId, String topic, byte[] account, byte[] txHash, String transfer) {}

    /**
     * A page of events, the last sequence retention has pruned ({@code prunedThrough}) and the last sequence stored
     * ({@code head}): read in one snapshot, so a page never has a gap that pruning made unnoticed, and a page shorter
     * than its limit holds every matching event up to {@code head} (sequences become visible in increasing order:
     * see the class comment).
     */
    public record Page(long prunedThrough, long head, List<Event> events) {
        /** Whether events after the asked sequence were pruned (the page would miss some). */
        public boolean gone(long after) {
            return after < prunedThrough;
        }
    }

    public Future<Page> after(Query q) {
        StringBuilder where = new StringBuilder("sequence > $1");
        Tuple t = Tuple.of(q.after());
        if (q.chainId() != null)
            where.append(" AND chain_id = $").append(t.addValue(q.chainId()).size());
        if (q.topic() != null)
            where.append(" AND topic = $").append(t.addValue(q.topic()).size());
        if (q.account() != null)
            where.append(" AND account = $")
                    .append(t.addValue(SqlArrays.bytea(q.account())).size());
        if (q.txHash() != null)
            where.append(" AND tx_hash = $")
                    .append(t.addValue(SqlArrays.bytea(q.txHash())).size());
        if (q.transfer() != null)
            where.append(" AND transfer = $").append(t.addValue(q.transfer()).size());
        t.addValue(q.limit());
        String sql = "SELECT r.pruned_through, (SELECT coalesce(max(sequence), 0) FROM event_log), e.*"
                + " FROM event_retention r LEFT JOIN LATERAL (SELECT " + COLUMNS
                + " FROM event_log WHERE " + where + " ORDER BY sequence LIMIT $" + t.size() + ") e ON true";
        return pool.preparedQuery(sql).execute(t).map(rows -> {
            long pruned = 0;
            long head = 0;
            List<Event> out = new ArrayList<>();
            for (Row r : rows) {
                pruned = r.getLong(0);
                head = r.getLong(1);
                if (r.getValue(2) == null) continue;
                out.add(new Event(
                        r.getLong(2),
                        r.getString(3),
                        r.getString(4),
                        r.getLong(5),
                        bytes(r, 6),
                        bytes(r, 7),
                        r.getString(8),
                        (JsonObject) r.getValue(9)));
            }
            return new Page(pruned, Math.max(head, pruned), out);
        });
    }

    private static byte[] bytes(Row r, int i) {
        var b = r.getBuffer(i);
        return b == null ? null : b.getBytes();
    }

    /** The last sequence written (0 when none) and the last pruned. */
    public record Bounds(long last, long prunedThrough) {}

    public Future<Bounds> bounds() {
        return pool.query(
                        "SELECT (SELECT coalesce(max(sequence), 0) FROM event_log), pruned_through FROM event_retention")
                .execute()
                .map(rows -> {
                    Row r = rows.iterator().next();
                    return new Bounds(r.getLong(0), r.getLong(1));
                });
    }

    /**
     * The sequences of a chain's events of one topic at heights {@code from..to} (height → sequence): what a writer
     * announces when its commit's answer was lost and it found the commit had gone through.
     */
    public Future<Map<Long, Long>> sequencesAt(String chainId, String topic, long from, long to) {
        return pool.preparedQuery(
                        "SELECT height, sequence FROM event_log WHERE chain_id = $1 AND topic = $2 AND height BETWEEN $3 AND $4")
                .execute(Tuple.of(chainId, topic, from, to))
                .map(rows -> {
                    Map<Long, Long> out = new HashMap<>();
                    rows.forEach(r -> out.put(r.getLong(0), r.getLong(1)));
                    return out;
                });
    }

    /**
     * One bounded step of retention: deletes the oldest events, at most {@code batch} of them, that are beyond
     * the newest {@code keepCount} or older than {@code maxAge}, and records how far it pruned, in one transaction.
     * Answers how many rows it deleted (0: nothing left to prune now). A range delete on the primary key, never
     * row by row, and never on a writer's commit path.
     */
    public Future<Integer> pruneStep(long keepCount, Duration maxAge, int batch) {
        String sql = """
          WITH r AS (SELECT pruned_through FROM event_retention WHERE id = 1 FOR UPDATE),
               next AS (SELECT e.sequence, e.created FROM event_log e, r WHERE e.sequence > r.pruned_through
                        ORDER BY e.sequence LIMIT $3),
               cut AS (SELECT greatest(
                                (SELECT coalesce(max(n.sequence), 0) FROM next n
                                 WHERE n.sequence <= (SELECT coalesce(max(sequence), 0) FROM event_log) - $1),
                                (SELECT coalesce(max(n.sequence), 0) FROM next n
                                 WHERE n.created < now() - $2 * interval '1 millisecond')) AS upto,
                              r.pruned_through AS from_seq
                       FROM r),
               del AS (DELETE FROM event_log e USING cut WHERE e.sequence > cut.from_seq AND e.sequence <= cut.upto
                       RETURNING 1),
               upd AS (UPDATE event_retention SET pruned_through = cut.upto FROM cut
                       WHERE id = 1 AND cut.upto > cut.from_seq RETURNING 1)
          SELECT count(*)::int FROM del""";
        return pool.withTransaction(c -> c.preparedQuery(sql)
                .execute(Tuple.of(keepCount, maxAge.toMillis(), (long) batch))
                .map(rows -> rows.iterator().next().getInteger(0)));
    }
}
