package dev.weft.pipeline;

import dev.weft.runtime.LatencyFloor;

/**
 * How many heights a pipeline keeps in flight: enough to cover the node's round trip at the rate the pipeline commits
 * (the bandwidth-delay product), within a cap. Fed with measurements only (no clock of its own), so its rules are
 * tested with synthetic ones.
 *
 * <ul>
 *   <li>It starts with a ramp: while each step finds the window full of fetches in flight and no node request queueing,
 *       it doubles, a step being two round trips of a height (at least a quarter of {@code interval}) and no rate
 *       compared. A far node's window so reaches its bandwidth-delay product within a few round trips: from the start's
 *       window of W heights, each held a round trip, it cannot commit more than W per round trip, and the probes below
 *       (half a window per four round trips, at least a second) took three seconds or more to get there. The ramp ends
 *       at the cap or at its first step that does not grow (commits or the node are the bottleneck, or requests
 *       queue); that step and all after it follow the rules below. A near node's requests queue from the first step,
 *       so its window never ramps.</li>
 *   <li>Each fetch's latency feeds a moving average (the round trip of one height, all its requests) and the floor
 *       (the least latency of the last two intervals).</li>
 *   <li>Every {@code interval} of measured time, and at least four round trips of a height (commits come in runs, so
 *       over a far node's one or two round trips the rate swings by half from step to step), the commit rate over it
 *       is taken. If the window was full of fetches still in flight during it (fetching, not committing, was the
 *       bottleneck) and the node requests did not queue (none waited for a permit of its client, and single requests
 *       were answered within twice their least time: a larger window would only lengthen a queue), the window grows
 *       by half, a probe: when neither of the next two steps' rates rose by a tenth over the rate before it, the
 *       probe is undone (the bottleneck is elsewhere: the node, the database, the CPU) and the next probe waits 2, 4,
 *       … up to 32 steps, so a rate that wanders (JIT warm-up, a busy database) cannot ratchet the window up to its
 *       cap. Two steps, since the probe's extra heights are answered a round trip or more after it grew, their
 *       requests in one burst that slows the others for a while: on a far node the first step often shows no gain
 *       yet. Probes grow by half, not double: on a far node a doubled window also doubles the bursts of answers the
 *       node sends at once, which lengthens every height's fetch and hides the gain a smaller step shows. A height's
 *       own latency is no queueing signal: heights take one round trip or several in a row (a block with NFT changes
 *       reads their metadata after its results), so on a far node its average is several times its floor without any
 *       queue; the time of a single request is one (the stage tells, from its node clients).</li>
 *   <li>Otherwise, when the window had room to spare during the step (the planner never found it full) or node
 *       requests queued, it shrinks toward twice rate × round trip (the bandwidth-delay product, with headroom for
 *       jitter; the round trip counted at most twice its floor, so queueing does not hold the window up), at most by a
 *       quarter per step so a short stall does not collapse it, never below {@code min}. A window found full (of heights
 *       in flight, or fetched and waiting for their commit) is in use and holds: a slow step (a checkpoint, a GC, the
 *       wait after a fruitless probe) would shrink it below what the next steps need, and only a probe, after its
 *       cooldown, could grow it back.</li>
 *   <li>It never exceeds {@code max} (the memory cap in heights); the byte bound of held items stays with the pipeline.</li>
 * </ul>
 */
public final class AdaptiveWindow {
    private static final int MAX_COOLDOWN = 32;
    /** A step spans this many round trips of a height at least. */
    private static final int ROUND_TRIPS_PER_STEP = 4;
    /** A step of the ramp spans this many round trips of a height, and at least a quarter of the interval. */
    private static final int ROUND_TRIPS_PER_RAMP_STEP = 2;

    private final int min;
    private final int max;
    private final long intervalNanos;
    private int limit;
    /** The fetch time of a height (all its requests): the floor rolls at each adaptation step. */
    private final LatencyFloor latency = new LatencyFloor();

    private long lastTick = Long.MIN_VALUE;
    private long committedAtTick;
    private boolean fetchBound;
    /** The planner found the window full during this step (of heights in flight, or fetched and waiting to commit). */
    private boolean wasFull;

