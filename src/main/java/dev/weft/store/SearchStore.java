package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * The lookups of the search box, all in one statement and each an index probe: a block by height, Cosmos and EVM txs by
 * hash, an account by address. A value that is not a candidate of a kind is passed as null and matches nothing.
 */
public final class SearchStore {
    /** Parameters: height, hash, address, limit. Columns: kind, height, bytes (tx hash or account address). */
    static final String SEARCH = """
      SELECT * FROM (
        SELECT 'block' AS kind, b.height, NULL::bytea AS bytes, 0 AS k, 0::bigint AS s FROM block b WHERE b.height = $1::bigint
        UNION ALL
        SELECT 'tx', t.height, t.hash, 1, t.sequence FROM tx t WHERE t.hash = $2::bytea
        UNION ALL
        SELECT 'evm_tx', e.height, e.hash, 2, e.sequence FROM evm_tx e WHERE e.hash = $2::bytea
        UNION ALL
        SELECT 'account', NULL, a.address, 3, a.id FROM account a WHERE a.address = $3::bytea) r
      ORDER BY r.k, r.s DESC LIMIT $4""";

    /** One hit: its kind ({@code block}, {@code tx}, {@code evm_tx}, {@code account}), height, and hash or address. */
    public record Hit(String kind, Long height, byte[] bytes) {}

    private final Pool pool;

    public SearchStore(Pool pool) {
        this.pool = pool;
    }

    public Future<List<Hit>> search(Long height, byte[] hash, byte[] address, int limit) {
        Tuple t = Tuple.tuple()
                .addValue(height)
                .addValue(hash == null ? null : Buffer.buffer(hash))
                .addValue(address == null ? null : Buffer.buffer(address))
                .addValue(limit);
        return pool.preparedQuery(SEARCH).execute(t).map(rows -> {
            List<Hit> out = new ArrayList<>();
            for (Row r : rows) {
                Buffer b = r.getBuffer(2);
                out.add(new Hit(r.getString(0), r.getLong(1), b == null ? null : b.getBytes()));
            }
            return out;
        });
    }
}
