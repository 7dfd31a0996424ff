package dev.weft.evm;

import dev.weft.pipeline.PipelineMeters;
import dev.weft.runtime.SharedMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Prometheus metrics of the EVM tracer ({@code weft_evm_*}), tagged with the chain id; one instance per registry
 * and chain ({@link SharedMeters}).
 */
final class EvmMetrics {
    final Counter heights;
    final Counter internalTxs;
    final Counter traceRetries;
    final Counter commitRetries;
    final Timer traceLatency;
    final Timer commitLatency;
    final AtomicLong height = new AtomicLong();
    final AtomicLong head = new AtomicLong();
    final AtomicLong window = new AtomicLong();
    private final PipelineMeters pipeline;

    static EvmMetrics forChain(String chainId) {
        return SharedMeters.of("evm/" + chainId, r -> new EvmMetrics(chainId, r));
    }

    private EvmMetrics(String chainId, MeterRegistry r) {
        heights = Counter.builder("weft_evm_heights_total")
                .description("heights traced and committed")
                .tag("chain_id", chainId)
                .register(r);
        internalTxs = Counter.builder("weft_evm_internal_txs_total")
                .description("internal txs committed")
                .tag("chain_id", chainId)
                .register(r);
        traceRetries = Counter.builder("weft_evm_errors_total")
                .description("failed attempts, retried")
                .tag("chain_id", chainId)
                .tag("stage", "trace")
                .register(r);
        commitRetries = Counter.builder("weft_evm_errors_total")
                .description("failed attempts, retried")
                .tag("chain_id", chainId)
                .tag("stage", "commit")
                .register(r);
        traceLatency = Timer.builder("weft_evm_trace_seconds")
                .description("trace, receipts and flattening of one height")
                .tag("chain_id", chainId)
                .register(r);
        commitLatency = Timer.builder("weft_evm_commit_seconds")
                .description("one commit transaction")
                .tag("chain_id", chainId)
                .register(r);
        Gauge.builder("weft_evm_height", height, AtomicLong::get)
                .description("last traced height")
                .tag("chain_id", chainId)
                .register(r);
        Gauge.builder("weft_evm_source_height", head, AtomicLong::get)
                .description("highest height the tracer may trace (the ingest cursor)")
                .tag("chain_id", chainId)
                .register(r);
        Gauge.builder("weft_evm_window_heights", window, AtomicLong::get)
                .description("heights being traced or waiting for their commit")
                .tag("chain_id", chainId)
                .register(r);
        pipeline = new PipelineMeters(height, head, window, traceLatency, traceRetries, commitLatency, commitRetries)
                .registerWindow(r, "weft_evm", chainId);
    }

    PipelineMeters pipeline() {
        return pipeline;
    }
}