    private boolean requestsQueued;
    private boolean probing;
    /** The limit a probe grew from, restored when the probe bought nothing. */
    private int beforeProbe;
    /** The rate of the step a probe grew after, which the probe must raise by a tenth. */
    private double probeBase;
    /** The probe's first step did not raise the rate: its second step decides. */
    private boolean probeSecondStep;

    private int failedProbes;
    private int cooldown;
    /** Doubling every ramp step, until the cap or a step that does not grow. */
    private boolean ramping = true;

    /**
     * A window that starts at its floor.
     *
     * @param min           the window it starts from and never goes below
     * @param max           the cap: at most this many heights in flight or held
     * @param intervalNanos how much measured time one adaptation step looks at
     */
    public AdaptiveWindow(int min, int max, long intervalNanos) {
        this(min, min, max, intervalNanos);
    }

    /**
     * A window that starts at {@code start} (held within {@code min..max}); the rules below move it from there, down to
     * {@code min} when it has room to spare or the node's requests queue.
     */
    public AdaptiveWindow(int min, int start, int max, long intervalNanos) {
        if (min < 1 || max < min) throw new IllegalArgumentException("window bounds " + min + ".." + max);
        this.min = min;
        this.max = max;
        this.intervalNanos = intervalNanos;
        this.limit = Math.max(min, Math.min(max, start));
    }

    /** The current window. */
    public int limit() {
        return limit;
    }

    /** One height fetched in {@code nanos}. */
    public void fetched(long nanos) {
        latency.add(nanos);
    }

    /**
     * The planner found the window full with {@code inFlight} of its heights still being fetched, their node requests
     * queueing or not ({@link Stage#requestsQueueing}).
     */
    public void full(int inFlight, boolean requestsQueueing) {
        wasFull = true;
        if (inFlight * 2 >= limit) fetchBound = true;
        if (requestsQueueing) requestsQueued = true;
    }

    /** A commit at {@code now}: {@code committed} heights so far in total. Adapts once an interval has passed. */
    public void committed(long now, long committed) {
        if (lastTick == Long.MIN_VALUE) {
            lastTick = now;
            committedAtTick = committed;
            return;
        }
        long elapsed = now - lastTick;
        double roundTrip = latency.unqueuedAverage();
        if (ramping
                ? elapsed < Math.max(intervalNanos / 4, ROUND_TRIPS_PER_RAMP_STEP * roundTrip)
                : elapsed < Math.max(intervalNanos, ROUND_TRIPS_PER_STEP * roundTrip)) return;
        if (ramping && fetchBound && !requestsQueued && limit < max) {
            limit = (int) Math.min(max, 2L * limit);
            ramping = limit < max;
        } else {
            ramping = false;
            step((committed - committedAtTick) * 1e9 / elapsed);
        }
        lastTick = now;
        committedAtTick = committed;
        fetchBound = false;
        wasFull = false;
        requestsQueued = false;
        latency.nextPeriod(true);
    }

    /** One step after the ramp, its commit rate {@code rate} heights per second. */
    private void step(double rate) {
        boolean fruitless = probing && rate < probeBase * 1.1;
        if (fruitless && !probeSecondStep) {
            // the probe's extra heights arrive a round trip after it grew, their requests in one burst: a second step
            // tells
            probeSecondStep = true;
        } else if (fruitless) {
            limit = beforeProbe;
            probing = false;
            failedProbes++;
            cooldown = Math.min(MAX_COOLDOWN, 1 << Math.min(failedProbes, 5));
        } else if (fetchBound && cooldown == 0 && !requestsQueued) {
            if (probing) failedProbes = 0;
            probing = limit < max;
            probeSecondStep = false;
            probeBase = rate;
            beforeProbe = limit;
            limit = (int) Math.min(max, limit + (limit + 1L) / 2);
        } else {
            probing = false;
            if (cooldown > 0) cooldown--;
            // a window found full is in use: shrinking it would only cost rate once the step's slowness (a checkpoint,
            // a GC,
            // a probe's cooldown) is over; it shrinks when it had room to spare, or to relieve queueing requests
            if (!wasFull || requestsQueued) {
                long target = (long) Math.ceil(2 * rate * latency.unqueuedAverage() / 1e9);
                int floor = Math.max(min, limit - limit / 4);
                limit = (int) Math.max(floor, Math.min(limit, target));
            }
        }
    }
}
