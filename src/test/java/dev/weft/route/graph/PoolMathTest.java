package dev.weft.route.graph;

import dev.weft.route.registry.SwapVenue.Pool;
import dev.weft.route.registry.SwapVenue.PoolType;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Constant-product and stableswap quotes: exact out-amounts, fees, price impact. */
class PoolMathTest {
  private static Pool cp(long a, long b, String fee) {
    return new Pool("move/01", PoolType.CONSTANT_PRODUCT, "a", "b", BigInteger.valueOf(a), BigInteger.valueOf(b), new BigDecimal(fee), 0);
  }

  private static Pool stable(long a, long b, long amp, String fee) {
    return new Pool("move/02", PoolType.STABLESWAP, "a", "b", BigInteger.valueOf(a), BigInteger.valueOf(b), new BigDecimal(fee), amp);
  }

  private static String pct(BigDecimal d) {
    return d.setScale(6, RoundingMode.HALF_UP).toPlainString();
  }

  @Test
  @DisplayName("constant product: floor(B_out·a(1−f)/(B_in+a(1−f))), fee floor(a·f) in the input denom, impact 1 − exec/spot")
  void constantProduct() {
    PoolMath.Quote q = PoolMath.quote(cp(1000, 2000, "0.003"), "a", BigInteger.valueOf(100));
    assertEquals(BigInteger.valueOf(181), q.amountOut());        // 2000·99.7/1099.7 = 181.32…
    assertEquals(BigInteger.ZERO, q.fee());                      // floor(0.3)
    assertEquals("a", q.feeDenom());
    assertEquals("9.500000", pct(q.impactPercent()));            // spot 2, exec 1.81
    PoolMath.Quote back = PoolMath.quote(cp(1000, 2000, "0.003"), "b", BigInteger.valueOf(1000));
    assertEquals(BigInteger.valueOf(332), back.amountOut());     // B_out 1000, B_in 2000: 1000·997/(2000+997) = 332.67…
    assertEquals(BigInteger.valueOf(3), back.fee());
  }

  @Test
  @DisplayName("constant product on the mainnet INIT/USDC configuration: 400k USDC buys 738682.670223 INIT at 7.6647% impact")
  void mainnetPool() {
    Pool p = new Pool("move/03", PoolType.CONSTANT_PRODUCT, "uinit", "usdc", new BigInteger("10000000000000"),
        new BigInteger("5000000000000"), new BigDecimal("0.003"), 0);
    PoolMath.Quote q = PoolMath.quote(p, "usdc", new BigInteger("400000000000"));
    assertEquals(new BigInteger("738682670223"), q.amountOut());
    assertEquals(new BigInteger("1200000000"), q.fee());
    assertEquals("7.664666", pct(q.impactPercent()));
  }

  @Test
  @DisplayName("no fee and a vanishing trade: nothing comes out of a constant-product pool (100% impact); a stableswap pool's impact is not negative")
  void vanishingTrade() {
    PoolMath.Quote q = PoolMath.quote(cp(1_000_000_000, 1_000_000_000, "0"), "a", BigInteger.ONE);
    assertEquals(BigInteger.ZERO, q.amountOut());
    assertEquals(0, q.impactPercent().compareTo(BigDecimal.valueOf(100)), "nothing out is 100% impact");
    PoolMath.Quote fair = PoolMath.quote(stable(1_000_000_000, 1_000_000_000, 100, "0"), "a", BigInteger.valueOf(1000));
    assertTrue(fair.impactPercent().signum() >= 0);
  }

  @Test
  @DisplayName("stableswap: D of a balanced pool is the sum; a small trade is ~1:1 less the output fee; the invariant holds after it")
  void stableswapBalanced() {
    BigInteger x = new BigInteger("200000000000");
    assertEquals(new BigInteger("400000000000"), PoolMath.stableD(x, x, 100));
    PoolMath.Quote q = PoolMath.quote(stable(200_000_000_000L, 200_000_000_000L, 100, "0.001"), "a", BigInteger.valueOf(5_000_000));
    assertEquals(BigInteger.valueOf(4_995_000), q.amountOut());  // dy = 4 999 999 (Curve keeps 1 for rounding), fee 4 999
    assertEquals(BigInteger.valueOf(4_999), q.fee());
    assertEquals("b", q.feeDenom());
    assertEquals("0.100000", pct(q.impactPercent()));
    BigInteger yNew = PoolMath.stableY(x.add(BigInteger.valueOf(5_000_000)), PoolMath.stableD(x, x, 100), 100);
    BigInteger d2 = PoolMath.stableD(x.add(BigInteger.valueOf(5_000_000)), yNew, 100);
    assertTrue(d2.subtract(new BigInteger("400000000000")).abs().compareTo(BigInteger.TWO) <= 0, "D moved to " + d2);
  }

  @Test
  @DisplayName("stableswap beats constant product on a large trade in a balanced pool, and an imbalanced pool prices the scarce side up")
  void stableswapShape() {
    BigInteger big = BigInteger.valueOf(50_000_000_000L);
    PoolMath.Quote s = PoolMath.quote(stable(200_000_000_000L, 200_000_000_000L, 100, "0.001"), "a", big);
    PoolMath.Quote c = PoolMath.quote(cp(200_000_000_000L, 200_000_000_000L, "0.001"), "a", big);
    assertTrue(s.amountOut().compareTo(c.amountOut()) > 0, s.amountOut() + " vs " + c.amountOut());
    assertTrue(s.impactPercent().compareTo(BigDecimal.ONE) < 0, pct(s.impactPercent()));
    assertTrue(c.impactPercent().compareTo(BigDecimal.valueOf(19)) > 0, pct(c.impactPercent()));
    // more "b" than "a" in the pool: one "a" is worth more than one "b"
    PoolMath.Quote scarce = PoolMath.quote(stable(100_000_000_000L, 300_000_000_000L, 10, "0"), "a", BigInteger.valueOf(1_000_000));
    assertTrue(scarce.amountOut().compareTo(BigInteger.valueOf(1_000_000)) > 0, scarce.amountOut().toString());
    assertTrue(scarce.impactPercent().compareTo(new BigDecimal("0.01")) < 0, pct(scarce.impactPercent()));
  }
}
