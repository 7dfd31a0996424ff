package dev.weft.cluster;

import dev.weft.config.ConfigException;
import dev.weft.runtime.NodeContext;
import dev.weft.runtime.StartsAfterDeploy;
import dev.weft.runtime.VerticleKind;
import dev.weft.store.LeaseStore;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a single-writer kind (ingestion, EVM tracer, rich list, tracker poller) only while this node holds the
 * cluster-wide lease of that kind and chain. Otherwise it stands by and retries every
 * {@code cluster.standby_poll}; on taking over, the wrapped verticle resumes from its database cursor. Losing the lease
 * undeploys the wrapped verticle at once.
 *
 * <p>For a kind that reads a chain (ingest, EVM tracer, rich list), {@code start()} completes at once and the first
 * attempt runs after it: a chain whose node accepts connections but never answers then holds back neither the node's
 * start-up nor the roles deployed after it (the API). A wrapped verticle that finds a setting wrong once its node
 * answered ({@link StartsAfterDeploy}) stops this writer for good ({@link #failure()}), as a start-up error would.
 */
public final class SingleWriterVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(SingleWriterVerticle.class);

    private final VerticleKind kind;
    private final NodeContext ctx;
    private final long pollMs;
    private WriterLease lease;
    private LeaseStore leases;
    private boolean perChain;
    private long balanceTimer = -1;
    private LeaseMetrics metrics;
    private String childId;
    private boolean stopping;
    private volatile int attempts;
    private int startFailures;
    /** Why this writer stopped for good (a setting found wrong), or null. */
    private volatile String failure;

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
        lease = new WriterLease(vertx, ctx.dbOptions(), leaseName(kind, ctx), ctx.nodeId());
        leases = new LeaseStore(ctx.pool());
        perChain = ctx.config().chains().byId().size() > 1 && kind.role().perChain();
        lease.onLost(this::lost);
        metrics = LeaseMetrics.of(kind.name(), ctx.config().chain().chainId());
        if (!kind.role().perChain()) return attempt();
        attempt().onFailure(this::failed);
        return Future.succeededFuture();
    }

    /** Why this writer stopped for good (a setting its chain's node showed wrong), or null while it runs or stands by. */
    public String failure() {
        return failure;
    }

    /** A later attempt (after a standby poll): its wrong setting stops the writer as the first one's does. */
    private void again() {
        attempt().onFailure(this::failed);
    }

    /**
     * A setting found wrong after start-up: the writer stops for good (retrying would fail the same way) and frees its
     * lease for a node set right; what a start-up error would have said is in the log and {@link #failure()}.
     */
    private void failed(Throwable e) {
        if (failure != null) return;
        failure = e.getMessage();
        LOG.error("{} of {} stopped: {}", kind.name(), ctx.config().chain().chainId(), e.getMessage());
        metrics.held.set(0);
        String id = childId;
        childId = null;
        stopping = true;
        if (balanceTimer >= 0) vertx.cancelTimer(balanceTimer);
        Future<Void> undeployed =
                id == null ? Future.succeededFuture() : vertx.undeploy(id).recover(x -> Future.succeededFuture());
        undeployed.onComplete(x -> lease.release());
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

    /** The view of every lease of this kind, when it has one per chain and several chains are configured. */
    private Future<LeaseBalance> balance() {
        if (!perChain) return Future.succeededFuture(null);
        Set<Long> keys = new HashSet<>();
        for (String chain : ctx.config().chains().byId().keySet())
            keys.add(WriterLease.keyOf(kind.name() + "." + chain));
        Future<String> preferred =
                leases.preferred(ctx.config().chain().chainId()).recover(e -> Future.succeededFuture(null));
        return Future.all(leases.connections(), preferred)
                .map(x -> new LeaseBalance(
                        ctx.nodeId(), lease.name(), lease.key(), keys, x.resultAt(0), preferred.result()))
                .recover(e -> Future.succeededFuture(null));
    }

    private Future<Void> attempt() {
        if (stopping) return Future.succeededFuture();
        attempts++;
        return lease.standBy()
                .compose(v -> balance())
                .compose(b -> b == null || b.mayTake() ? lease.tryAcquire() : Future.succeededFuture(false))
                .compose(this::afterAttempt);
    }

    /** While held, the lease is given to a less loaded node when the balance says so (then this node stands by). */
    private void checkBalance() {
        if (stopping || childId == null) return;
        balance().onSuccess(b -> {
            if (b != null && childId != null && !stopping && b.shouldHandOver()) {
                LOG.info("node {} hands the {} lease to a node holding fewer", ctx.nodeId(), lease.name());
                handOver();
            } else if (!stopping) {
                balanceTimer = vertx.setTimer(pollMs, t -> checkBalance());
            }
        });
    }

    private void handOver() {
        String id = childId;
        childId = null;
        metrics.held.set(0);
        Future<Void> undeployed =
                id == null ? Future.succeededFuture() : vertx.undeploy(id).recover(e -> Future.succeededFuture());
        // the freed lease goes to the waiting node at its next poll; this one waits two polls before trying again
        undeployed.compose(v -> lease.release()).onComplete(x -> vertx.setTimer(2 * pollMs, t -> again()));
    }

    private Future<Void> afterAttempt(boolean acquired) {
        return Future.succeededFuture(acquired).compose(held -> {
            // stopped while the attempt ran (its first one runs after start() completed)
            if (stopping) return held ? lease.release() : Future.succeededFuture();
            if (!held) {
                vertx.setTimer(pollMs, id -> again());
                return Future.succeededFuture();
            }
            LOG.info("node {} holds the {} lease: running {}", ctx.nodeId(), lease.name(), kind.name());
            io.vertx.core.Deployable child = kind.factory().apply(ctx);
            return vertx.deployVerticle(child, new io.vertx.core.DeploymentOptions())
                    .map(id -> {
                        childId = id;
                        startFailures = 0;
                        metrics.acquired.increment();
                        metrics.held.set(1);
                        if (stopping) vertx.undeploy(id);
                        else if (perChain) balanceTimer = vertx.setTimer(pollMs, t -> checkBalance());
                        if (child instanceof StartsAfterDeploy late)
                            late.begun().onFailure(e -> {
                                if (e instanceof ConfigException && id.equals(childId)) failed(e);
                            });
                        return (Void) null;
                    })
                    .recover(e -> {
                        if (e instanceof ConfigException) {
                            // a wrong setting does not heal by retrying: a start-up error (and the lease is free for a
                            // node set right)
                            LOG.error("{} cannot start: {}", kind.name(), e.getMessage());
                            return lease.release().transform(x -> Future.failedFuture(e));
                        }
                        // a chain whose node is down fails here every standby poll: its stack trace once, then a line
                        if (startFailures++ == 0)
                            LOG.error("{} failed to start while holding the lease; releasing it", kind.name(), e);
                        else
                            LOG.warn(
                                    "{} failed to start again ({} times in a row) while holding the lease; releasing it: {}",
                                    kind.name(),
                                    startFailures,
                                    e.getMessage());
                        return lease.release().onComplete(x -> vertx.setTimer(pollMs, id -> again()));
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
        undeployed.onComplete(x -> vertx.setTimer(pollMs, t -> again()));
    }

    @Override
    public Future<?> stop() {
        stopping = true;
        if (balanceTimer >= 0) vertx.cancelTimer(balanceTimer);
        if (metrics != null) metrics.held.set(0);
        String id = childId;
        childId = null;
        Future<Void> undeployed =
                id == null ? Future.succeededFuture() : vertx.undeploy(id).recover(e -> Future.succeededFuture());
        return undeployed.compose(v -> lease.release());
    }
}
