package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;

/**
 * The statements of one commit, sent at once on one connection and run in one transaction, so no statement waits for
 * another's round trip. A writer's first statement checks its position (the {@code weft_*_expect} functions raise
 * SQLSTATE {@code WI001} when the cursor or the counters are not where the writer expects them); the burst then fails
 * with {@link PositionMovedException} and nothing of it is written.
 */
final class CommitBurst {
  private final List<String> sql = new ArrayList<>();
  private final List<Tuple> params = new ArrayList<>();

  void add(String statement, Tuple t) {
    sql.add(statement);
    params.add(t);
  }

  Future<Void> run(Pool pool) {
    return pool.withTransaction(conn -> {
      List<Future<?>> all = new ArrayList<>(sql.size());
      for (int i = 0; i < sql.size(); i++) all.add(conn.preparedQuery(sql.get(i)).execute(params.get(i)));
      return Future.all(all);
    }).<Void>mapEmpty().recover(e -> {
      if (e instanceof PgException pg && "WI001".equals(pg.getSqlState())) return Future.failedFuture(new PositionMovedException(pg.getErrorMessage()));
      return Future.failedFuture(e);
    });
  }
}
