package dev.weft.api;

import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.config.ChainConfig;
import dev.weft.runtime.NodeContext;
import dev.weft.runtime.VerticleKind;
import dev.weft.store.ChainSchemas;
import dev.weft.store.LeaseStore;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Set;

/**
 * Cluster administration over HTTP: {@code GET /admin/nodes} (what every node runs) and {@code POST /admin/scale}
 * ({@code {"node_id"?, "kind", "instances", "force"?}}: hot-scale a verticle kind on a node; default node = this one).
 * Served only when {@code admin.token} is set, and only to requests bearing it; on the API port, or on its own listener
 * when {@code admin.port} is set.
 */
public final class AdminApi implements ApiModule {
    /** Kinds the cluster cannot work without: scaling the last instance to 0 needs {@code "force": true}. */
    private static final Set<String> VITAL = Set.of("api", "ingest");

    private static final Set<String> SCALE_FIELDS = Set.of("node_id", "kind", "instances", "force");
    private final NodeContext ctx;
    private final List<String> kinds;
    private final ClusterView cluster;

    /** {@code kinds}: every verticle kind a node can run (and so scale). */
    public AdminApi(NodeContext ctx, List<VerticleKind> kinds) {
        this.ctx = ctx;
        this.kinds = kinds.stream().map(VerticleKind::name).toList();
        this.cluster = new ClusterView(ctx, kinds);
    }

    /** Whether the admin API is served at all: a token is configured and {@code cluster.admin_enabled} is on. */
    boolean enabled() {
        return enabled(ctx);
    }

    /**
     * Whether a node of this context serves privileged endpoints (the admin API, and the features behind the same
     * token, such as webhooks).
     */
    public static boolean enabled(NodeContext ctx) {
        return ctx.config().admin().enabled() && ctx.config().cluster().adminEnabled();
    }

    /** Whether it has its own listener ({@code admin.port}) rather than the API port. */
    boolean ownListener() {
        return enabled() && ctx.config().admin().ownListener();
    }

    @Override
    public void mount(Router router) {
        if (enabled() && !ownListener()) mountOwn(router);
    }

    /** The admin routes, behind the token check. */
    void mountOwn(Router router) {
        router.route("/admin/*").handler(this::authorize);
        router.get("/admin/nodes").handler(this::nodes);
        router.post("/admin/scale").handler(HttpApiVerticle.bodyHandler(ctx)).handler(this::scale);
        router.post("/admin/chains/:chain_id/writer")
                .handler(HttpApiVerticle.bodyHandler(ctx))
                .handler(this::moveWriter);
        router.delete("/admin/chains/:chain_id/writer").handler(this::clearWriter);
        router.delete("/admin/chains/:chain_id").handler(this::dropChain);
    }

    /**
     * Drops the schema of a chain no longer in the configuration ({@code chain_<id>}, as a {@code chains} entry derives
     * it): 409 while the chain, or a chain keeping its tables in that schema, is configured; 404 when there is no such
     * schema; 409 for a schema Weft did not migrate. Answers what was dropped.
     */
    private void dropChain(RoutingContext rc) {
        String chain = rc.pathParam("chain_id");
        String schema;
        try {
            schema = ChainConfig.schemaOf(chain);
        } catch (IllegalArgumentException e) {
            throw BusError.badRequest("chain_id: " + e.getMessage());
        }
        for (ChainConfig c : ctx.config().chains().all()) {
            if (c.chainId().equals(chain) || c.schema().equals(schema))
                throw new BusError(
                        409,
                        "chain " + c.chainId() + " is configured (schema " + c.schema()
                                + "): remove it from chains on every node first");
        }
        ChainSchemas schemas = new ChainSchemas(ctx.pool());
        Responses.reply(rc, schemas.describe(schema).compose(found -> {
            if (found == null)
                return Future.failedFuture(BusError.notFound("no schema " + schema + " for chain " + chain));
            if (!found.migrated())
                return Future.failedFuture(new BusError(
                        409, "schema " + schema + " holds no Weft chain (no weft_migration table): not dropped"));
            return schemas.ingestHeight(schema)
                    .compose(height -> schemas.drop(schema)
                            .map(v -> new JsonObject()
                                    .put("chain_id", chain)
                                    .put("schema", schema)
                                    .put("tables", found.tables())
                                    .put("height", height)));
        }));
    }

