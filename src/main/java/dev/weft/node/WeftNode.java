package dev.weft.node;

import com.hazelcast.config.Config;
import dev.weft.api.HttpApiVerticle;
import dev.weft.cluster.AdminVerticle;
import dev.weft.cluster.SingleWriterVerticle;
import dev.weft.config.ChainConfig;
import dev.weft.config.ConfigException;
import dev.weft.config.Role;
import dev.weft.config.WeftConfig;
import dev.weft.runtime.BuildInfo;
import dev.weft.runtime.ChainContexts;
import dev.weft.runtime.NodeContext;
import dev.weft.runtime.NodeControl;
import dev.weft.runtime.NodeInfo;
import dev.weft.runtime.RolePlugin;
import dev.weft.runtime.VerticleKind;
import dev.weft.store.Database;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Deployable;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Weft node. {@link #start} is the linear start-up chain: Vert.x (clustered or not) → database and
 * migrations (when a role needs them) → the verticle kinds of the configured roles, in the order of
 * {@link VerticleKinds#all()} → the admin verticle. Each instance of a kind is its own deployment, so a kind can be
 * scaled one instance at a time; single-writer kinds run behind a cluster-wide lease ({@link SingleWriterVerticle}).
 */
public final class WeftNode implements NodeControl {
    private static final Logger LOG = LoggerFactory.getLogger(WeftNode.class);
    private static final Set<Role> ROLES_WITH_DATABASE =
            EnumSet.of(Role.API, Role.INGEST, Role.EVM, Role.RICHLIST, Role.TRACK, Role.DB);

    /** One deployment of one instance of a kind. */
    private record Instance(String kind, String chainId, String deploymentId, Deployable verticle) {}

    private final Vertx vertx;
    private final boolean ownsVertx;
    private NodeContext ctx;
    private Database database;
    private final List<Instance> instances = new ArrayList<>();
    /** The writers' context of each chain in {@code public}, with a pool of its own, opened at its first writer. */
    private final Map<String, NodeContext> publicWriters = new LinkedHashMap<>();

    private String adminDeployment;
    private List<String> runningPlugins = List.of();

    private WeftNode(Vertx vertx, boolean ownsVertx) {
        this.vertx = vertx;
        this.ownsVertx = ownsVertx;
    }

    /** Creates Vert.x (clustered when {@code cluster.enabled}) and starts the node on it. */
    public static Future<WeftNode> start(WeftConfig config) {
        return createVertx(
                        config.cluster().host(),
                        config.cluster().enabled() ? ClusterSetup.hazelcastConfig(config.cluster()) : null)
                .compose(v -> startOn(v, config, true));
    }

    /**
     * Starts a node on an existing Vert.x instance (tests run several nodes in one JVM this way). If a step fails, what
     * started is stopped (the embedded database included) but Vert.x is left running, so the failure still reaches the
     * caller: closing Vert.x here would drop it on a terminated event loop.
     */
    public static Future<WeftNode> startOn(Vertx vertx, WeftConfig config, boolean ownsVertx) {
        WeftNode node = new WeftNode(vertx, ownsVertx);
        return node.run(config).map(node).recover(e -> node.stopComponents().transform(x -> Future.failedFuture(e)));
    }

    /** Vert.x with Prometheus metrics; clustered over Hazelcast when {@code hazelcast} is given. */
    public static Future<Vertx> createVertx(String clusterHost, Config hazelcast) {
        // Histogram buckets of every timer (p99 in dashboards), the route template of each request (bounded: one per
        // declared route), and the JVM's heap, GC, threads and CPU.
        VertxOptions opts = new VertxOptions()
                .setMetricsOptions(new MicrometerMetricsOptions()
                        .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true))
                        .addLabels(Label.HTTP_ROUTE)
                        .setJvmMetricsEnabled(true)
                        .setEnabled(true));
        MicrometerMetricsFactory metrics = new MicrometerMetricsFactory(prometheusRegistry());
        if (hazelcast == null)
            return Future.succeededFuture(
                    Vertx.builder().with(opts).withMetrics(metrics).build());
        opts.setEventBusOptions(new EventBusOptions().setHost(clusterHost).setClusterPublicHost(clusterHost));
        return Vertx.builder()
                .with(opts)
                .withMetrics(metrics)
                .withClusterManager(new HazelcastClusterManager(hazelcast))
                .buildClustered();
    }

    /**
     * Latency histograms for every timer (Vert.x's and Weft's), none for the byte-size summaries (request and response
     * bytes keep count, sum and max): with theirs, each HTTP route and client added ~280 bucket lines, half of a scrape.
     */
    static PrometheusMeterRegistry prometheusRegistry() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                return id.getType() == Meter.Type.TIMER
                        ? DistributionStatisticConfig.builder()
                                .percentilesHistogram(true)
                                .build()
                                .merge(config)
                        : config;
            }
        });
        return registry;
    }

    private Future<Void> run(WeftConfig config) {
        boolean clustered = vertx.isClustered();
        String nodeId = clustered
                ? ((VertxInternal) vertx).clusterManager().getNodeId()
                : config.node().name();
        ctx = new NodeContext(
                vertx, config, null, null, BuildInfo.load(), nodeId, clustered, new NodeInfo(), new ChainContexts());
        List<RolePlugin> plugins;
        try {
            plugins = checkPlugins(config);
        } catch (ConfigException e) {
            return Future.failedFuture(e);
        }
        runningPlugins = plugins.stream().map(RolePlugin::role).toList();
        LOG.info("starting Weft {} node {} with roles {}", ctx.build().version(), nodeId, roleNames());
        Future<Void> chain = startDatabase();
        for (RolePlugin plugin : plugins) chain = chain.compose(v -> deployPlugin(plugin));
        chain = chain.compose(v -> openChains()).compose(v -> checkChainUrls());
        for (VerticleKind kind : VerticleKinds.all()) {
            chain = chain.compose(v -> ctx.config().node().runs(kind.role())
                    ? deploy(kind, kind.defaultInstances())
                    : Future.succeededFuture());
        }
        return chain.compose(v -> deployAdmin());
    }

    /**
     * The plugins a node of this configuration runs, their configuration checked: a role named in node.roles that
     * neither the product nor a plugin on the class path provides, or a bad plugin key, is a ConfigException.
     */
    public static List<RolePlugin> checkPlugins(WeftConfig config) {
        Map<String, RolePlugin> installed = RolePlugin.installed();
        for (String name : config.node().plugins()) {
            if (!installed.containsKey(name)) {
                throw new ConfigException(
                        "node.roles",
                        "unknown role \"" + name + "\" (known: all, "
                                + String.join(
                                        ", ",
                                        java.util.stream.Stream.concat(
                                                        java.util.Arrays.stream(Role.values())
                                                                .map(Role::id),
                                                        installed.keySet().stream())
                                                .toList())
                                + ")");
            }
        }
        List<RolePlugin> run = installed.values().stream()
                .filter(p -> config.node().runsPlugin(p.role()))
                .toList();
        for (RolePlugin p : run) p.check(config.source());
        return run;
    }

    /**
     * Deploys a plugin's verticle; once it has started, what it supplies fills the configuration keys left empty, so
     * the roles deployed after it read those values as ordinary configuration.
     */
    private Future<Void> deployPlugin(RolePlugin plugin) {
        RolePlugin.Started verticle = plugin.create(ctx);
        return vertx.deployVerticle(verticle, new DeploymentOptions()).map(id -> {
            synchronized (instances) {
                instances.add(new Instance(plugin.role(), null, id, verticle));
            }
            ctx = ctx.withConfig(ctx.config().withSupplied(verticle.configuration()));
            ctx.info().addPluginBanner(verticle.banner());
            LOG.info("deployed {} ({})", plugin.role(), id);
            return null;
        });
    }

    /**
     * The context of every configured chain: its configuration (with the values plugins supplied) and its pool, over
     * its own schema, created and migrated here (a chain new to the configuration starts with empty tables).
     */
    private Future<Void> openChains() {
        Future<Void> chain = Future.succeededFuture();
        for (ChainConfig c : ctx.config().chains().all()) {
            String id = c.chainId();
            chain = chain.compose(v -> {
                WeftConfig chainConfig = ctx.config().forChain(id);
                if (database == null) {
                    ctx.chains().put(id, ctx.forChain(chainConfig, null, null));
                    return Future.succeededFuture();
                }
                return database.chainPool(
                                chainConfig.chain().schema(),
                                chainConfig.database().poolSize())
                        .map(p -> {
                            ctx.chains().put(id, ctx.forChain(chainConfig, p.pool(), p.connectOptions()));
                            ctx.chains()
                                    .putReadPool(
                                            id,
                                            database.reads()
                                                    .forSchema(
                                                            chainConfig.chain().schema(), p.pool()));
                            return null;
                        });
            });
        }
        return chain;
    }

    /** The chains this node's writer roles run for ({@code node.chains}, default every configured chain). */
    private List<NodeContext> ownChains() {
        List<NodeContext> out = new ArrayList<>();
        for (String id : ctx.config().chains().ownChains()) ctx.chains().get(id).ifPresent(out::add);
        return out;
    }

    /**
     * The context a chain's writers run in: the chain's own, except for a chain whose tables live in {@code public}
     * (the default one), whose context's pool is the node's main pool, shared with the API, the tracker and webhooks;
     * its writers get a pool of their own ({@code database.pool_size}, as each other chain has), opened here at its
     * first writer only, so a node that runs no writer for it opens no extra connections.
     */
    private NodeContext writerContext(NodeContext chain) {
        if (database == null || !chain.config().chain().schema().equals("public")) return chain;
        synchronized (publicWriters) {
            return publicWriters.computeIfAbsent(chain.config().chain().chainId(), id -> {
                Database.ChainPool p =
                        database.publicWriterPool(chain.config().database().poolSize());
                LOG.info(
                        "the writers of {} (schema public) have a pool of {} connection(s) of their own",
                        id,
                        chain.config().database().poolSize());
                return chain.forChain(chain.config(), p.pool(), p.connectOptions());
            });
        }
    }

    /** A role that reads a chain cannot start without its node URLs. */
    private Future<Void> checkChainUrls() {
        WeftConfig c = ctx.config();
        if (java.util.Arrays.stream(Role.values())
                .noneMatch(r -> r.perChain() && c.node().runs(r))) return Future.succeededFuture();
        for (NodeContext own : ownChains()) {
            ChainConfig chain = own.config().chain();
            String missing = chain.rpcUrls().isEmpty()
                    ? "rpc"
                    : chain.restUrls().isEmpty()
                            ? "rest"
                            : chain.isEvm() && chain.jsonRpcUrls().isEmpty() ? "json_rpc" : null;
            if (missing != null) {
                String key = c.chains().isChainBlock(chain.chainId())
                        ? "chain." + missing
                        : "chains." + chain.chainId() + "." + missing;
                return Future.failedFuture(
                        new ConfigException(
                                key,
                                "is empty and no role of this node supplies it: give the chain's node URLs or add the devnet role"));
            }
        }
        return Future.succeededFuture();
    }

    private Future<Void> startDatabase() {
        boolean needed = ctx.config().node().roles().stream().anyMatch(ROLES_WITH_DATABASE::contains);
        if (!needed) return Future.succeededFuture();
        return Database.start(vertx, ctx.config().database()).map(db -> {
            database = db;
            ctx = ctx.withDatabase(db.pool(), db.connectOptions());
            ctx.info().database(db.describe());
            ctx.info().attach(dev.weft.store.ReadPools.class, db.reads());
            return null;
        });
    }

    /** Always: the readiness check reads every node's description; scaling is refused unless {@code cluster.admin_enabled}. */
    private Future<Void> deployAdmin() {
        return vertx.deployVerticle(new AdminVerticle(
                        ctx.nodeId(), this, ctx.config().cluster().adminEnabled()))
                .map(id -> {
                    adminDeployment = id;
                    return null;
                });
    }

    /**
     * Deploys {@code count} more instances of a kind on this node (a single-writer kind runs at most one); a kind that
     * reads a chain (ingest, EVM tracer, rich list) gets one instance per chain of the node that has none yet.
     */
    public Future<Void> deploy(VerticleKind kind, int count) {
        Future<Void> chain = Future.succeededFuture();
        if (kind.role().perChain()) {
            if (count <= 0) return chain;
            // an instance undeployed behind the node's back (vertx.undeploy) no longer runs its chain
            synchronized (instances) {
                instances.removeIf(i ->
                        i.kind().equals(kind.name()) && !vertx.deploymentIDs().contains(i.deploymentId()));
            }
            // every chain's instance at once; each starts without its chain's node (its writer's first attempt runs
            // after its start), so a chain whose node does not answer holds back neither the others nor the start-up
            List<Future<Void>> each = new ArrayList<>();
            for (NodeContext own : ownChains()) {
                String id = own.config().chain().chainId();
                each.add(
                        instancesOf(kind.name()).stream().anyMatch(i -> id.equals(i.chainId()))
                                ? Future.succeededFuture()
                                : deployOne(kind, writerContext(own)));
            }
            return Future.all(each).mapEmpty();
        }
        for (int i = 0; i < count; i++) chain = chain.compose(v -> deployOne(kind, ctx));
        return chain;
    }

    private Future<Void> deployOne(VerticleKind kind, NodeContext c) {
        String chainId = kind.role().perChain() ? c.config().chain().chainId() : null;
        Deployable verticle = kind.singleWriter()
                ? new SingleWriterVerticle(
                        kind, c, c.config().cluster().standbyPoll().toMillis())
                : kind.factory().apply(c);
        return vertx.deployVerticle(verticle, new DeploymentOptions()).map(id -> {
            synchronized (instances) {
                instances.add(new Instance(kind.name(), chainId, id, verticle));
            }
            LOG.info("deployed {}{} ({})", kind.name(), chainId == null ? "" : " for " + chainId, id);
            return null;
        });
    }

    @Override
    public Future<JsonObject> scale(String kindName, int target) {
        VerticleKind kind = VerticleKinds.byName(kindName)
                .orElseThrow(() -> new IllegalArgumentException("unknown verticle kind " + kindName));
        if (kind.singleWriter() && target > 1) {
            return Future.failedFuture(
                    new IllegalArgumentException(kindName + " is a single-writer kind: at most 1 instance per node"));
        }
        if (kind.role() != Role.API
                && !ctx.config().node().runs(kind.role())
                && target > 0
                && ctx.pool() == null
                && EnumSet.of(Role.INGEST, Role.EVM, Role.RICHLIST, Role.TRACK).contains(kind.role())) {
            return Future.failedFuture(
                    new IllegalArgumentException(kindName + " needs a database and this node has none"));
        }
        List<Instance> current = instancesOf(kindName);
        if (kind.role().perChain()) {
            // one instance per chain: target 1 runs it for every chain of the node, 0 for none
            if (target == 1) return deploy(kind, 1).map(v -> describe());
            target = 0;
        }
        if (current.size() < target)
            return deploy(kind, target - current.size()).map(v -> describe());
        // Scale-down answers at once and drains in the background: the request asking for it may itself be served by an
        // instance being removed, whose graceful shutdown waits for its in-flight requests.
        Future<Void> drained = Future.succeededFuture();
        for (int n = current.size() - 1; n >= target; n--) {
            Instance i = current.get(n);
            synchronized (instances) {
                instances.remove(i);
            }
            drained = drained.compose(v -> undeploy(i));
        }
        return Future.succeededFuture(describe());
    }

    private Future<Void> undeploy(Instance i) {
        LOG.info("undeploying {} ({})", i.kind(), i.deploymentId());
        return vertx.undeploy(i.deploymentId()).recover(e -> Future.succeededFuture());
    }

    private List<Instance> instancesOf(String kind) {
        synchronized (instances) {
            return instances.stream().filter(i -> i.kind().equals(kind)).toList();
        }
    }

    @Override
    public JsonObject describe() {
        JsonObject kinds = new JsonObject();
        for (VerticleKind k : VerticleKinds.all()) {
            List<Instance> of = instancesOf(k.name());
            if (of.isEmpty()) continue;
            JsonObject o = new JsonObject().put("instances", of.size()).put("single_writer", k.singleWriter());
            if (k.singleWriter()) {
                o.put(
                        "active",
                        of.stream().anyMatch(i -> i.verticle() instanceof SingleWriterVerticle s && s.active()));
            }
            if (k.role().perChain()) {
                JsonObject chains = new JsonObject();
                for (Instance i : of) {
                    JsonObject one = new JsonObject()
                            .put("active", i.verticle() instanceof SingleWriterVerticle s && s.active());
                    // a writer stopped for good: the setting its chain's node showed wrong
                    if (i.verticle() instanceof SingleWriterVerticle s && s.failure() != null)
                        one.put("error", s.failure());
                    chains.put(i.chainId(), one);
                }
                o.put("chains", chains);
            }
            if (of.get(0).verticle() instanceof HttpApiVerticle) {
                o.put(
                        "requests_served",
                        new JsonArray(of.stream()
                                .map(i -> ((HttpApiVerticle) i.verticle()).served())
                                .toList()));
            }
            kinds.put(k.name(), o);
        }
        return new JsonObject()
                .put("node_id", ctx.nodeId())
                .put("node_name", ctx.config().node().name())
                .put("roles", new JsonArray(roleList()))
                .put("clustered", ctx.clustered())
                .put("kinds", kinds);
    }

    public NodeContext context() {
        return ctx;
    }

    public Vertx vertx() {
        return vertx;
    }

    public Database database() {
        return database;
    }

    /** Deployment ids per verticle kind, oldest first. */
    public Map<String, List<String>> deployments() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        synchronized (instances) {
            for (Instance i : instances)
                out.computeIfAbsent(i.kind(), k -> new ArrayList<>()).add(i.deploymentId());
        }
        return out;
    }

    /** Undeploys everything (newest first), closes the database (and the embedded server), then Vert.x if it is ours. */
    public Future<Void> stop() {
        Future<Void> stopped = stopComponents();
        return ownsVertx ? stopped.compose(v -> vertx.close()) : stopped;
    }

    private Future<Void> stopComponents() {
        List<String> ids = new ArrayList<>();
        synchronized (instances) {
            for (Instance i : instances) ids.add(0, i.deploymentId());
            instances.clear();
        }
        if (adminDeployment != null) ids.add(0, adminDeployment);
        Future<Void> chain = Future.succeededFuture();
        for (String id : ids) chain = chain.compose(v -> vertx.undeploy(id).recover(e -> Future.succeededFuture()));
        return chain.compose(v -> database == null ? Future.succeededFuture() : database.close());
    }

    /** The product's roles this node runs, then its plugins'. */
    private List<String> roleList() {
        List<String> out = new ArrayList<>();
        for (Role r : Role.values()) if (ctx.config().node().runs(r)) out.add(r.id());
        out.addAll(runningPlugins);
        return out;
    }

    private String roleNames() {
        return String.join(",", roleList());
    }

    /** The lines printed once the node is up: where to look. */
    public List<String> banner() {
        List<String> lines = new ArrayList<>();
        WeftConfig c = ctx.config();
        lines.add("Weft " + ctx.build().version() + " is up: node " + ctx.nodeId() + ", roles " + roleNames()
                + (ctx.clustered() ? ", clustered" : ""));
        if (ctx.info().database() != null)
            lines.add("  database      " + ctx.info().database());
        int http = ctx.info().httpPort();
        if (http > 0) {
            String base = "http://" + displayHost(c.http().host()) + ":" + http;
            lines.add("  live page     " + base + "/");
            lines.add("  status        " + base + "/status");
            lines.add("  indexer API   " + base + "/indexer/block/v1/blocks   " + base + "/indexer/tx/v1/txs");
            if (c.chains().byId().size() > 1) {
                lines.add("  chains        " + base + "/chains   each at " + base + "/chains/<chain id>/indexer/…");
                for (ChainConfig chain : c.chains().all())
                    lines.add("    " + chain.chainId() + " ("
                            + chain.vm().name().toLowerCase(java.util.Locale.ROOT)
                            + (chain.chainId().equals(c.chains().defaultChainId()) ? ", default" : "") + ")   "
                            + base + "/chains/" + chain.chainId() + "/status");
            }
            if (c.chain().isEvm())
                lines.add("  EVM txs       " + base + "/indexer/tx/v1/evm-txs   " + base
                        + "/indexer/tx/v1/evm-internal-txs");
            lines.add("  NFTs          " + base + "/indexer/nft/v1/collections");
            if (c.chain().isEvm())
                lines.add("  rich list     " + base + "/indexer/richlist/v1/{token contract or denom}");
            lines.add("  routing API   POST " + base + "/v2/fungible/route   GET " + base + "/v2/info/chains");
            lines.add(
                    "  tracking      POST " + base + "/v2/tx/track   GET " + base + "/v2/tx/status?tx_hash=&chain_id=");
            lines.add("  API docs      " + base + "/docs   OpenAPI " + base + "/openapi.json");
            lines.add("  metrics       " + base + "/metrics   health " + base + "/health   ready " + base + "/ready");
            if (c.admin().enabled() && !c.admin().ownListener())
                lines.add("  nodes         " + base + "/admin/nodes   (Authorization: Bearer <admin.token>)");
            if (c.admin().enabled() && c.admin().ownListener()) {
                lines.add("  nodes         http://" + displayHost(c.admin().host()) + ":"
                        + ctx.info().adminPort() + "/admin/nodes   (Authorization: Bearer <admin.token>)");
            }
        }
        lines.addAll(ctx.info().pluginBanner());
        if (ctx.info().bridgeTcp() != null)
            lines.add("  bridge.tcp    " + ctx.info().bridgeTcp());
        return lines;
    }

    private static String displayHost(String host) {
        return host.equals("0.0.0.0") ? "127.0.0.1" : host;
    }
}
