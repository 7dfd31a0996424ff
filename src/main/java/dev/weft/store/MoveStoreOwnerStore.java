package dev.weft.store;

import dev.weft.chain.AccountAddress;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code move_fa_store}: the owner of each Move fungible store ingestion has learned (store and owner as 32 bytes). */
public final class MoveStoreOwnerStore {
    private static final String FIND =
            "SELECT store_addr, owner FROM move_fa_store WHERE store_addr = ANY($1::bytea[])";
    private static final String ADD = """
      INSERT INTO move_fa_store (store_addr, owner) SELECT s, o FROM unnest($1::bytea[], $2::bytea[]) AS u(s, o)
      ORDER BY s ON CONFLICT (store_addr) DO NOTHING""";

    private final Pool pool;

    public MoveStoreOwnerStore(Pool pool) {
        this.pool = pool;
    }

    /** The known owners of some stores. */
    public Future<Map<AccountAddress, AccountAddress>> owners(Collection<AccountAddress> stores) {
        if (stores.isEmpty()) return Future.succeededFuture(Map.of());
        List<Buffer> keys = new ArrayList<>(stores.size());
        for (AccountAddress s : stores) keys.add(Buffer.buffer(s.bytes()));
        return pool.preparedQuery(FIND)
                .execute(Tuple.tuple().addValue(SqlArrays.bufs(keys)))
                .map(rows -> {
                    Map<AccountAddress, AccountAddress> out = new LinkedHashMap<>();
                    for (Row r : rows)
                        out.put(
                                AccountAddress.of(r.getBuffer(0).getBytes()),
                                AccountAddress.of(r.getBuffer(1).getBytes()));
                    return out;
                });
    }

    /** Remembers store → owner pairs (a pair already stored stays). */
    public Future<Void> add(Map<AccountAddress, AccountAddress> owners) {
        if (owners.isEmpty()) return Future.succeededFuture();
        List<Buffer> s = new ArrayList<>(owners.size());
        List<Buffer> o = new ArrayList<>(owners.size());
        owners.forEach((store, owner) -> {
            s.add(Buffer.buffer(store.bytes()));
            o.add(Buffer.buffer(owner.bytes()));
        });
        return pool.preparedQuery(ADD)
                .execute(Tuple.tuple().addValue(SqlArrays.bufs(s)).addValue(SqlArrays.bufs(o)))
                .mapEmpty();
    }
}
