package dev.weft.cluster;

import dev.weft.chain.Hashes;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Tuple;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A cluster-wide exclusive lease: a PostgreSQL session advisory lock held on a dedicated connection. Every node of a
 * cluster shares the database, so at most one session holds a given lease. When the holder's process dies its
 * connection drops and PostgreSQL releases the lock at once; TCP keepalives bound how long a vanished host keeps it.
 * The holder learns of a lost lease when its connection closes or a periodic check fails.
 */
final class WriterLease {
    private final Vertx vertx;
    private final PgConnectOptions options;
    private final String name;
    private final long key;
    private PgConnection conn;
    private long checkTimer = -1;
    private Runnable onLost = () -> {};
    private boolean held;

    WriterLease(Vertx vertx, PgConnectOptions options, String name) {
        this.vertx = vertx;
        this.options = new PgConnectOptions(options).setCachePreparedStatements(false);
        this.name = name;
        this.key = keyOf(name);
    }

    static long keyOf(String name) {
        return ByteBuffer.wrap(Hashes.sha256(("weft.writer." + name).getBytes(StandardCharsets.UTF_8)))
                .getLong();
    }

    /** One attempt: connects if needed and tries the lock; the future holds whether this session now holds the lease. */
    Future<Boolean> tryAcquire() {
        return connection()
                .compose(c -> c.preparedQuery("SELECT pg_try_advisory_lock($1)").execute(Tuple.of(key)))
                .map(rows -> {
                    held = rows.iterator().next().getBoolean(0);
                    if (held) startChecks();
                    return held;
                })
                .recover(e -> {
                    closeQuietly();
                    return Future.succeededFuture(false);
                });
    }

    /** Called (once) when a held lease is lost. */
    void onLost(Runnable r) {
        onLost = r;
    }

    boolean held() {
        return held;
    }

    String name() {
        return name;
    }

    Future<Void> release() {
        held = false;
        if (checkTimer >= 0) vertx.cancelTimer(checkTimer);
        checkTimer = -1;
        if (conn == null) return Future.succeededFuture();
        PgConnection c = conn;
        conn = null;
        return c.preparedQuery("SELECT pg_advisory_unlock($1)")
                .execute(Tuple.of(key))
                .<Void>mapEmpty()
                .recover(e -> Future.succeededFuture())
                .eventually(c::close);
    }

    private Future<PgConnection> connection() {
        if (conn != null) return Future.succeededFuture(conn);
        return PgConnection.connect(vertx, options)
                .compose(c -> c.query(
                                "SET application_name = 'weft lease " + name.replace("'", "") + "'; "
                                        + "SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3")
                        .execute()
                        .map(x -> {
                            conn = c;
                            c.closeHandler(v -> lost());
                            return c;
                        }));
    }

    private void startChecks() {
        if (checkTimer >= 0) return;
        checkTimer = vertx.setPeriodic(2000, id -> {
            if (conn == null) return;
            conn.query("SELECT 1").execute().onFailure(e -> closeQuietly());
        });
    }

    private void lost() {
        conn = null;
        if (checkTimer >= 0) vertx.cancelTimer(checkTimer);
        checkTimer = -1;
        if (held) {
            held = false;
            onLost.run();
        }
    }

    private void closeQuietly() {
        if (conn != null) {
            PgConnection c = conn;
            Promise<Void> p = Promise.promise();
            c.close().onComplete(p);
        }
    }
}
