package dev.weft.api;

import dev.weft.config.RateLimitConfig;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.core.shareddata.Shareable;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The per-client state every API instance of a node shares: token buckets (one for all requests, one for the costly
 * POST endpoints) and open connection counts. Buckets are kept in least-recently-used order and capped at
 * {@code rate_limit.max_clients}; a bucket idle long enough to be full again is dropped, since a new one is the same.
 */
final class ClientLimits implements Shareable {
    private static final long SWEEP_NANOS = 60_000_000_000L;

    private final RateLimitConfig config;
    private final Map<String, Bucket> buckets;
    private final Map<String, Integer> connections = new HashMap<>();
    private long lastSweep = System.nanoTime();

    private ClientLimits(RateLimitConfig config) {
        this.config = config;
        int cap = config.maxClients();
        this.buckets = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
                return size() > cap;
            }
        };
    }

    /** The node's one instance (created by the first API instance). */
    static ClientLimits of(Vertx vertx, String nodeId, RateLimitConfig config) {
        LocalMap<String, ClientLimits> map = vertx.sharedData().getLocalMap("weft.http.client-limits");
        ClientLimits fresh = new ClientLimits(config);
        ClientLimits prior = map.putIfAbsent(nodeId, fresh);
        return prior != null ? prior : fresh;
    }

    /** Takes a token for this client; 0 when allowed, else the whole seconds until one is available. */
    synchronized long take(String client, boolean costly) {
        long now = System.nanoTime();
        sweep(now);
        long wait = take(client, config.rate(), config.burst(), now);
        if (wait == 0 && costly) wait = take(client + " post", config.postRate(), config.postBurst(), now);
        return wait;
    }

    private long take(String key, double rate, int burst, long now) {
        Bucket b = buckets.computeIfAbsent(key, k -> new Bucket(burst, rate, now));
        b.refill(now);
        if (b.tokens >= 1) {
            b.tokens -= 1;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1 - b.tokens) / rate));
    }

    private void sweep(long now) {
        if (now - lastSweep < SWEEP_NANOS) return;
        lastSweep = now;
        buckets.values().removeIf(b -> {
            b.refill(now);
            return b.tokens >= b.burst;
        });
    }

    synchronized int size() {
        return buckets.size();
    }

    /** Counts a new connection of this address; false (not counted) when the address already holds {@code max}. */
    synchronized boolean open(String address, int max) {
        int n = connections.getOrDefault(address, 0);
        if (n >= max) return false;
        connections.put(address, n + 1);
        return true;
    }

    synchronized void closed(String address) {
        connections.computeIfPresent(address, (k, n) -> n <= 1 ? null : n - 1);
    }

    private static final class Bucket {
        final int burst;
        final double rate;
        double tokens;
        long last;

        Bucket(int burst, double rate, long now) {
            this.burst = burst;
            this.rate = rate;
            this.tokens = burst;
            this.last = now;
        }

        void refill(long now) {
            tokens = Math.min(burst, tokens + (now - last) / 1e9 * rate);
            last = now;
        }
    }
}
