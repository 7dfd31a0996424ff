package dev.weft.runtime;

import io.vertx.core.Future;

/**
 * A verticle whose {@code start()} completes without its chain's node (database work only), then goes on in the
 * background with what needs the node's answers (where an empty database starts, the first head). {@link #begun()}
 * fails only with what retrying cannot heal (a {@link dev.weft.config.ConfigException}: a setting the node's answer
 * shows wrong); the rest it retries itself.
 */
public interface StartsAfterDeploy {
    /** Completes once the node-dependent start is done; fails with an error retrying cannot heal. */
    Future<Void> begun();
}
