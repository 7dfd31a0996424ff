package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/** Reads of the block table: pages by height with the exact block count in the same round trip, one block, average block time. */
public final class BlockStore {
    private static final String PAGE = """
      SELECT c.total, p.height, p.json FROM (SELECT %s AS total) c
      LEFT JOIN LATERAL (SELECT height, json FROM block WHERE height %s $1::bigint ORDER BY height %s OFFSET $2::bigint LIMIT $3::bigint) p ON true
      ORDER BY p.height %s""";
    private static final String PAGE_DESC = PAGE.formatted("(SELECT blocks FROM ingest_totals)", "<", "DESC", "DESC");
    private static final String PAGE_ASC = PAGE.formatted("(SELECT blocks FROM ingest_totals)", ">", "ASC", "ASC");
    private static final String ONE = "SELECT json FROM block WHERE height = $1";
    private static final String AVG =
            "SELECT count(*), min(time_ns), max(time_ns) FROM (SELECT time_ns FROM block ORDER BY height DESC LIMIT $1) b";

    /**
     * Parameters: from and to time (ns, inclusive). Columns: the first height at or after from, the last at or before
     * to (null when none): one probe of {@code block_time_idx} each.
     */
    private static final String HEIGHTS_AT = """
      SELECT (SELECT b.height FROM block b WHERE b.time_ns >= $1::bigint ORDER BY b.time_ns, b.height LIMIT 1),
             (SELECT b.height FROM block b WHERE b.time_ns <= $2::bigint ORDER BY b.time_ns DESC, b.height DESC LIMIT 1)""";

    /** A page: rows of JSON with their key, {@code more} when a row follows the page, and the total. */
    public record Page(List<Buffer> rows, List<Long> keys, boolean more, long total) {
        public Long lastKey() {
            return keys.isEmpty() ? null : keys.get(keys.size() - 1);
        }
    }

    private final Pool pool;

    public BlockStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * A page with the block count (a counter row, so always given: {@code /blocks} fills its total whatever
     * {@code count_total} says, as rollytics and kvindexer do).
     *
     * @param bound exclusive height bound (the cursor), or {@code Long.MAX_VALUE}/0 for none
     */
    public Future<Page> page(boolean desc, long bound, long offset, int limit) {
        String sql = desc ? PAGE_DESC : PAGE_ASC;
        return pool.preparedQuery(sql)
                .execute(Tuple.of(bound, offset, limit + 1))
                .map(rows -> toPage(rows, limit));
    }

    static Page toPage(Iterable<Row> rows, int limit) {
        long total = 0;
        List<Buffer> json = new ArrayList<>();
        List<Long> keys = new ArrayList<>();
        for (Row r : rows) {
            Long t = r.getLong(0);
            total = t == null ? 0 : t;
            Long k = r.getLong(1);
            if (k == null) continue;
            keys.add(k);
            json.add(r.getBuffer(2));
        }
        boolean more = json.size() > limit;
        if (more) {
            json = json.subList(0, limit);
            keys = keys.subList(0, limit);
        }
        return new Page(json, keys, more, total);
    }

    /** The block record JSON, or null. */
    public Future<Buffer> get(long height) {
        return pool.preparedQuery(ONE)
                .execute(Tuple.of(height))
                .map(rows -> rows.size() == 0 ? null : rows.iterator().next().getBuffer(0));
    }

    /**
     * The heights a time range covers: {@code [first block at or after fromNs, last block at or before toNs]}, each
     * null when no block is there (a null bound is open).
     */
    public Future<Long[]> heightsAt(Long fromNs, Long toNs) {
        return pool.preparedQuery(HEIGHTS_AT)
                .execute(Tuple.of(fromNs == null ? Long.MIN_VALUE : fromNs, toNs == null ? Long.MAX_VALUE : toNs))
                .map(rows -> {
                    Row r = rows.iterator().next();
                    return new Long[] {r.getLong(0), r.getLong(1)};
                });
    }

    /** Average seconds between the last {@code window} blocks: (newest − oldest) / (n − 1); 0 with fewer than two. */
    public Future<Double> averageBlockTime(int window) {
        return pool.preparedQuery(AVG).execute(Tuple.of(window)).map(rows -> {
            Row r = rows.iterator().next();
            long n = r.getLong(0);
            if (n < 2) return 0.0;
            return (r.getLong(2) - r.getLong(1)) / 1e9 / (n - 1);
        });
    }
}
