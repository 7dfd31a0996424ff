package dev.weft.config;

import java.time.Duration;

/**
 * Signed webhooks over the durable event log ({@code webhooks.*}): how many may exist, how a delivery is attempted
 * (per-request timeout, attempts before the dead letters, the exponential backoff's base and cap, deliveries in flight
 * over all webhooks), how often the delivery writer looks without being woken, the dead letters kept per webhook, and
 * whether targets on loopback, private and other internal addresses are allowed (never on a node facing the internet).
 */
public record WebhooksConfig(
        int maxWebhooks,
        int maxAttempts,
        Duration timeout,
        Duration backoffBase,
        Duration backoffMax,
        int maxConcurrent,
        Duration pollInterval,
        int maxDeadLetters,
        boolean allowPrivateTargets) {

    static WebhooksConfig from(ConfigSource c) {
        Duration base = positive(c, "webhooks.backoff_base", Duration.ofSeconds(1));
        Duration max = positive(c, "webhooks.backoff_max", Duration.ofMinutes(5));
        if (max.compareTo(base) < 0) throw new ConfigException("webhooks.backoff_max", "must be at least backoff_base");
        Duration timeout = positive(c, "webhooks.timeout", Duration.ofSeconds(10));
        if (timeout.compareTo(Duration.ofMinutes(5)) > 0)
            throw new ConfigException("webhooks.timeout", "must be at most 5m");
        return new WebhooksConfig(
                c.intValue("webhooks.max_webhooks", 100, 1, 10_000),
                c.intValue("webhooks.max_attempts", 8, 1, 100),
                timeout,
                base,
                max,
                c.intValue("webhooks.max_concurrent", 16, 1, 1024),
                positive(c, "webhooks.poll_interval", Duration.ofSeconds(1)),
                c.intValue("webhooks.max_dead_letters", 10_000, 1, 10_000_000),
                c.bool("webhooks.allow_private_targets", false));
    }

    private static Duration positive(ConfigSource c, String key, Duration def) {
        Duration d = c.duration(key, def);
        if (d.isNegative() || d.isZero()) throw new ConfigException(key, "must be positive");
        return d;
    }
}
