package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * A dictionary table ({@code id} ↔ unique value) resolved in bulk: one statement inserts the unknown values and returns
 * the id of every value asked; an LRU sits in front. Ids resolved inside a transaction are cached only once the
 * caller committed ({@link #remember}), so an id of a rolled-back insert is never handed out.
 */
final class Dictionary<K, V> {
  private final String resolveSql;
  private final String selectSql;
  private final Function<K, Object> toParam;
  private final IntFunction<Object[]> arrays;
  private final Function<Row, K> keyOf;
  private final Function<Row, V> idOf;
  private final Lru<K, V> cache;

  /**
   * @param table  dictionary table with columns {@code id} and {@code column}
   * @param pgType the column's PostgreSQL type ({@code bytea}, {@code text})
   */
  Dictionary(String table, String column, String pgType, Function<K, Object> toParam, IntFunction<Object[]> arrays,
             Function<Row, K> keyOf, Function<Row, V> idOf, int cacheSize) {
    this.resolveSql = """
        WITH input AS (SELECT DISTINCT unnest($1::%3$s[]) AS v),
        ins AS (INSERT INTO %1$s (%2$s) SELECT v FROM input ORDER BY v ON CONFLICT (%2$s) DO NOTHING RETURNING id, %2$s)
        SELECT id, %2$s FROM ins
        UNION ALL
        SELECT d.id, d.%2$s FROM %1$s d JOIN input i ON d.%2$s = i.v""".formatted(table, column, pgType);
    this.selectSql = "SELECT id, %2$s FROM %1$s WHERE %2$s = ANY($1::%3$s[])".formatted(table, column, pgType);
    this.toParam = toParam;
    this.arrays = arrays;
    this.keyOf = keyOf;
    this.idOf = idOf;
    this.cache = new Lru<>(cacheSize);
  }

  Future<Map<K, V>> resolve(SqlClient conn, Collection<K> keys) {
    Map<K, V> out = new HashMap<>(keys.size() * 2);
    Set<K> missing = new LinkedHashSet<>();
    for (K k : keys) {
      V id = cache.get(k);
      if (id != null) out.put(k, id);
      else missing.add(k);
    }
    if (missing.isEmpty()) return Future.succeededFuture(out);
    return conn.preparedQuery(resolveSql).execute(Tuple.tuple().addValue(param(missing))).compose(rows -> {
      rows.forEach(r -> out.put(keyOf.apply(r), idOf.apply(r)));
      List<K> still = missing.stream().filter(k -> !out.containsKey(k)).toList();
      if (still.isEmpty()) return Future.succeededFuture(out);
      // inserted meanwhile by a concurrent transaction that committed after this statement's snapshot
      return conn.preparedQuery(selectSql).execute(Tuple.tuple().addValue(param(still))).map(again -> {
        again.forEach(r -> out.put(keyOf.apply(r), idOf.apply(r)));
        for (K k : still) if (!out.containsKey(k)) throw new IllegalStateException(k + " has no dictionary id");
        return out;
      });
    });
  }

  void remember(Map<K, V> ids) {
    cache.putAll(ids);
  }

  private Object[] param(Collection<K> keys) {
    Object[] a = arrays.apply(keys.size());
    int i = 0;
    for (K k : keys) a[i++] = toParam.apply(k);
    return a;
  }
}
