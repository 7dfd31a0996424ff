package dev.weft.config;

/**
 * Per-client token buckets of the public HTTP API: {@code rate} requests per second refilling a bucket of {@code burst}
 * on every endpoint, and a stricter {@code postRate}/{@code postBurst} on the POST endpoints that compute or register
 * (route, msgs, op-hook, track), the Prometheus scrape and the CSV exports. At most {@code maxClients} buckets are kept (the least recently seen go first).
 */
public record RateLimitConfig(boolean enabled, double rate, int burst, double postRate, int postBurst, int maxClients) {
    static RateLimitConfig from(ConfigSource c) {
        return new RateLimitConfig(
                c.bool("rate_limit.enabled", true),
                c.doubleValue("rate_limit.rate", 20, 0.01, 1_000_000),
                c.intValue("rate_limit.burst", 60, 1, 1_000_000),
                c.doubleValue("rate_limit.post_rate", 2, 0.01, 1_000_000),
                c.intValue("rate_limit.post_burst", 10, 1, 1_000_000),
                c.intValue("rate_limit.max_clients", 100_000, 100, 10_000_000));
    }
}
