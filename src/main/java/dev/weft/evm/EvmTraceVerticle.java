package dev.weft.evm;

import dev.weft.bus.Addresses;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.config.ChainConfig;
import dev.weft.config.EvmConfig;
import dev.weft.config.IngestConfig;
import dev.weft.model.evm.TracedBlock;
import dev.weft.pipeline.Measures;
import dev.weft.pipeline.OrderedCommitPipeline;
import dev.weft.pipeline.PipelinePolicy;
import dev.weft.pipeline.RetryPolicy;
import dev.weft.pipeline.Targets;
import dev.weft.pipeline.Writer;
import dev.weft.runtime.NodeContext;
import dev.weft.store.EventStore;
import dev.weft.store.InternalTxStore;
import dev.weft.store.Partitions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The EVM tracer: its own cursor ({@code evm}) behind ingestion. It asks its {@link HeightSource} for the next heights
 * (in a node: those the ingest cursor has passed whose block has EVM txs), traces up to {@code evm.window} of them
 * concurrently ({@link BlockTracer}), and commits them strictly in height order through an
 * {@link OrderedCommitPipeline}, a run of ready heights per transaction, the cursor moving in the same transaction after
 * a position check, so nothing is skipped or written twice, also across restarts and with a second writer. A height
 * that fails (node error, receipts and traces that do not pair) is retried with capped backoff, never skipped. It wakes on {@code block indexed} and also polls, since
 * events are at-most-once. After each commit, {@code internal txs indexed} is published once per height, in order. On
 * a chain without an EVM it does nothing.
 */
