package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.runtime.NodeContext;
import dev.weft.runtime.VerticleKind;
import dev.weft.store.ReadPools;
import dev.weft.store.StatusStore;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.micrometer.backends.BackendRegistries;
import io.vertx.spi.cluster.hazelcast.ClusterHealthCheck;
import java.util.List;
import java.util.Map;

/** {@code /status}, {@code /health} (liveness), {@code /ready} (database and cluster) and {@code /metrics}. */
public final class SystemApi implements ApiModule {
    /** How long one rendering of {@code /metrics} answers scrapes (Prometheus scrapes every 15–60 s). */
    static final java.time.Duration METRICS_MAX_AGE = java.time.Duration.ofSeconds(1);

    private final NodeContext ctx;
    private final ClusterView cluster;
    private final StatusStore status;
    private final ReadPools replicas;
    /** internal_tx_height never goes back (it can: the ingest height it reports when caught up is overtaken by a new EVM block). */
    private final java.util.concurrent.atomic.AtomicLong internalTxHeight =
            new java.util.concurrent.atomic.AtomicLong();

    /** {@code kinds}: every verticle kind a node can run, for the readiness check of single-writer roles. */
    public SystemApi(NodeContext ctx, List<VerticleKind> kinds) {
        this.ctx = ctx;
        this.cluster = new ClusterView(ctx, kinds);
        // the cursors as the API's reads see them: from a replica in rotation, else the primary (/ready checks the
        // primary itself)
        this.status = new StatusStore(
                ctx.chains().readPool(ctx.config().chain().chainId()).orElse(ctx.pool()));
        this.replicas = ctx.info().attachment(ReadPools.class);
    }

    @Override
    public void mount(Router router) {
        router.get("/status").handler(this::status);
        router.get("/health").handler(rc -> Responses.json(rc, new JsonObject().put("status", "UP")));
        router.get("/ready").handler(this::ready);
        if (BackendRegistries.getDefaultNow() instanceof PrometheusMeterRegistry prometheus) {
            router.get("/metrics")
                    .handler(
                            new MetricsScrape(ctx.vertx(), prometheus::scrape, METRICS_MAX_AGE, System::nanoTime)
                                    ::handle);
        } else {
            router.get("/metrics")
                    .handler(rc -> Responses.error(rc, BusError.unavailable("metrics are disabled on this node")));
        }
    }

    @Override
    public String openApiFragment() {
        return "openapi/system.json";
    }

    void status(RoutingContext rc) {
        Responses.reply(rc, status.cursors().map(this::statusBody));
    }

    JsonObject statusBody(Map<String, Long> cursors) {
        boolean evm = ctx.config().chain().isEvm();
        JsonObject body = new JsonObject()
                .put("version", ctx.build().version())
                .put("commit_hash", ctx.build().commitHash())
                .put("chain_id", ctx.config().chain().chainId())
                .put("height", cursors.getOrDefault(StatusStore.INGEST, 0L))
                .put(
                        "internal_tx_height",
                        evm
                                ? internalTxHeight.accumulateAndGet(
                                        cursors.getOrDefault(StatusStore.INTERNAL_TX, 0L), Math::max)
                                : 0L)
                .put("rich_list_height", cursors.getOrDefault(StatusStore.RICHLIST, 0L));
        // Weft's extension, only on nodes with read replicas: the anchor's fields stay exactly rollytics' otherwise
        if (replicas != null && !replicas.replicas().isEmpty()) body.put("replicas", replicaStates(replicas));
        return body;
    }

    /** Each read replica: its lag behind the primary (null before the first check) and whether it serves reads. */
    static JsonArray replicaStates(ReadPools reads) {
        JsonArray out = new JsonArray();
        for (ReadPools.Replica r : reads.replicas()) {
            double lag = reads.lagSeconds(r);
            boolean in = reads.inRotation(r);
            out.add(new JsonObject()
                    .put("replica", r.name())
                    .put("lag_seconds", lag < 0 ? null : Math.ceil(lag * 1000) / 1000.0) // a bound: rounded up
                    .put("in_rotation", in)
                    .put("problem", reads.problem(r)));
        }
        return out;
    }

    private void ready(RoutingContext rc) {
        Future<String> db = ctx.pool()
                .query("SELECT 1")
                .execute()
                .map("UP")
                .recover(e -> Future.succeededFuture("DOWN: " + e.getMessage()));
        Future<String> clusterSafe = ctx.clustered() ? clusterState() : Future.succeededFuture(null);
        Future<List<String>> stopped = cluster.describeAll().map(cluster::stoppedSingleWriters);
        Future.all(db, clusterSafe, stopped).onComplete(ar -> {
            JsonObject checks = new JsonObject().put("database", db.result());
            if (clusterSafe.result() != null) checks.put("cluster", clusterSafe.result());
            // a single-writer role stopped through the admin API: nothing ingests (or traces, …) although every node is
            // up
            for (String kind : stopped.result()) checks.put(kind, "DOWN: stopped, no node runs an instance");
            boolean up = checks.stream().allMatch(e -> "UP".equals(e.getValue()));
            if (up) {
                Responses.json(rc, new JsonObject().put("status", "UP").put("checks", checks));
            } else {
                Responses.error(rc, new BusError(503, "not ready", new JsonArray().add(checks)));
            }
        });
    }

    private Future<String> clusterState() {
        io.vertx.core.Promise<io.vertx.ext.healthchecks.Status> p = io.vertx.core.Promise.promise();
        ClusterHealthCheck.createProcedure(ctx.vertx()).handle(p);
        return p.future()
                .map(s -> s.isOk() ? "UP" : "DOWN: cluster is not safe")
                .recover(e -> Future.succeededFuture("DOWN: " + e.getMessage()));
    }
}
