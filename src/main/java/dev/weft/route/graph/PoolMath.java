package dev.weft.route.graph;

import dev.weft.route.registry.SwapVenue.Pool;
import dev.weft.route.registry.SwapVenue.PoolType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Exact swap math on a pool's configured reserves. Out-amounts are rounded down.
 * <ul>
 *   <li>constant product (InitiaDEX 50/50 weighted pools): the fee is taken from the input,
 *       {@code out = floor(B_out·a·(1−f) / (B_in + a·(1−f)))};</li>
 *   <li>stableswap (Curve invariant {@code A·n^n·Σx + D = A·D·n^n + D^(n+1)/(n^n·Πx)}, n = 2): D and the new out-reserve
 *       by Newton's method on integers as Curve computes them, {@code dy = y − y' − 1}; the fee is taken from the output.</li>
 * </ul>
 * Price impact compares the execution price (out/in, fee included) with the fee-free spot price:
 * {@code impact% = (1 − exec/spot)·100} (spot = B_out/B_in for constant product, −dy/dx of the invariant for stableswap).
 */
public final class PoolMath {
  private static final MathContext MC = MathContext.DECIMAL128;
  private static final BigInteger TWO = BigInteger.TWO;
  private static final BigInteger FOUR = BigInteger.valueOf(4);
  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  private PoolMath() {}

  /**
   * @param amountOut      what the swap returns
   * @param fee            the fee amount, in {@code feeDenom} (the input denom for constant product, the output for stableswap)
   * @param impactPercent  price impact in percent, never negative
   */
  public record Quote(BigInteger amountOut, BigInteger fee, String feeDenom, BigDecimal impactPercent) {}

  public static Quote quote(Pool p, String denomIn, BigInteger amountIn) {
    String denomOut = denomIn.equals(p.denomA()) ? p.denomB() : p.denomA();
    BigInteger bIn = p.reserveOf(denomIn);
    BigInteger bOut = p.reserveOf(denomOut);
    BigInteger out;
    BigInteger fee;
    String feeDenom;
    BigDecimal spot;
    if (p.type() == PoolType.CONSTANT_PRODUCT) {
      BigDecimal aEff = new BigDecimal(amountIn).multiply(BigDecimal.ONE.subtract(p.feeRate()));
      out = new BigDecimal(bOut).multiply(aEff).divide(new BigDecimal(bIn).add(aEff), 0, RoundingMode.FLOOR).toBigInteger();
      fee = new BigDecimal(amountIn).multiply(p.feeRate()).setScale(0, RoundingMode.FLOOR).toBigInteger();
      feeDenom = denomIn;
      spot = new BigDecimal(bOut).divide(new BigDecimal(bIn), MC);
    } else {
      BigInteger d = stableD(bIn, bOut, p.amplification());
      BigInteger yNew = stableY(bIn.add(amountIn), d, p.amplification());
      BigInteger dy = bOut.subtract(yNew).subtract(BigInteger.ONE).max(BigInteger.ZERO);
      fee = new BigDecimal(dy).multiply(p.feeRate()).setScale(0, RoundingMode.FLOOR).toBigInteger();
      out = dy.subtract(fee);
      feeDenom = denomOut;
      spot = stableSpot(bIn, bOut, d, p.amplification());
    }
    BigDecimal exec = new BigDecimal(out).divide(new BigDecimal(amountIn), MC);
    BigDecimal impact = BigDecimal.ONE.subtract(exec.divide(spot, MC)).multiply(HUNDRED);
    return new Quote(out, fee, feeDenom, impact.signum() < 0 ? BigDecimal.ZERO : impact);
  }

  /** Curve's {@code get_D} for two coins (Ann = A·n^n). */
  static BigInteger stableD(BigInteger x, BigInteger y, long amp) {
    BigInteger s = x.add(y);
    if (s.signum() == 0) return BigInteger.ZERO;
    BigInteger ann = BigInteger.valueOf(amp).multiply(FOUR);
    BigInteger d = s;
    for (int i = 0; i < 255; i++) {
      BigInteger dp = d.multiply(d).divide(x.multiply(TWO)).multiply(d).divide(y.multiply(TWO));
      BigInteger prev = d;
      d = ann.multiply(s).add(dp.multiply(TWO)).multiply(d)
          .divide(ann.subtract(BigInteger.ONE).multiply(d).add(BigInteger.valueOf(3).multiply(dp)));
      if (d.subtract(prev).abs().compareTo(BigInteger.ONE) <= 0) break;
    }
    return d;
  }

  /** Curve's {@code get_y}: the other reserve once one reserve is {@code x}, keeping D. */
  static BigInteger stableY(BigInteger x, BigInteger d, long amp) {
    BigInteger ann = BigInteger.valueOf(amp).multiply(FOUR);
    BigInteger c = d.multiply(d).divide(x.multiply(TWO)).multiply(d).divide(ann.multiply(TWO));
    BigInteger b = x.add(d.divide(ann));
    BigInteger y = d;
    for (int i = 0; i < 255; i++) {
      BigInteger prev = y;
      y = y.multiply(y).add(c).divide(y.multiply(TWO).add(b).subtract(d));
      if (y.subtract(prev).abs().compareTo(BigInteger.ONE) <= 0) break;
    }
    return y;
  }

  /** −dy/dx on the invariant at (x, y): (4A + D³/(4x²y)) / (4A + D³/(4xy²)). */
  static BigDecimal stableSpot(BigInteger x, BigInteger y, BigInteger d, long amp) {
    BigDecimal a4 = BigDecimal.valueOf(amp).multiply(BigDecimal.valueOf(4));
    BigDecimal d3 = new BigDecimal(d.pow(3));
    BigDecimal bx = new BigDecimal(x);
    BigDecimal by = new BigDecimal(y);
    BigDecimal fx = a4.add(d3.divide(BigDecimal.valueOf(4).multiply(bx).multiply(bx).multiply(by), MC));
    BigDecimal fy = a4.add(d3.divide(BigDecimal.valueOf(4).multiply(bx).multiply(by).multiply(by), MC));
    return fx.divide(fy, MC);
  }
}
