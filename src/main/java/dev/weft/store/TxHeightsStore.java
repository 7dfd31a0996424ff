package dev.weft.store;

import dev.weft.chain.Hex;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Where an indexed chain's txs are: the height of each Cosmos tx hash the index holds (the tracker's shortcut). */
public final class TxHeightsStore {
    private static final String HEIGHTS = "SELECT hash, height FROM tx WHERE hash = ANY($1)";

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
}
