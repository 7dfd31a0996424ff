package dev.weft.chain.client;

import dev.weft.runtime.LatencyFloor;

/**
 * The time a node takes to answer one request (from the request's send, after its permit, to its whole answer), as a
 * {@link LatencyFloor} over periods of the clock. An average beyond twice the floor means requests queue somewhere (at
 * the node, or in this process before their answers are read), whereas a height of several requests in a row is no
 * queue. Fed with the clock's readings, so its rules are tested with synthetic ones.
 */
final class RoundTrips {
    private final long periodNanos;
    private final LatencyFloor latency = new LatencyFloor();
    private long periodStart = Long.MIN_VALUE;

    RoundTrips(long periodNanos) {
        this.periodNanos = periodNanos;
    }

    /** One request answered in {@code nanos}, at {@code now}. */
    synchronized void answered(long nanos, long now) {
        roll(now);
        latency.add(nanos);
    }

    /** Whether the answers' average is beyond twice their floor at {@code now} (false before any answer). */
    synchronized boolean queueing(long now) {
        roll(now);
        return latency.beyond(LatencyFloor.QUEUEING);
    }

    private void roll(long now) {
        if (periodStart == Long.MIN_VALUE) {
            periodStart = now;
            return;
        }
        if (now - periodStart < periodNanos) return;
        // a whole period without answers leaves no floor from before it
        latency.nextPeriod(now - periodStart < 2 * periodNanos);
        periodStart = now;
    }
}
