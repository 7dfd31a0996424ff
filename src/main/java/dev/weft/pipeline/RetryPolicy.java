package dev.weft.pipeline;

import dev.weft.chain.client.Backoff;
import dev.weft.store.PositionMovedException;
import java.time.Duration;

/**
 * How a failed fetch, commit or step is retried: capped backoff, at once when another writer moved the position (the
 * retry starts from the position read again, so waiting would buy nothing).
 *
 * @param base first backoff delay
 * @param max  cap of the backoff delay
 */
public record RetryPolicy(Duration base, Duration max) {
    /** The delay before the next attempt after {@code failures} failures in a row. */
    public long delayMs(int failures) {
        return Backoff.delayMs(failures, base, max);
    }

    /** The delay before the next attempt after {@code failures} failures in a row, the last one {@code cause}. */
    public long delayMs(int failures, Throwable cause) {
        return cause instanceof PositionMovedException ? 0 : delayMs(failures);
    }
}
