package dev.weft.config;


import java.time.Duration;

/**
 * The EVM tracer ({@code evm.*}). Its in-flight node requests are bounded by its window ({@link #maxRequests()}); they
 * otherwise follow {@code ingest.*} (request timeout, retries, backoff), as the tracer reads the same JSON-RPC node.
 *
 * @param window           heights traced concurrently at least (traced heights held before their commit)
 * @param windowMax        the cap of the window as it adapts to the node's round trip; it starts at {@link #windowStart()}
 * @param traceTimeout     timeout of one {@code debug_traceBlockByNumber} (sent to the node as its tracer timeout too)
 * @param commitHeights    most heights committed in one database transaction while catching up
 * @param commitRows       most internal txs committed in one transaction (a run closes at whichever comes first)
 * @param pollInterval     how often new heights are looked for when no {@code block indexed} event woke the tracer
 * @param progressInterval interval of the catch-up progress line
 */
public record EvmConfig(int window, int windowMax, Duration traceTimeout, int commitHeights, int commitRows, Duration pollInterval,
                        Duration progressInterval) {

  public static EvmConfig from(ConfigSource c) {
    return new EvmConfig(
        c.intValue("evm.window", 64, 1, 1_000),
        c.intValue("evm.window_max", 384, 1, 1_000),
        c.duration("evm.trace_timeout", Duration.ofSeconds(60)),
        c.intValue("evm.commit_heights", 50, 1, 10_000),
        c.intValue("evm.commit_rows", 20_000, 1, 1_000_000),
        c.duration("evm.poll_interval", Duration.ofSeconds(1)),
        c.duration("evm.progress_interval", Duration.ofSeconds(10)));
  }

  /**
   * The window at first: the geometric middle of {@code window} and {@code window_max} (157 for the shipped 64 and 384). A traced
   * height is a few tens of KB, and against a node 200 ms away the climb from the floor (a probe of half a window a
   * second or two apart) was most of the tracer's shortfall on a catch-up of minutes; a node that queues the traces
   * shrinks it back to the floor by a quarter a second.
   */
  public int windowStart() {
    return (int) Math.round(Math.sqrt((double) window * windowCap()));
  }

  /** The most heights the window grows to: {@code window_max}, or {@code window} when the cap is set below the floor. */
  public int windowCap() {
    return Math.max(window, windowMax);
  }

  /**
   * The tracer's in-flight requests to its JSON-RPC node: a height asks two at once (its trace and its receipts), so
   * twice the cap lets a full window run without waiting for a permit, and never more.
   */
  public int maxRequests() {
    return 2 * windowCap();
  }
}
