package dev.weft.config;

import java.time.Duration;

/**
 * How a node client talks to its URLs: in-flight request bound, per-request timeout, attempts per call (rotating
 * URLs) with capped exponential backoff, and when a URL is set aside as unhealthy.
 */
public record NodeClientOptions(
        int maxRequests,
        Duration requestTimeout,
        int attempts,
        Duration retryBase,
        Duration retryMax,
        int unhealthyAfter,
        Duration unhealthyFor) {

    public static NodeClientOptions defaults() {
        return new NodeClientOptions(
                32,
                Duration.ofSeconds(30),
                5,
                Duration.ofMillis(200),
                Duration.ofSeconds(30),
                3,
                Duration.ofMinutes(1));
    }

    public NodeClientOptions withAttempts(int n) {
        return new NodeClientOptions(maxRequests, requestTimeout, n, retryBase, retryMax, unhealthyAfter, unhealthyFor);
    }

    public NodeClientOptions withMaxRequests(int n) {
        return new NodeClientOptions(n, requestTimeout, attempts, retryBase, retryMax, unhealthyAfter, unhealthyFor);
    }

    public NodeClientOptions withRequestTimeout(Duration d) {
        return new NodeClientOptions(maxRequests, d, attempts, retryBase, retryMax, unhealthyAfter, unhealthyFor);
    }
}
