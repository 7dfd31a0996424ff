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
 * The node's main reactive pool (and the per-chain pools it opens), over an external server ({@code database.url}) or
 * the embedded one, with the schema migrated. {@link #start} fails with a {@link DatabaseUnavailableException} when the server cannot be reached.
 */
public final class Database {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    /**
     * The pools' names, the {@code pool_name} of their {@code vertx_pool_*} metrics: {@value #MAIN_POOL} (API,
     * tracker, webhooks), a chain schema's name for that chain's pool, {@value #PUBLIC_WRITERS_POOL} for the writers
     * of the chain whose tables live in {@code public}.
     */
    public static final String MAIN_POOL = "main";

    public static final String PUBLIC_WRITERS_POOL = "public-writers";

    private final Vertx vertx;
    private final Pool pool;
    private final PgConnectOptions connectOptions;
    private final EmbeddedPostgresServer embedded;
    private final int connectionTimeoutMs;
    private final java.util.List<Pool> chainPools = new java.util.ArrayList<>();
    private ReadPools reads;

    private Database(
            Vertx vertx,
            Pool pool,
            PgConnectOptions connectOptions,
            EmbeddedPostgresServer embedded,
            int connectionTimeoutMs) {
        this.vertx = vertx;
        this.connectionTimeoutMs = connectionTimeoutMs;
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
                            .setName(MAIN_POOL)
                            .setMaxSize(cfg.poolSize())
                            .setMaxWaitQueueSize(10_000)
                            .setConnectionTimeout(cfg.connectTimeoutMs())
                            .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS))
                    .connectingTo(opts)
                    .using(vertx)
                    .build();
            Database db = new Database(vertx, pool, opts, emb, cfg.connectTimeoutMs());
            return pool.query("SELECT 1")
                    .execute()
                    .recover(e -> db.close()
                            .transform(x -> Future.failedFuture(new DatabaseUnavailableException(
                                    "cannot reach PostgreSQL at " + opts.getHost() + ":" + opts.getPort() + "/"
                                            + opts.getDatabase() + ": " + EmbeddedPostgresServer.rootMessage(e),
                                    e))))
                    .compose(ok -> Migrations.apply(vertx, pool))
                    .map(applied -> {
                        db.reads = ReadPools.start(vertx, db, cfg);
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

    /**
     * A pool of its own for one chain whose tables live in {@code schema}: the schema created and migrated, every
     * connection's {@code search_path} the schema, then {@code public} (where shared extensions such as pg_trgm live),
     * so the stores' unqualified SQL reads and writes that chain's tables. {@code public} itself is {@link #pool()}.
     */
    public Future<ChainPool> chainPool(String schema, int poolSize) {
        if (schema.equals("public")) return Future.succeededFuture(new ChainPool(pool, connectOptions));
        if (!schema.matches("[a-z_][a-z0-9_]{0,62}")) throw new IllegalArgumentException("bad schema " + schema);
        PgConnectOptions opts = new PgConnectOptions(connectOptions);
        java.util.Map<String, String> props = new java.util.HashMap<>(opts.getProperties());
        props.put("search_path", schema + ", public");
        opts.setProperties(props);
        Pool chain = newPool(schema, poolSize, opts);
        return pool.query("CREATE SCHEMA IF NOT EXISTS " + schema)
                .execute()
                .compose(x -> Migrations.apply(vertx, chain))
                .map(applied -> {
                    LOG.info("schema {} ready ({} migration(s) applied)", schema, applied);
                    return new ChainPool(chain, opts);
                })
                .recover(e -> chain.close().transform(x -> Future.failedFuture(e)));
    }

    /**
     * The pool of the writers (ingestion, EVM tracer, rich list) of the chain whose tables live in {@code public}: its
     * own {@code poolSize} connections over the main pool's options, so an API burst on the main pool (which the API,
     * tracker and webhooks share) does not starve that chain's commits, nor they the API, as each other chain's pool
     * keeps them apart. Already migrated (with {@code public}); its connections open on first use.
     */
    public ChainPool publicWriterPool(int poolSize) {
        PgConnectOptions opts = new PgConnectOptions(connectOptions);
        return new ChainPool(newPool(PUBLIC_WRITERS_POOL, poolSize, opts), opts);
    }

    /** A pool of {@code size} named {@code name} (its metrics' {@code pool_name}), closed with the database. */
    private Pool newPool(String name, int size, PgConnectOptions opts) {
        Pool p = PgBuilder.pool()
                .with(new PoolOptions()
                        .setName(name)
                        .setMaxSize(size)
                        .setMaxWaitQueueSize(10_000)
                        .setConnectionTimeout(connectionTimeoutMs)
                        .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS))
                .connectingTo(opts)
                .using(vertx)
                .build();
        synchronized (chainPools) {
            chainPools.add(p);
        }
        return p;
    }

    /** A chain's pool and the options its dedicated connections (writer leases) connect with. */
    public record ChainPool(Pool pool, PgConnectOptions connectOptions) {}

    /** Where API reads go: the fresh replicas of {@code database.read_urls}, else the primary. */
    public ReadPools reads() {
        return reads;
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
        java.util.List<Future<Void>> closing = new java.util.ArrayList<>();
        synchronized (chainPools) {
            for (Pool p : chainPools) closing.add(p.close().recover(e -> Future.succeededFuture()));
            chainPools.clear();
        }
        if (reads != null) closing.add(reads.close());
        Future<Void> closed = Future.join(closing).transform(x -> pool.close()).recover(e -> Future.succeededFuture());
        if (embedded == null) return closed;
        return closed.compose(v -> vertx.executeBlocking(
                () -> {
                    embedded.close();
                    return null;
                },
                false));
    }
}
