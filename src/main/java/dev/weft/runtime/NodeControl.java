package dev.weft.runtime;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** What the admin endpoint may do to a running node: describe what it runs and scale a verticle kind. */
public interface NodeControl {
    /** {node_id, node_name, roles, clustered, kinds: {kind: {instances, single_writer, active}}}. */
    JsonObject describe();

    /** Deploys or undeploys instances of a kind until this node runs {@code instances} of it. */
    Future<JsonObject> scale(String kind, int instances);
}
