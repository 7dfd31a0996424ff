package dev.weft.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    @DisplayName("the bound doubles per failure up to the cap; each wait is uniform within it (full jitter), seeded")
    void growsWithJitter() {
        assertEquals(100, Backoff.bound(100, 10_000, 1));
        assertEquals(200, Backoff.bound(100, 10_000, 2));
        assertEquals(800, Backoff.bound(100, 10_000, 4));
        assertEquals(10_000, Backoff.bound(100, 10_000, 8));
        assertEquals(10_000, Backoff.bound(100, 10_000, 1000), "no overflow after many failures");
        SplittableRandom random = new SplittableRandom(42);
        double previousMean = 0;
        for (int failures = 1; failures <= 7; failures++) {
            long bound = Backoff.bound(100, 10_000, failures);
            long sum = 0;
            for (int i = 0; i < 2000; i++) {
                long d = Backoff.delay(100, 10_000, failures, random);
                assertTrue(d >= 1 && d <= bound, d + " within 1.." + bound);
                sum += d;
            }
            double mean = sum / 2000.0;
            assertTrue(Math.abs(mean - bound / 2.0) < bound * 0.1, "uniform: mean " + mean + " of bound " + bound);
            assertTrue(mean > previousMean, "waits grow with the failures");
            previousMean = mean;
        }
    }
}
