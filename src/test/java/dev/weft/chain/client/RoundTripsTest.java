package dev.weft.chain.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** When single node requests count as queueing, fed with synthetic times. */
class RoundTripsTest {
    static final long SECOND = 1_000_000_000L;
    static final long MS = 1_000_000L;

    @Test
    @DisplayName("no answer yet: not queueing; answers near their floor (a far node, 200–260 ms each): not queueing")
    void farNodeIsNoQueue() {
        RoundTrips r = new RoundTrips(SECOND);
        assertFalse(r.queueing(0));
        long t = 0;
        for (int i = 0; i < 50; i++) r.answered((200 + (i % 4) * 20) * MS, t += 20 * MS);
        assertFalse(r.queueing(t));
    }

    @Test
    @DisplayName("answers beyond twice their floor: queueing; once the slow ones pass and the average returns, not")
    void slowAnswersAreAQueue() {
        RoundTrips r = new RoundTrips(SECOND);
        long t = 0;
        for (int i = 0; i < 10; i++) r.answered(10 * MS, t += 10 * MS);
        for (int i = 0; i < 20; i++) r.answered(60 * MS, t += 10 * MS);
        assertTrue(r.queueing(t), "60 ms answers against a 10 ms floor");
        for (int i = 0; i < 30; i++) r.answered(12 * MS, t += 10 * MS);
        assertFalse(r.queueing(t));
    }

    @Test
    @DisplayName("the floor is the least of the current and the previous period: an old fast answer stops counting")
    void floorForgets() {
        RoundTrips r = new RoundTrips(SECOND);
        r.answered(5 * MS, 0);
        long t = 0;
        for (int i = 0; i < 20; i++) r.answered(30 * MS, t += 50 * MS);
        assertTrue(r.queueing(t), "within two periods the 5 ms answer is the floor");
        for (int i = 0; i < 40; i++) r.answered(30 * MS, t += 50 * MS);
        assertFalse(r.queueing(t), "two periods later the floor is 30 ms");
    }
}
