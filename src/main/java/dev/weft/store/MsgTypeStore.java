package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;

import java.util.Collection;
import java.util.Map;

/** The message type dictionary ({@code msg_type}: id ↔ type URL without the leading slash); see {@link Dictionary}. */
public final class MsgTypeStore {
  private final Dictionary<String, Integer> dict = new Dictionary<>("msg_type", "name", "text", n -> n, String[]::new,
      r -> r.getString(1), r -> r.getInteger(0), 10_000);

  public Future<Map<String, Integer>> resolve(SqlClient conn, Collection<String> names) {
    return dict.resolve(conn, names);
  }

  public void remember(Map<String, Integer> ids) {
    dict.remember(ids);
  }
}
