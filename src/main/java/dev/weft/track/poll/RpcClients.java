package dev.weft.track.poll;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.client.CometRpcClient;
import dev.weft.config.NodeClientOptions;
import dev.weft.config.TrackConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.micrometer.backends.BackendRegistries;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The tracker's CometBFT RPC clients, one per chain (the node clients of block ingestion: retries, URL rotation,
 * bounded in flight), built on first use from the chain's RPC URLs. Every request is counted in
 * {@code weft_track_node_requests_total{chain_id, method}} (what the tracking bench reports per block).
 */
public final class RpcClients {
    private final Vertx vertx;
    private final Function<String, List<String>> rpcUrls;
    private final Predicate<String> ownRpc;
    private final NodeClientOptions options;
    private final NodeClientOptions ownOptions;
    private final MeterRegistry registry;
    private final Map<String, CometRpcClient> clients = new LinkedHashMap<>();

    /**
     * {@code rpcUrls}: a chain id's RPC URLs, empty when none is known; {@code ownRpc}: whether they are the operator's
     * nodes ({@code track.own_max_in_flight} requests at once) rather than the registry's ({@code track.max_in_flight}).
     */
    public RpcClients(
            Vertx vertx, Function<String, List<String>> rpcUrls, Predicate<String> ownRpc, TrackConfig config) {
        this.vertx = vertx;
        this.rpcUrls = rpcUrls;
        this.ownRpc = ownRpc;
        this.options = options(config, config.maxInFlight());
        this.ownOptions = options(config, config.ownMaxInFlight());
        MeterRegistry r = BackendRegistries.getDefaultNow();
        this.registry = r != null ? r : new SimpleMeterRegistry();
    }

    /** The tracker's node client options: {@code maxInFlight}, {@code track.request_timeout}, bounded retries. */
    static NodeClientOptions options(TrackConfig config, int maxInFlight) {
        return new NodeClientOptions(
                maxInFlight,
                config.requestTimeout(),
                3,
                Duration.ofMillis(200),
                Duration.ofSeconds(2),
                3,
                Duration.ofSeconds(30));
    }

    /** The RPC of a chain, or null when no URL is known for it. */
    public ChainRpc of(String chainId) {
        CometRpcClient client = clients.get(chainId);
        if (client == null) {
            List<String> urls = rpcUrls.apply(chainId);
            if (urls.isEmpty()) return null;
            client = new CometRpcClient(vertx, urls, ownRpc.test(chainId) ? ownOptions : options);
            clients.put(chainId, client);
        }
        CometRpcClient c = client;
        Counter metas = counter(chainId, "blockchain");
        Counter searches = counter(chainId, "tx_search");
        return new ChainRpc() {
            @Override
            public Future<JsonNode> blockchain(long minHeight, long maxHeight) {
                metas.increment();
                return c.blockchain(minHeight, maxHeight);
            }

            @Override
            public Future<SearchPage> txSearch(String query, int page, int perPage, boolean ascending) {
                searches.increment();
                return c.txSearch(query, page, perPage, ascending, parser -> SearchPage.read(chainId, parser));
            }

            @Override
            public boolean queueing() {
                return c.http().queueing();
            }

            @Override
            public int maxInFlight() {
                return c.http().options().maxRequests();
            }
        };
    }

    private Counter counter(String chainId, String method) {
        return Counter.builder("weft_track_node_requests_total")
                .description("requests the tracker sent to chain nodes")
                .tag("chain_id", chainId)
                .tag("method", method)
                .register(registry);
    }

    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        clients.values().forEach(c -> closing.add(c.close()));
        clients.clear();
        return Future.all(closing).mapEmpty();
    }
}
