package dev.weft.node;

import dev.weft.config.WeftConfig;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;

/**
 * What every verticle of a node is built from: the Vert.x instance, the configuration, the node's one shared pool
 * (null on nodes whose roles need no database), build info and the node's id (the cluster node id when clustered).
 */
public record NodeContext(Vertx vertx, WeftConfig config, Pool pool, BuildInfo build, String nodeId, boolean clustered,
                          NodeInfo info) {

  public NodeContext withConfig(WeftConfig c) {
    return new NodeContext(vertx, c, pool, build, nodeId, clustered, info);
  }

  public NodeContext withPool(Pool p) {
    return new NodeContext(vertx, config, p, build, nodeId, clustered, info);
  }
}
