package dev.weft.config;

import java.time.Duration;

/**
 * The EVM tracer ({@code evm.*}). Its in-flight node requests are bounded by its window ({@link #maxRequests()}); they
 * otherwise follow {@code ingest.*} (request timeout, retries, backoff), as the tracer reads the same JSON-RPC node.
 *
 * @param window           heights traced concurrently at least (traced heights held before their commit)
 * @param windowMax        the cap of the window as it adapts to the node's round trip, and where it starts ({@link #windowCap()})
 * @param traceTimeout     timeout of one {@code debug_traceBlockByNumber} (sent to the node as its tracer timeout too)
 * @param commitHeights    most heights committed in one database transaction while catching up
 * @param commitRows       most internal txs committed in one transaction (a run closes at whichever comes first)
 * @param pollInterval     how often new heights are looked for when no {@code block indexed} event woke the tracer
 * @param progressInterval interval of the catch-up progress line
 */
public record EvmConfig(
        int window,
        int windowMax,
        Duration traceTimeout,
        int commitHeights,
        int commitRows,
        Duration pollInterval,
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
     * The most heights the window grows to, and where it starts: {@code window_max}, or {@code window} when the cap is set
     * below the floor. A traced height is a few tens of KB held; a far node's tracer commits at most a window per round
     * trip, and a near node's queues its requests from the first step, which shrinks the window by a quarter a second.
     */
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
