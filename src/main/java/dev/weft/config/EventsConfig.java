package dev.weft.config;

import java.time.Duration;

/**
 * The durable event log and its readers ({@code events.*}): retention (by count of sequences and by age, pruned by
 * every {@code ingest} node's writer in the background, {@code prune_batch} rows per transaction every
 * {@code prune_interval}), the long poll's longest wait, and the subscriptions' bounds: per client address on the
 * WebSocket endpoint, per connection on the SockJS and TCP bridges, and on every transport the replay page size and
 * the per-connection send buffer.
 */
public record EventsConfig(
        long retentionCount,
        Duration retentionAge,
        Duration pruneInterval,
        int pruneBatch,
        Duration maxWait,
        int subscriptionsPerClient,
        int replayPage,
        int sendBufferBytes,
        int bridgeSubscriptionsPerConnection) {

    static EventsConfig from(ConfigSource c) {
        return new EventsConfig(
                c.longValue("events.retention_count", 10_000_000, 1, Long.MAX_VALUE),
                positive(c, "events.retention_age", Duration.ofDays(7)),
                positive(c, "events.prune_interval", Duration.ofSeconds(10)),
                c.intValue("events.prune_batch", 10_000, 1, 1_000_000),
                positive(c, "events.max_wait", Duration.ofSeconds(30)),
                c.intValue("events.ws_subscriptions_per_client", 8, 1, 10_000),
                c.intValue("events.ws_replay_page", 500, 1, 1000),
                c.intValue("events.ws_send_buffer_bytes", 1 << 20, 1024, 64 << 20),
                c.intValue("events.bridge_subscriptions_per_connection", 8, 1, 1000));
    }

    private static Duration positive(ConfigSource c, String key, Duration def) {
        Duration d = c.duration(key, def);
        if (d.isNegative() || d.isZero()) throw new ConfigException(key, "must be positive");
        return d;
    }
}
