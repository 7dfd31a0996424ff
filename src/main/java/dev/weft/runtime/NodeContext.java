package dev.weft.runtime;

import dev.weft.config.WeftConfig;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;

/**
 * What every verticle of a node is built from: the Vert.x instance, the configuration, its pool (the node's main pool,
 * a chain's, or the default chain's writers'; null on nodes whose roles need no database) and its connect options (for dedicated connections such as writer
 * leases), build info, the node's id (the cluster node id when clustered) and the context of each chain it serves.
 */
public record NodeContext(
        Vertx vertx,
        WeftConfig config,
        Pool pool,
        PgConnectOptions dbOptions,
        BuildInfo build,
        String nodeId,
        boolean clustered,
        NodeInfo info,
        ChainContexts chains) {

    public NodeContext withConfig(WeftConfig c) {
        return new NodeContext(vertx, c, pool, dbOptions, build, nodeId, clustered, info, chains);
    }

    public NodeContext withDatabase(Pool p, PgConnectOptions options) {
        return new NodeContext(vertx, config, p, options, build, nodeId, clustered, info, chains);
    }

    /** This context as the verticles of one chain see it: that chain's configuration and pool. */
    public NodeContext forChain(WeftConfig chainConfig, Pool chainPool, PgConnectOptions chainOptions) {
        return new NodeContext(vertx, chainConfig, chainPool, chainOptions, build, nodeId, clustered, info, chains);
    }
}
