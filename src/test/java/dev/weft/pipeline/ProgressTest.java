package dev.weft.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProgressTest {
    @Test
    @DisplayName("the progress line: height/head, percent, rates over the interval, ETA")
    void line() {
        assertEquals(
                "height 12000/200000 (6.0%) 350.0 blocks/s 9800 txs/s ETA 8m58s",
                Progress.format(12000, 200000, 350, 9800));
        Progress p = new Progress(0, 100, 1000);
        assertEquals(
                "height 200/1200 (16.7%) 10.0 blocks/s 300 txs/s ETA 1m40s", p.line(10_000_000_000L, 200, 1200, 4000));
        assertEquals("height 5/5 (100.0%) 0.0 blocks/s 0 txs/s ETA ?", Progress.format(5, 5, 0, 0));
        assertEquals("2h0m", Progress.duration(7200));
        assertEquals("1d1h", Progress.duration(90_000));
    }
}
