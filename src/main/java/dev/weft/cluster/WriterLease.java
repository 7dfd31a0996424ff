package dev.weft.cluster;

import dev.weft.store.LeaseStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Tuple;

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

    private final String nodeId;

    WriterLease(Vertx vertx, PgConnectOptions options, String name, String nodeId) {
        this.vertx = vertx;
        this.nodeId = nodeId;
        this.options = new PgConnectOptions(options).setCachePreparedStatements(false);
        this.name = name;
        this.key = keyOf(name);
    }

    /**
     * The connection's name as {@link LeaseStore} reads it: the node first (a UUID when clustered), then the lease; what
     * passes PostgreSQL's 63 bytes is cut, and only the lease name can be (the key in pg_locks says which lease it is).
     */
    static String applicationName(String nodeId, String name) {
        String s = (LeaseStore.APPLICATION_PREFIX + nodeId.replaceAll("[^A-Za-z0-9._-]", "") + " "
                + name.replaceAll("[^A-Za-z0-9._-]", ""));
        return s.length() > 63 ? s.substring(0, 63) : s;
    }

    static long keyOf(String name) {
        return LeaseStore.keyOf(name);
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

    /** Opens the lease's connection without taking the lock: a standby that defers to a less loaded node shows as one. */
    Future<Void> standBy() {
        return connection().<Void>mapEmpty().recover(e -> {
            closeQuietly();
            return Future.succeededFuture();
        });
    }

    long key() {
        return key;
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
                                "SET application_name = '" + applicationName(nodeId, name) + "'; "
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
