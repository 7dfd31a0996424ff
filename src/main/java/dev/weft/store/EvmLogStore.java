package dev.weft.store;

import dev.weft.model.ingest.EvmLogs;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keyset pages of {@code evm_log} filtered by emitting contract and topics within a height range (the API bounds its
 * width). The height range becomes the sequence range of its EVM txs (sequences follow heights), and the page walks
 * the index of its most selective filter within it: the address's, else topic0's, else the primary key; the other
 * filters are checked on the rows of that walk, which the bounded range keeps bounded.
 */
public final class EvmLogStore {
    /**
     * One query: null filters match anything; {@code bound*} is the exclusive (height, sequence, log_position) cursor
     * (its sequence and position make it a range of the walked index, so a deep page costs what the first does), or
     * null for the start of the range in the page's direction.
     */
    public record Query(
            byte[] address,
            byte[][] topics,
            long fromHeight,
            long toHeight,
            boolean desc,
            Long boundHeight,
            Long boundSequence,
            Integer boundPosition,
            int limit) {}

    /** A log: its keyset position and its JSON as the receipt holds it (read from the receipt: evm_log keeps none). */
    public record Log(long height, long sequence, int position, Buffer json) {}

    public record Page(List<Log> rows, boolean more) {}

    private final Pool pool;
    private final Map<String, String> sqlCache = new ConcurrentHashMap<>();

    public EvmLogStore(Pool pool) {
        this.pool = pool;
    }

    public Future<Page> page(Query q) {
        boolean[] topics = new boolean[4];
        for (int i = 0; i < 4; i++) topics[i] = q.topics()[i] != null;
        boolean cursor = q.boundSequence() != null;
        String shape = (q.address() != null) + "/" + java.util.Arrays.toString(topics) + "/" + q.desc() + "/" + cursor;
        String sql = sqlCache.computeIfAbsent(shape, k -> buildSql(q.address() != null, topics, q.desc(), cursor));
        Tuple t = Tuple.tuple().addValue(q.fromHeight()).addValue(q.toHeight());
        if (q.address() != null) t.addValue(Buffer.buffer(q.address()));
        for (int i = 0; i < 4; i++) if (topics[i]) t.addValue(Buffer.buffer(q.topics()[i]));
        if (cursor) t.addValue(q.boundSequence()).addValue(q.boundPosition());
        t.addValue(q.limit() + 1);
        return pool.preparedQuery(sql).execute(t).map(rows -> {
            List<Log> out = new ArrayList<>();
            // a page's logs of one tx are consecutive: its receipt is parsed once for them
            long parsedSequence = -1;
            List<EvmLogs.Log> parsed = List.of();
            for (Row r : rows) {
                long sequence = r.getLong(1);
                int position = r.getInteger(2);
                if (sequence != parsedSequence) {
                    parsed = EvmLogs.of(r.getBuffer(3).getBytes());
                    parsedSequence = sequence;
                }
                if (position >= parsed.size())
                    throw new IllegalStateException("evm_log " + sequence + "/" + position + " is not in its receipt");
                out.add(new Log(
                        r.getLong(0),
                        sequence,
                        position,
                        Buffer.buffer(parsed.get(position).json())));
            }
            boolean more = out.size() > q.limit();
            return new Page(more ? out.subList(0, q.limit()) : out, more);
        });
    }

    /**
     * The SQL of a query shape. Parameters: from and to height, the address (if filtered), each filtered topic in
     * order, the cursor's sequence and position (if any), limit + 1. Ordering by the walked index's own columns (the
     * filter column is constant) lets the planner read that index in order and stop at the limit.
     */
    public static String buildSql(boolean address, boolean[] topics, boolean desc, boolean cursor) {
        int p = 3;
        StringBuilder where = new StringBuilder("l.sequence BETWEEN coalesce((SELECT r.sequence FROM evm_tx r WHERE"
                + " r.height >= $1::bigint ORDER BY r.height, r.sequence LIMIT 1), " + Long.MAX_VALUE + ")"
                + " AND coalesce((SELECT r.sequence FROM evm_tx r WHERE r.height <= $2::bigint"
                + " ORDER BY r.height DESC, r.sequence DESC LIMIT 1), 0)");
        String lead = null;
        if (address) {
            where.append(" AND l.address = $").append(p++).append("::bytea");
            lead = "l.address";
        }
        for (int i = 0; i < 4; i++) {
            if (!topics[i]) continue;
            where.append(" AND l.topic").append(i).append(" = $").append(p++).append("::bytea");
            if (lead == null && i == 0) lead = "l.topic0";
        }
        String dir = desc ? "DESC" : "ASC";
        if (cursor) {
            where.append(" AND (l.sequence, l.log_position) ")
                    .append(desc ? "<" : ">")
                    .append(" ($")
                    .append(p++)
                    .append("::bigint, $")
                    .append(p++)
                    .append("::int)");
        }
        String order = (lead == null ? "" : lead + " " + dir + ", ") + "l.sequence " + dir + ", l.log_position " + dir;
        // the page's rows first (the walked index, stopped at the limit), then their receipts by primary key
        return "SELECT p.height, p.sequence, p.log_position, e.json FROM (SELECT l.height, l.sequence, l.log_position"
                + " FROM evm_log l WHERE " + where + " ORDER BY " + order + " LIMIT $" + p + "::bigint) p"
                + " JOIN evm_tx e ON e.sequence = p.sequence ORDER BY p.sequence " + dir + ", p.log_position " + dir;
    }
}
