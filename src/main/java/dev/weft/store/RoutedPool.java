package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PrepareOptions;
import io.vertx.sqlclient.PreparedQuery;
import io.vertx.sqlclient.Query;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import java.util.function.Supplier;

/**
 * A pool that hands each query (or connection) to the pool {@code choose} names at that moment, so the read stores keep
 * taking one {@link Pool} while {@link ReadPools} moves their reads between replicas and the primary. A statement is one
 * snapshot wherever it runs; several statements that must agree take one connection ({@link #getConnection}).
 * Closing it closes nothing: the pools it routes to belong to {@link ReadPools} and {@link Database}.
 */
final class RoutedPool implements Pool {
    private final Supplier<Pool> choose;

    RoutedPool(Supplier<Pool> choose) {
        this.choose = choose;
    }

    /** The pool the next query goes to. */
    Pool choose() {
        return choose.get();
    }

    @Override
    public Future<SqlConnection> getConnection() {
        return choose.get().getConnection();
    }

    @Override
    public Query<RowSet<Row>> query(String sql) {
        return choose.get().query(sql);
    }

    @Override
    public PreparedQuery<RowSet<Row>> preparedQuery(String sql) {
        return choose.get().preparedQuery(sql);
    }

    @Override
    public PreparedQuery<RowSet<Row>> preparedQuery(String sql, PrepareOptions options) {
        return choose.get().preparedQuery(sql, options);
    }

    @Override
    public int size() {
        return choose.get().size();
    }

    @Override
    public Future<Void> close() {
        return Future.succeededFuture();
    }
}
