package dev.weft.route;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.config.RouteConfig;
import dev.weft.config.RouteGasConfig;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.Registry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The EVM side of the gas quotes: each EVM chain's JSON-RPC client ({@code route.gas.chains.<id>.json_rpc}, else the
 * registry's {@code apis.json_rpc}) and its {@code eth_gasPrice}, cached for {@code route.gas.evm_price_ttl}. A price
 * is a node read an outsider could multiply by asking for quotes, so a chain's price is read at most once per TTL
 * (one read in flight per chain; quotes meanwhile use the previous value) and only for chains the registry and the
 * configuration give no price. Thread-safe: route services on several event loops share it.
 */
final class EvmGasPrices {
    /** No JSON-RPC anywhere: the route services of tests and the bench. */
    static final EvmGasPrices NONE = new EvmGasPrices(null, null, Clock.systemUTC());

    private record Cached(BigInteger wei, Instant at) {}

    private final Vertx vertx;
    private final RouteConfig config;
    private final Clock clock;
    private final Map<String, Cached> prices = new ConcurrentHashMap<>();
    private final Map<String, Future<BigInteger>> inFlight = new ConcurrentHashMap<>();
    private final Map<String, EvmRpcClient> clients = new ConcurrentHashMap<>();
    /** Chains known to have no JSON-RPC URL (so they are not looked up again). */
    private final Map<String, Boolean> noUrl = new ConcurrentHashMap<>();

    EvmGasPrices(Vertx vertx, RouteConfig config, Clock clock) {
        this.vertx = vertx;
        this.config = config;
        this.clock = clock;
    }

    /** The JSON-RPC client of an EVM-signing chain, or null when none is known (or in {@link #NONE}). */
    EvmRpcClient client(Registry r, String chainId) {
        if (vertx == null || noUrl.containsKey(chainId)) return null;
        EvmRpcClient c = clients.get(chainId);
        if (c != null) return c;
        List<String> urls = urls(r, chainId);
        if (urls.isEmpty()) {
            noUrl.put(chainId, true);
            return null;
        }
        RouteGasConfig g = config.gas();
        return clients.computeIfAbsent(chainId, k -> new EvmRpcClient(vertx, urls, g.simulationClient()));
    }

    private List<String> urls(Registry r, String chainId) {
        List<String> own = config.gas().chain(chainId).jsonRpc();
        if (!own.isEmpty()) return own;
        Chain c = r.chain(chainId);
        if (c != null && c.jsonRpc() != null && !c.jsonRpc().isBlank()) return List.of(c.jsonRpc());
        return List.of();
    }

    /**
     * The cached price (wei per gas) or null; a missing or expired one starts a read (for the next quotes) when the
     * chain has a JSON-RPC URL.
     */
    BigInteger cached(Registry r, String chainId) {
        Cached c = prices.get(chainId);
        if (c == null || expired(c)) refresh(r, chainId);
        return c == null ? null : c.wei();
    }

    /** A fresh price: the cached one within its TTL, else one read (shared by concurrent callers); null when none. */
    Future<BigInteger> fresh(Registry r, String chainId) {
        Cached c = prices.get(chainId);
        if (c != null && !expired(c)) return Future.succeededFuture(c.wei());
        Future<BigInteger> f = refresh(r, chainId);
        if (f == null) return Future.succeededFuture(c == null ? null : c.wei());
        return f.recover(e -> Future.succeededFuture(c == null ? null : c.wei()));
    }

    /** Reads the EVM chains' prices once (at start), so the first quotes have them. */
    void warm(Registry r, List<String> chainIds) {
        for (String id : chainIds) refresh(r, id);
    }

    private boolean expired(Cached c) {
        return c.at().plus(config.gas().gasPriceTtl()).isBefore(clock.instant());
    }

    private Future<BigInteger> refresh(Registry r, String chainId) {
        Future<BigInteger> running = inFlight.get(chainId);
        if (running != null) return running;
        EvmRpcClient client = client(r, chainId);
        if (client == null) return null;
        Promise<BigInteger> p = Promise.promise();
        running = inFlight.putIfAbsent(chainId, p.future());
        if (running != null) return running;
        client.call("eth_gasPrice", EvmRpcClient.params())
                .map(EvmGasPrices::quantity)
                .onComplete(ar -> {
                    if (ar.succeeded()) prices.put(chainId, new Cached(ar.result(), clock.instant()));
                    inFlight.remove(chainId, p.future());
                    p.handle(ar);
                });
        return p.future();
    }

    /** A JSON-RPC quantity ({@code "0x…"}). */
    static BigInteger quantity(JsonNode n) {
        String s = n == null ? null : n.asText(null);
        if (s == null || !s.startsWith("0x") || s.length() < 3 || s.length() > 66)
            throw new IllegalStateException("not a quantity: " + n);
        return new BigInteger(s.substring(2), 16);
    }

    /** A chain's EVM price in its fee token's base units: wei over 10^(18 − decimals) (minievm's 18-decimal view). */
    static BigDecimal inBaseUnits(BigInteger wei, int decimals) {
        return new BigDecimal(wei).movePointLeft(18 - decimals).stripTrailingZeros();
    }

    Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        for (EvmRpcClient c : clients.values()) closing.add(c.close());
        clients.clear();
        return Future.join(closing).mapEmpty();
    }
}
