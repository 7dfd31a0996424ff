package dev.weft.pipeline;

import dev.weft.store.PositionMovedException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetch ahead, commit in order. The heights the {@link Writer} offers are fetched concurrently within a bounded window
 * (heights, adapted to the node's round trip by {@link AdaptiveWindow} up to a cap, and bytes); fetched items wait in
 * height order ({@link FetchBuffer}) and are committed strictly in order, a run of consecutive ready items per
 * transaction, the next run prepared on a worker while the current one commits. Each commit checks the writer's
 * position first (fencing: a second writer or a stale plan makes it fail without writing), so nothing is skipped or
 * written twice. A failed fetch is retried with capped backoff; a failed commit drops the plan, waits, reads the
 * position again and goes on from it. A commit whose answer was lost and which the store could not resolve is kept
 * aside: if the position read later is where it would have left the database, it went through and is announced then,
 * so every run is announced exactly once. {@link #stop} lets a running commit finish. The numbers (window, run sizes,
 * backoff) and the rules that use them are the {@link PipelinePolicy}'s.
 *
 * <p>Confined to the event loop of the verticle that creates it.
 */
public final class OrderedCommitPipeline<S, T, P, B> {
    private static final Logger LOG = LoggerFactory.getLogger(OrderedCommitPipeline.class);

    /** Where the pipeline is in its life: only a running one plans, fetches and commits. */
    private enum Phase {
        /** Its position not read yet. */
        NEW,
        RUNNING,
        /** After a failed commit or preparation: waiting to read the position again (nothing planned or committed). */
        RECOVERING,
        STOPPED
    }

    /** The question for more targets: one at a time, a wake-up meanwhile asks again after it. */
    private enum Asking {
        NO,
        YES,
        AGAIN
    }

    /** A prepared run: its batch and how many planned targets it covers. */
    private record Run<B>(B batch, int size, long first, long last) {}

    private final Vertx vertx;
    private final String name;
    private final Writer<S, T, P, B> writer;
    private final Measures<S, T, P, B> measures;
    private final PipelinePolicy policy;
    private final PipelineMeters meters;
    private final AdaptiveWindow window;
    private final FetchBuffer<S, T> buffer;
    private final CommitIdle.Clock idle;

    private Phase phase = Phase.NEW;
    private Asking asking = Asking.NO;
    /** Bumped whenever the plan is dropped, so a plan or preparation started before is dropped too. */
    private int epoch;

    /** What the database holds (after the last successful commit). */
    private P committed;

    private long committedHeight;
    private long committedItems;
    /** The position after the run being committed and the prepared one: where the next run starts. */
    private P plannedPosition;

    private long head;
    private Run<B> inflight;
    private Run<B> prepared;
    private boolean preparing;
    /** A run whose commit failed without telling whether it went through (decided when the position is read again). */
    private Run<B> unconfirmed;

    private int commitFailures;
    /** Completed when the running commit has ended, for {@link #stop}. */
    private Promise<Void> quiet;

    private Progress progress;
    private long progressTimer = -1;
    private long lastWindowFullLog;

    /** @param name what the log lines call it ("ingestion", "EVM tracer") */
    public OrderedCommitPipeline(
            Vertx vertx,
            String name,
            Writer<S, T, P, B> writer,
            Measures<S, T, P, B> measures,
            PipelinePolicy policy,
            PipelineMeters meters) {
        this.vertx = vertx;
        this.name = name;
        this.writer = writer;
        this.measures = measures;
        this.policy = policy;
        this.meters = meters;
        this.window = policy.adaptiveWindow();
        this.buffer = new FetchBuffer<>(measures);
        this.idle = new CommitIdle.Clock(meters.idle());
    }

    /** Reads the position and starts; the future holds the position it starts from. */
    public Future<P> start() {
        return writer.position().onSuccess(pos -> {
            reset(pos);
            progress = new Progress(measures.countUnit(), System.nanoTime(), committedHeight, countAt(pos));
            if (phase == Phase.STOPPED) return;
            phase = Phase.RUNNING;
            progressTimer = vertx.setPeriodic(policy.progressInterval().toMillis(), t -> logProgress());
            plan();
        });
    }

    /** New targets may be there (a new head, a block indexed): plans more if the window has room. */
    public void wake() {
        plan();
    }

    /** Stops fetching and committing; completes once a running commit has finished (committed whole or rolled back). */
    public Future<Void> stop() {
        phase = Phase.STOPPED;
        noteWaiting();
        if (progressTimer >= 0) vertx.cancelTimer(progressTimer);
        return commitDone();
    }

    /** The last committed height. */
    public long height() {
        return committedHeight;
    }

    private boolean stopped() {
        return phase == Phase.STOPPED;
    }

    /** Completes when no commit is running. */
    private Future<Void> commitDone() {
        if (inflight == null) return Future.succeededFuture();
        if (quiet == null) quiet = Promise.promise();
        return quiet.future();
    }

    /** Starts planning again from what the database holds, keeping fetched items above it. */
    private void reset(P pos) {
        epoch++;
        committed = pos;
        plannedPosition = pos;
        committedHeight = heightAt(pos);
        buffer.replanAfter(committedHeight);
        prepared = null;
        buffer.release(committedHeight);
        meters.height().set(committedHeight);
        meters.window().set(held());
    }

    private int held() {
        meters.inFlight().set(buffer.inFlight());
        meters.bufferedBytes().set(buffer.readyBytes());
        meters.windowLimit().set(window.limit());
        return buffer.inFlight() + buffer.readyCount();
    }

    // ---- plan and fetch ----

    /** Asks the source for targets to fill the window (one question at a time; a wake-up meanwhile asks again after). */
    private void plan() {
        if (phase != Phase.RUNNING) return;
        if (asking != Asking.NO) {
            asking = Asking.AGAIN;
            return;
        }
        // planned targets count against the window; after a reset, fetched items above the position wait outside the
        // plan until it reaches them again (at most one window more)
        int room = window.limit() - buffer.plannedCount();
        if (room <= 0 || policy.bufferFull(buffer.readyBytes())) {
            reportIfFull();
            logWindowFull();
            return;
        }
        asking = Asking.YES;
        int at = epoch;
        writer.next(buffer.planned(), room).onComplete(ar -> {
            boolean again = asking == Asking.AGAIN;
            asking = Asking.NO;
            if (stopped()) return;
            if (ar.failed()) {
                LOG.warn(
                        "{}: cannot read the heights to fetch: {}",
                        name,
                        ar.cause().getMessage());
            } else if (at == epoch) {
                head = Math.max(head, ar.result().head());
                meters.head().set(head);
                for (S t : ar.result().targets()) {
                    if (buffer.plan(t)) fetch(t, heightOf(t), 1, System.nanoTime());
                }
                // the planner runs after every commit: a window that commits fast is seldom found full otherwise
                reportIfFull();
                meters.window().set(held());
            }
            if (again) plan();
            tryCommit();
        });
    }

    /** Tells the window when it is filled to its limit: then the window, not the source, bounds what is fetched. */
    private void reportIfFull() {
        if (buffer.plannedCount() >= window.limit()) window.full(buffer.inFlight(), writer.requestsQueueing());
    }

    private void fetch(S target, long height, int attempt, long started) {
        buffer.fetchStarted(height);
        writer.fetch(target).onComplete(ar -> {
            if (stopped()) return;
            if (ar.succeeded()) {
                long took = System.nanoTime() - started;
                meters.fetchLatency().record(took, TimeUnit.NANOSECONDS);
                if (attempt == 1) window.fetched(took);
                buffer.fetchEnded(height);
                if (height > committedHeight) buffer.fetched(height, ar.result());
                meters.window().set(held());
                tryCommit();
                return;
            }
            meters.fetchRetries().increment();
            long delay = policy.retry().delayMs(attempt);
            if (attempt == 1 || attempt % 10 == 0) {
                LOG.warn(
                        "{}: height {} not fetched (attempt {}): {}; retrying in {} ms",
                        name,
                        height,
                        attempt,
                        ar.cause().getMessage(),
                        delay);
            }
            vertx.setTimer(delay, t -> {
                if (stopped()) return;
                buffer.fetchEnded(height);
                if (height > committedHeight) fetch(target, height, attempt + 1, started);
                else plan();
            });
        });
    }

    private void logWindowFull() {
        long now = System.currentTimeMillis();
        if (now - lastWindowFullLog < policy.progressInterval().toMillis()
                || buffer.readyCount() < Math.max(1, window.limit() / 2)) return;
        lastWindowFullLog = now;
        LOG.info(
                "{}: fetch window full ({} heights): {} fetched heights (~{} KiB) wait for height {} ({} in flight{}); fetching pauses",
                name,
                window.limit(),
                buffer.readyCount(),
                buffer.readyBytes() / 1024,
                buffer.nextHeight(committedHeight),
                buffer.inFlight(),
                inflight != null ? ", a commit running" : "");
    }

    // ---- commit: prepare the next run on a worker while the current one is committed ----

    private void tryCommit() {
        if (phase == Phase.RUNNING) {
            if (inflight == null && prepared != null) {
                Run<B> r = prepared;
                prepared = null;
                send(r);
            }
            if (prepared == null && !preparing) prepareNext();
        }
        noteWaiting();
    }

    /** What the commit loop waits for from now on (nothing while a commit runs), for the idle-time counters. */
    private void noteWaiting() {
        CommitIdle.Waiting w = inflight != null || stopped()
                ? null
                : phase == Phase.RECOVERING
                        ? CommitIdle.Waiting.RETRY
                        : preparing
                                ? CommitIdle.Waiting.PREPARE
                                : committedHeight >= head ? CommitIdle.Waiting.HEAD : CommitIdle.Waiting.FETCH;
        idle.note(System.nanoTime(), w);
    }

    private void prepareNext() {
        FetchBuffer.Run<T> next = buffer.nextRun(policy, window.limit());
        List<T> run = next.items();
        if (run.isEmpty()
                || policy.holdBack(
                        run.size(),
                        next.weight(),
                        head - committedHeight,
                        buffer.moreAfter(run.size()),
                        window.limit())) return;
        preparing = true;
        int at = epoch;
        P before = plannedPosition;
        Future<B> batch;
        try {
            batch = writer.prepare(run, before);
        } catch (RuntimeException e) {
            batch = Future.failedFuture(e);
        }
        batch.onComplete(ar -> {
            preparing = false;
            if (stopped()) return;
            if (at != epoch) {
                tryCommit();
                return;
            }
            if (ar.failed()) {
                failed("preparing heights " + next.first() + ".." + next.last(), ar.cause());
                return;
            }
            prepared = new Run<>(ar.result(), run.size(), next.first(), next.last());
            buffer.batched(run.size());
            plannedPosition = measures.after().apply(ar.result());
            tryCommit();
        });
    }

    private void send(Run<B> r) {
        inflight = r;
        // the commit runs from here (the next run's preparation, begun in the same turn, is not idle time)
        noteWaiting();
        long started = System.nanoTime();
        writer.commit(r.batch()).onComplete(ar -> {
            inflight = null;
            if (ar.succeeded()) {
                commitFailures = 0;
                meters.commitLatency().record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
                committed = measures.after().apply(r.batch());
                committedHeight = heightAt(committed);
                // from the new position: waiting at the head is the chain's time, not the node's
                noteWaiting();
                meters.height().set(committedHeight);
                buffer.committed(r.size());
                committedItems += r.size();
                window.committed(System.nanoTime(), committedItems);
                buffer.release(committedHeight);
                writer.committed(r.batch());
                meters.window().set(held());
            } else {
                noteWaiting();
                if (!(ar.cause() instanceof PositionMovedException)) unconfirmed = r;
            }
            if (quiet != null) {
                quiet.tryComplete();
                quiet = null;
            }
            if (stopped()) return;
            if (ar.failed()) {
                failed("commit of heights " + r.first() + ".." + r.last(), ar.cause());
                return;
            }
            plan();
            tryCommit();
        });
    }

    /** A commit or preparation failed: drop the plan, wait, re-read the position from the database and go on from it. */
    private void failed(String what, Throwable cause) {
        commitFailures++;
        meters.commitRetries().increment();
        epoch++;
        prepared = null;
        if (phase == Phase.RECOVERING) {
            // one recovery at a time: the one on its way reads the position once the running commit has ended. A second
            // one could read the position before a commit that the first let run, and its reset to that older position
            // would re-plan heights already written (a re-sent run that then failed unconfirmed would be announced
            // twice)
            LOG.warn(
                    "{}: {} failed (attempt {}): {}; the position is being read again",
                    name,
                    what,
                    commitFailures,
                    cause.getMessage());
            return;
        }
        phase = Phase.RECOVERING;
        noteWaiting();
        long delay = policy.retry().delayMs(commitFailures, cause);
        LOG.warn(
                "{}: {} failed (attempt {}): {}; re-reading the position in {} ms",
                name,
                what,
                commitFailures,
                cause.getMessage(),
                delay);
        vertx.setTimer(Math.max(1, delay), t -> {
            if (stopped()) return;
            // a commit still running decides the position first
            commitDone().onComplete(x -> {
                if (!stopped())
                    writer.position().onComplete(ar -> recovered(ar.succeeded() ? ar.result() : null, ar.cause()));
            });
        });
    }

    private void recovered(P pos, Throwable cause) {
        if (stopped()) return;
        phase = Phase.RUNNING;
        noteWaiting();
        if (pos == null) {
            failed("reading the position", cause);
            return;
        }
        if (unconfirmed != null && measures.after().apply(unconfirmed.batch()).equals(pos)) {
            // the commit went through after all (its answer lost while the database could not be asked): announce it
            writer.committed(unconfirmed.batch());
        }
        unconfirmed = null;
        reset(pos);
        plan();
    }

    private void logProgress() {
        if (stopped()) return;
        if (!buffer.nothingPlanned() && head - committedHeight > 1) {
            LOG.info(
                    "{}: {} window {}",
                    name,
                    progress.line(System.nanoTime(), committedHeight, head, countAt(committed)),
                    window.limit());
        } else {
            progress.reset(System.nanoTime(), committedHeight, countAt(committed));
        }
    }

    private long heightOf(S target) {
        return measures.targetHeight().applyAsLong(target);
    }

    private long heightAt(P position) {
        return measures.height().applyAsLong(position);
    }

    private long countAt(P position) {
        return measures.count().applyAsLong(position);
    }
}
