package dev.weft.pipeline;

/**
 * How many heights a pipeline keeps in flight: enough to cover the node's round trip at the rate the pipeline commits
 * (the bandwidth-delay product), within a cap. Fed with measurements only (no clock of its own), so its rules are
 * tested with synthetic ones.
 *
 * <ul>
 *   <li>Each fetch's latency feeds a moving average (the round trip of one height, all its requests).</li>
 *   <li>Every {@code interval} of measured time, the commit rate over the interval is taken. If the window was full of
 *       fetches still in flight during the interval (fetching, not committing, was the bottleneck), the window doubles,
 *       a probe: when the next interval's rate did not rise by a tenth, the doubling is undone (the bottleneck is
 *       elsewhere: the node, the client's request limit, the CPU), so queueing never feeds growth.</li>
 *   <li>Otherwise it shrinks toward twice rate × round trip (the bandwidth-delay product, with headroom for jitter),
 *       at most by a quarter per interval so a short stall does not collapse it, never below {@code min}.</li>
 *   <li>It never exceeds {@code max} (the memory cap in heights); the byte bound of held items stays with the pipeline.</li>
 * </ul>
 */
public final class AdaptiveWindow {
  private static final double ALPHA = 0.2;

  private final int min;
  private final int max;
  private final long intervalNanos;
  private int limit;
  private double latencyNanos;
  private long lastTick = Long.MIN_VALUE;
  private long committedAtTick;
  private boolean fetchBound;
  private boolean probing;
  private double lastRate;

  /**
   * @param min           the window it starts from and never goes below
   * @param max           the cap: at most this many heights in flight or held
   * @param intervalNanos how much measured time one adaptation step looks at
   */
  public AdaptiveWindow(int min, int max, long intervalNanos) {
    if (min < 1 || max < min) throw new IllegalArgumentException("window bounds " + min + ".." + max);
    this.min = min;
    this.max = max;
    this.intervalNanos = intervalNanos;
    this.limit = min;
  }

  /** The current window. */
  public int limit() {
    return limit;
  }

  /** One height fetched in {@code nanos}. */
  public void fetched(long nanos) {
    latencyNanos = latencyNanos == 0 ? nanos : latencyNanos + ALPHA * (nanos - latencyNanos);
  }

  /** The planner found the window full with {@code inFlight} of its heights still being fetched. */
  public void full(int inFlight) {
    if (inFlight * 2 >= limit) fetchBound = true;
  }

  /** A commit at {@code now}: {@code committed} heights so far in total. Adapts once an interval has passed. */
  public void committed(long now, long committed) {
    if (lastTick == Long.MIN_VALUE) {
      lastTick = now;
      committedAtTick = committed;
      return;
    }
    long elapsed = now - lastTick;
    if (elapsed < intervalNanos) return;
    double rate = (committed - committedAtTick) * 1e9 / elapsed;
    if (probing && rate < lastRate * 1.1) {
      limit = Math.max(min, limit / 2);
      probing = false;
    } else if (fetchBound) {
      probing = limit < max;
      limit = (int) Math.min(max, 2L * limit);
    } else {
      probing = false;
      long target = (long) Math.ceil(2 * rate * latencyNanos / 1e9);
      int floor = Math.max(min, limit - limit / 4);
      limit = (int) Math.max(floor, Math.min(limit, target));
    }
    lastRate = rate;
    lastTick = now;
    committedAtTick = committed;
    fetchBound = false;
  }
}
