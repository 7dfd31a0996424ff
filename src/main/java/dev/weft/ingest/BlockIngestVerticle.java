package dev.weft.ingest;

import dev.weft.bus.Addresses;
import dev.weft.chain.Hex;
import dev.weft.chain.client.CometRpcClient;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.chain.model.Rfc3339;
import dev.weft.config.ChainConfig;
import dev.weft.config.IngestConfig;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.nft.NftMetadata;
import dev.weft.pipeline.Measures;
import dev.weft.pipeline.OrderedCommitPipeline;
import dev.weft.pipeline.PipelinePolicy;
import dev.weft.pipeline.RetryPolicy;
import dev.weft.pipeline.Targets;
import dev.weft.pipeline.Writer;
import dev.weft.runtime.NodeContext;
import dev.weft.runtime.StartsAfterDeploy;
import dev.weft.store.EventStore;
import dev.weft.store.IngestStore;
import dev.weft.store.NftStore;
import dev.weft.store.Partitions;
import dev.weft.store.StatusStore;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Block ingestion: one loop for catch-up and live follow (so there is no hand-over gap, rollytics#25). It polls the
 * node's head and hands the heights up to it to an {@link OrderedCommitPipeline}, which fetches them ahead within a
 * bounded window and commits them strictly in order, several consecutive blocks per transaction, retrying node and
 * database failures without skipping or repeating a height. After each commit, {@code block indexed} is published
 * once per height, in order.
 */
public final class BlockIngestVerticle extends VerticleBase implements StartsAfterDeploy {
    private static final Logger LOG = LoggerFactory.getLogger(BlockIngestVerticle.class);

    private final NodeContext ctx;
    private final IngestConfig cfg;
    private final ChainConfig chain;
    /** The backoff of the pipeline's retries, and of the reads that follow a commit (its events' sequences). */
    private final RetryPolicy retries;

    private CometRpcClient rpc;
    private CosmosRestClient rest;
    private EvmRpcClient evm;
    private BlockFetcher fetcher;
    private IngestStore store;
    private IngestMetrics metrics;
    /** Where an empty database starts (chosen at start from the configuration and the node's earliest block). */
    private long firstHeight;

    private OrderedCommitPipeline<Long, IndexedBlock, IngestStore.Position, IngestStore.Batch> pipeline;
    /** The node's head, confined to this verticle's event loop. */
    private long head;

    private boolean stopped;
    /** Completed once the node answered where to start; failed with a setting the answer showed wrong. */
    private final io.vertx.core.Promise<Void> begun = io.vertx.core.Promise.promise();

    private long headTimer = -1;
    private boolean chainMismatchLogged;

    public BlockIngestVerticle(NodeContext ctx) {
        this.ctx = ctx;
        this.cfg = ctx.config().ingest();
        this.chain = ctx.config().chain();
        this.retries = new RetryPolicy(cfg.retryBase(), cfg.retryMax());
    }

    @Override
    public Future<?> start() {
        if (chain.rpcUrls().isEmpty()
                || chain.restUrls().isEmpty()
                || chain.isEvm() && chain.jsonRpcUrls().isEmpty()) {
            return Future.failedFuture(new IllegalStateException("ingestion needs chain.rpc, chain.rest"
                    + (chain.isEvm() ? " and chain.json_rpc" : "") + " (or the devnet role to fill them in)"));
        }
        rpc = new CometRpcClient(vertx, chain.rpcUrls(), cfg.clientOptions());
        rest = new CosmosRestClient(vertx, chain.restUrls(), cfg.clientOptions());
        evm = chain.isEvm() ? new EvmRpcClient(vertx, chain.jsonRpcUrls(), cfg.clientOptions()) : null;
        NftMetadata nftMetadata = new NftMetadata(chain, evm, rest);
        fetcher = BlockFetcher.forChain(vertx, chain, cfg, ctx.pool(), rpc, rest, evm, nftMetadata);
        store = new IngestStore(ctx.pool(), 500_000, chain.isEvm(), chain.chainId());
        events = new EventStore(ctx.pool());
        retention = new EventRetention(vertx, events, ctx.config().events());
        upkeep = new HistoryUpkeep(
                vertx,
                new Partitions(ctx.pool()),
                new StatusStore(ctx.pool()),
                ctx.config().storage());
        metrics = IngestMetrics.forChain(chain.chainId());
        pipeline = new OrderedCommitPipeline<>(
                vertx,
                "ingestion",
                new Blocks(),
                new Measures<>(
                        height -> height,
                        IndexedBlock::approxBytes,
                        IndexedBlock::txCount,
                        IngestStore.Position::height,
                        IngestStore.Position::txs,
                        "txs",
                        IngestStore.Batch::after),
                new PipelinePolicy(
                        cfg.window(),
                        cfg.window(),
                        cfg.windowMax(),
                        cfg.bufferedBytes(),
                        cfg.commitBlocks(),
                        cfg.commitTxs(),
                        retries,
                        cfg.progressInterval()),
                metrics.pipeline());
        // start() reads only the database: where an empty one starts needs the node, asked after start (begin), so a
        // node that accepts connections but never answers holds back neither the node's start-up nor the API
        return new NftStore(ctx.pool())
                .collections(nftMetadata::remember)
                // the partitions of the first commits exist before the first commit
                .compose(v -> upkeep.start())
                .compose(v -> pipeline.start())
                .onSuccess(pos -> {
                    retention.start();
                    begin(pos, 0);
                });
    }

    @Override
    public Future<Void> begun() {
        return begun.future();
    }

    /**
     * Once started: an empty database's first height (the configured one, or the node's earliest block: a pruned
     * node), asked again every {@code cluster.standby_poll} while the node cannot answer, then the head polls. A
     * configured height below the node's earliest block fails {@link #begun()} (a wrong setting: the writer stops).
     */
    private void begin(IngestStore.Position pos, int failures) {
        if (stopped) return;
        Future<Void> first = pos.empty()
                ? fetcher.startHeight().map(h -> {
                    firstHeight = h;
                    return (Void) null;
                })
                : Future.succeededFuture();
        first.onSuccess(v -> {
                    if (stopped) return;
                    LOG.info(
                            "ingestion of {} starts at height {} (rpc {}, rest {}{})",
                            chain.chainId(),
                            pos.empty() ? firstHeight : pos.height() + 1,
                            rpc.http().endpoints().all(),
                            rest.http().endpoints().all(),
                            evm == null
                                    ? ""
                                    : ", json-rpc " + evm.http().endpoints().all());
                    begun.tryComplete();
                    pollHead();
                })
                .onFailure(e -> {
                    if (stopped) return;
                    if (e instanceof dev.weft.config.ConfigException) {
                        begun.tryFail(e);
                        return;
                    }
                    // a dead node: its stack trace once, then a line per attempt (its failures are on its node's
                    // series)
                    if (failures == 0) LOG.error("ingestion of {} cannot read where to start", chain.chainId(), e);
                    else
                        LOG.warn(
                                "ingestion of {} still cannot read where to start ({} times in a row): {}",
                                chain.chainId(),
                                failures + 1,
                                e.getMessage());
                    headTimer = vertx.setTimer(
                            ctx.config().cluster().standbyPoll().toMillis(), t -> begin(pos, failures + 1));
                });
    }

    @Override
    public Future<?> stop() {
        stopped = true;
        if (headTimer >= 0) vertx.cancelTimer(headTimer);
        if (retention != null) retention.stop();
        if (upkeep != null) upkeep.stop();
        // let a running commit finish (it either commits whole or rolls back), then close the clients
        Future<Void> quiet = pipeline != null ? pipeline.stop() : Future.succeededFuture();
        // and its announcements (a lost answer's wait for its sequences, bounded by the retries): the writer that
        // takes over after this stop announces the heights after them, so the bus sees heights in order
        return quiet.compose(v -> announcing.otherwise((Void) null))
                .compose(v ->
                        Future.join(rpc.close(), rest.close(), evm == null ? Future.succeededFuture() : evm.close()));
    }

    private void pollHead() {
        if (stopped) return;
        rpc.status().onComplete(ar -> {
            if (stopped) return;
            if (ar.succeeded()) {
                String network = ar.result().network();
                if (!network.isEmpty() && !network.equals(chain.chainId())) {
                    if (!chainMismatchLogged)
                        LOG.error(
                                "the node serves chain {} but chain.chain_id is {}: not indexing it",
                                network,
                                chain.chainId());
                    chainMismatchLogged = true;
                } else {
                    if (ar.result().latestHeight() > head) {
                        head = ar.result().latestHeight();
                        metrics.head.set(head);
                        long known = head;
                        vertx.sharedData()
                                .<String, Long>getAsyncMap(Addresses.CHAIN_HEADS_MAP)
                                .compose(m -> m.put(chain.chainId(), known));
                    }
                    // every poll, not only on a new head: whatever left the plan short (a lost wake-up) is made up
                    // within one
                    // poll interval; planning with nothing new to plan is a no-op
                    pipeline.wake();
                }
            } else {
                LOG.warn("cannot read the chain head: {}", ar.cause().getMessage());
            }
            headTimer = vertx.setTimer(cfg.pollInterval().toMillis(), t -> pollHead());
        });
    }

    /** The heights up to the node's head, fetched with {@link BlockFetcher} and written with {@link IngestStore}. */
    private final class Blocks implements Writer<Long, IndexedBlock, IngestStore.Position, IngestStore.Batch> {
        @Override
        public Future<Targets<Long>> next(long after, int max) {
            List<Long> heights = new ArrayList<>();
            // an empty database whose first height is not known yet (its node has not answered): nothing to plan
            if (after == 0 && firstHeight == 0) return Future.succeededFuture(new Targets<>(heights, head));
            // an empty database starts at the first height
            for (long h = after == 0 ? firstHeight : after + 1; h <= head && heights.size() < max; h++) heights.add(h);
            return Future.succeededFuture(new Targets<>(heights, head));
        }

        @Override
        public Future<IndexedBlock> fetch(Long height) {
            return fetcher.fetch(height);
        }

        @Override
        public Future<IngestStore.Batch> prepare(List<IndexedBlock> run, IngestStore.Position before) {
            return store.ids(run).compose(ids -> vertx.executeBlocking(() -> store.prepare(run, before, ids), false));
        }

        @Override
        public Future<Void> commit(IngestStore.Batch batch) {
            return upkeep.withRoom(() -> store.commit(batch));
        }

        @Override
        public Future<IngestStore.Position> position() {
            return store.position();
        }

        /**
         * The block events' sequences of a commit whose answer was lost, read back; the database may still be out of
         * reach then, so the read is retried with the commit's backoff for as long as the database stays out of reach
         * (no commit succeeds meanwhile, so no announcement queues behind it); a stopping writer announces the blocks
         * without them (their events are in the log all the same).
         */
        private Future<Map<Long, Long>> sequencesAt(IngestStore.Batch batch, int failures) {
            return events.sequencesAt(chain.chainId(), EventStore.BLOCKS, batch.firstHeight(), batch.lastHeight())
                    .recover(e -> {
                        if (stopped) {
                            LOG.warn(
                                    "heights {}..{} announced without their event sequences: {}",
                                    batch.firstHeight(),
                                    batch.lastHeight(),
                                    e.toString());
                            return Future.succeededFuture(Map.of());
                        }
                        io.vertx.core.Promise<Map<Long, Long>> later = io.vertx.core.Promise.promise();
                        vertx.setTimer(
                                Math.max(1, retries.delayMs(failures + 1)),
                                t -> sequencesAt(batch, failures + 1).onComplete(later));
                        return later.future();
                    });
        }

        @Override
        public void committed(IngestStore.Batch batch) {
            // a commit found committed after its answer was lost wrote its events all the same: their sequences are
            // read back (in order with the announcements of the runs after it) and announced like any others
            announcing = announcing
                    .transform(x -> batch.sequencesKnown()
                            ? Future.succeededFuture(Map.<Long, Long>of())
                            : sequencesAt(batch, 0))
                    .map(sequences -> {
                        List<IngestStore.Committed> blocks = batch.committed(sequences);
                        blocks.forEach(BlockIngestVerticle.this::published);
                        Long last = batch.lastSequence();
                        if (last == null)
                            last = blocks.stream()
                                    .map(IngestStore.Committed::sequence)
                                    .filter(java.util.Objects::nonNull)
                                    .max(Long::compare)
                                    .orElse(null);
                        Addresses.eventsAppended(vertx.eventBus(), last);
                        return null;
                    });
        }

        @Override
        public boolean requestsQueueing() {
            return rpc.http().queueing()
                    || rest.http().queueing()
                    || (evm != null && evm.http().queueing());
        }
    }

    private EventStore events;
    private EventRetention retention;
    private HistoryUpkeep upkeep;
    /** The announcements in commit order (a lost answer's waits for its sequences to be read back). */
    private Future<Void> announcing = Future.succeededFuture();

    private void published(IngestStore.Committed c) {
        metrics.blocks.increment();
        metrics.txs.increment(c.txCount());
        metrics.evmTxs.increment(c.evmTxCount());
        vertx.eventBus()
                .publish(
                        Addresses.BLOCK_INDEXED,
                        new JsonObject()
                                .put("chain_id", chain.chainId())
                                .put("height", c.height())
                                .put("hash", Hex.upper(c.hash()))
                                .put("tx_count", c.txCount())
                                .put("time", Rfc3339.nanos(c.timeNs()))
                                .put("sequence", c.sequence()));
    }
}
