package dev.weft.pipeline;

import dev.weft.store.PositionMovedException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetch ahead, commit in order. The heights the {@link Writer} offers are fetched concurrently within a bounded window
 * (heights, adapted to the node's round trip by {@link AdaptiveWindow} up to a cap, and bytes); fetched items wait in
 * height order and are committed strictly in order, a run of consecutive ready items per transaction, the next run prepared on a worker while the current one commits. Each commit checks the
 * writer's position first (fencing: a second writer or a stale plan makes it fail without writing), so nothing is
 * skipped or written twice. A failed fetch is retried with capped backoff; a failed commit drops the plan, waits, reads
 * the position again and goes on from it. A commit whose answer was lost and which the store could not resolve is kept
 * aside: if the position read later is where it would have left the database, it went through and is announced then,
 * so every run is announced exactly once. {@link #stop} lets a running commit finish.
 *
 * <p>Confined to the event loop of the verticle that creates it.
 */
public final class OrderedCommitPipeline<S, T, P, B> {
    private static final Logger LOG = LoggerFactory.getLogger(OrderedCommitPipeline.class);

    /** A prepared run: its batch and how many planned targets it covers. */
    private record Run<B>(B batch, int size, long first, long last) {}

    private final Vertx vertx;
    private final Writer<S, T, P, B> writer;
    private final Measures<S, T, P, B> measures;
    private final String name;
    private final PipelinePolicy policy;
    private final PipelineMeters meters;
    private final AdaptiveWindow window;
    private long committedItems;

    /** What the database holds (after the last successful commit). */
    private P committed;

    private long committedHeight;
    /** The position after the run being committed and the prepared one: where the next run starts. */
    private P plannedPosition;
    /** The highest height planned (or committed). */
    private long planned;
    /** Planned targets not committed yet, in order; the first {@link #batched} of them are in a prepared or running run. */
    private final ArrayDeque<S> order = new ArrayDeque<>();

    private int batched;
    private final TreeMap<Long, T> ready = new TreeMap<>();
    private long readyBytes;
    private final Set<Long> fetching = new HashSet<>();
    private long head;
    private boolean planning;
    private boolean replan;
    private Run<B> inflight;
    private Run<B> prepared;
    /** A run whose commit failed without telling whether it went through (decided when the position is read again). */
    private Run<B> unconfirmed;

    private boolean preparing;
    private boolean recovering;
    /** Bumped whenever the plan is reset, so a plan or preparation started before is dropped. */
    private int epoch;

    private int commitFailures;
    private boolean stopped;
    private Promise<Void> quiet;
    private Progress progress;
    private long progressTimer = -1;
    private long lastWindowFullLog;
    private final CommitIdle.Clock idle;

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
        this.idle = new CommitIdle.Clock(meters.idle());
    }

    /** Reads the position and starts; the future holds the position it starts from. */
    public Future<P> start() {
        return writer.position().onSuccess(pos -> {
            reset(pos);
            progress = new Progress(measures.countUnit(), System.nanoTime(), committedHeight, countAt(pos));
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
        stopped = true;
        noteWaiting();
        if (progressTimer >= 0) vertx.cancelTimer(progressTimer);
        return commitDone();
    }

    /** The last committed height. */
    public long height() {
        return committedHeight;
    }

    public long head() {
        return head;
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
        planned = heightAt(pos);
        order.clear();
        batched = 0;
        prepared = null;
        release(committedHeight);
        meters.height().set(committedHeight);
        meters.window().set(held());
    }

    private int held() {
        meters.inFlight().set(fetching.size());
        meters.bufferedBytes().set(readyBytes);
        meters.windowLimit().set(window.limit());
        return fetching.size() + ready.size();
    }

    // ---- plan and fetch ----

    /** Asks the source for targets to fill the window (one question at a time; a wake-up meanwhile asks again after). */
    private void plan() {
        if (stopped || recovering || progress == null) return;
        if (planning) {
            replan = true;
            return;
        }
        // planned targets count against the window; after a reset, fetched items above the position wait outside the
        // plan
        // until it reaches them again (at most one window more)
        int room = window.limit() - order.size();
        if (room <= 0 || policy.bufferFull(readyBytes)) {
            reportIfFull();
            logWindowFull();
            return;
        }
        planning = true;
        int at = epoch;
        writer.next(planned, room).onComplete(ar -> {
            planning = false;
            if (stopped) return;
            if (ar.failed()) {
                LOG.warn(
                        "{}: cannot read the heights to fetch: {}",
                        name,
                        ar.cause().getMessage());
            } else if (at == epoch) {
                head = Math.max(head, ar.result().head());
                meters.head().set(head);
                for (S t : ar.result().targets()) {
                    long h = heightOf(t);
                    if (h <= planned) continue;
                    order.add(t);
                    planned = h;
                    if (!ready.containsKey(h) && !fetching.contains(h)) fetch(t, h, 1, System.nanoTime());
                }
                // the planner runs after every commit, so a window that commits fast would otherwise seldom be found
                // full
                reportIfFull();
                meters.window().set(held());
            }
            if (replan) {
                replan = false;
                plan();
            }
            tryCommit();
        });
    }

    /** Tells the window when it is filled to its limit: then the window, not the source, bounds what is fetched. */
    private void reportIfFull() {
        if (order.size() >= window.limit()) window.full(fetching.size(), writer.requestsQueueing());
    }

    private void fetch(S target, long height, int attempt, long started) {
        fetching.add(height);
        writer.fetch(target).onComplete(ar -> {
            if (stopped) return;
            if (ar.succeeded()) {
                long took = System.nanoTime() - started;
                meters.fetchLatency().record(took, TimeUnit.NANOSECONDS);
                if (attempt == 1) window.fetched(took);
                fetching.remove(height);
                if (height > committedHeight) {
                    T old = ready.put(height, ar.result());
                    readyBytes += bytesOf(ar.result()) - (old == null ? 0 : bytesOf(old));
                }
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
                if (stopped) return;
                fetching.remove(height);
                if (height > committedHeight) fetch(target, height, attempt + 1, started);
                else plan();
            });
        });
    }

    /** Drops the held items up to a height (committed). */
    private void release(long upTo) {
        var done = ready.headMap(upTo + 1);
        for (T item : done.values()) readyBytes -= bytesOf(item);
        done.clear();
    }

    private void logWindowFull() {
        long now = System.currentTimeMillis();
        if (now - lastWindowFullLog < policy.progressInterval().toMillis()
                || ready.size() < Math.max(1, window.limit() / 2)) return;
        lastWindowFullLog = now;
        LOG.info(
                "{}: fetch window full ({} heights): {} fetched heights (~{} KiB) wait for height {} ({} in flight{}); fetching pauses",
                name,
                window.limit(),
                ready.size(),
                readyBytes / 1024,
                order.isEmpty() ? committedHeight + 1 : heightOf(order.peekFirst()),
                fetching.size(),
                inflight != null ? ", a commit running" : "");
    }

    // ---- commit: prepare the next run on a worker while the current one is committed ----

    private void tryCommit() {
        if (!stopped && !recovering) {
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
        CommitIdle.Waiting w = inflight != null || stopped
                ? null
                : recovering
                        ? CommitIdle.Waiting.RETRY
                        : preparing
                                ? CommitIdle.Waiting.PREPARE
                                : committedHeight >= head ? CommitIdle.Waiting.HEAD : CommitIdle.Waiting.FETCH;
        idle.note(System.nanoTime(), w);
    }

    private void prepareNext() {
        List<T> run = new ArrayList<>();
        long weight = 0;
        long first = 0;
        long last = 0;
        int skip = batched;
        for (S t : order) {
            if (skip-- > 0) continue;
            T item = ready.get(heightOf(t));
            if (item == null) break;
            long w = measures.weight().applyAsLong(item);
            if (policy.runCloses(run.size(), weight, w, window.limit())) break;
            if (run.isEmpty()) first = heightOf(t);
            last = heightOf(t);
            run.add(item);
            weight += w;
        }
        boolean moreComing = order.size() > batched + run.size();
        if (run.isEmpty() || policy.holdBack(run.size(), weight, head - committedHeight, moreComing, window.limit()))
            return;
        preparing = true;
        int at = epoch;
        P before = plannedPosition;
        long from = first;
        long to = last;
        Future<B> batch;
        try {
            batch = writer.prepare(run, before);
        } catch (RuntimeException e) {
            batch = Future.failedFuture(e);
        }
        batch.onComplete(ar -> {
            preparing = false;
            if (stopped) return;
            if (at != epoch) {
                tryCommit();
                return;
            }
            if (ar.failed()) {
                failed("preparing heights " + from + ".." + to, ar.cause());
                return;
            }
            prepared = new Run<>(ar.result(), run.size(), from, to);
            batched += run.size();
            plannedPosition = measures.after().apply(ar.result());
            tryCommit();
        });
    }

    private void send(Run<B> r) {
        inflight = r;
        noteWaiting(); // the commit runs from here (the next run's preparation, begun in the same turn, is not idle
        // time)
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
                for (int i = 0; i < r.size(); i++) order.removeFirst();
                batched -= r.size();
                committedItems += r.size();
                window.committed(System.nanoTime(), committedItems);
                release(committedHeight);
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
            if (stopped) return;
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
        if (recovering) {
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
        recovering = true;
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
            if (stopped) return;
            // a commit still running decides the position first
            commitDone().onComplete(x -> {
                if (!stopped)
                    writer.position().onComplete(ar -> recovered(ar.succeeded() ? ar.result() : null, ar.cause()));
            });
        });
    }

    private void recovered(P pos, Throwable cause) {
        if (stopped) return;
        recovering = false;
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

    private long heightOf(S target) {
        return measures.targetHeight().applyAsLong(target);
    }

    private long heightAt(P position) {
        return measures.height().applyAsLong(position);
    }

    private long bytesOf(T item) {
        return measures.bytes().applyAsLong(item);
    }

    private long countAt(P position) {
        return measures.count().applyAsLong(position);
    }

    private void logProgress() {
        if (stopped) return;
        P pos = committed;
        if (!order.isEmpty() && head - committedHeight > 1) {
            LOG.info(
                    "{}: {} window {}",
                    name,
                    progress.line(System.nanoTime(), committedHeight, head, countAt(pos)),
                    window.limit());
        } else {
            progress.reset(System.nanoTime(), committedHeight, countAt(pos));
        }
    }
}
