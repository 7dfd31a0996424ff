package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The partitions of the history tables (migration V023): every large table is range-partitioned on its stream's
 * sequence. {@link #ensure} creates the partitions a writer will need soon (one partition's worth of room ahead of
 * each stream's head); {@link #prune} drops, whole, the partitions of a stream below a height (retention), recording
 * the floor first ({@code retention_floor}) so a reader of a pruned height is told it is gone rather than shown
 * nothing. Neither runs in a writer's commit.
 */
public final class Partitions {
    /** The streams a table belongs to (the sequence it is partitioned on). */
    public static final String TX = "tx";

    public static final String EVM_TX = "evm_tx";
    public static final String INTERNAL_TX = "internal_tx";

    /** PostgreSQL's "no partition of relation ... found for row" (a check violation). */
    private static final String NO_PARTITION = "23514";

    /** The first sequence of a stream at a height above $1, else the stream's head + 1 (every row is at or below). */
    private static final Map<String, String> FIRST_ABOVE = Map.of(
            TX,
            "SELECT coalesce((SELECT sequence FROM tx WHERE height > $1 ORDER BY height, sequence LIMIT 1),"
                    + " (SELECT txs FROM ingest_totals) + 1)",
            EVM_TX,
            "SELECT coalesce((SELECT sequence FROM evm_tx WHERE height > $1 ORDER BY height, sequence LIMIT 1),"
                    + " (SELECT evm_txs FROM ingest_totals) + 1)",
            INTERNAL_TX,
            "SELECT coalesce((SELECT sequence FROM evm_internal_tx WHERE height > $1 ORDER BY height, sequence LIMIT 1),"
                    + " (SELECT internal_txs FROM evm_internal_totals) + 1)");

    /** The height of a stream's row at a sequence (the last one a prune removes). */
    private static final Map<String, String> HEIGHT_AT = Map.of(
            TX, "SELECT height FROM tx WHERE sequence = $1",
            EVM_TX, "SELECT height FROM evm_tx WHERE sequence = $1",
            INTERNAL_TX, "SELECT height FROM evm_internal_tx WHERE sequence = $1");

    private static final String PARTS = """
      SELECT t.name, b.schema_name, b.partition_name, b.lo, b.hi, i.inhdetachpending
      FROM partitioned_table t
      CROSS JOIN LATERAL weft_partition_bounds(to_regclass(t.name)) b
      JOIN pg_class c ON c.relname = b.partition_name
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = b.schema_name
      JOIN pg_inherits i ON i.inhrelid = c.oid
      WHERE t.stream = $1 AND to_regclass(t.name) IS NOT NULL
      ORDER BY b.hi, t.name""";

    private final Pool pool;
    /**
     * The room this writer asks for ahead of each stream's head (0: one partition): doubled each time one of its
     * commits found no partition, so a commit that writes more rows than a partition holds finds room at its retry.
     */
    private long ahead;

    public Partitions(Pool pool) {
        this.pool = pool;
    }

    /** One partition: its table, its name, its bounds ({@code lo} null for the first, {@code hi} exclusive). */
    public record Part(String table, String schema, String name, Long lo, long hi, boolean detachPending) {}

    /** How far retention has dropped a stream: heights at or below {@code height} are gone, sequences below {@code firstKept}. */
    public record Floor(long height, long firstKept) {}

    /** Creates the partitions each stream needs to have {@code size} sequences of room ahead; answers how many it made. */
    public Future<Integer> ensure(long size) {
        return ensure(size, false);
    }

    /**
     * {@link #ensure(long)}; with {@code reshape} (a writer starting), the empty partitions above the heads that another
     * size made are made again with {@code size} first.
     */
    public Future<Integer> ensure(long size, boolean reshape) {
        long room = Math.max(size, ahead);
        return pool.preparedQuery("SELECT weft_partitions_ensure($1, $2, $3)")
                .execute(Tuple.of(size, reshape, room))
                .map(rows -> rows.iterator().next().getInteger(0));
    }

    /**
     * Runs a writer's commit; when it fails because a row found no partition (the partitions were not made in time),
     * makes them before failing it, so the writer's retry finds room.
     */
    public Future<Void> withRoom(long size, Supplier<Future<Void>> commit) {
        return commit.get().recover(e -> {
            if (!missingPartition(e)) return Future.failedFuture(e);
            // bounded: a commit's rows are bounded (ingest.commit_txs, evm.commit_rows), so the doubling ends; at most
            // 1024 partitions of room
            ahead = Math.min(Math.max(size, ahead) * 2, size * 1024);
            return ensure(size).transform(x -> Future.failedFuture(e));
        });
    }

    static boolean missingPartition(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause())
            if (t instanceof PgException pg
                    && NO_PARTITION.equals(pg.getSqlState())
                    && String.valueOf(pg.getErrorMessage()).startsWith("no partition")) return true;
        return false;
    }

    /** The partitions of a stream's tables, by upper bound. */
    public Future<List<Part>> list(String stream) {
        return pool.preparedQuery(PARTS).execute(Tuple.of(stream)).map(rows -> {
            List<Part> out = new ArrayList<>();
            for (Row r : rows)
                out.add(new Part(
                        r.getString(0), r.getString(1), r.getString(2), r.getLong(3), r.getLong(4), r.getBoolean(5)));
            return out;
        });
    }

    /** A stream's floor ({@code tx}, {@code evm_tx}, {@code internal_tx}). */
    public Future<Floor> floor(String stream) {
        return pool.preparedQuery("SELECT pruned_height, pruned_sequence FROM retention_floor WHERE stream = $1")
                .execute(Tuple.of(stream))
                .map(rows -> {
                    if (rows.size() == 0) return new Floor(0, 1);
                    Row r = rows.iterator().next();
                    return new Floor(r.getLong(0), r.getLong(1));
                });
    }

    /** Every stream's floor. */
    public Future<Map<String, Floor>> floors() {
        return pool.query("SELECT stream, pruned_height, pruned_sequence FROM retention_floor ORDER BY stream")
                .execute()
                .map(rows -> {
                    Map<String, Floor> out = new LinkedHashMap<>();
                    rows.forEach(r -> out.put(r.getString(0), new Floor(r.getLong(1), r.getLong(2))));
                    return out;
                });
    }

    /**
     * Drops the partitions of a stream whose every row is at a height at or below {@code height}; answers how many. The
     * floor is recorded before the first drop. A partition is detached {@code CONCURRENTLY} (it waits for the queries
     * that may read it and blocks no reader or writer of the table), then dropped; one left "detach pending" by an
     * interrupted prune is finalized.
     */
    public Future<Integer> prune(String stream, long height) {
        return pool.preparedQuery(FIRST_ABOVE.get(stream))
                .execute(Tuple.of(height))
                .map(rows -> rows.iterator().next().getLong(0))
                .compose(firstAbove -> list(stream).compose(parts -> {
                    List<Part> gone =
                            parts.stream().filter(p -> p.hi() <= firstAbove).toList();
                    if (gone.isEmpty()) return Future.succeededFuture(0);
                    long firstKept = gone.stream().mapToLong(Part::hi).max().orElseThrow();
                    return pool.preparedQuery(HEIGHT_AT.get(stream))
                            .execute(Tuple.of(firstKept - 1))
                            .compose(rows -> {
                                Long last = rows.size() == 0
                                        ? null
                                        : rows.iterator().next().getLong(0);
                                return pool.preparedQuery(
                                                "UPDATE retention_floor SET pruned_height = greatest(pruned_height, $2),"
                                                        + " pruned_sequence = greatest(pruned_sequence, $3) WHERE stream = $1")
                                        .execute(Tuple.of(stream, last == null ? 0L : last, firstKept));
                            })
                            .compose(x -> dropAll(gone, 0))
                            .map(x -> gone.size());
                }));
    }

    /**
     * Drops the event log's partitions whose every sequence its retention has deleted ({@code event_retention}); only
     * where the log lives (the schema of the default chain). Answers how many.
     */
    public Future<Integer> pruneEvents() {
        return pool.query("SELECT pruned_through, EXISTS (SELECT 1 FROM partitioned_table WHERE stream = 'event')"
                        + " FROM event_retention")
                .execute()
                .compose(rows -> {
                    Row r = rows.iterator().next();
                    if (!r.getBoolean(1)) return Future.succeededFuture(0);
                    long pruned = r.getLong(0);
                    return list("event").compose(parts -> {
                        List<Part> gone =
                                parts.stream().filter(p -> p.hi() <= pruned + 1).toList();
                        return dropAll(gone, 0).map(x -> gone.size());
                    });
                });
    }

    private Future<Void> dropAll(List<Part> parts, int i) {
        if (i >= parts.size()) return Future.succeededFuture();
        return drop(parts.get(i)).compose(x -> dropAll(parts, i + 1));
    }

    private Future<Void> drop(Part p) {
        String parent = quote(p.schema()) + "." + quote(p.table());
        String part = quote(p.schema()) + "." + quote(p.name());
        // not in a transaction: DETACH ... CONCURRENTLY refuses to run in one
        String detach = "ALTER TABLE " + parent + " DETACH PARTITION " + part
                + (p.detachPending() ? " FINALIZE" : " CONCURRENTLY");
        return pool.query(detach)
                .execute()
                .compose(x -> pool.query("DROP TABLE " + part).execute())
                .mapEmpty();
    }

    private static String quote(String ident) {
        return "\"" + ident.replace("\"", "\"\"") + "\"";
    }
}
