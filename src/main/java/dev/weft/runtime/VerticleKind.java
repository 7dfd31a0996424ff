package dev.weft.runtime;

import dev.weft.config.Role;
import io.vertx.core.Deployable;
import java.util.function.Function;

/**
 * A kind of verticle a node can run: the role that enables it, how many instances start by default, whether only
 * one instance may be active cluster-wide (single writer), and how to build one instance from the node context.
 */
public record VerticleKind(
        String name,
        Role role,
        int defaultInstances,
        boolean singleWriter,
        Function<NodeContext, Deployable> factory) {}
