package dev.weft.ingest;

import dev.weft.config.StorageConfig;
import dev.weft.store.Partitions;
import dev.weft.store.StatusStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The upkeep of the partitioned history, run by the ingest writer (so under its chain's writer lease, by one node of a
 * cluster), never in a commit: every {@code storage.partition_check_interval} it makes the partitions the streams will
 * need next ({@link Partitions#ensure}, one partition of room ahead), and every
 * {@code retention.interval} it drops, when a retention bound is set, the partitions wholly older than the bound behind the ingest height
 * ({@link Partitions#prune}). A failed round is logged and tried again at the next tick.
 */
final class HistoryUpkeep {
    private static final Logger LOG = LoggerFactory.getLogger(HistoryUpkeep.class);

    private final Vertx vertx;
    private final Partitions partitions;
    private final StatusStore status;
    private final StorageConfig cfg;
    private long ensureTimer = -1;
    private long pruneTimer = -1;
    private boolean pruning;
    private boolean ensuring;
    private boolean stopped;

    HistoryUpkeep(Vertx vertx, Partitions partitions, StatusStore status, StorageConfig cfg) {
        this.vertx = vertx;
        this.partitions = partitions;
        this.status = status;
        this.cfg = cfg;
    }

    /** Makes the first partitions ahead (before the writer's first commit), then starts the timers. */
    Future<Void> start() {
        return ensure(true).onSuccess(x -> {
            if (stopped) return;
            ensureTimer = vertx.setPeriodic(cfg.partitionCheckInterval().toMillis(), id -> ensure(false));
            // the event log's emptied partitions are dropped whatever the bounds (events.* prunes its rows)
            pruneTimer = vertx.setPeriodic(cfg.retentionInterval().toMillis(), id -> prune());
        });
    }

    void stop() {
        stopped = true;
        if (ensureTimer >= 0) vertx.cancelTimer(ensureTimer);
        if (pruneTimer >= 0) vertx.cancelTimer(pruneTimer);
    }

    /** A commit that makes the missing partitions when it failed for want of one (so the writer's retry finds room). */
    Future<Void> withRoom(java.util.function.Supplier<Future<Void>> commit) {
        return partitions.withRoom(cfg.partitionRows(), commit);
    }

    private Future<Void> ensure(boolean reshape) {
        // one at a time: a tick that finds the last one still running skips (it would only wait for its lock)
        if (ensuring) return Future.succeededFuture();
        ensuring = true;
        return partitions
                .ensure(cfg.partitionRows(), reshape)
                .onSuccess(n -> {
                    if (n > 0) LOG.info("history: {} partitions created ahead", n);
                })
                .onFailure(e -> LOG.warn("history: cannot create partitions ahead: {}", e.getMessage()))
                .onComplete(ar -> ensuring = false)
                .<Void>mapEmpty()
                .otherwiseEmpty();
    }

    /** One retention round; answers how many partitions it dropped. Package-private for the tests' deterministic runs. */
    Future<Integer> prune() {
        if (pruning || stopped) return Future.succeededFuture(0);
        pruning = true;
        return status.cursors()
                .compose(c -> {
                    long tip = c.getOrDefault(StatusStore.INGEST, 0L);
                    Future<Integer> f = Future.succeededFuture(0);
                    if (cfg.keepBlocks() > 0 && tip > cfg.keepBlocks()) {
                        long below = tip - cfg.keepBlocks();
                        f = f.compose(n ->
                                        partitions.prune(Partitions.TX, below).map(m -> n + m))
                                .compose(n -> partitions
                                        .prune(Partitions.EVM_TX, below)
                                        .map(m -> n + m));
                    }
                    long internal = cfg.internalTxsBound();
                    if (internal > 0 && tip > internal)
                        f = f.compose(n -> partitions
                                .prune(Partitions.INTERNAL_TX, tip - internal)
                                .map(m -> n + m));
                    return f.compose(n -> partitions.pruneEvents().map(m -> n + m));
                })
                .onComplete(ar -> {
                    pruning = false;
                    if (ar.failed())
                        LOG.warn("history: retention failed: {}", ar.cause().getMessage());
                    else if (ar.result() > 0) LOG.info("history: retention dropped {} partitions", ar.result());
                });
    }
}
