package dev.weft.pipeline;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The adaptive window's rules, fed with synthetic measurements (no clock). */
class AdaptiveWindowTest {
  static final long SECOND = 1_000_000_000L;
  static final long MS = 1_000_000L;

  @Test
  @DisplayName("it starts at its minimum and does not move before a whole interval of measurements")
  void startsAtMin() {
    AdaptiveWindow w = new AdaptiveWindow(48, 1024, SECOND);
    assertEquals(48, w.limit());
    w.fetched(200 * MS);
    w.committed(0, 0);
    w.full(48);
    w.committed(SECOND / 2, 100);
    assertEquals(48, w.limit(), "half an interval: no step yet");
  }

  @Test
  @DisplayName("fetch-bound (the window full of heights in flight): it doubles per interval, up to the cap")
  void doublesWhenFetchBound() {
    AdaptiveWindow w = new AdaptiveWindow(48, 300, SECOND);
    w.committed(0, 0);
    long t = 0;
    int[] expected = {96, 192, 300, 300};
    for (int e : expected) {
      w.full(w.limit());
      t += SECOND;
      w.committed(t, t / SECOND * 100);
      assertEquals(e, w.limit());
    }
  }

  @Test
  @DisplayName("a full window of fetched heights waiting for their commit (commit-bound) is no reason to grow")
  void commitBoundDoesNotGrow() {
    AdaptiveWindow w = new AdaptiveWindow(48, 1024, SECOND);
    w.fetched(10 * MS);
    w.committed(0, 0);
    w.full(10);
    w.committed(SECOND, 500);
    assertEquals(48, w.limit(), "2 × 500/s × 10 ms = 10 < 48: stays at the minimum");
  }

  @Test
  @DisplayName("not fetch-bound: twice rate × round trip (the bandwidth-delay product), capped")
  void followsTheBandwidthDelayProduct() {
    AdaptiveWindow w = new AdaptiveWindow(16, 1024, SECOND);
    w.fetched(200 * MS);
    w.committed(0, 0);
    w.committed(SECOND, 300);
    assertEquals(120, w.limit(), "2 × 300/s × 0.2 s");
    AdaptiveWindow capped = new AdaptiveWindow(16, 100, SECOND);
    capped.fetched(200 * MS);
    capped.committed(0, 0);
    capped.committed(SECOND, 300);
    assertEquals(100, capped.limit());
  }

  @Test
  @DisplayName("the round trip is a moving average; the window shrinks by at most a quarter per interval, never below the minimum")
  void shrinksGradually() {
    AdaptiveWindow w = new AdaptiveWindow(16, 1024, SECOND);
    w.fetched(200 * MS);
    w.committed(0, 0);
    w.committed(SECOND, 1000);
    assertEquals(400, w.limit());
    for (int i = 0; i < 40; i++) w.fetched(1 * MS);
    w.committed(2 * SECOND, 2000);
    assertEquals(300, w.limit(), "a quarter less, not at once down to 2 × 1000/s × ~1 ms");
    long t = 2 * SECOND;
    long n = 2000;
    for (int i = 0; i < 30; i++) w.committed(t += SECOND, n += 1000);
    assertEquals(16, w.limit());
  }

  @Test
  void rejectsBadBounds() {
    assertThrows(IllegalArgumentException.class, () -> new AdaptiveWindow(0, 10, SECOND));
    assertThrows(IllegalArgumentException.class, () -> new AdaptiveWindow(10, 5, SECOND));
  }
}
