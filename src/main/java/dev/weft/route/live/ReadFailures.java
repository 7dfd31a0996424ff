package dev.weft.route.live;

import dev.weft.chain.client.Backoff;
import java.time.Duration;

/**
 * A market-state feed's failed reads in a row. While they fail, reads wait a growing delay (the refresh interval
 * doubled per failure, up to a cap), so a chain that is down or unreachable is asked every few seconds, not at every
 * refresh and every block; and only some failures are worth a warning (the 1st, 2nd, 4th, 8th, …), so the log says a
 * chain is down without a line every refresh for as long as it is.
 */
final class ReadFailures {
    private final Duration base;
    private final Duration max;
    private int inARow;
    private long retryAtMillis;

    /** {@code base}: the delay after the first failure; {@code max}: the longest delay (at least {@code base}). */
    ReadFailures(Duration base, Duration max) {
        this.base = base;
        this.max = max.compareTo(base) < 0 ? base : max;
    }

    /** Whether a read may start at {@code nowMillis}: no failure in a row, or the delay after the last one is over. */
    boolean due(long nowMillis) {
        return inARow == 0 || nowMillis >= retryAtMillis;
    }

    /** Notes a failed read at {@code nowMillis}; returns the delay (ms) before the next read may start. */
    long failed(long nowMillis) {
        inARow++;
        long delay = Backoff.delayMs(inARow, base, max);
        retryAtMillis = nowMillis + delay;
        return delay;
    }

    /** Failed reads in a row so far. */
    int inARow() {
        return inARow;
    }

    /** Whether the latest failure should be logged as a warning: the 1st, 2nd, 4th, 8th… in a row. */
    boolean worthWarning() {
        return inARow > 0 && Integer.bitCount(inARow) == 1;
    }

    /** Notes a successful read; returns how many reads had failed in a row before it. */
    int succeeded() {
        int before = inARow;
        inARow = 0;
        return before;
    }
}