public final class EvmTraceVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(EvmTraceVerticle.class);

    private final NodeContext ctx;
    private final EvmConfig cfg;
    private final IngestConfig retries;
    private final ChainConfig chain;
    private final HeightSource sourceOverride;
    private EvmRpcClient rpc;
    private BlockTracer tracer;
    private InternalTxStore store;
    private HeightSource source;
    private EvmMetrics metrics;
    private OrderedCommitPipeline<InternalTxStore.Target, TracedBlock, InternalTxStore.Position, InternalTxStore.Batch>
            pipeline;
    private MessageConsumer<Object> wake;
    private long pollTimer = -1;

    public EvmTraceVerticle(NodeContext ctx) {
        this(ctx, null);
    }

    /**
     * A tracer that visits the heights of {@code source} instead of the ingested ones (null: the ingested ones). Tests
     * drive a plain EVM node (Anvil) this way: {@code new EvmTraceVerticle(ctx, HeightSource.range(1, head))}.
     */
    public EvmTraceVerticle(NodeContext ctx, HeightSource source) {
        this.ctx = ctx;
        this.cfg = ctx.config().evm();
        this.retries = ctx.config().ingest();
        this.chain = ctx.config().chain();
        this.sourceOverride = source;
    }

    @Override
    public Future<?> start() {
        if (!chain.isEvm()) {
            LOG.info(
                    "chain {} runs the {} VM: the EVM tracer has nothing to do",
                    chain.chainId(),
                    chain.vm().name().toLowerCase(java.util.Locale.ROOT));
            return Future.succeededFuture();
        }
        if (chain.jsonRpcUrls().isEmpty()) {
            return Future.failedFuture(new IllegalStateException(
                    "the EVM tracer needs chain.json_rpc (or the devnet role to fill it in)"));
        }
        rpc = new EvmRpcClient(
                vertx, chain.jsonRpcUrls(), retries.clientOptions().withMaxRequests(cfg.maxRequests()));
        tracer = new BlockTracer(vertx, rpc, cfg.traceTimeout());
        store = new InternalTxStore(ctx.pool(), 200_000, chain.chainId());
        events = new EventStore(ctx.pool());
        source = sourceOverride != null ? sourceOverride : HeightSource.ingested(store);
        metrics = EvmMetrics.forChain(chain.chainId());
        // traced heights are held in memory until their commit: the window (heights) is their bound, bytes only a
        // backstop
        pipeline = new OrderedCommitPipeline<>(
                vertx,
                "EVM tracer",
                new Traces(),
                new Measures<>(
                        InternalTxStore.Target::height,
                        EvmTraceVerticle::bytes,
                        block -> block.rows().size(),
                        InternalTxStore.Position::height,
                        InternalTxStore.Position::internalTxs,
                        "internal txs",
                        InternalTxStore.Batch::after),
                new PipelinePolicy(
                        cfg.window(),
                        cfg.windowCap(),
                        cfg.windowMax(),
                        retries.bufferedBytes(),
                        cfg.commitHeights(),
                        cfg.commitRows(),
                        new RetryPolicy(retries.retryBase(), retries.retryMax()),
                        cfg.progressInterval()),
                metrics.pipeline());
        partitions = new Partitions(ctx.pool());
        // the partitions of the first commits exist before the first commit (the ingest writer makes them ahead too)
        return partitions
                .ensure(ctx.config().storage().partitionRows(), true)
                .compose(n -> pipeline.start())
                .onSuccess(pos -> {
                    LOG.info(
                            "EVM tracer of {} resumes after height {} (json-rpc {}, {} heights in flight at first, down to {} as it adapts)",
                            chain.chainId(),
                            pos.height(),
                            rpc.http().endpoints().all(),
                            cfg.windowCap(),
                            cfg.window());
                    wake = vertx.eventBus().consumer(Addresses.BLOCK_INDEXED, m -> pipeline.wake());
                    pollTimer = vertx.setPeriodic(cfg.pollInterval().toMillis(), t -> pipeline.wake());
                });
    }

    private Partitions partitions;

    @Override
    public Future<?> stop() {
        if (rpc == null) return Future.succeededFuture();
        if (pollTimer >= 0) vertx.cancelTimer(pollTimer);
        Future<Void> unregistered = wake == null ? Future.succeededFuture() : wake.unregister();
        // let a running commit finish (it either commits whole or rolls back), then close the client
        Future<Void> quiet = pipeline.stop();
        // and its announcements (a lost answer's wait for its sequences, bounded by the retries): the writer that
        // takes over after this stop announces the heights after them, so the bus sees heights in order
        return Future.join(unregistered, quiet)
                .compose(v -> announcing.otherwise((Void) null))
                .compose(v -> rpc.close());
    }

    /** The heights of the {@link HeightSource}, traced with {@link BlockTracer} and written with {@link InternalTxStore}. */
    private final class Traces
            implements Writer<InternalTxStore.Target, TracedBlock, InternalTxStore.Position, InternalTxStore.Batch> {
        @Override
        public Future<Targets<InternalTxStore.Target>> next(long after, int max) {
            return source.next(after, max).map(t -> new Targets<>(t.targets(), t.head()));
        }

        @Override
        public Future<TracedBlock> fetch(InternalTxStore.Target target) {
            return tracer.trace(target.height(), target.evmTxs());
        }

        @Override
        public Future<InternalTxStore.Batch> prepare(List<TracedBlock> run, InternalTxStore.Position before) {
            return vertx.executeBlocking(() -> store.prepare(run, before), false);
        }

        @Override
        public Future<Void> commit(InternalTxStore.Batch batch) {
            return partitions.withRoom(ctx.config().storage().partitionRows(), () -> store.commit(batch));
        }

        @Override
        public Future<InternalTxStore.Position> position() {
            return store.position();
        }

        @Override
        public void committed(InternalTxStore.Batch batch) {
            // a commit found committed after its answer was lost wrote its events all the same: their sequences are
            // read back (in order with the announcements of the runs after it)
            List<TracedBlock> blocks = batch.blocks();
            announcing = announcing
                    .transform(x -> batch.sequences() != null || blocks.isEmpty()
                            ? Future.succeededFuture(Map.<Long, Long>of())
                            : events.sequencesAt(
                                            chain.chainId(),
                                            EventStore.INTERNAL_TXS,
                                            blocks.get(0).height(),
                                            blocks.get(blocks.size() - 1).height())
                                    .otherwise(Map.of()))
                    .map(found -> {
                        Long[] known = batch.sequences();
                        Long last = batch.lastSequence();
                        for (int i = 0; i < blocks.size(); i++) {
                            TracedBlock b = blocks.get(i);
                            Long s = known != null ? known[i] : found.get(b.height());
                            published(b, s);
                            if (known == null && s != null && (last == null || s > last)) last = s;
                        }
                        Addresses.eventsAppended(vertx.eventBus(), last);
                        return null;
                    });
        }

        @Override
        public boolean requestsQueueing() {
            return rpc.http().queueing();
        }
    }

    /** The approximate bytes a traced height holds while it waits for its commit. */
    private static long bytes(TracedBlock block) {
        long n = 64;
        for (TracedBlock.Row r : block.rows()) n += 2L * r.json().length + 256;
        return n;
    }

    private EventStore events;
    /** The announcements in commit order (a lost answer's waits for its sequences to be read back). */
    private Future<Void> announcing = Future.succeededFuture();

    private void published(TracedBlock b, Long sequence) {
        metrics.heights.increment();
        metrics.internalTxs.increment(b.rows().size());
        vertx.eventBus()
                .publish(
                        Addresses.INTERNAL_TXS_INDEXED,
                        new JsonObject()
                                .put("chain_id", chain.chainId())
                                .put("height", b.height())
                                .put("count", b.rows().size())
                                .put("sequence", sequence));
    }
}
