package dev.weft.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The adaptive window's rules, fed with synthetic measurements (no clock). */
class AdaptiveWindowTest {
    static final long SECOND = 1_000_000_000L;
    static final long MS = 1_000_000L;

    @Test
    @DisplayName(
            "it starts at its minimum and does not move before a ramp step (two round trips, a quarter interval at least)")
    void startsAtMin() {
        AdaptiveWindow w = new AdaptiveWindow(48, 1024, SECOND);
        assertEquals(48, w.limit());
        w.fetched(200 * MS);
        w.committed(0, 0);
        w.full(48, false);
        w.committed(300 * MS, 100);
        assertEquals(48, w.limit(), "300 ms < 2 × 200 ms: no step yet");
        w.committed(400 * MS, 130);
        assertEquals(96, w.limit(), "two round trips fetch-bound, nothing queueing: the ramp doubles");
    }

    @Test
    @DisplayName(
            "the ramp: a far node's window doubles every two round trips while fetch-bound with nothing queueing, up to the cap, comparing no rates")
    void rampsToTheCap() {
        AdaptiveWindow w = new AdaptiveWindow(64, 157, 384, SECOND);
        for (int k = 0; k < 10; k++) w.fetched(210 * MS);
        w.committed(0, 0);
        w.full(157, false);
        w.committed(400 * MS, 150);
        assertEquals(157, w.limit(), "400 ms < 2 × 210 ms: no step yet");
        w.committed(420 * MS, 160);
        assertEquals(314, w.limit());
        w.full(300, false);
        w.committed(840 * MS, 300);
        assertEquals(384, w.limit(), "the cap: the ramp is over");
        w.full(384, false);
        w.committed(1500 * MS, 900);
        assertEquals(384, w.limit(), "after the ramp a step is an interval long");
        w.committed(1840 * MS, 1300);
        assertEquals(384, w.limit(), "at the cap, fetch-bound still: nowhere to grow");
    }

    @Test
    @DisplayName(
            "the ramp ends at its first step that does not grow (commit-bound here); the window holds and probes by half from then on, a step an interval long")
    void rampEndsAtAStepThatDoesNotGrow() {
        AdaptiveWindow w = new AdaptiveWindow(48, 1024, SECOND);
        w.fetched(100 * MS);
        w.committed(0, 0);
        w.full(48, false);
        w.committed(250 * MS, 50);
        assertEquals(96, w.limit(), "a quarter interval, two round trips: a ramp step");
        w.full(96, false);
        w.committed(500 * MS, 150);
        assertEquals(192, w.limit());
        w.full(40, false);
        w.committed(750 * MS, 350);
        assertEquals(
                192,
                w.limit(),
                "full of fetched heights waiting for their commit: the ramp ends, the full window holds");
        w.full(192, false);
        w.committed(1500 * MS, 850);
        assertEquals(192, w.limit(), "no ramp step any more: 750 ms < the interval");
        w.committed(1750 * MS, 1100);
        assertEquals(288, w.limit(), "fetch-bound for an interval: a probe of half");
    }

    @Test
    @DisplayName(
            "requests that queue end the ramp although the window is fetch-bound: it shrinks toward the bandwidth-delay product")
    void queueingEndsTheRamp() {
        AdaptiveWindow w = new AdaptiveWindow(64, 157, 384, SECOND);
        for (int k = 0; k < 10; k++) w.fetched(210 * MS);
        w.committed(0, 0);
        w.full(157, true);
        w.committed(420 * MS, 100);
        assertEquals(118, w.limit(), "a quarter less toward 2 × 238/s × 0.21 s = 100");
        w.full(118, false);
        w.committed(840 * MS, 200);
        assertEquals(118, w.limit(), "no ramp any more: 420 ms < the interval");
    }

    @Test
    @DisplayName(
            "a window that starts above its floor: held within its bounds, it shrinks back to the floor while the node's requests queue")
    void startsAboveTheFloor() {
        assertEquals(256, new AdaptiveWindow(64, 1000, 256, SECOND).limit(), "a start above the cap: the cap");
        assertEquals(64, new AdaptiveWindow(64, 8, 256, SECOND).limit(), "a start below the floor: the floor");
        AdaptiveWindow w = new AdaptiveWindow(64, 128, 256, SECOND);
        assertEquals(128, w.limit());
        w.committed(0, 0);
        long n = 0;
        int[] expected = {96, 72, 64, 64};
        for (int i = 0; i < expected.length; i++) {
            w.fetched(2 * MS);
            w.fetched(20 * MS);
            w.full(w.limit(), true);
            w.committed((i + 1) * SECOND, n += 600);
            assertEquals(
                    expected[i], w.limit(), "step " + (i + 1) + ": requests queued, by a quarter down to the floor");
        }
    }

