package dev.weft.store;

import dev.weft.config.DatabaseConfig;
import dev.weft.runtime.SharedMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the API reads: the streaming replicas of {@code database.read_urls} that are fresh enough, else the primary.
 *
 * <p>Freshness is measured in WAL positions, not replay timestamps (an idle primary commits nothing, so the last replayed
 * commit's time says nothing about lag). Every {@code database.replica_check_interval} the primary's
 * {@code pg_current_wal_insert_lsn()} is sampled (with the time the query was sent; the insert position, not the
 * write one, since an asynchronous commit is visible before its WAL is written), then each replica's
 * {@code pg_last_wal_replay_lsn()}. A replica that has replayed the WAL up to a sample holds every transaction committed
 * before that sample was taken, so its answers are at most {@code now - that sample's time} behind the primary. A
 * replica is in rotation only while that bound is within {@code database.max_replica_lag} and its last check
 * succeeded; the bound keeps growing between checks, so a replica whose checks stop (stalled, unreachable) leaves the
 * rotation at the latest {@code max_replica_lag} after its last good check. With none in rotation, reads go to the
 * primary. See PostgreSQL's "Hot Standby" and "System Administration Functions" chapters for the functions used.
 *
 * <p>Thread-safe: the checks run on a Vert.x timer, the API verticles pick from their own event loops.
 */
public final class ReadPools {
    private static final Logger LOG = LoggerFactory.getLogger(ReadPools.class);
    private static final String PRIMARY_LSN = "SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint";
    private static final String REPLICA_LSN =
            "SELECT pg_is_in_recovery(), (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint";

    private final Vertx vertx;
    private final Database database;
    private final DatabaseConfig cfg;
    private final List<Replica> replicas = new ArrayList<>();
    /** Primary samples (send time in nanos, LSN), oldest first, kept for max_replica_lag. Timer-confined. */
    private final Deque<long[]> samples = new ArrayDeque<>();

    private final Counter primaryReads;
    private long timer = -1;
    private boolean checking;
    private final AtomicLong next = new AtomicLong();

    /** One replica: its name (host:port/db, no credentials), its connect options and its freshness. */
    public static final class Replica {
        private final String name;
        private final PgConnectOptions options;
        private final Pool pool;
        private final Map<String, Pool> bySchema = new HashMap<>();
        private final ReplicaMeters meters;
        /** Its reading of the rotation, which its gauge reads while this is the latest replica of its name. */
        private BooleanSupplier rotation = () -> false;
        /** System.nanoTime() of the newest primary sample this replica has replayed; MIN_VALUE: none yet. */
        private volatile long coveredAt = Long.MIN_VALUE;

        private volatile long checkedAt = Long.MIN_VALUE;
        private volatile boolean reachable;
        /** Why its last check failed (while not reachable). */
        private volatile String problem = "not checked yet";

        Replica(String name, PgConnectOptions options, Pool pool) {
            this.name = name;
            this.options = options;
            this.pool = pool;
            this.meters = SharedMeters.of("db-replica-" + name, r -> new ReplicaMeters(name, r));
        }

        public String name() {
            return name;
        }
    }

    /** One replica's gauges and read counter; shared by every node of a JVM using the same registry (tests). */
    private static final class ReplicaMeters {
        final AtomicLong lagMicros = new AtomicLong(-1);
        /**
         * What {@code weft_db_replica_in_rotation} reads at each scrape: the rotation of the latest replica of that name
         * (a fresh reading, so it follows a replica ageing out between two checks without every routed read setting it).
         */
        volatile BooleanSupplier inRotation = () -> false;

        final Counter reads;

        ReplicaMeters(String name, io.micrometer.core.instrument.MeterRegistry r) {
            Gauge.builder("weft_db_replica_lag_seconds", lagMicros, v -> v.get() / 1e6)
                    .description(
                            "how far behind the primary answers from a read replica are at most (-1: never measured)")
                    .tag("replica", name)
                    .register(r);
            Gauge.builder("weft_db_replica_in_rotation", this, m -> m.inRotation.getAsBoolean() ? 1 : 0)
                    .description("1 while a read replica serves API reads, 0 while it lags or cannot be reached")
                    .tag("replica", name)
                    .register(r);
            reads = Counter.builder("weft_db_reads_total")
                    .description("API reads by the database that served them")
                    .tag("target", name)
                    .register(r);
        }
    }

    private ReadPools(Vertx vertx, Database database, DatabaseConfig cfg) {
        this.vertx = vertx;
        this.database = database;
        this.cfg = cfg;
        this.primaryReads = SharedMeters.of(
                "db-reads-primary",
                r -> Counter.builder("weft_db_reads_total")
                        .description("API reads by the database that served them")
                        .tag("target", "primary")
                        .register(r));
        for (String url : cfg.readUrls()) {
            PgConnectOptions opts = Database.withStatementCache(PgConnectOptions.fromUri(url));
            String name = opts.getHost() + ":" + opts.getPort() + "/" + opts.getDatabase();
            Replica replica = new Replica(name, opts, pool(opts, cfg.poolSize()));
            replica.rotation = () -> inRotation(replica);
            replica.meters.inRotation = replica.rotation;
            replicas.add(replica);
        }
    }

    /** The replicas of {@code database.read_urls} over {@code database}, checked from now on (none: reads stay primary). */
    public static ReadPools start(Vertx vertx, Database database, DatabaseConfig cfg) {
        ReadPools r = new ReadPools(vertx, database, cfg);
        if (!r.replicas.isEmpty()) {
            r.timer = vertx.setPeriodic(0, cfg.replicaCheckInterval().toMillis(), id -> r.check());
            LOG.info(
                    "reading from {} replica(s) at most {} behind the primary", r.replicas.size(), cfg.maxReplicaLag());
        }
        return r;
    }

    public List<Replica> replicas() {
        return List.copyOf(replicas);
    }

    public java.time.Duration maxLag() {
        return cfg.maxReplicaLag();
    }

    /** Whether answers from {@code r} are now within the bound: checked fine lately and replayed a recent sample. */
    public boolean inRotation(Replica r) {
        long covered = r.coveredAt;
        return r.reachable
                && covered != Long.MIN_VALUE
                && System.nanoTime() - covered <= cfg.maxReplicaLag().toNanos();
    }

    /**
     * Seconds {@code r}'s answers are behind the primary at most (negative: never measured): as its last check measured
     * while it is in rotation, else as of now, so a replica that has aged out of rotation between two checks shows the
     * lag that took it out.
     */
    public double lagSeconds(Replica r) {
        long covered = r.coveredAt;
        if (covered == Long.MIN_VALUE) return -1;
        long at = r.reachable && inRotation(r) ? r.checkedAt : System.nanoTime();
        return Math.max(0, at - covered) / 1e9;
    }

    /** Why {@code r} is out of rotation now, or null while it is in. */
    public String problem(Replica r) {
        if (inRotation(r)) return null;
        return r.reachable ? "more than " + cfg.maxReplicaLag() + " behind the primary" : r.problem;
    }

    /**
     * The pool API reads of the chain whose tables live in {@code schema} use: each query or connection goes to a
     * replica in rotation (round robin), else to {@code primary}, that chain's pool on the primary. The replicas' pools
     * connect with the same {@code search_path} as the primary's chain pool.
     */
    public Pool forSchema(String schema, Pool primary) {
        if (replicas.isEmpty()) return primary;
        List<Pool> pools = new ArrayList<>();
        for (Replica r : replicas) {
            synchronized (r.bySchema) {
                pools.add(r.bySchema.computeIfAbsent(schema, s -> s.equals("public") ? r.pool : schemaPool(r, s)));
            }
        }
        return new RoutedPool(() -> pick(pools, primary), primary, failed -> {
            int k = pools.indexOf(failed);
            if (k >= 0) reachable(replicas.get(k), false, "unreachable: a read failed to connect");
        });
    }

    /**
     * The pool of the one server {@code pool} sends its next query to: several reads that must see one server's data
     * (a cursor, then the page it versions) use it. A pool that does not route is itself.
     */
    public static Pool pin(Pool pool) {
        return pool instanceof RoutedPool r ? r.choose() : pool;
    }

    /**
     * A pool that runs every statement on {@code target} (a server {@link #pin} chose from {@code pool}) and, when it is
     * a replica that cannot answer one, runs that statement on the primary instead, as routed reads do.
     */
    public static Pool fixed(Pool pool, Pool target) {
        return pool instanceof RoutedPool r ? r.fixedTo(target) : target;
    }

    private Pool pick(List<Pool> pools, Pool primary) {
        int n = replicas.size();
        long start = next.getAndIncrement();
        for (int i = 0; i < n; i++) {
            int k = (int) Math.floorMod(start + i, (long) n);
            Replica r = replicas.get(k);
            if (inRotation(r)) {
                r.meters.reads.increment();
                return pools.get(k);
            }
        }
        primaryReads.increment();
        return primary;
    }

    private Pool schemaPool(Replica r, String schema) {
        PgConnectOptions opts = new PgConnectOptions(r.options);
        Map<String, String> props = new HashMap<>(opts.getProperties());
        props.put("search_path", schema + ", public");
        opts.setProperties(props);
        return pool(opts, cfg.poolSize());
    }

    private Pool pool(PgConnectOptions opts, int size) {
        return PgBuilder.pool()
                .with(new PoolOptions()
                        .setMaxSize(size)
                        .setMaxWaitQueueSize(10_000)
                        .setConnectionTimeout(cfg.connectTimeoutMs())
                        .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS))
                .connectingTo(opts)
                .using(vertx)
                .build();
    }

    /** One round: the primary's position, then every replica's (a slow round is skipped over, not queued). */
    private void check() {
        if (checking) return;
        checking = true;
        long sentAt = System.nanoTime();
        database.pool()
                .query(PRIMARY_LSN)
                .execute()
                .map(rows -> {
                    samples.addLast(new long[] {sentAt, rows.iterator().next().getLong(0)});
                    long keep = sentAt - cfg.maxReplicaLag().toNanos();
                    while (samples.size() > 1 && samples.peekFirst()[0] < keep) samples.removeFirst();
                    return null;
                })
                .recover(e -> {
                    // without a fresh primary sample replicas keep their old coverage and age out of rotation
                    LOG.debug("primary WAL position unavailable: {}", e.getMessage());
                    return Future.succeededFuture();
                })
                .compose(v -> {
                    List<Future<Void>> all = new ArrayList<>();
                    for (Replica r : replicas) all.add(check(r));
                    return Future.join(all);
                })
                .onComplete(ar -> checking = false);
    }

    private Future<Void> check(Replica r) {
        return r.pool.query(REPLICA_LSN)
                .execute()
                .map(rows -> {
                    Row row = rows.iterator().next();
                    r.checkedAt = System.nanoTime();
                    if (!Boolean.TRUE.equals(row.getBoolean(0)) || row.getLong(1) == null) {
                        reachable(r, false, "not a standby in recovery (promoted, or not a replica)");
                        return null;
                    }
                    long lsn = row.getLong(1);
                    for (java.util.Iterator<long[]> it = samples.descendingIterator(); it.hasNext(); ) {
                        long[] s = it.next();
                        if (s[1] <= lsn) {
                            if (r.coveredAt == Long.MIN_VALUE || s[0] > r.coveredAt) r.coveredAt = s[0];
                            break;
                        }
                    }
                    reachable(r, true, null);
                    return (Void) null;
                })
                .recover(e -> {
                    reachable(r, false, "unreachable: " + EmbeddedPostgresServer.rootMessage(e));
                    return Future.succeededFuture();
                })
                .andThen(x -> {
                    r.meters.lagMicros.set(Math.round(lagSeconds(r) * 1e6));
                });
    }

    private void reachable(Replica r, boolean up, String problem) {
        boolean was = r.reachable;
        r.reachable = up;
        if (!up) r.problem = problem;
        if (was != up) {
            if (up) LOG.info("read replica {} answers again", r.name);
            else LOG.warn("read replica {} left the rotation: {}", r.name, problem);
        }
    }

    /** Stops the checks and closes the replicas' pools. */
    public Future<Void> close() {
        if (timer >= 0) vertx.cancelTimer(timer);
        List<Future<Void>> closing = new ArrayList<>();
        for (Replica r : replicas) {
            synchronized (r.bySchema) {
                for (Pool p : r.bySchema.values())
                    if (p != r.pool) closing.add(p.close().recover(e -> Future.succeededFuture()));
                r.bySchema.clear();
            }
            closing.add(r.pool.close().recover(e -> Future.succeededFuture()));
            // a closed replica serves nothing: unless a newer one of its name reads the gauge now
            if (r.meters.inRotation == r.rotation) r.meters.inRotation = () -> false;
        }
        return Future.join(closing).mapEmpty();
    }
}
