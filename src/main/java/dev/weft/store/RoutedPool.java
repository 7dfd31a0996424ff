package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PrepareOptions;
import io.vertx.sqlclient.PreparedQuery;
import io.vertx.sqlclient.Query;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.SqlResult;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collector;

/**
 * A pool that hands each query (or connection) to the pool {@code choose} names at that moment, so the read stores keep
 * taking one {@link Pool} while {@link ReadPools} moves their reads between replicas and the primary. A statement is one
 * snapshot wherever it runs; several statements that must agree take one server ({@link ReadPools#pin}).
 *
 * <p>A statement a replica fails for want of a connection (stopped, restarting: the checks have not seen it yet) or
 * cancels for a conflict with its WAL replay ({@code 40001}, PostgreSQL manual "Handling Query Conflicts") runs again on
 * the primary, once: reads are idempotent, and a client should not see a replica's trouble. Closing it closes nothing:
 * the pools it routes to belong to {@link ReadPools} and {@link Database}.
 */
final class RoutedPool implements Pool {
    private final Supplier<Pool> choose;
    private final Pool primary;
    private final Consumer<Pool> unreachable;

    /** @param unreachable told of a replica pool whose connection failed, so it leaves the rotation until checked again */
    RoutedPool(Supplier<Pool> choose, Pool primary, Consumer<Pool> unreachable) {
        this.choose = choose;
        this.primary = primary;
        this.unreachable = unreachable;
    }

    /** The pool the next query goes to. */
    Pool choose() {
        return choose.get();
    }

    /** This pool's retry on the primary, every statement sent to {@code target}. */
    RoutedPool fixedTo(Pool target) {
        return new RoutedPool(() -> target, primary, unreachable);
    }

    /** Whether a replica's failure is its own (the primary would answer): no connection, shutting down, a conflict. */
    static boolean replicaTrouble(Throwable e) {
        if (e instanceof PgException pg) {
            String state = pg.getSqlState();
            return state != null && (state.equals("40001") || state.startsWith("57P") || state.startsWith("08"));
        }
        return true; // not a server's answer: the connection failed or closed
    }

    private <T> Future<T> onReplica(Pool target, Function<Pool, Future<T>> run) {
        if (target == primary) return run.apply(primary);
        return run.apply(target).recover(e -> {
            if (!replicaTrouble(e)) return Future.failedFuture(e);
            if (!(e instanceof PgException)) unreachable.accept(target);
            return run.apply(primary);
        });
    }

    @Override
    public Future<SqlConnection> getConnection() {
        Pool target = choose.get();
        return onReplica(target, Pool::getConnection);
    }

    @Override
    public Query<RowSet<Row>> query(String sql) {
        Pool target = choose.get();
        if (target == primary) return primary.query(sql);
        return new Retried(target, sql, null, false);
    }

    @Override
    public PreparedQuery<RowSet<Row>> preparedQuery(String sql) {
        Pool target = choose.get();
        if (target == primary) return primary.preparedQuery(sql);
        return new Retried(target, sql, null, true);
    }

    @Override
    public PreparedQuery<RowSet<Row>> preparedQuery(String sql, PrepareOptions options) {
        Pool target = choose.get();
        if (target == primary) return primary.preparedQuery(sql, options);
        return new Retried(target, sql, options, true);
    }

    @Override
    public int size() {
        return choose.get().size();
    }

    @Override
    public Future<Void> close() {
        return Future.succeededFuture();
    }

    /** A statement on a replica that runs again on the primary when the replica cannot answer it. */
    private final class Retried implements PreparedQuery<RowSet<Row>> {
        private final Pool target;
        private final String sql;
        private final PrepareOptions options;
        private final boolean prepared;

        Retried(Pool target, String sql, PrepareOptions options, boolean prepared) {
            this.target = target;
            this.sql = sql;
            this.options = options;
            this.prepared = prepared;
        }

        private PreparedQuery<RowSet<Row>> on(Pool p) {
            return options == null ? p.preparedQuery(sql) : p.preparedQuery(sql, options);
        }

        @Override
        public Future<RowSet<Row>> execute() {
            return onReplica(
                    target, p -> prepared ? on(p).execute() : p.query(sql).execute());
        }

        @Override
        public Future<RowSet<Row>> execute(Tuple tuple) {
            return onReplica(target, p -> on(p).execute(tuple));
        }

        @Override
        public Future<RowSet<Row>> executeBatch(List<Tuple> batch) {
            return onReplica(target, p -> on(p).executeBatch(batch));
        }

        // mapped and collected forms run where they were chosen, without the retry (no read store uses them)
        @Override
        public <R> PreparedQuery<SqlResult<R>> collecting(Collector<Row, ?, R> collector) {
            return on(target).collecting(collector);
        }

        @Override
        public <U> PreparedQuery<RowSet<U>> mapping(Function<Row, U> mapper) {
            return on(target).mapping(mapper);
        }
    }
}
