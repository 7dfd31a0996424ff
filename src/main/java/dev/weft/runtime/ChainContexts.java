package dev.weft.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The context of each chain the node serves, by chain id, default chain first: the node's own context with that
 * chain's configuration ({@code config().chain()}) and pool (its schema's). Filled in once at start-up, before the
 * verticles that read it deploy.
 */
public final class ChainContexts {
    private final Map<String, NodeContext> byId = new LinkedHashMap<>();
    private final Map<String, io.vertx.sqlclient.Pool> readPools = new LinkedHashMap<>();

    public synchronized void put(String chainId, NodeContext ctx) {
        byId.put(chainId, ctx);
    }

    public synchronized Optional<NodeContext> get(String chainId) {
        return Optional.ofNullable(byId.get(chainId));
    }

    /**
     * The pool the API reads a chain with: it routes each query to a read replica fresh enough or to the chain's pool
     * on the primary ({@code database.read_urls}); the writers keep their context's {@code pool()}.
     */
    public synchronized void putReadPool(String chainId, io.vertx.sqlclient.Pool pool) {
        readPools.put(chainId, pool);
    }

    /** The read pool of a chain, or empty when none was set (then read with its context's {@code pool()}). */
    public synchronized Optional<io.vertx.sqlclient.Pool> readPool(String chainId) {
        return Optional.ofNullable(readPools.get(chainId));
    }

    /** Every chain's context, default chain first. */
    public synchronized List<NodeContext> all() {
        return new ArrayList<>(byId.values());
    }

    public synchronized List<String> ids() {
        return new ArrayList<>(byId.keySet());
    }
}
