package dev.weft.pipeline;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters a pipeline updates, registered by its owner under the owner's names ({@code weft_ingest_*},
 * {@code weft_evm_*}): the committed height, the source's head, the heights held in the window, and the latency and
 * retries of fetches and commits; besides, the window's bounds as they move (fetches in flight, bytes of fetched items
 * waiting for their commit, the adaptive window's current limit), so a long run shows every queue stays bounded, and
 * the time between commits by what the commit loop waited for ({@link CommitIdle}).
 */
public record PipelineMeters(
        AtomicLong height,
        AtomicLong head,
        AtomicLong window,
        Timer fetchLatency,
        Counter fetchRetries,
        Timer commitLatency,
        Counter commitRetries,
        AtomicLong inFlight,
        AtomicLong bufferedBytes,
        AtomicLong windowLimit,
        CommitIdle idle) {

    public PipelineMeters(
            AtomicLong height,
            AtomicLong head,
            AtomicLong window,
            Timer fetchLatency,
            Counter fetchRetries,
            Timer commitLatency,
            Counter commitRetries) {
        this(
                height,
                head,
                window,
                fetchLatency,
                fetchRetries,
                commitLatency,
                commitRetries,
                new AtomicLong(),
                new AtomicLong(),
                new AtomicLong(),
                new CommitIdle());
    }

    /**
     * Registers the window's bounds as gauges {@code <prefix>_in_flight}, {@code <prefix>_buffered_bytes},
     * {@code <prefix>_window_limit}, and the idle time between commits as {@code <prefix>_commit_idle_seconds_total{waiting}}.
     */
    public PipelineMeters registerWindow(MeterRegistry r, String prefix, String chainId) {
        Gauge.builder(prefix + "_in_flight", inFlight, AtomicLong::get)
                .description("heights being fetched")
                .tag("chain_id", chainId)
                .register(r);
        Gauge.builder(prefix + "_buffered_bytes", bufferedBytes, AtomicLong::get)
                .description("bytes of fetched heights waiting for their commit")
                .tag("chain_id", chainId)
                .register(r);
        Gauge.builder(prefix + "_window_limit", windowLimit, AtomicLong::get)
                .description("the adaptive fetch window's current limit (heights)")
                .tag("chain_id", chainId)
                .register(r);
        idle.register(r, prefix, chainId);
        return this;
    }
}
