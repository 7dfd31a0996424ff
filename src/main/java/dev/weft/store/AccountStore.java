package dev.weft.store;

import dev.weft.chain.AccountAddress;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.Collection;
import java.util.Map;

/**
 * The account dictionary ({@code account}: id ↔ 20/32-byte address), shared by every pipeline: ids resolved in bulk
 * with an LRU in front (see {@link Dictionary}).
 */
public final class AccountStore {
  private final Dictionary<AccountAddress, Long> dict;

  public AccountStore(int cacheSize) {
    this.dict = new Dictionary<>("account", "address", "bytea", a -> Buffer.buffer(a.bytes()), Buffer[]::new,
        r -> AccountAddress.of(r.getBuffer(1).getBytes()), r -> r.getLong(0), cacheSize);
  }

  /** Ids of {@code addresses}, inserting the unknown ones, on the caller's connection (usually its transaction). */
  public Future<Map<AccountAddress, Long>> resolve(SqlClient conn, Collection<AccountAddress> addresses) {
    return dict.resolve(conn, addresses);
  }

  /** Caches ids once the transaction that resolved them committed. */
  public void remember(Map<AccountAddress, Long> ids) {
    dict.remember(ids);
  }

  /** The id of an address, or null when it was never seen. Read-only. */
  public static Future<Long> find(SqlClient c, AccountAddress a) {
    return c.preparedQuery("SELECT id FROM account WHERE address = $1").execute(Tuple.of(Buffer.buffer(a.bytes())))
        .map(rows -> rows.size() == 0 ? null : rows.iterator().next().getLong(0));
  }
}
