package dev.weft.cluster;

import dev.weft.runtime.NodeContext;
import dev.weft.runtime.VerticleKind;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a single-writer kind (ingestion, EVM tracer, rich list, tracker poller) only while this node holds the
 * cluster-wide lease of that kind and chain. Otherwise it stands by and retries every
 * {@code cluster.standby_poll}; on taking over, the wrapped verticle resumes from its database cursor. Losing the lease
 * undeploys the wrapped verticle at once.
 */
public final class SingleWriterVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(SingleWriterVerticle.class);

    private final VerticleKind kind;
    private final NodeContext ctx;
    private final long pollMs;
    private WriterLease lease;
    private LeaseMetrics metrics;
    private String childId;
    private boolean stopping;
    private volatile int attempts;

    public SingleWriterVerticle(VerticleKind kind, NodeContext ctx, long pollMs) {
        this.kind = kind;
        this.ctx = ctx;
        this.pollMs = pollMs;
    }

    public static String leaseName(VerticleKind kind, NodeContext ctx) {
        return kind.name() + "." + ctx.config().chain().chainId();
    }

    @Override
    public Future<?> start() {
        lease = new WriterLease(vertx, ctx.dbOptions(), leaseName(kind, ctx));
        lease.onLost(this::lost);
        metrics = LeaseMetrics.of(kind.name(), ctx.config().chain().chainId());
        return attempt();
    }

    /** Whether this instance currently runs the wrapped verticle. */
    public boolean active() {
        return childId != null;
    }

    /** How many times this instance has tried to take the lease (a standby keeps trying every poll). */
    public int attempts() {
        return attempts;
    }

    public VerticleKind kind() {
        return kind;
    }

    private Future<Void> attempt() {
        if (stopping) return Future.succeededFuture();
        attempts++;
        return lease.tryAcquire().compose(held -> {
            if (!held) {
                vertx.setTimer(pollMs, id -> attempt());
                return Future.succeededFuture();
            }
            LOG.info("node {} holds the {} lease: running {}", ctx.nodeId(), lease.name(), kind.name());
            return vertx.deployVerticle(() -> kind.factory().apply(ctx), new io.vertx.core.DeploymentOptions())
                    .map(id -> {
                        childId = id;
                        metrics.acquired.increment();
                        metrics.held.set(1);
                        if (stopping) vertx.undeploy(id);
                        return (Void) null;
                    })
                    .recover(e -> {
                        if (e instanceof dev.weft.config.ConfigException) {
                            // a wrong setting does not heal by retrying: a start-up error (and the lease is free for a
                            // node set right)
                            LOG.error("{} cannot start: {}", kind.name(), e.getMessage());
                            return lease.release().transform(x -> Future.failedFuture(e));
                        }
                        LOG.error("{} failed to start while holding the lease; releasing it", kind.name(), e);
                        return lease.release().onComplete(x -> vertx.setTimer(pollMs, id -> attempt()));
                    });
        });
    }

    private void lost() {
        LOG.warn("node {} lost the {} lease: stopping {}", ctx.nodeId(), lease.name(), kind.name());
        if (childId != null) metrics.lost.increment();
        metrics.held.set(0);
        String id = childId;
        childId = null;
        Future<Void> undeployed =
                id == null ? Future.succeededFuture() : vertx.undeploy(id).recover(e -> Future.succeededFuture());
        undeployed.onComplete(x -> vertx.setTimer(pollMs, t -> attempt()));
    }

    @Override
    public Future<?> stop() {
        stopping = true;
        if (metrics != null) metrics.held.set(0);
        String id = childId;
        childId = null;
        Future<Void> undeployed =
                id == null ? Future.succeededFuture() : vertx.undeploy(id).recover(e -> Future.succeededFuture());
        return undeployed.compose(v -> lease.release());
    }
}
