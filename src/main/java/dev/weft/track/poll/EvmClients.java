package dev.weft.track.poll;

import dev.weft.chain.client.EvmRpcClient;
import dev.weft.config.NodeClientOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** EVM JSON-RPC clients, one per chain, built on first use from the chain's URLs (kept: Vert.x closes unreferenced ones). */
final class EvmClients {
    private final Vertx vertx;
    private final Function<String, List<String>> urls;
    private final NodeClientOptions options;
    private final Map<String, EvmRpcClient> clients = new LinkedHashMap<>();

    /** {@code urls}: a chain id's JSON-RPC URLs, empty when none is known. */
    EvmClients(Vertx vertx, Function<String, List<String>> urls, NodeClientOptions options) {
        this.vertx = vertx;
        this.urls = urls;
        this.options = options;
    }

    /** The chain's client; null when no JSON-RPC URL is known for it. */
    EvmRpcClient client(String chainId) {
        EvmRpcClient c = clients.get(chainId);
        if (c == null) {
            List<String> u = urls.apply(chainId);
            if (u.isEmpty()) return null;
            c = new EvmRpcClient(vertx, u, options);
            clients.put(chainId, c);
        }
        return c;
    }

    Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        clients.values().forEach(c -> closing.add(c.close()));
        clients.clear();
        return Future.all(closing).mapEmpty();
    }
}
