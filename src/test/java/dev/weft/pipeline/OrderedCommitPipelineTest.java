package dev.weft.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.store.PositionMovedException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The ordered-commit pipeline against a fake source and an in-memory store that fences on its position like the real
 * ones: out-of-order fetch completion, fetch retries, commits that fail, commits whose answer is lost, a second writer,
 * and the drain on stop. Each test checks what the store holds and what was announced, height by height.
 */
@ExtendWith(VertxExtension.class)
class OrderedCommitPipelineTest {
    static final int WINDOW = 6;

    /** The store's position: the last height written and how many items (the weight) were written so far. */
    record Pos(long height, long count) {}

    record Batch(List<Long> heights, Pos before, Pos after) {}

    /** An in-memory writer with a position check, and a source of heights 1..last, those {@code exists} accepts. */
    static final class Fake implements Writer<Long, Long, Pos, Batch> {
        final long last;
        final LongPredicate exists;
        Pos db = new Pos(0, 0);
        final List<Long> written = new ArrayList<>();
        final List<Long> announced = new ArrayList<>();
        final List<Integer> runSizes = new ArrayList<>();
        final List<Long> runFirsts = new ArrayList<>();
        final Map<Long, Integer> attempts = new HashMap<>();
        /** Heights whose first fetch fails. */
        LongPredicate failFirstFetch = h -> false;
        /** Heights whose first preparation fails (the dictionary ids cannot be read). */
        LongPredicate failPrepare = h -> false;

        final java.util.Set<Long> failedPrepares = new java.util.HashSet<>();
        /** Commit number → what happens to it. */
        final Map<Integer, String> commitFault = new HashMap<>();

        int commits;
        int inFlightFetches;
        int maxInFlightFetches;
        Promise<Void> held;
        Promise<Void> reachedLast = Promise.promise();
        /** How long the announcement of the last height takes after it has been announced (a stage's slow hook). */
        long lastAnnouncementNanos;

        final Promise<Void> heldCommitStarted = Promise.promise();
        final long lastExisting;
        Vertx vertx;

        Fake(long last, LongPredicate exists) {
            this.last = last;
            this.exists = exists;
            this.lastExisting =
                    LongStream.rangeClosed(1, last).filter(exists).max().orElse(0);
        }

        @Override
        public Future<Targets<Long>> next(long after, int max) {
            List<Long> out = new ArrayList<>();
            for (long h = after + 1; h <= last && out.size() < max; h++) if (exists.test(h)) out.add(h);
            return Future.succeededFuture(new Targets<>(out, last));
        }

        @Override
        public Future<Long> fetch(Long h) {
            int attempt = attempts.merge(h, 1, Integer::sum);
            inFlightFetches++;
            maxInFlightFetches = Math.max(maxInFlightFetches, inFlightFetches);
            // later heights of a window answer first
            Promise<Long> p = Promise.promise();
            vertx.setTimer(1 + (WINDOW - h % WINDOW) * 2, t -> {
                inFlightFetches--;
                if (attempt == 1 && failFirstFetch.test(h)) p.fail("node unavailable");
                else p.complete(h);
            });
            return p.future();
        }

        @Override
        public Future<Pos> position() {
            return Future.succeededFuture(db);
        }

        @Override
        public Future<Batch> prepare(List<Long> run, Pos before) {
            for (long h : run) {
                if (failPrepare.test(h) && failedPrepares.add(h))
                    return Future.failedFuture("dictionary ids not read: database unreachable");
            }
            return Future.succeededFuture(
                    new Batch(List.copyOf(run), before, new Pos(run.get(run.size() - 1), before.count() + run.size())));
        }

        @Override
        public Future<Void> commit(Batch b) {
            int n = ++commits;
            String fault = commitFault.getOrDefault(n, "");
            if (fault.equals("other writer")) {
                // another writer commits the next two heights first: this commit is fenced off
                long from = db.height() + 1;
                written.add(from);
                written.add(from + 1);
                db = new Pos(from + 1, db.count() + 2);
            }
            if (!db.equals(b.before()))
                return Future.failedFuture(new PositionMovedException("at " + db + ", not " + b.before()));
            if (fault.equals("fails")) return Future.failedFuture("connection reset (rolled back)");
            Future<Void> done = Future.succeededFuture();
            if (fault.equals("held")) {
                heldCommitStarted.complete();
                done = held.future();
            }
            return done.compose(v -> {
                written.addAll(b.heights());
                runSizes.add(b.heights().size());
                runFirsts.add(b.heights().get(0));
                db = b.after();
                // the answer of a commit that went through is lost
                return fault.equals("lost")
                        ? Future.failedFuture("connection closed after COMMIT")
                        : Future.succeededFuture();
            });
        }

