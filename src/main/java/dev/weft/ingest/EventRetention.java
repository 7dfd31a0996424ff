package dev.weft.ingest;

import dev.weft.config.EventsConfig;
import dev.weft.store.EventStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prunes the event log in the background (run by the ingest writer, so by one node of a cluster): every
 * {@code events.prune_interval}, bounded steps of {@link EventStore#pruneStep} (at most {@code events.prune_batch} rows
 * each, a range on the primary key) until nothing is left to prune or {@value #STEPS_PER_TICK} steps have run. Never on a
 * writer's commit path; a failed step is logged and tried again at the next tick.
 */
final class EventRetention {
    private static final Logger LOG = LoggerFactory.getLogger(EventRetention.class);
    static final int STEPS_PER_TICK = 20;

    private final Vertx vertx;
    private final EventStore events;
    private final EventsConfig cfg;
    private long timer = -1;
    private boolean running;
    private boolean stopped;

    EventRetention(Vertx vertx, EventStore events, EventsConfig cfg) {
        this.vertx = vertx;
        this.events = events;
        this.cfg = cfg;
    }

    void start() {
        timer = vertx.setPeriodic(cfg.pruneInterval().toMillis(), id -> tick());
    }

    void stop() {
        stopped = true;
        if (timer >= 0) vertx.cancelTimer(timer);
    }

    private void tick() {
        if (running || stopped) return;
        running = true;
        steps(0).onComplete(ar -> {
            running = false;
            if (ar.failed()) LOG.warn("event log pruning failed: {}", ar.cause().getMessage());
            else if (ar.result() > 0) LOG.debug("event log: {} old events pruned", ar.result());
        });
    }

    private Future<Long> steps(int done) {
        if (stopped || done >= STEPS_PER_TICK) return Future.succeededFuture(0L);
        return events.pruneStep(cfg.retentionCount(), cfg.retentionAge(), cfg.pruneBatch())
                .compose(n ->
                        n == 0 ? Future.succeededFuture(0L) : steps(done + 1).map(rest -> rest + n));
    }
}
