package dev.weft.cluster;

import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.runtime.NodeControl;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

/**
 * The per-node admin address {@code weft.admin.<node id>}: {@code {"action":"describe"}} answers what the node runs;
 * {@code {"action":"scale","kind":"api","instances":3}} deploys or undeploys instances of a kind at run time (refused
 * when {@code cluster.admin_enabled} is off). The address is never reachable through a bridge.
 */
public final class AdminVerticle extends VerticleBase {
    private final String nodeId;
    private final NodeControl node;
    private final boolean scaling;

    public AdminVerticle(String nodeId, NodeControl node, boolean scaling) {
        this.nodeId = nodeId;
        this.node = node;
        this.scaling = scaling;
    }

    @Override
    public Future<?> start() {
        return vertx.eventBus()
                .<JsonObject>consumer(Addresses.adminOf(nodeId), this::onMessage)
                .completion();
    }

    private void onMessage(Message<JsonObject> msg) {
        JsonObject body = msg.body() == null ? new JsonObject() : msg.body();
        String action = body.getString("action", "describe");
        switch (action) {
            case "describe" -> msg.reply(node.describe());
            case "scale" -> {
                if (!scaling) {
                    msg.fail(403, "scaling is switched off on this node (cluster.admin_enabled)");
                    return;
                }
                Object instances = body.getValue("instances");
                String kind = body.getString("kind");
                if (kind == null || !(instances instanceof Integer n) || n < 0 || n > 64) {
                    BusError.badRequest("scale needs {\"kind\": <verticle kind>, \"instances\": 0..64}")
                            .failTo(msg);
                    return;
                }
                Future<JsonObject> f;
                try {
                    f = node.scale(kind, n);
                } catch (IllegalArgumentException e) {
                    BusError.badRequest(e.getMessage()).failTo(msg);
                    return;
                }
                f.onSuccess(msg::reply)
                        .onFailure(e -> new BusError(e instanceof IllegalArgumentException ? 400 : 500, e.getMessage())
                                .failTo(msg));
            }
            default -> BusError.badRequest("unknown admin action " + action).failTo(msg);
        }
    }
}
