package dev.weft.chain.client;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Capped exponential backoff with jitter: base·2^(attempt-1), capped, then ±25 % so retries of many callers spread. */
public final class Backoff {
    private Backoff() {}

    /** The delay before retry number {@code attempt} (1 = the first retry), in milliseconds. */
    public static long delayMs(int attempt, Duration base, Duration max) {
        long b = Math.max(1, base.toMillis());
        long cap = Math.max(b, max.toMillis());
        int shift = Math.min(Math.max(attempt - 1, 0), 30);
        long d = Math.min(cap, b << shift);
        double jitter = 0.75 + ThreadLocalRandom.current().nextDouble() * 0.5;
        return Math.max(1, Math.min(cap, Math.round(d * jitter)));
    }
}
