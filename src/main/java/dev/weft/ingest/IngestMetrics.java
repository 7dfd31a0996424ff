package dev.weft.ingest;

import dev.weft.pipeline.PipelineMeters;
import dev.weft.runtime.SharedMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Prometheus metrics of block ingestion ({@code weft_ingest_*}), tagged with the chain id. One instance per registry
 * and chain ({@link SharedMeters}): a redeployed verticle (failover, restart) keeps updating the gauges already registered.
 */
final class IngestMetrics {
    final Counter blocks;
    final Counter txs;
    final Counter evmTxs;
    final Counter fetchRetries;
    final Counter commitRetries;
    final Timer fetchLatency;
    final Timer commitLatency;
    final AtomicLong height = new AtomicLong();
    final AtomicLong head = new AtomicLong();
    final AtomicLong window = new AtomicLong();
    private final PipelineMeters pipeline;

    static IngestMetrics forChain(String chainId) {
        return SharedMeters.of("ingest/" + chainId, r -> new IngestMetrics(chainId, r));
    }

    private IngestMetrics(String chainId, MeterRegistry r) {
        blocks = Counter.builder("weft_ingest_blocks_total")
                .description("blocks committed")
                .tag("chain_id", chainId)
                .register(r);
        txs = Counter.builder("weft_ingest_txs_total")
                .description("Cosmos txs committed")
                .tag("chain_id", chainId)
                .register(r);
        evmTxs = Counter.builder("weft_ingest_evm_txs_total")
                .description("EVM txs committed")
                .tag("chain_id", chainId)
                .register(r);
        fetchRetries = Counter.builder("weft_ingest_errors_total")
                .description("failed attempts, retried")
                .tag("chain_id", chainId)
                .tag("stage", "fetch")
                .register(r);
        commitRetries = Counter.builder("weft_ingest_errors_total")
                .description("failed attempts, retried")
                .tag("chain_id", chainId)
                .tag("stage", "commit")
                .register(r);
        fetchLatency = Timer.builder("weft_ingest_fetch_seconds")
                .description("fetch and assembly of one height")
                .tag("chain_id", chainId)
                .register(r);
        commitLatency = Timer.builder("weft_ingest_commit_seconds")
                .description("one commit transaction")
                .tag("chain_id", chainId)
                .register(r);
        Gauge.builder("weft_ingest_height", height, AtomicLong::get)
                .description("last committed height")
                .tag("chain_id", chainId)
                .register(r);
        Gauge.builder("weft_ingest_head_height", head, AtomicLong::get)
                .description("chain head seen on the node")
                .tag("chain_id", chainId)
                .register(r);
        Gauge.builder("weft_ingest_window_blocks", window, AtomicLong::get)
                .description("heights fetched or held, not yet committed")
                .tag("chain_id", chainId)
                .register(r);
        pipeline = new PipelineMeters(height, head, window, fetchLatency, fetchRetries, commitLatency, commitRetries)
                .registerWindow(r, "weft_ingest", chainId);
    }

    PipelineMeters pipeline() {
        return pipeline;
    }
}
