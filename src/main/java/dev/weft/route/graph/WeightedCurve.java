package dev.weft.route.graph;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The out-given-in of InitiaDEX's weighted pairs on raw 18-decimal fixed-point integers ({@code v} stands for
 * {@code v/10^18}), reproducing {@code 0x1::dex::swap_simulation} and {@code 0x1::bigdecimal} rounding: a product
 * {@code a·b/10^18} and a quotient {@code a·10^18/b} are truncated, a product with an integer is exact.
 */
final class WeightedCurve {
  static final BigInteger UNIT = BigInteger.TEN.pow(18);
  /** Series terms are added while larger than 10^5 raw units (10^-13). */
  private static final BigInteger STOP = BigInteger.valueOf(100_000);
  private static final BigInteger BASE_MIN = UNIT.divide(BigInteger.valueOf(100));
  private static final BigInteger BASE_MAX = UNIT.shiftLeft(1);
  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private WeightedCurve() {}

  static BigInteger scaled(BigDecimal v) {
    return v.movePointRight(18).toBigInteger();
  }

  /** ⌈rate·n⌉ for an integer n. */
  static BigInteger ceilTimes(BigInteger rate, BigInteger n) {
    BigInteger[] qr = rate.multiply(n).divideAndRemainder(UNIT);
    return qr[1].signum() > 0 ? qr[0].add(BigInteger.ONE) : qr[0];
  }

  private static BigInteger times(BigInteger a, BigInteger b) {
    return a.multiply(b).divide(UNIT);
  }

  /** a/b truncated, both in fixed point. */
  static BigInteger ratio(BigInteger a, BigInteger b) {
    return a.multiply(UNIT).divide(b);
  }

  /**
   * {return amount, fee} or null where the module aborts (base out of (0.01, 2), a sum above u64); {@code exponent} is
   * {@code ratio(w_in, w_out)}.
   */
  static BigInteger[] outGivenIn(BigInteger reserveIn, BigInteger reserveOut, BigInteger exponent, BigInteger amountIn,
                                 BigInteger feeRate) {
    BigInteger fee = ceilTimes(feeRate, amountIn).max(BigInteger.ONE);
    BigInteger net = amountIn.subtract(fee);
    if (net.signum() < 0) return null;
    BigInteger denominator = reserveIn.add(net);
    if (denominator.compareTo(U64_MAX) > 0) return null;
    BigInteger base = reserveIn.multiply(UNIT).divide(denominator);
    if (base.compareTo(BASE_MIN) <= 0 || base.compareTo(BASE_MAX) >= 0) return null;
    BigInteger kept = power(base, exponent);
    if (kept.signum() < 0 || kept.compareTo(UNIT) > 0) return null;
    BigInteger out = UNIT.subtract(kept).multiply(reserveOut).divide(UNIT);
    return new BigInteger[]{out, fee};
  }

  /**
   * base^exponent for 0.01 &lt; base &lt; 2: e^k with k = exponent·|ln base|; when base &lt; 1 the odd powers of k are
   * negative and are all subtracted after the positive ones are summed (the module's unsigned order of operations).
   */
  static BigInteger power(BigInteger base, BigInteger exponent) {
    boolean below = base.compareTo(UNIT) < 0;
    BigInteger k = times(lnMagnitude(base), exponent);
    BigInteger plus = UNIT;
    BigInteger minus = BigInteger.ZERO;
    BigInteger term = k;
    for (long n = 1; term.compareTo(STOP) > 0; n++) {
      if (below && n % 2 == 1) minus = minus.add(term);
      else plus = plus.add(term);
      term = times(term, k).divide(BigInteger.valueOf(n + 1));
    }
    return plus.subtract(minus);
  }

  /**
   * |ln x| by the Mercator series in a = |x − 1|: for x ≥ 1 the alternating ln(1 + a), for x &lt; 1 the all-positive
   * −ln(1 − a); term n+1 = (term n · a)·n/(n+1).
   */
  static BigInteger lnMagnitude(BigInteger x) {
    boolean below = x.compareTo(UNIT) < 0;
    BigInteger a = below ? UNIT.subtract(x) : x.subtract(UNIT);
    BigInteger sum = BigInteger.ZERO;
    BigInteger term = a;
    for (long n = 1; term.compareTo(STOP) > 0; n++) {
      sum = !below && n % 2 == 0 ? sum.subtract(term) : sum.add(term);
      term = times(term, a).multiply(BigInteger.valueOf(n)).divide(BigInteger.valueOf(n + 1));
    }
    return sum;
  }
}
