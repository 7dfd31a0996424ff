package dev.weft.store;

import dev.weft.chain.Hex;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An indexed chain's blocks and txs as the tracker reads them instead of the chain's node: the height of each Cosmos tx
 * hash the index holds, the ingest head, block metas (time, tx count) and the tx records of a range of heights.
 */
public final class TxHeightsStore {
    private static final String HEIGHTS = "SELECT hash, height FROM tx WHERE hash = ANY($1)";
    private static final String HEAD = """
            SELECT c.height, b.time_ns FROM pipeline_cursor c LEFT JOIN block b ON b.height = c.height
            WHERE c.name = 'ingest'""";
    // the tx count of each block is counted from the tx rows themselves: a range's pages then hold exactly that many
    private static final String METAS = """
            SELECT b.height, b.time_ns, (SELECT count(*) FROM tx t WHERE t.height = b.height)
            FROM block b WHERE b.height BETWEEN $1 AND $2 AND b.height <= $3 ORDER BY b.height""";
    private static final String COUNT = "SELECT count(*) FROM tx WHERE height BETWEEN $1 AND $2";
    private static final String PAGE =
            "SELECT json FROM tx WHERE height BETWEEN $1 AND $2 ORDER BY height, sequence LIMIT $3 OFFSET $4";

    private final Pool pool;

    public TxHeightsStore(Pool pool) {
        this.pool = pool;
    }

    /** Upper-case hex hash → height, for the hashes the index holds (a hash that is not 32 bytes of hex is skipped). */
    public Future<Map<String, Long>> heights(List<String> hashes) {
        Buffer[] keys = hashes.stream()
                .filter(h -> Hex.isHex(h, 32))
                .map(h -> Buffer.buffer(Hex.decode(h)))
                .toArray(Buffer[]::new);
        if (keys.length == 0) return Future.succeededFuture(Map.of());
        return pool.preparedQuery(HEIGHTS).execute(Tuple.of(keys)).map(rows -> {
            Map<String, Long> out = new HashMap<>();
            for (Row r : rows) out.put(Hex.upper(r.getBuffer(0).getBytes()), r.getLong(1));
            return out;
        });
    }

    /** A block as the tracker knows it: height, block time (ns since the epoch), tx count. */
    public record Meta(long height, long timeNs, long txs) {}

    /** The ingest cursor's block (height 0 and time 0 before anything is indexed). */
    public Future<Meta> head() {
        return pool.query(HEAD).execute().map(rows -> {
            if (rows.size() == 0) return new Meta(0, 0, 0);
            Row r = rows.iterator().next();
            Long time = r.getLong(1);
            return new Meta(r.getLong(0), time == null ? 0 : time, 0);
        });
    }

    /** The blocks of [from, to] at or below {@code head}, ascending. */
    public Future<List<Meta>> metas(long from, long to, long head) {
        return pool.preparedQuery(METAS).execute(Tuple.of(from, to, head)).map(rows -> {
            List<Meta> out = new ArrayList<>(rows.size());
            for (Row r : rows) out.add(new Meta(r.getLong(0), r.getLong(1), r.getLong(2)));
            return out;
        });
    }

    /** How many txs the blocks [from, to] hold. */
    public Future<Long> count(long from, long to) {
        return pool.preparedQuery(COUNT)
                .execute(Tuple.of(from, to))
                .map(rows -> rows.iterator().next().getLong(0));
    }

    /** The tx records (the API's JSON) of the blocks [from, to] in chain order, {@code limit} from {@code offset}. */
    public Future<List<byte[]>> page(long from, long to, int limit, long offset) {
        return pool.preparedQuery(PAGE)
                .execute(Tuple.of(from, to, limit, offset))
                .map(rows -> {
                    List<byte[]> out = new ArrayList<>(rows.size());
                    for (Row r : rows) out.add(r.getBuffer(0).getBytes());
                    return out;
                });
    }
}
