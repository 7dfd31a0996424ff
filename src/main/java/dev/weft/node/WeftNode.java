package dev.weft.node;

import com.hazelcast.config.Config;
import dev.weft.config.Role;
import dev.weft.config.WeftConfig;
import dev.weft.store.Database;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.internal.VertxInternal;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A running Weft node. {@link #start} is the linear start-up chain: Vert.x (clustered or not) → database and
 * migrations (when a role needs them) → the verticle kinds of the configured roles, in the order of
 * {@link VerticleKinds#all()}.
 */
public final class WeftNode {
  private static final Logger LOG = LoggerFactory.getLogger(WeftNode.class);
  private static final Set<Role> ROLES_WITH_DATABASE = EnumSet.of(Role.API, Role.INGEST, Role.EVM, Role.RICHLIST, Role.TRACK);

  private final Vertx vertx;
  private final boolean ownsVertx;
  private NodeContext ctx;
  private Database database;
  private final Map<String, Deque<String>> deployments = new LinkedHashMap<>();

  private WeftNode(Vertx vertx, boolean ownsVertx) {
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
  }

  /** Creates Vert.x (clustered when {@code cluster.enabled}) and starts the node on it. */
  public static Future<WeftNode> start(WeftConfig config) {
    return createVertx(config.cluster().host(), config.cluster().enabled() ? ClusterSetup.hazelcastConfig(config.cluster()) : null)
        .compose(v -> startOn(v, config, true));
  }

  /** Starts a node on an existing Vert.x instance (tests run several nodes in one JVM this way). */
  public static Future<WeftNode> startOn(Vertx vertx, WeftConfig config, boolean ownsVertx) {
    WeftNode node = new WeftNode(vertx, ownsVertx);
    return node.run(config).map(node).recover(e -> node.stop().transform(x -> Future.failedFuture(e)));
  }

  /** Vert.x with Prometheus metrics; clustered over Hazelcast when {@code hazelcast} is given. */
  public static Future<Vertx> createVertx(String clusterHost, Config hazelcast) {
    VertxOptions opts = new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions()
        .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true)).setEnabled(true));
    if (hazelcast == null) return Future.succeededFuture(Vertx.builder().with(opts).build());
    opts.setEventBusOptions(new EventBusOptions().setHost(clusterHost).setClusterPublicHost(clusterHost));
    return Vertx.builder().with(opts).withClusterManager(new HazelcastClusterManager(hazelcast)).buildClustered();
  }

  private Future<Void> run(WeftConfig config) {
    boolean clustered = vertx.isClustered();
    String nodeId = clustered ? ((VertxInternal) vertx).clusterManager().getNodeId() : config.node().name();
    ctx = new NodeContext(vertx, config, null, BuildInfo.load(), nodeId, clustered, new NodeInfo());
    LOG.info("starting Weft {} node {} with roles {}", ctx.build().version(), nodeId, roleNames(config));
    Future<Void> chain = Future.succeededFuture();
    chain = chain.compose(v -> startDatabase());
    for (Step step : steps()) chain = chain.compose(v -> step.run());
    return chain;
  }

  private interface Step {
    Future<Void> run();
  }

  private List<Step> steps() {
    List<Step> out = new ArrayList<>();
    for (VerticleKind kind : VerticleKinds.all()) {
      out.add(() -> ctx.config().node().runs(kind.role()) ? deploy(kind, kind.defaultInstances()).mapEmpty() : Future.succeededFuture());
    }
    return out;
  }

  private Future<Void> startDatabase() {
    boolean needed = ctx.config().node().roles().stream().anyMatch(ROLES_WITH_DATABASE::contains);
    if (!needed) return Future.succeededFuture();
    return Database.start(vertx, ctx.config().database()).map(db -> {
      database = db;
      ctx = ctx.withPool(db.pool());
      ctx.info().put("database", db.describe());
      if (db.embedded() != null) ctx.info().put("database.url", db.embedded().url());
      return null;
    });
  }

  /** Deploys {@code instances} more instances of a kind on this node; the future holds the deployment id. */
  public Future<String> deploy(VerticleKind kind, int instances) {
    NodeContext c = ctx;
    return vertx.deployVerticle(() -> kind.factory().apply(c), new DeploymentOptions().setInstances(instances))
        .onSuccess(id -> {
          synchronized (deployments) {
            deployments.computeIfAbsent(kind.name(), k -> new ArrayDeque<>()).add(id);
          }
          LOG.info("deployed {} x{} ({})", kind.name(), instances, id);
        });
  }

  /** Replaces the node context (the devnet fills in the chain URLs once it listens). */
  public void updateContext(NodeContext c) {
    ctx = c;
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
    synchronized (deployments) {
      deployments.forEach((k, v) -> out.put(k, List.copyOf(v)));
    }
    return out;
  }

  /** Undeploys everything, closes the database (and the embedded server), then Vert.x if this node created it. */
  public Future<Void> stop() {
    List<String> ids = new ArrayList<>();
    synchronized (deployments) {
      deployments.values().forEach(d -> d.descendingIterator().forEachRemaining(ids::add));
      deployments.clear();
    }
    Future<Void> chain = Future.succeededFuture();
    for (String id : ids) chain = chain.compose(v -> vertx.undeploy(id).recover(e -> Future.succeededFuture()));
    chain = chain.compose(v -> database == null ? Future.succeededFuture() : database.close());
    if (ownsVertx) chain = chain.compose(v -> vertx.close());
    return chain;
  }

  private static String roleNames(WeftConfig config) {
    return String.join(",", config.node().roles().stream().map(Role::id).toList());
  }

  /** The lines printed once the node is up: where to look. */
  public List<String> banner() {
    List<String> lines = new ArrayList<>();
    WeftConfig c = ctx.config();
    lines.add("Weft " + ctx.build().version() + " is up: node " + ctx.nodeId() + ", roles " + roleNames(c)
        + (ctx.clustered() ? ", clustered" : ""));
    if (ctx.info().get("database") != null) lines.add("  database      " + ctx.info().get("database"));
    int http = ctx.info().port("http.port");
    if (http > 0) {
      String base = "http://" + displayHost(c.http().host()) + ":" + http;
      lines.add("  status        " + base + "/status");
      lines.add("  indexer API   " + base + "/indexer/block/v1/blocks   " + base + "/indexer/tx/v1/txs");
      lines.add("  routing API   POST " + base + "/v2/fungible/route   GET " + base + "/v2/info/chains");
      lines.add("  live page     " + base + "/");
      lines.add("  OpenAPI       " + base + "/openapi.json");
      lines.add("  metrics       " + base + "/metrics   health " + base + "/health   ready " + base + "/ready");
    }
    for (String key : List.of("devnet", "bridge.tcp")) {
      if (ctx.info().get(key) != null) lines.add("  " + String.format("%-13s", key) + " " + ctx.info().get(key));
    }
    return lines;
  }

  private static String displayHost(String host) {
    return host.equals("0.0.0.0") ? "127.0.0.1" : host;
  }
}