    /**
     * {@code {"node_id": …}}: that node takes the chain's writer leases (ingest, EVM tracer, rich list) from whoever
     * holds them, as soon as it runs the chain's roles (within a standby poll), and keeps them until the preference is
     * cleared; 202 with the preference.
     */
    private void moveWriter(RoutingContext rc) {
        String chain = knownChain(rc.pathParam("chain_id"));
        JsonObject body = StrictJson.object(rc);
        for (String field : body.fieldNames())
            if (!field.equals("node_id")) throw BusError.badRequest("unknown field " + field + " (known: node_id)");
        if (!(body.getValue("node_id") instanceof String node) || node.isBlank() || node.length() > 128)
            throw BusError.badRequest("node_id must be a node's id (GET /admin/nodes lists them)");
        new LeaseStore(ctx.pool()).prefer(chain, node).onComplete(ar -> {
            if (ar.succeeded())
                Responses.json(rc, 202, new JsonObject().put("chain_id", chain).put("node_id", node));
            else rc.fail(ar.cause());
        });
    }

    /** Lets the balance alone place the chain's writers again; 204. */
    private void clearWriter(RoutingContext rc) {
        String chain = knownChain(rc.pathParam("chain_id"));
        new LeaseStore(ctx.pool()).prefer(chain, null).onComplete(ar -> {
            if (ar.succeeded()) rc.response().setStatusCode(204).end();
            else rc.fail(ar.cause());
        });
    }

    private String knownChain(String chainId) {
        if (!ctx.config().chains().has(chainId))
            throw BusError.notFound("unknown chain " + chainId + " (GET /chains lists the indexed ones)");
        return chainId;
    }

    @Override
    public String openApiFragment() {
        return enabled() ? "openapi/admin.json" : null;
    }

    private void authorize(RoutingContext rc) {
        authorize(ctx, rc);
    }

    /**
     * The admin token check, for every endpoint behind it: the next handler runs only for {@code Authorization: Bearer
     * <admin.token>}; anything else is the JSON 401.
     */
    public static void authorize(NodeContext ctx, RoutingContext rc) {
        String header = rc.request().getHeader("authorization");
        String presented = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                ? header.substring(7).trim()
                : "";
        // constant time: the comparison must not tell how many leading characters of a guess were right
        if (MessageDigest.isEqual(
                presented.getBytes(StandardCharsets.UTF_8),
                ctx.config().admin().token().getBytes(StandardCharsets.UTF_8))) {
            rc.next();
            return;
        }
        rc.response().putHeader("www-authenticate", "Bearer");
        Responses.error(
                rc,
                new BusError(
                        401,
                        header == null
                                ? "the admin API needs Authorization: Bearer <admin.token>"
                                : "wrong admin token"));
    }

    private void nodes(RoutingContext rc) {
        cluster.describeAll()
                .onComplete(ar -> Responses.json(rc, new JsonObject().put("nodes", new JsonArray(ar.result()))));
    }

    private void scale(RoutingContext rc) {
        JsonObject body = StrictJson.object(rc);
        for (String field : body.fieldNames()) {
            if (!SCALE_FIELDS.contains(field))
                throw BusError.badRequest("unknown field " + field + " (known: node_id, kind, instances, force)");
        }
        if (!(body.getValue("kind") instanceof String kind) || !kinds.contains(kind)) {
            throw BusError.badRequest("kind must be one of " + String.join(", ", kinds));
        }
        if (!(body.getValue("instances") instanceof Integer instances) || instances < 0 || instances > 64) {
            throw BusError.badRequest("instances must be an integer between 0 and 64");
        }
        Object nodeValue = body.getValue("node_id", ctx.nodeId());
        if (!(nodeValue instanceof String node)) throw BusError.badRequest("node_id must be a string");
        Object force = body.getValue("force", false);
        if (!(force instanceof Boolean forced)) throw BusError.badRequest("force must be true or false");
        if (!cluster.nodeIds().contains(node)) throw BusError.notFound("no node " + node + " in the cluster");
        Future<Void> allowed = instances == 0 && VITAL.contains(kind) && !forced
                ? lastInstanceCheck(kind, node)
                : Future.succeededFuture();
        JsonObject msg =
                new JsonObject().put("action", "scale").put("kind", kind).put("instances", instances);
        Responses.reply(
                rc,
                allowed.compose(v -> ctx.vertx()
                                .eventBus()
                                .<JsonObject>request(
                                        Addresses.adminOf(node), msg, new DeliveryOptions().setSendTimeout(60_000)))
                        .map(Message::body)
                        .recover(e -> Future.failedFuture(BusError.fromBus(e, "node " + node))));
    }

    /** Fails with 409 when no other node runs an instance of the kind. */
    private Future<Void> lastInstanceCheck(String kind, String node) {
        return cluster.describeAll().compose(nodes -> {
            if (ClusterView.instances(nodes, kind, node) > 0) return Future.succeededFuture();
            return Future.failedFuture(new BusError(
                    409,
                    "refusing to stop the cluster's last " + kind + " instance (node " + node
                            + "); send \"force\": true to stop it anyway"));
        });
    }
}
