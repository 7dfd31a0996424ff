package dev.weft.pipeline;

import java.time.Duration;

/**
 * How a pipeline runs.
 *
 * @param name             what the log lines call it ("ingestion", "EVM tracer")
 * @param countUnit        what the progress line's second rate counts ("txs", "internal txs")
 * @param window           heights fetched ahead or held before their commit at least
 * @param windowStart      the window at first (held within {@code window..windowMax}), from which it adapts
 * @param windowMax        the cap of the adaptive window ({@link AdaptiveWindow}): at most this many heights in flight or held
 * @param bufferedBytes    fetched items waiting for their commit stop new fetches beyond this many bytes
 * @param commitItems      most heights in one commit
 * @param commitWeight     most weight (txs, rows) in one commit; a run closes at whichever limit comes first
 * @param retryBase        first backoff delay of a failed fetch or commit
 * @param retryMax         cap of the backoff delay
 * @param progressInterval interval of the catch-up progress line
 */
public record PipelineOptions(
        String name,
        String countUnit,
        int window,
        int windowStart,
        int windowMax,
        long bufferedBytes,
        int commitItems,
        long commitWeight,
        Duration retryBase,
        Duration retryMax,
        Duration progressInterval) {}
