package dev.weft.store;

import dev.weft.config.DatabaseConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's one shared reactive pool, over an external server ({@code database.url}) or the embedded one, with the
 * schema migrated. {@link #start} fails with a {@link DatabaseUnavailableException} when the server cannot be reached.
 */
public final class Database {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    private final Vertx vertx;
    private final Pool pool;
    private final PgConnectOptions connectOptions;
    private final EmbeddedPostgresServer embedded;

    private Database(Vertx vertx, Pool pool, PgConnectOptions connectOptions, EmbeddedPostgresServer embedded) {
        this.vertx = vertx;
        this.pool = pool;
        this.connectOptions = connectOptions;
        this.embedded = embedded;
    }

    public static Future<Database> start(Vertx vertx, DatabaseConfig cfg) {
        Future<EmbeddedPostgresServer> server = cfg.embedded()
                ? vertx.executeBlocking(
                        () -> EmbeddedPostgresServer.start(
                                Path.of(cfg.dataDir()),
                                cfg.embeddedPort(),
                                cfg.embeddedFsync(),
                                Map.of(),
                                java.time.Duration.ofSeconds(30)),
                        false)
                : Future.succeededFuture(null);
        return server.compose(emb -> {
            PgConnectOptions opts = emb != null
                    ? new PgConnectOptions()
                            .setHost("127.0.0.1")
                            .setPort(emb.port())
                            .setUser("postgres")
                            .setDatabase("postgres")
                    : PgConnectOptions.fromUri(cfg.url());
            withStatementCache(opts);
            Pool pool = PgBuilder.pool()
                    .with(new PoolOptions()
                            .setMaxSize(cfg.poolSize())
                            .setMaxWaitQueueSize(10_000)
                            .setConnectionTimeout(cfg.connectTimeoutMs())
                            .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS))
                    .connectingTo(opts)
                    .using(vertx)
                    .build();
            Database db = new Database(vertx, pool, opts, emb);
            return pool.query("SELECT 1")
                    .execute()
                    .recover(e -> db.close()
                            .transform(x -> Future.failedFuture(new DatabaseUnavailableException(
                                    "cannot reach PostgreSQL at " + opts.getHost() + ":" + opts.getPort() + "/"
                                            + opts.getDatabase() + ": " + EmbeddedPostgresServer.rootMessage(e),
                                    e))))
                    .compose(ok -> Migrations.apply(vertx, pool))
                    .map(applied -> {
                        LOG.info(
                                "database ready at {}:{}/{} ({} migration(s) applied)",
                                opts.getHost(),
                                opts.getPort(),
                                opts.getDatabase(),
                                applied);
                        return db;
                    })
                    .recover(e -> e instanceof DatabaseUnavailableException
                            ? Future.failedFuture(e)
                            : db.close().transform(x -> Future.failedFuture(e)));
        });
    }

    /**
     * The node's statement options on {@code opts}: each connection prepares a statement once and keeps it (up to 512),
     * and pipelines up to 256 queries.
     */
    public static PgConnectOptions withStatementCache(PgConnectOptions opts) {
        return opts.setCachePreparedStatements(true)
                .setPreparedStatementCacheMaxSize(512)
                .setPipeliningLimit(256);
    }

    public Pool pool() {
        return pool;
    }

    public PgConnectOptions connectOptions() {
        return connectOptions;
    }

    /** The embedded server, or null when an external database is used. */
    public EmbeddedPostgresServer embedded() {
        return embedded;
    }

    public String describe() {
        return embedded != null
                ? "embedded PostgreSQL on 127.0.0.1:" + embedded.port() + ", data in " + embedded.dataDir()
                : "PostgreSQL at " + connectOptions.getHost() + ":" + connectOptions.getPort() + "/"
                        + connectOptions.getDatabase();
    }

    /** Closes the pool, then stops the embedded server (on a worker thread). */
    public Future<Void> close() {
        Future<Void> closed = pool.close().recover(e -> Future.succeededFuture());
        if (embedded == null) return closed;
        return closed.compose(v -> vertx.executeBlocking(
                () -> {
                    embedded.close();
                    return null;
                },
                false));
    }
}
