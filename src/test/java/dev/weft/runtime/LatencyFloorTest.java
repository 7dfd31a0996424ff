package dev.weft.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LatencyFloorTest {
    @Test
    @DisplayName("the floor is the least of this period and the last kept one; the average moves a fifth of the way")
    void floorAndAverage() {
        LatencyFloor l = new LatencyFloor();
        assertEquals(0, l.floor());
        assertFalse(l.beyond(2), "no floor: never beyond");
        l.add(10);
        l.add(60);
        assertEquals(10, l.floor());
        assertEquals(20.0, l.average(), 1e-9, "10 + 0.2 × (60 − 10)");
        l.nextPeriod(true);
        l.add(30);
        assertEquals(10, l.floor(), "the last period still counts");
        l.nextPeriod(true);
        assertEquals(30, l.floor(), "two periods on, only the last one counts");
        l.nextPeriod(false);
        assertEquals(0, l.floor(), "a period not kept leaves no floor");
    }

    @Test
    @DisplayName("beyond: the average above the given multiple of the floor")
    void beyond() {
        LatencyFloor l = new LatencyFloor();
        l.add(10);
        for (int i = 0; i < 20; i++) l.add(40);
        assertTrue(l.beyond(2));
        assertFalse(l.beyond(4));
    }

    @Test
    @DisplayName("the unqueued average: the average counted at most twice the floor, the whole average without a floor")
    void unqueuedAverage() {
        LatencyFloor l = new LatencyFloor();
        l.add(10);
        assertEquals(10.0, l.unqueuedAverage(), 1e-9);
        for (int i = 0; i < 20; i++) l.add(40);
        assertEquals(20.0, l.unqueuedAverage(), 1e-9, "2 × the floor of 10, not the average near 40");
        l.nextPeriod(false);
        assertEquals(l.average(), l.unqueuedAverage(), 1e-9, "no floor: the average");
    }
}