        @Override
        public void committed(Batch b) {
            announced.addAll(b.heights());
            if (db.height() >= lastExisting && reachedLast.tryComplete()) {
                for (long end = System.nanoTime() + lastAnnouncementNanos; System.nanoTime() < end; )
                    Thread.onSpinWait();
            }
        }
    }

    static OrderedCommitPipeline<Long, Long, Pos, Batch> pipeline(Vertx vertx, Fake fake) {
        return pipeline(vertx, fake, WINDOW, 4, 3);
    }

    static OrderedCommitPipeline<Long, Long, Pos, Batch> pipeline(
            Vertx vertx, Fake fake, int window, int commitItems, long commitWeight) {
        return pipeline(vertx, fake, window, commitItems, commitWeight, meters());
    }

    static PipelineMeters meters() {
        MeterRegistry r = new SimpleMeterRegistry();
        return new PipelineMeters(
                new AtomicLong(),
                new AtomicLong(),
                new AtomicLong(),
                Timer.builder("f").register(r),
                Counter.builder("fr").register(r),
                Timer.builder("c").register(r),
                Counter.builder("cr").register(r));
    }

    static OrderedCommitPipeline<Long, Long, Pos, Batch> pipeline(
            Vertx vertx, Fake fake, int window, int commitItems, long commitWeight, PipelineMeters meters) {
        return pipeline(vertx, fake, window, window, commitItems, commitWeight, meters);
    }

    /** A window that starts at {@code window} and adapts up to {@code windowMax}. */
    static OrderedCommitPipeline<Long, Long, Pos, Batch> pipeline(
            Vertx vertx,
            Fake fake,
            int window,
            int windowMax,
            int commitItems,
            long commitWeight,
            PipelineMeters meters) {
        fake.vertx = vertx;
        return new OrderedCommitPipeline<>(
                vertx,
                "test",
                fake,
                new Measures<>(h -> h, item -> 100, item -> 1, Pos::height, Pos::count, "items", Batch::after),
                new PipelinePolicy(
                        window,
                        window,
                        windowMax,
                        1 << 20,
                        commitItems,
                        commitWeight,
                        new RetryPolicy(Duration.ofMillis(1), Duration.ofMillis(5)),
                        Duration.ofHours(1)),
                meters);
    }

    static List<Long> heights(long last, LongPredicate exists) {
        return LongStream.rangeClosed(1, last).filter(exists).boxed().collect(Collectors.toList());
    }

    @Test
    void fetchesOutOfOrderAndRetriedCommitInOrderWithinTheWindow(Vertx vertx, VertxTestContext test) {
        LongPredicate sparse = h -> h % 5 != 0;
        Fake fake = new Fake(60, sparse);
        fake.failFirstFetch = h -> h % 7 == 0;
        Context ctx = vertx.getOrCreateContext();
        ctx.runOnContext(v -> {
            var p = pipeline(vertx, fake);
            p.start()
                    .compose(x -> fake.reachedLast.future())
                    .compose(x -> p.stop())
                    .onComplete(test.succeeding(x -> test.verify(() -> {
                        assertEquals(heights(60, sparse), fake.written, "every height once, in order");
                        assertEquals(fake.written, fake.announced);
                        assertEquals(new Pos(59, 48), fake.db);
                        assertTrue(
                                fake.maxInFlightFetches <= WINDOW,
                                "at most the window in flight: " + fake.maxInFlightFetches);
                        assertTrue(
                                fake.runSizes.stream().allMatch(n -> n <= 3),
                                "runs within the weight limit: " + fake.runSizes);
                        assertEquals(2, fake.attempts.get(7L));
                        assertEquals(1, fake.attempts.get(8L));
                        assertEquals(59, p.height());
                        test.completeNow();
                    })));
        });
    }