    @Test
    @DisplayName(
            "a window that starts above its floor grows from there when fetch-bound with nothing queueing (a far node)")
    void startAboveTheFloorGrows() {
        AdaptiveWindow w = new AdaptiveWindow(64, 128, 256, SECOND);
        w.committed(-SECOND, 0);
        w.full(10, false);
        w.committed(-SECOND / 2, 300);
        assertEquals(128, w.limit(), "commit-bound in the ramp's first step: the ramp ends, the full window holds");
        w.fetched(200 * MS);
        w.full(128, false);
        w.committed(SECOND, 800);
        assertEquals(192, w.limit(), "a step of an interval: a probe of half");
    }

    @Test
    @DisplayName(
            "fetch-bound (the window full of heights in flight): it grows by half while each probe raises the rate, up to the cap")
    void growsWhileTheRateRises() {
        AdaptiveWindow w = pastRamp(new AdaptiveWindow(48, 300, SECOND));
        w.committed(0, 0);
        long t = 0;
        long n = 0;
        long rate = 100;
        int[] expected = {72, 108, 162, 243, 300, 300};
        for (int e : expected) {
            w.full(w.limit(), false);
            w.committed(t += SECOND, n += rate);
            assertEquals(e, w.limit());
            rate *= 2;
        }
    }

    @Test
    @DisplayName(
            "a probe that raises the rate by a tenth in neither of its two steps is undone (the bottleneck is elsewhere: queueing never feeds growth)")
    void undoesAFruitlessProbe() {
        AdaptiveWindow w = pastRamp(new AdaptiveWindow(16, 1024, SECOND));
        w.committed(0, 0);
        w.full(16, false);
        w.committed(SECOND, 100);
        assertEquals(24, w.limit());
        w.full(24, false);
        w.committed(2 * SECOND, 205);
        assertEquals(24, w.limit(), "105/s after 100/s: the probe's first step decides nothing");
        w.full(24, false);
        w.committed(3 * SECOND, 310);
        assertEquals(16, w.limit(), "105/s again: the probe bought nothing");
        long n = 310;
        for (int t = 4; t <= 5; t++) {
            w.full(16, false);
            w.committed(t * SECOND, n += 105);
            assertEquals(16, w.limit(), "no probe for two intervals after a fruitless one (interval " + t + ")");
        }
        w.full(16, false);
        w.committed(6 * SECOND, n += 105);
        assertEquals(24, w.limit(), "probes again");
        for (int t = 7; t <= 8; t++) {
            w.full(24, false);
            w.committed(t * SECOND, n += 105);
        }
        assertEquals(16, w.limit(), "fruitless again");
        for (int t = 9; t <= 12; t++) {
            w.full(16, false);
            w.committed(t * SECOND, n += 105);
            assertEquals(
                    16,
                    w.limit(),
                    "the second fruitless probe doubles the wait to four intervals (interval " + t + ")");
        }
        w.full(16, false);
        w.committed(13 * SECOND, n += 105);
        assertEquals(24, w.limit());
    }

    @Test
    @DisplayName(
            "a probe whose gain shows only in its second step (its heights answered a round trip after it) is kept")
    void aProbeGetsASecondStep() {
        AdaptiveWindow w = pastRamp(new AdaptiveWindow(96, 1024, SECOND));
        w.committed(0, 0);
        w.full(96, false);
        w.committed(SECOND, 200);
        assertEquals(144, w.limit());
        w.full(144, false);
        w.committed(2 * SECOND, 400);
        assertEquals(144, w.limit(), "200/s again: the probe's heights are still on their way");
        w.full(144, false);
        w.committed(3 * SECOND, 680);
        assertEquals(
                216,
                w.limit(),
                "280/s, 40 % over the rate before the probe: kept, and fetch-bound still: the next probe");
    }

