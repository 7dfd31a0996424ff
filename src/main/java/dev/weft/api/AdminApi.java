package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.bus.Addresses;
import dev.weft.runtime.NodeContext;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/**
 * Cluster administration over HTTP: {@code GET /admin/nodes} (what every node runs) and {@code POST /admin/scale}
 * ({@code {"node_id"?, "kind", "instances"}}: hot-scale a verticle kind on a node; default node = this one).
 */
public final class AdminApi implements ApiModule {
  private static final DeliveryOptions TIMEOUT = new DeliveryOptions().setSendTimeout(5000);
  private final NodeContext ctx;
  private final List<String> kinds;

  /** {@code kinds}: the names of the verticle kinds a node can scale. */
  public AdminApi(NodeContext ctx, List<String> kinds) {
    this.ctx = ctx;
    this.kinds = List.copyOf(kinds);
  }

  @Override
  public void mount(Router router) {
    if (!ctx.config().cluster().adminEnabled()) return;
    router.get("/admin/nodes").handler(this::nodes);
    router.post("/admin/scale").handler(HttpApiVerticle.bodyHandler(ctx)).handler(this::scale);
  }

  @Override
  public String openApiFragment() {
    return ctx.config().cluster().adminEnabled() ? "openapi/admin.json" : null;
  }

  private List<String> nodeIds() {
    if (!ctx.clustered()) return List.of(ctx.nodeId());
    return new ArrayList<>(((VertxInternal) ctx.vertx()).clusterManager().getNodes());
  }

  private void nodes(RoutingContext rc) {
    List<Future<JsonObject>> answers = new ArrayList<>();
    for (String id : nodeIds()) {
      answers.add(ctx.vertx().eventBus().<JsonObject>request(Addresses.adminOf(id), new JsonObject().put("action", "describe"), TIMEOUT)
          .map(Message::body)
          .recover(e -> Future.succeededFuture(new JsonObject().put("node_id", id).put("error", "no answer: " + e.getMessage()))));
    }
    Future.join(answers).onComplete(ar -> {
      JsonArray nodes = new JsonArray();
      answers.forEach(f -> nodes.add(f.result()));
      Responses.json(rc, new JsonObject().put("nodes", nodes));
    });
  }

  private void scale(RoutingContext rc) {
    JsonObject body = rc.body().asJsonObject();
    if (body == null) throw BusError.badRequest("request body must be a JSON object");
    String kind = body.getString("kind");
    if (kind == null || !kinds.contains(kind)) {
      throw BusError.badRequest("kind must be one of " + String.join(", ", kinds));
    }
    Object n = body.getValue("instances");
    if (!(n instanceof Integer instances) || instances < 0 || instances > 64) throw BusError.badRequest("instances must be an integer between 0 and 64");
    String node = body.getString("node_id", ctx.nodeId());
    if (!nodeIds().contains(node)) throw BusError.notFound("no node " + node + " in the cluster");
    JsonObject msg = new JsonObject().put("action", "scale").put("kind", kind).put("instances", instances);
    Responses.forward(rc, ctx.vertx().eventBus(), Addresses.adminOf(node), msg, new DeliveryOptions().setSendTimeout(60_000), "node " + node);
  }
}