    @Test
    void aWindowFullOfFetchesRampsWithinItsCap(Vertx vertx, VertxTestContext test) {
        LongPredicate all = h -> true;
        Fake fake = new Fake(3_000, all);
        vertx.getOrCreateContext().runOnContext(v -> {
            // fetches of 3–13 ms (timers) and instant commits: the window of 4 is filled again after every commit,
            // fetch-bound
            // with nothing queueing, so the ramp doubles it (a step of a quarter second at 4 heights in flight is ~150
            // heights)
            var p = pipeline(vertx, fake, 4, 32, 8, 1_000, meters());
            p.start()
                    .compose(x -> fake.reachedLast.future())
                    .compose(x -> p.stop())
                    .onComplete(test.succeeding(x -> test.verify(() -> {
                        assertEquals(heights(3_000, all), fake.written, "every height once, in order");
                        assertTrue(
                                fake.maxInFlightFetches > 4,
                                "the window grew beyond its start: " + fake.maxInFlightFetches
                                        + " fetches in flight at most");
                        assertTrue(fake.maxInFlightFetches <= 32, "within the cap: " + fake.maxInFlightFetches);
                        test.completeNow();
                    })));
        });
    }

    @Test
    void catchingUpCommitsRunsOfAtLeastHalfTheLimitAndAtMostHalfTheWindow(Vertx vertx, VertxTestContext test) {
        LongPredicate all = h -> true;
        Fake fake = new Fake(300, all);
        vertx.getOrCreateContext().runOnContext(v -> {
            // run limit: min(commit limit 20, window 30 / 2) = 15
            var p = pipeline(vertx, fake, 30, 20, 1_000);
            p.start()
                    .compose(x -> fake.reachedLast.future())
                    .compose(x -> p.stop())
                    .onComplete(test.succeeding(x -> test.verify(() -> {
                        assertEquals(heights(300, all), fake.written, "every height once, in order");
                        for (int i = 0; i < fake.runSizes.size(); i++) {
                            // a run prepared more than a full run behind the head while later heights were still being
                            // fetched
                            if (fake.runFirsts.get(i) + fake.runSizes.get(i) < 300 - 2 * 20) {
                                assertTrue(
                                        fake.runSizes.get(i) >= 7,
                                        "run " + i + " from height " + fake.runFirsts.get(i) + ": " + fake.runSizes);
                            }
                            assertTrue(fake.runSizes.get(i) <= 15, "within half the window: " + fake.runSizes);
                        }
                        test.completeNow();
                    })));
        });
    }

    @Test
    void commitFailuresLostAnswersAndASecondWriterNeitherSkipNorRepeat(Vertx vertx, VertxTestContext test) {
        LongPredicate all = h -> true;
        Fake fake = new Fake(40, all);
        fake.commitFault.put(2, "fails");
        fake.commitFault.put(4, "lost");
        fake.commitFault.put(7, "other writer");
        fake.commitFault.put(9, "lost");
        vertx.getOrCreateContext().runOnContext(v -> {
            var p = pipeline(vertx, fake);
            p.start()
                    .compose(x -> fake.reachedLast.future())
                    .compose(x -> p.stop())
                    .onComplete(test.succeeding(x -> test.verify(() -> {
                        assertEquals(heights(40, all), fake.written, "every height written once, in order");
                        List<Long> others = new ArrayList<>(fake.written);
                        others.removeAll(fake.announced);
                        assertEquals(
                                2,
                                others.size(),
                                "the second writer's heights are not announced by this one: " + others);
                        assertEquals(others.get(0) + 1, others.get(1));
                        List<Long> expected = new ArrayList<>(fake.written);
                        expected.removeAll(others);
                        assertEquals(expected, fake.announced, "the lost answers announced once, in order");
                        assertEquals(new Pos(40, 40), fake.db);
                        test.completeNow();
                    })));
        });
    }

    @Test
    void preparationsFailingWhileCommitAnswersAreLostNeitherSkipNorRepeat(Vertx vertx, VertxTestContext test) {
        LongPredicate all = h -> true;
        Fake fake = new Fake(60, all);
        fake.failPrepare = h -> h % 9 == 0;
        for (int n = 2; n < 30; n += 3) fake.commitFault.put(n, "lost");
        vertx.getOrCreateContext().runOnContext(v -> {
            var p = pipeline(vertx, fake);
            p.start()
                    .compose(x -> fake.reachedLast.future())
                    .compose(x -> p.stop())
                    .onComplete(test.succeeding(x -> test.verify(() -> {
                        assertEquals(heights(60, all), fake.written, "every height written once, in order");
                        assertEquals(fake.written, fake.announced, "every height announced once, in order");
                        assertFalse(fake.failedPrepares.isEmpty());
                        assertEquals(new Pos(60, 60), fake.db);
                        test.completeNow();
                    })));
        });
    }

