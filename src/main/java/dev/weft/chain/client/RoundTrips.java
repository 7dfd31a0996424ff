package dev.weft.chain.client;

/**
 * The time a node takes to answer one request (from the request's send, after its permit, to its whole answer): a
 * moving average and the floor (the least of the current and the previous period). An average beyond twice the floor
 * means requests queue somewhere (at the node, or in this process before their answers are read), whereas a height
 * of several requests in a row is no queue. Fed with the clock's readings, so its rules are tested with synthetic ones.
 */
final class RoundTrips {
  private static final double ALPHA = 0.2;
  /** An average beyond this multiple of the floor is queueing. */
  private static final double QUEUEING = 2.0;

  private final long periodNanos;
  private double averageNanos;
  private long floorThis = Long.MAX_VALUE;
  private long floorPrev = Long.MAX_VALUE;
  private long periodStart = Long.MIN_VALUE;

  RoundTrips(long periodNanos) {
    this.periodNanos = periodNanos;
  }

  /** One request answered in {@code nanos}, at {@code now}. */
  synchronized void answered(long nanos, long now) {
    roll(now);
    averageNanos = averageNanos == 0 ? nanos : averageNanos + ALPHA * (nanos - averageNanos);
    floorThis = Math.min(floorThis, nanos);
  }

  /** Whether the answers' average is beyond twice their floor at {@code now} (false before any answer). */
  synchronized boolean queueing(long now) {
    roll(now);
    long floor = Math.min(floorThis, floorPrev);
    return floor != Long.MAX_VALUE && averageNanos > QUEUEING * floor;
  }

  private void roll(long now) {
    if (periodStart == Long.MIN_VALUE) {
      periodStart = now;
      return;
    }
    if (now - periodStart < periodNanos) return;
    // a whole period without answers leaves no floor from before it
    floorPrev = now - periodStart < 2 * periodNanos ? floorThis : Long.MAX_VALUE;
    floorThis = Long.MAX_VALUE;
    periodStart = now;
  }
}
