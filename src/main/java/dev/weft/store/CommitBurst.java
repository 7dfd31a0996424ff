package dev.weft.store;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Transaction;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The statements of one commit, sent at once right behind BEGIN on one connection and run in one transaction, so no
 * statement waits for another's round trip; COMMIT follows once all of them have succeeded. A writer's first statement
 * checks its position (the {@code weft_*_expect} functions raise
 * SQLSTATE {@code WI001} when the cursor or the counters are not where the writer expects them); the burst then fails
 * with {@link PositionMovedException} and nothing of it is written. A commit that fails otherwise may still have
 * committed (the connection lost after {@code COMMIT} was sent): {@link #resolve} asks the database which it was, so a
 * writer never announces a height twice or not at all.
 */
final class CommitBurst {
    private static final Logger LOG = LoggerFactory.getLogger(CommitBurst.class);
    private final List<String> sql = new ArrayList<>();
    private final List<Tuple> params = new ArrayList<>();
    private final List<Future<RowSet<Row>>> results = new ArrayList<>();

    void add(String statement, Tuple t) {
        sql.add(statement);
        params.add(t);
    }

    int size() {
        return sql.size();
    }

    /** The rows statement {@code i} answered, once {@link #run} succeeded. */
    RowSet<Row> result(int i) {
        return results.get(i).result();
    }

    Future<Void> run(Pool pool) {
        return pool.withConnection(conn -> {
                    // BEGIN is not awaited: the statements follow it on the wire, so the server starts on them without
                    // waiting for
                    // this event loop (busy with the fetches, it took ~12 ms per commit to send them after BEGIN's
                    // answer). COMMIT
                    // is sent only once BEGIN and every statement have succeeded: a statement the client refuses (a
                    // parameter it
                    // cannot encode) never reaches the server, so the server alone cannot tell that the transaction is
                    // incomplete.
                    List<Future<?>> all = new ArrayList<>(sql.size() + 1);
                    all.add(conn.begin());
                    Transaction tx = conn.transaction();
                    results.clear();
                    for (int i = 0; i < sql.size(); i++) {
                        Future<RowSet<Row>> r = conn.preparedQuery(sql.get(i)).execute(params.get(i));
                        results.add(r);
                        all.add(r);
                    }
                    // a failed statement's own error is the one reported, once the transaction has rolled back
                    return Future.all(all)
                            .transform(ar -> ar.succeeded()
                                    ? tx.commit()
                                    : tx.rollback().transform(x -> Future.<Void>failedFuture(ar.cause())));
                })
                .recover(e -> {
                    if (e instanceof PgException pg && "WI001".equals(pg.getSqlState()))
                        return Future.failedFuture(new PositionMovedException(pg.getErrorMessage()));
                    return Future.failedFuture(e);
                });
    }

    /**
     * A failed commit that went through after all succeeds: unless the position check refused it, {@code landed} tells
     * whether it did (see {@link #landed}). When that cannot be told either (the database unreachable), the commit's own
     * failure stands and the writer re-reads its position later.
     */
    static <T> Future<T> resolve(Future<T> commit, T committed, String writer, Supplier<Future<Boolean>> landed) {
        return commit.recover(e -> {
            if (e instanceof PositionMovedException) return Future.failedFuture(e);
            return ask(landed, 0).transform(ar -> {
                if (!ar.succeeded() || !ar.result()) return Future.failedFuture(e);
                LOG.warn(
                        "a {} commit failed ({}) but went through: the database stands where it leaves it",
                        writer,
                        e.getMessage());
                return Future.succeededFuture(committed);
            });
        });
    }

    /**
     * The pool hands out the connection that just broke until it has noticed: the question is asked on a later turn of
     * the event loop, a few times, waiting a little longer each time.
     */
    private static Future<Boolean> ask(Supplier<Future<Boolean>> landed, int attempt) {
        Context context = Vertx.currentContext();
        long delay = 10L << (2 * attempt); // 10, 40, 160 ms
        Future<Void> later = context == null
                ? Future.succeededFuture()
                : context.owner().timer(delay).mapEmpty();
        return later.compose(x -> landed.get())
                .recover(e -> attempt < 2 ? ask(landed, attempt + 1) : Future.failedFuture(e));
    }

    /**
     * Whether the commit that wrote {@code token} with the cursor is the one that moved it last. The position alone cannot
     * tell: after a lease changed hands, another writer may have committed the very same heights. The token is read with
     * the cursor row locked: every write locks that row first, so a commit whose connection was lost has ended, committed
     * or rolled back, when this reads (after the wait, the row as the last commit left it).
     */
    static Future<Boolean> landed(Pool pool, String cursor, UUID token) {
        // a read: rolled back, so its own outcome needs no answer from the server
        return pool.withConnection(c -> c.begin()
                .compose(tx -> c.query("SET LOCAL lock_timeout = '30s'")
                        .execute()
                        .compose(x -> c.preparedQuery(
                                        "SELECT commit_token FROM pipeline_cursor WHERE name = $1 FOR UPDATE")
                                .execute(Tuple.of(cursor)))
                        .map(rows -> rows.size() == 1
                                && token.equals(rows.iterator().next().getUUID(0)))
                        .eventually(() -> tx.rollback().otherwiseEmpty())));
    }
}