    @Test
    void stopWaitsForTheRunningCommit(Vertx vertx, VertxTestContext test) {
        Fake fake = new Fake(10, h -> true);
        fake.held = Promise.promise();
        fake.commitFault.put(1, "held");
        vertx.getOrCreateContext().runOnContext(v -> {
            var p = pipeline(vertx, fake);
            p.start();
            fake.heldCommitStarted.future().onComplete(x -> {
                Future<Void> stopped = p.stop();
                test.verify(() -> assertFalse(stopped.isComplete(), "stop waits while a commit runs"));
                fake.held.complete();
                stopped.onComplete(test.succeeding(y -> test.verify(() -> {
                    assertEquals(fake.written, fake.announced);
                    assertEquals(1, fake.commits, "no commit after stop");
                    assertFalse(fake.written.isEmpty());
                    test.completeNow();
                })));
            });
        });
    }

    @Test
    void idleTimeIsCountedOnlyWhileNoCommitRunsByWhatTheLoopWaitsFor(Vertx vertx, VertxTestContext test) {
        Fake fake = new Fake(10, h -> true);
        fake.held = Promise.promise();
        fake.commitFault.put(1, "held");
        // the wait at the head starts as the last commit ends, not after the stage's hooks have run
        fake.lastAnnouncementNanos = 3_000_000;
        PipelineMeters meters = meters();
        CommitIdle idle = meters.idle();
        vertx.getOrCreateContext().runOnContext(v -> {
            var p = pipeline(vertx, fake, WINDOW, 4, 3, meters);
            p.start();
            // read in the turn that sends the commit: the idle interval ended as the commit was sent, not at the end of
            // the
            // turn (which also begins the next run's preparation)
            fake.heldCommitStarted.future().onComplete(x -> {
                // the first run waited for its heights, fetched by timers of at least a millisecond
                long fetchWait = idle.nanos(CommitIdle.Waiting.FETCH);
                test.verify(() -> assertTrue(fetchWait >= 1_000_000, "waited on fetches: " + fetchWait));
                // fetches complete while the commit is held: nothing is idle time
                vertx.setTimer(30, t -> {
                    test.verify(() -> {
                        assertEquals(
                                fetchWait, idle.nanos(CommitIdle.Waiting.FETCH), "no idle time while a commit runs");
                        assertEquals(0, idle.nanos(CommitIdle.Waiting.HEAD));
                    });
                    fake.held.complete();
                    fake.reachedLast
                            .future()
                            .onComplete(y -> vertx.setTimer(
                                    5,
                                    t2 -> p.stop()
                                            .onComplete(test.succeeding(z -> test.verify(() -> {
                                                assertEquals(
                                                        List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L), fake.written);
                                                // caught up at 10 = the head, then stopped 5 ms later: that wait is the
                                                // chain's, not the node's
                                                assertTrue(
                                                        idle.nanos(CommitIdle.Waiting.HEAD) >= 5_000_000,
                                                        "waited at the head: " + idle.nanos(CommitIdle.Waiting.HEAD));
                                                assertEquals(0, idle.nanos(CommitIdle.Waiting.RETRY));
                                                test.completeNow();
                                            })))));
                });
            });
        });
    }

    @Test
    void idleIntervalsAddToWhatWasWaitedForWhenTheyBegan() {
        CommitIdle idle = new CommitIdle();
        CommitIdle.Clock clock = new CommitIdle.Clock(idle);
        clock.note(100, CommitIdle.Waiting.FETCH);
        clock.note(110, CommitIdle.Waiting.PREPARE);
        clock.note(125, null);
        clock.note(400, CommitIdle.Waiting.FETCH);
        clock.note(405, CommitIdle.Waiting.HEAD);
        clock.note(465, CommitIdle.Waiting.RETRY);
        assertEquals(15, idle.nanos(CommitIdle.Waiting.FETCH), "10 before the preparation, 5 after the commit");
        assertEquals(15, idle.nanos(CommitIdle.Waiting.PREPARE));
        assertEquals(60, idle.nanos(CommitIdle.Waiting.HEAD));
        assertEquals(0, idle.nanos(CommitIdle.Waiting.RETRY), "the open interval is not counted yet");
        // a later pipeline's clock on the same counters starts without an interval
        CommitIdle.Clock later = new CommitIdle.Clock(idle);
        later.note(10_000, CommitIdle.Waiting.FETCH);
        later.note(10_004, null);
        assertEquals(19, idle.nanos(CommitIdle.Waiting.FETCH));
    }
}
