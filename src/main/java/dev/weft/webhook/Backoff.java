package dev.weft.webhook;

import java.util.random.RandomGenerator;

/**
 * Exponential backoff with "full jitter" (a uniform wait between 0 and the exponential bound, as in the AWS
 * Architecture Blog's "Exponential Backoff And Jitter"): retries of many deliveries failing together do not bunch.
 */
final class Backoff {
    private Backoff() {}

    /** The bound after {@code failures} failed attempts: {@code base × 2^(failures − 1)}, at most {@code max}. */
    static long bound(long baseMs, long maxMs, int failures) {
        int shift = Math.max(0, Math.min(failures - 1, 40));
        return Math.min(maxMs, baseMs << shift);
    }

    /** A wait in milliseconds, 1 to the bound. */
    static long delay(long baseMs, long maxMs, int failures, RandomGenerator random) {
        return Math.max(1, random.nextLong(bound(baseMs, maxMs, failures) + 1));
    }
}
