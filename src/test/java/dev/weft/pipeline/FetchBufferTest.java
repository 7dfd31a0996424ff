package dev.weft.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The plan and the held items between a pipeline's source and its commits: which heights a run takes, and the bytes. */
class FetchBufferTest {
    /** Items are their height; each weighs its height and holds ten bytes. */
    static FetchBuffer<Long, Long> buffer() {
        return new FetchBuffer<>(new Measures<Long, Long, Long, Long>(
                h -> h, item -> 10, item -> item, p -> p, p -> p, "items", b -> b));
    }

    static PipelinePolicy policy(int commitItems, long commitWeight) {
        return new PipelinePolicy(
                8,
                8,
                8,
                1 << 20,
                commitItems,
                commitWeight,
                new RetryPolicy(Duration.ofMillis(1), Duration.ofMillis(5)),
                Duration.ofHours(1));
    }

    @Test
    void aHeightIsPlannedOnceAndFetchedOnlyWhenNeitherHeldNorInFlight() {
        var b = buffer();
        b.replanAfter(0);
        b.fetched(2, 2L);
        b.fetchStarted(3);
        assertTrue(b.plan(1L), "1 needs a fetch");
        assertFalse(b.plan(2L), "2 is held already");
        assertFalse(b.plan(3L), "3 is being fetched");
        assertFalse(b.plan(3L), "3 is planned already");
        assertEquals(3, b.plannedCount());
        assertEquals(3, b.planned());
        assertEquals(1, b.nextHeight(0));
    }

    @Test
    void aRunTakesTheConsecutiveReadyItemsAfterThePreparedOnesWithinTheLimits() {
        var b = buffer();
        b.replanAfter(0);
        for (long h = 1; h <= 6; h++) b.plan(h);
        for (long h : List.of(1L, 2L, 3L, 5L)) b.fetched(h, h);
        // weight 1 + 2 + 3 = 6 fits the limit of 6; height 4 is not fetched yet
        assertEquals(new FetchBuffer.Run<>(List.of(1L, 2L, 3L), 6, 1, 3), b.nextRun(policy(10, 6), 8));
        // at most half the window per run
        assertEquals(List.of(1L, 2L), b.nextRun(policy(10, 100), 4).items());
        b.batched(2);
        assertEquals(new FetchBuffer.Run<>(List.of(3L), 3, 3, 3), b.nextRun(policy(10, 100), 8));
        assertTrue(b.moreAfter(1), "4..6 follow the run of 3");
        b.committed(2);
        b.release(2);
        assertEquals(3, b.nextHeight(2));
        assertEquals(List.of(3L), b.nextRun(policy(10, 100), 8).items(), "the committed run left the plan");
        assertEquals(20, b.readyBytes(), "3 and 5 held");
    }

    @Test
    void replanningKeepsTheHeldItemsAboveThePosition() {
        var b = buffer();
        b.replanAfter(0);
        for (long h = 1; h <= 4; h++) b.plan(h);
        for (long h = 1; h <= 4; h++) b.fetched(h, h);
        b.fetched(4, 4L);
        assertEquals(40, b.readyBytes(), "a height fetched again replaces its item");
        b.replanAfter(2);
        b.release(2);
        assertTrue(b.nothingPlanned());
        assertEquals(2, b.readyCount());
        assertFalse(b.plan(2L), "at or below the position");
        assertFalse(b.plan(3L), "held: no fetch again");
        assertEquals(List.of(3L), b.nextRun(policy(10, 100), 8).items());
    }
}
