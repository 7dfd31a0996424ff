package dev.weft.runtime;

/**
 * Latencies as a moving average and a floor: the least latency of the current and the previous period, where the
 * owner says when a period ends. An average far above the floor means the measured operations wait in a queue.
 * Not thread-safe.
 */
public final class LatencyFloor {
    /** An average beyond this multiple of the floor: the measured operations wait in a queue. */
    public static final double QUEUEING = 2.0;

    private static final double ALPHA = 0.2;

    private double averageNanos;
    private long floorThis = Long.MAX_VALUE;
    private long floorPrev = Long.MAX_VALUE;

    /** One latency. */
    public void add(long nanos) {
        averageNanos = averageNanos == 0 ? nanos : averageNanos + ALPHA * (nanos - averageNanos);
        floorThis = Math.min(floorThis, nanos);
    }

    /** Starts a period; {@code keepLast}: the period that ended still counts toward the floor (else none does). */
    public void nextPeriod(boolean keepLast) {
        floorPrev = keepLast ? floorThis : Long.MAX_VALUE;
        floorThis = Long.MAX_VALUE;
    }

    /** The moving average; 0 before any latency. */
    public double average() {
        return averageNanos;
    }

    /** The least latency of the current and the previous period; 0 when neither has one. */
    public long floor() {
        long f = Math.min(floorThis, floorPrev);
        return f == Long.MAX_VALUE ? 0 : f;
    }

    /**
     * The average counted at most {@link #QUEUEING} times the floor (the whole average without a floor): the latency an
     * operation takes when nothing queues, so a queue does not inflate what is derived from it.
     */
    public double unqueuedAverage() {
        long f = floor();
        return f > 0 ? Math.min(averageNanos, QUEUEING * f) : averageNanos;
    }

    /** Whether the average is beyond {@code multiple} times the floor (false without a floor). */
    public boolean beyond(double multiple) {
        long f = floor();
        return f > 0 && averageNanos > multiple * f;
    }
}
