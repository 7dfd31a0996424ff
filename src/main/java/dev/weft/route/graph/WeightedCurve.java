package dev.weft.route.graph;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The out-given-in of InitiaDEX's weighted pairs on raw 18-decimal fixed-point integers ({@code v} stands for
 * {@code v/10^18}), reproducing {@code 0x1::dex::swap_simulation} and {@code 0x1::bigdecimal} rounding: a product
 * {@code a·b/10^18} and a quotient {@code a·10^18/b} are truncated, a product with an integer is exact.
 *
 * <p>Each step exists twice: on {@code long}s (the search evaluates many swaps per request and most pools' numbers fit;
 * no allocation) and on {@code BigInteger}s (any size). The {@code long} forms answer {@link #TOO_WIDE} where an
 * intermediate would not fit, and the caller then takes the {@code BigInteger} form: both give the same result
 * (WeightedCurveTest compares them).
 */
final class WeightedCurve {
    static final BigInteger UNIT = BigInteger.TEN.pow(18);
    static final long UNIT_LONG = 1_000_000_000_000_000_000L;
    /** The module aborts (no quote). */
    static final long NONE = -1;
    /** An operand or intermediate is too large for the {@code long} form: use the {@code BigInteger} one. */
    static final long TOO_WIDE = -2;

    private static final long STOP_LONG = 100_000;
    private static final long BASE_MIN_LONG = UNIT_LONG / 100;
    private static final long BASE_MAX_LONG = UNIT_LONG * 2;
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
    static BigInteger[] outGivenIn(
            BigInteger reserveIn, BigInteger reserveOut, BigInteger exponent, BigInteger amountIn, BigInteger feeRate) {
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
        return new BigInteger[] {out, fee};
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

    /** ⌈rate·n⌉ for 0 ≤ rate ≤ 10^18 (a fraction) and 0 ≤ n. */
    static long ceilTimes(long rate, long n) {
        long q = U128.mulDiv(rate, n, UNIT_LONG);
        // the remainder rate·n − q·10^18 is below 10^18, so the wrapped 64-bit difference is exact
        return rate * n - q * UNIT_LONG != 0 ? q + 1 : q;
    }

    /**
     * The amount a weighted pair returns for {@code net} (the input after its fee), or {@link #NONE} where the module
     * aborts, or {@link #TOO_WIDE}; reserves and {@code net} below 2^62, {@code exponent} non-negative.
     */
    static long outGivenNet(long reserveIn, long reserveOut, long exponent, long net) {
        long base = U128.mulDiv(reserveIn, UNIT_LONG, reserveIn + net);
        if (base <= BASE_MIN_LONG || base >= BASE_MAX_LONG) return NONE;
        long kept = power(base, exponent);
        if (kept == TOO_WIDE) return TOO_WIDE;
        if (kept < 0 || kept > UNIT_LONG) return NONE;
        return U128.mulDiv(UNIT_LONG - kept, reserveOut, UNIT_LONG);
    }

    /** {@link #power(BigInteger, BigInteger)} on longs, or {@link #TOO_WIDE} (a large exponent makes large terms). */
    static long power(long base, long exponent) {
        boolean below = base < UNIT_LONG;
        long k = U128.mulDiv(lnMagnitude(base), exponent, UNIT_LONG);
        if (k == U128.OVERFLOW) return TOO_WIDE;
        long plus = UNIT_LONG;
        long minus = 0;
        long term = k;
        for (long n = 1; term > STOP_LONG; n++) {
            if (below && n % 2 == 1) minus += term;
            else plus += term;
            if (plus < 0 || minus < 0) return TOO_WIDE;
            long next = U128.mulDiv(term, k, UNIT_LONG);
            if (next == U128.OVERFLOW) return TOO_WIDE;
            term = next / (n + 1);
        }
        return plus - minus;
    }

    /** {@link #lnMagnitude(BigInteger)} on longs, for 0 &lt; x &lt; 2·10^18 (its result stays below 5·10^18). */
    static long lnMagnitude(long x) {
        boolean below = x < UNIT_LONG;
        long a = below ? UNIT_LONG - x : x - UNIT_LONG;
        long sum = 0;
        long term = a;
        for (long n = 1; term > STOP_LONG; n++) {
            sum = !below && n % 2 == 0 ? sum - term : sum + term;
            term = U128.mulDiv(U128.mulDiv(term, a, UNIT_LONG), n, n + 1);
        }
        return sum;
    }
}
