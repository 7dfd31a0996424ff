package dev.weft.pipeline;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters a pipeline updates, registered by its owner under the owner's names ({@code weft_ingest_*},
 * {@code weft_evm_*}): the committed height, the source's head, the heights held in the window, and the latency and
 * retries of fetches and commits.
 */
public record PipelineMeters(AtomicLong height, AtomicLong head, AtomicLong window, Timer fetchLatency, Counter fetchRetries,
                             Timer commitLatency, Counter commitRetries) {}