    @Test
    @DisplayName(
            "node requests that queue (for a permit, or at the node) are no reason to grow; the window shrinks toward rate × twice the floor")
    void queueingRequestsDoNotGrow() {
        AdaptiveWindow w = pastRamp(new AdaptiveWindow(16, 1024, SECOND));
        w.committed(0, 0);
        long t = 0;
        long n = 0;
        // no request queues: every fetch takes its 10 ms round trip; the window grows while the rate rises
        for (int i = 0; i < 5; i++) {
            for (int k = 0; k < 10; k++) w.fetched(10 * MS);
            w.full(w.limit(), false);
            w.committed(t += SECOND, n += 1000L << i);
        }
        assertEquals(122, w.limit());
        // the node saturates: its requests queue (100 ms per height, the floor still 10 ms)
        for (int k = 0; k < 30; k++) w.fetched(100 * MS);
        w.fetched(10 * MS);
        w.full(w.limit(), true);
        w.committed(t += SECOND, n += 18_000);
        assertEquals(122, w.limit(), "the last probe raised the rate (16000/s to 18000/s): kept, but not grown again");
        for (int k = 0; k < 10; k++) w.fetched(100 * MS);
        w.fetched(10 * MS);
        w.full(w.limit(), false);
        w.full(w.limit(), true);
        w.committed(t += SECOND, n += 2_000);
        assertEquals(
                92,
                w.limit(),
                "requests queued: no probe; a quarter less toward 2 × 2000/s × (2 × 10 ms) = 80, not 2 × 2000/s × ~90 ms = 360");
        for (int i = 0; i < 5; i++) {
            for (int k = 0; k < 10; k++) w.fetched(100 * MS);
            w.fetched(10 * MS);
            w.full(w.limit(), true);
            w.committed(t += SECOND, n += 2_000);
        }
        assertEquals(80, w.limit());
    }

    @Test
    @DisplayName(
            "a far node: heights of one round trip (empty blocks) and of three (blocks with txs) average far above the floor, and the window still grows while the rate rises")
    void unequalHeightsStillGrow() {
        AdaptiveWindow w = pastRamp(new AdaptiveWindow(96, 1024, SECOND));
        w.committed(0, 0);
        long t = 0;
        long n = 0;
        // 200 ms per round trip: a fifth of the heights are empty (200 ms), the rest need three in a row (600 ms)
        int[] expected = {144, 216};
        for (int i = 0; i < 2; i++) {
            for (int k = 0; k < 40; k++) w.fetched((k % 5 == 0 ? 200 : 600) * MS);
            w.full(w.limit() / 2, false);
            w.committed(
                    t += 2 * SECOND, n += 300L << i); // a step spans four round trips (4 × 400 ms, the floor's double)
            assertEquals(
                    expected[i], w.limit(), "interval " + i + ": fetch-bound, no request queueing, the rate doubled");
        }
    }

    @Test
    @DisplayName(
            "a step spans four round trips at least: over a far node's one or two, commits in runs make the rate swing")
    void stepsSpanFourRoundTrips() {
        AdaptiveWindow w = pastRamp(new AdaptiveWindow(96, 1024, SECOND));
        w.committed(0, 0);
        for (int k = 0; k < 40; k++) w.fetched(450 * MS);
        w.full(96, false);
        w.committed(SECOND, 200);
        assertEquals(96, w.limit(), "1 s < 4 × 450 ms: no step yet");
        w.committed(1700 * MS, 340);
        assertEquals(96, w.limit(), "1.7 s < 1.8 s: still none");
        w.committed(1800 * MS, 360);
        assertEquals(144, w.limit(), "1.8 s of fetch-bound commits: a probe");
        // near the node the interval is the step
        AdaptiveWindow near = pastRamp(new AdaptiveWindow(96, 1024, SECOND));
        near.committed(0, 0);
        for (int k = 0; k < 40; k++) near.fetched(5 * MS);
        near.full(96, false);
        near.committed(SECOND, 300);
        assertEquals(144, near.limit());
    }

    @Test
    @DisplayName("a full window of fetched heights waiting for their commit (commit-bound) is no reason to grow")
    void commitBoundDoesNotGrow() {
        AdaptiveWindow w = new AdaptiveWindow(48, 1024, SECOND);
        w.fetched(10 * MS);
        w.committed(0, 0);
        w.full(10, false);
        w.committed(SECOND, 500);
        assertEquals(48, w.limit(), "2 × 500/s × 10 ms = 10 < 48: stays at the minimum");
    }

