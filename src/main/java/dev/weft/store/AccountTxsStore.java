package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/** One chain's txs of an account, newest first, for the cross-chain account view (a keyset on the tx sequence). */
public final class AccountTxsStore {
    private static final String NEWEST = """
      SELECT t.sequence, t.height, t.hash, t.code, ta.signer, b.time_ns
      FROM account a JOIN tx_account ta ON ta.account_id = a.id JOIN tx t ON t.sequence = ta.sequence
           JOIN block b ON b.height = t.height
      WHERE a.address = $1 AND ta.sequence < $2
      ORDER BY ta.sequence DESC LIMIT $3""";

    /** One tx of the account. */
    public record Item(long sequence, long height, byte[] hash, int code, boolean signer, long timeNs) {}

    private final Pool pool;

    public AccountTxsStore(Pool pool) {
        this.pool = pool;
    }

    /** The account's txs below {@code beforeSequence}, newest first, at most {@code limit}. */
    public Future<List<Item>> newest(byte[] address, long beforeSequence, int limit) {
        return pool.preparedQuery(NEWEST)
                .execute(Tuple.of(io.vertx.core.buffer.Buffer.buffer(address), beforeSequence, limit))
                .map(rows -> {
                    List<Item> out = new ArrayList<>();
                    for (Row r : rows)
                        out.add(new Item(
                                r.getLong(0),
                                r.getLong(1),
                                r.getBuffer(2).getBytes(),
                                r.getInteger(3),
                                r.getBoolean(4),
                                r.getLong(5)));
                    return out;
                });
    }
}
