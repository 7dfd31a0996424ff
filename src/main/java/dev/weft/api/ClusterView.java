package dev.weft.api;

import dev.weft.bus.Addresses;
import dev.weft.runtime.NodeContext;
import dev.weft.runtime.VerticleKind;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * What every node of the cluster runs, asked of each node's admin address ({@code describe}); the admin API and the
 * readiness check read it.
 */
final class ClusterView {
    private static final DeliveryOptions TIMEOUT = new DeliveryOptions().setSendTimeout(5000);
    private final NodeContext ctx;
    private final List<VerticleKind> kinds;

    /** {@code kinds}: every verticle kind a node can run (the node's catalogue). */
    ClusterView(NodeContext ctx, List<VerticleKind> kinds) {
        this.ctx = ctx;
        this.kinds = List.copyOf(kinds);
    }

    List<String> nodeIds() {
        if (!ctx.clustered()) return List.of(ctx.nodeId());
        return new ArrayList<>(((VertxInternal) ctx.vertx()).clusterManager().getNodes());
    }

    /** One description per node; a node that does not answer is {@code {"node_id", "error"}}. */
    Future<List<JsonObject>> describeAll() {
        List<Future<JsonObject>> answers = new ArrayList<>();
        for (String id : nodeIds()) {
            answers.add(ctx.vertx()
                    .eventBus()
                    .<JsonObject>request(Addresses.adminOf(id), new JsonObject().put("action", "describe"), TIMEOUT)
                    .map(Message::body)
                    .recover(e -> Future.succeededFuture(
                            new JsonObject().put("node_id", id).put("error", "no answer: " + e.getMessage()))));
        }
        return Future.join(answers)
                .transform(ar -> Future.succeededFuture(
                        answers.stream().map(Future::result).toList()));
    }

    /** Instances of a kind on the described nodes, leaving out one node (null: none left out). */
    static int instances(List<JsonObject> nodes, String kind, String exceptNode) {
        int n = 0;
        for (JsonObject node : nodes) {
            if (node.getString("node_id", "").equals(exceptNode)) continue;
            JsonObject k = node.getJsonObject("kinds", new JsonObject()).getJsonObject(kind);
            if (k != null) n += k.getInteger("instances", 0);
        }
        return n;
    }

    /**
     * The single-writer kinds some node is configured to run (by its roles) but no node runs any instance of: stopped
     * through the admin API. A node that did not answer says nothing either way.
     */
    List<String> stoppedSingleWriters(List<JsonObject> nodes) {
        List<String> stopped = new ArrayList<>();
        for (VerticleKind kind : kinds) {
            if (!kind.singleWriter()) continue;
            boolean wanted = nodes.stream()
                    .anyMatch(n -> n.getJsonArray("roles", new JsonArray())
                            .contains(kind.role().id()));
            if (wanted && instances(nodes, kind.name(), null) == 0) stopped.add(kind.name());
        }
        return stopped;
    }
}