    @Test
    @DisplayName(
            "not fetch-bound: twice rate × round trip (the bandwidth-delay product) is a ceiling it shrinks toward, not a reason to grow")
    void bandwidthDelayProductBoundsFromAbove() {
        AdaptiveWindow w = new AdaptiveWindow(16, 1024, SECOND);
        w.fetched(200 * MS);
        w.committed(0, 0);
        w.committed(SECOND, 300);
        assertEquals(16, w.limit(), "2 × 300/s × 0.2 s = 120, but nothing showed fetching was the bottleneck");
        long t = SECOND;
        long n = 300;
        for (int i = 0; i < 6; i++) {
            w.full(w.limit(), false);
            w.committed(t += SECOND, n += 300L * (i + 2));
        }
        assertEquals(183, w.limit(), "six probes, each raising the rate (600/s … 2100/s)");
        w.committed(t += SECOND, n += 2400);
        assertEquals(183, w.limit(), "the last probe raised the rate: kept");
        w.committed(t += SECOND, n += 300);
        assertEquals(138, w.limit(), "not fetch-bound: a quarter less toward 2 × 300/s × 0.2 s");
        w.committed(t += SECOND, n += 300);
        assertEquals(120, w.limit(), "down to 2 × 300/s × 0.2 s");
    }

    @Test
    @DisplayName(
            "a window found full holds through a slow step (it is in use); with room to spare it shrinks toward the bandwidth-delay product")
    void fullWindowHoldsThroughASlowStep() {
        AdaptiveWindow w = grownOver200ms();
        long t = 5 * SECOND;
        long n = 6200;
        w.full(10, false);
        w.committed(t += SECOND, n += 4000);
        assertEquals(
                122,
                w.limit(),
                "the last probe raised the rate (3200/s to 4000/s): kept; full of fetched heights (commit-bound): no new probe");
        w.full(10, false);
        w.committed(t += SECOND, n += 100);
        assertEquals(122, w.limit(), "100/s for a step (a checkpoint, a GC), the window still full: it holds");
        w.committed(t += SECOND, n += 100);
        assertEquals(92, w.limit(), "room to spare at 100/s: a quarter less toward 2 × 100/s × 0.2 s");
    }

    @Test
    @DisplayName(
            "the round trip is a moving average; the window shrinks by at most a quarter per interval, never below the minimum")
    void shrinksGradually() {
        AdaptiveWindow w = grownOver200ms();
        long t = 5 * SECOND;
        long n = 6200;
        for (int i = 0; i < 40; i++) w.fetched(1 * MS);
        w.committed(t += SECOND, n += 6400);
        assertEquals(92, w.limit(), "a quarter less, not at once down to 2 × 6400/s × ~1 ms");
        for (int i = 0; i < 30; i++) w.committed(t += SECOND, n += 1000);
        assertEquals(16, w.limit());
    }

    @Test
    void rejectsBadBounds() {
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveWindow(0, 10, SECOND));
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveWindow(10, 5, SECOND));
    }

    /**
     * Ends a window's ramp as a near node does, its requests queueing in the first step: the window stays at its start
     * when that is its minimum, and the rules after the ramp apply from a clock at 0.
     */
    private static AdaptiveWindow pastRamp(AdaptiveWindow w) {
        w.committed(-SECOND, 0);
        w.full(w.limit(), true);
        w.committed(0, 0);
        return w;
    }

    /**
     * A window over a 200 ms round trip grown by five probes that each raised the rate (200/s doubling up to 3200/s):
     * 16 → 122 heights at 5 s, 6,200 heights committed.
     */
    private static AdaptiveWindow grownOver200ms() {
        AdaptiveWindow w = pastRamp(new AdaptiveWindow(16, 1024, SECOND));
        w.fetched(200 * MS);
        w.committed(0, 0);
        long n = 0;
        for (int i = 0; i < 5; i++) {
            w.full(w.limit(), false);
            w.committed((i + 1) * SECOND, n += 200L << i);
        }
        assertEquals(122, w.limit());
        return w;
    }
}
