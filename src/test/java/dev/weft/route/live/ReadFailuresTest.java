package dev.weft.route.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadFailuresTest {
    @Test
    void failuresInARowDelayTheNextReadByADoublingCappedDelay() {
        ReadFailures f = new ReadFailures(Duration.ofSeconds(2), Duration.ofSeconds(10));
        assertTrue(f.due(0), "nothing failed: a read may start");
        long now = 1_000_000;
        for (int attempt = 1; attempt <= 8; attempt++) {
            long delay = f.failed(now);
            long nominal = Math.min(10_000, 2_000L << (attempt - 1));
            // ±25 % jitter, never beyond the cap
            assertTrue(
                    delay >= nominal * 3 / 4 && delay <= Math.min(10_000, nominal * 5 / 4),
                    "attempt " + attempt + ": " + delay + " ms");
            assertFalse(f.due(now), "the delay has not begun to run out");
            assertFalse(f.due(now + delay - 1), "one ms before the delay is over");
            assertTrue(f.due(now + delay), "the delay is over");
            assertEquals(attempt, f.inARow());
            now += delay;
        }
        assertEquals(8, f.succeeded());
        assertTrue(f.due(now), "a success ends the backoff");
        assertEquals(0, f.inARow());
        long afterSuccess = f.failed(now);
        assertTrue(
                afterSuccess >= 1_500 && afterSuccess <= 2_500,
                "a new streak starts at the base delay: " + afterSuccess);
    }

    @Test
    void onlyTheFirstSecondFourthEighthFailureInARowIsWorthAWarning() {
        ReadFailures f = new ReadFailures(Duration.ofMillis(100), Duration.ofSeconds(10));
        assertFalse(f.worthWarning(), "no failure yet");
        List<Integer> warned = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            f.failed(0);
            if (f.worthWarning()) warned.add(f.inARow());
        }
        assertEquals(List.of(1, 2, 4, 8, 16, 32), warned);
        f.succeeded();
        f.failed(0);
        assertTrue(f.worthWarning(), "the first failure after a success warns again");
    }

    @Test
    void aCapBelowTheBaseIsTheBase() {
        ReadFailures f = new ReadFailures(Duration.ofSeconds(20), Duration.ofSeconds(10));
        for (int i = 0; i < 5; i++) {
            long delay = f.failed(0);
            assertTrue(
                    delay >= 15_000 && delay <= 20_000,
                    "a refresh interval longer than the cap stays the delay: " + delay);
        }
    }
}
