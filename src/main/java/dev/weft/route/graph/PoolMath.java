package dev.weft.route.graph;

import dev.weft.route.registry.SwapVenue.Pool;
import dev.weft.route.registry.SwapVenue.PoolType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Swap quotes that equal what InitiaDEX returns to the unit (initia-labs/movevm {@code initia_stdlib}):
 * <ul>
 *   <li>weighted pairs ({@code dex::swap_simulation}): fee = ⌈rate·in⌉, at least 1, in the input coin;
 *       {@code out = ⌊(1 − (B_in/(B_in + in − fee))^(w_in/w_out))·B_out⌋}, the power computed as the module does,
 *       {@code exp(k)} with {@code k = (w_in/w_out)·ln(base)} by Taylor series stopped at a term ≤ 10^-13, every
 *       step in 18-decimal fixed point truncated like {@code bigdecimal} (see {@link WeightedCurve});</li>
 *   <li>stableswap pools ({@code stableswap::swap_simulation}): Curve's D and y by the module's integer iterations
 *       with ann = A·n^n·100, {@code dy = B_out − y − 1}, fee = ⌈rate·dy⌉ in the output coin, out = dy − fee.</li>
 * </ul>
 * Price impact compares the execution price (out/in, fee included) with the fee-free spot price:
 * {@code impact% = (1 − exec/spot)·100}; spot = (B_out/w_out)/(B_in/w_in) for a weighted pair (the module's
 * {@code get_spot_price}), −dy/dx of the invariant for stableswap. An amount the module would abort on (a base out of
 * its range, an overflowing u64) has no quote (out 0).
 */
public final class PoolMath {
    private static final MathContext MC = MathContext.DECIMAL128;
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
    private static final BigInteger A_PRECISION = BigInteger.valueOf(100);
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private PoolMath() {}

    /**
     * @param amountOut      what the swap returns (0 when the module would abort)
     * @param fee            the fee amount, in {@code feeDenom} (the input denom for weighted pairs, the output for stableswap)
     * @param impactPercent  price impact in percent, never negative
     */
    public record Quote(BigInteger amountOut, BigInteger fee, String feeDenom, BigDecimal impactPercent) {}

    private static final Quote NONE = new Quote(BigInteger.ZERO, BigInteger.ZERO, "", HUNDRED);

    public static Quote quote(Pool p, String denomIn, BigInteger amountIn) {
        return quote(PoolCurve.of(p), denomIn, amountIn);
    }

    static Quote quote(PoolCurve c, String denomIn, BigInteger amountIn) {
        Pool p = c.pool;
        String denomOut = denomIn.equals(p.denomA()) ? p.denomB() : p.denomA();
        Swap swap = swap(c, denomIn, denomOut, amountIn);
        if (swap == null) return NONE;
        BigDecimal spot = c.spotFrom(denomIn);
        BigDecimal exec = new BigDecimal(swap.out()).divide(new BigDecimal(amountIn), MC);
        BigDecimal impact = BigDecimal.ONE.subtract(exec.divide(spot, MC)).multiply(HUNDRED);
        return new Quote(swap.out(), swap.fee(), swap.feeDenom(), impact.signum() < 0 ? BigDecimal.ZERO : impact);
    }

    /** The fee-free spot price of {@code denomOut} per {@code denomIn}. */
    static BigDecimal spot(PoolCurve c, String denomIn, String denomOut) {
        Pool p = c.pool;
        BigInteger bIn = p.reserveOf(denomIn);
        BigInteger bOut = p.reserveOf(denomOut);
        return p.type() == PoolType.WEIGHTED
                ? new BigDecimal(bOut)
                        .multiply(p.weightOf(denomIn))
                        .divide(new BigDecimal(bIn).multiply(p.weightOf(denomOut)), MC)
                : stableSpot(bIn, bOut, c.d, p.ann());
    }

    /** A swap's result. */
    private record Swap(BigInteger out, BigInteger fee, String feeDenom) {}

    /** The swap through one pool, null where the module aborts or it returns nothing. */
    private static Swap swap(PoolCurve c, String denomIn, String denomOut, BigInteger amountIn) {
        if (c.empty || amountIn.signum() <= 0 || amountIn.compareTo(U64_MAX) > 0) return null;
        if (c.narrow && PoolCurve.fits(amountIn)) {
            Swap s = narrowSwap(c, denomIn, denomOut, amountIn.longValue());
            if (s != WIDE) return s;
        }
        Pool p = c.pool;
        BigInteger bIn = p.reserveOf(denomIn);
        BigInteger bOut = p.reserveOf(denomOut);
        Swap s;
        if (p.type() == PoolType.WEIGHTED) {
            BigInteger[] r = WeightedCurve.outGivenIn(bIn, bOut, c.exponentFrom(denomIn), amountIn, c.feeRate);
            if (r == null) return null;
            s = new Swap(r[0], r[1], denomIn);
        } else {
            if (bIn.add(amountIn).compareTo(U64_MAX) > 0) return null;
            BigInteger y = stableY(bIn.add(amountIn), c.d, p.ann());
            BigInteger dy = bOut.subtract(y).subtract(BigInteger.ONE);
            if (dy.signum() < 0) return null;
            BigInteger fee = WeightedCurve.ceilTimes(c.feeRate, dy);
            s = new Swap(dy.subtract(fee), fee, denomOut);
        }
        return s.out().signum() > 0 ? s : null;
    }

    /** The result of {@link #narrowSwap} where the {@code long} math does not reach: take the {@code BigInteger} path. */
    private static final Swap WIDE = new Swap(BigInteger.ZERO, BigInteger.ZERO, "");

    /** {@link #swap} on longs (a narrow pool, an amount below 2^62): the swap, null, or {@link #WIDE}. */
    private static Swap narrowSwap(PoolCurve c, String denomIn, String denomOut, long amountIn) {
        long bIn = c.reserveLong(denomIn);
        long bOut = c.reserveLong(denomOut);
        long out;
        long fee;
        String feeDenom;
        if (c.pool.type() == PoolType.WEIGHTED) {
            fee = Math.max(WeightedCurve.ceilTimes(c.feeRateLong, amountIn), 1);
            if (fee > amountIn) return null;
            out = WeightedCurve.outGivenNet(bIn, bOut, c.exponentFromLong(denomIn), amountIn - fee);
            if (out == WeightedCurve.TOO_WIDE) return WIDE;
            feeDenom = denomIn;
        } else {
            long y = stableY(bIn + amountIn, c.dLong, c.pool.ann());
            if (y == WeightedCurve.TOO_WIDE) return WIDE;
            long dy = bOut - y - 1;
            if (dy < 0) return null;
            fee = WeightedCurve.ceilTimes(c.feeRateLong, dy);
            out = dy - fee;
            feeDenom = denomOut;
        }
        return out > 0 ? new Swap(BigInteger.valueOf(out), BigInteger.valueOf(fee), feeDenom) : null;
    }

    /**
     * What a swap edge returns (its pools chained), 0 where a pool would abort: the amount of {@link #quotes} without the price
     * impact, which the route search does not need.
     */
    static BigInteger amountOut(RouteGraph g, Edge e, String denomIn, BigInteger amountIn) {
        List<String> denoms = e.swapDenoms(denomIn);
        List<Pool> pools = e.pools();
        BigInteger amount = amountIn;
        for (int i = 0; i < pools.size(); i++) {
            Swap s = swap(g.curve(pools.get(i)), denoms.get(i), denoms.get(i + 1), amount);
            if (s == null) return BigInteger.ZERO;
            amount = s.out();
        }
        return amount;
    }

    /**
     * The smallest input for which a swap edge returns at least {@code target} (null when no input up to 2^64 − 1, Move's
     * u64, does): the exact inverse of {@link #amountOut}, found by bisection on it (what it returns never falls as the
     * input grows), so an exact-out quote holds to the unit whatever the pool type.
     */
    static BigInteger amountInFor(RouteGraph g, Edge e, String denomIn, BigInteger target) {
        BigInteger hi = target.max(BigInteger.ONE);
        while (amountOut(g, e, denomIn, hi).compareTo(target) < 0) {
            if (hi.compareTo(U64_MAX) >= 0) return null;
            hi = hi.shiftLeft(1).min(U64_MAX);
        }
        BigInteger lo = BigInteger.ZERO; // amountOut(lo) < target (an input of 0 returns nothing)
        while (hi.subtract(lo).compareTo(BigInteger.ONE) > 0) {
            BigInteger mid = lo.add(hi).shiftRight(1);
            if (amountOut(g, e, denomIn, mid).compareTo(target) >= 0) hi = mid;
            else lo = mid;
        }
        return hi;
    }

    /**
     * A swap edge's quote from the quotes of its pools ({@link #quotes}): its pool's, or for a two-pool path the pools
     * chained (the second swaps what the first returns, as Skip's entry point does), with the first pool's fee and the
     * compounded price impact.
     */
    static Quote combined(List<Quote> each) {
        if (each.size() == 1) return each.get(0);
        Quote first = each.get(0);
        Quote last = each.get(each.size() - 1);
        if (last.amountOut().signum() <= 0) return NONE;
        BigDecimal kept = BigDecimal.ONE;
        for (Quote q : each)
            kept = kept.multiply(BigDecimal.ONE.subtract(q.impactPercent().divide(HUNDRED, MC)), MC);
        BigDecimal impact = BigDecimal.ONE.subtract(kept).multiply(HUNDRED);
        return new Quote(
                last.amountOut(), first.fee(), first.feeDenom(), impact.signum() < 0 ? BigDecimal.ZERO : impact);
    }

    /** The quote of each pool of a swap edge in order (a pool after one that returns nothing gets no quote). */
    static List<Quote> quotes(RouteGraph g, Edge e, String denomIn, BigInteger amountIn) {
        List<Quote> out = new ArrayList<>();
        List<String> denoms = e.swapDenoms(denomIn);
        BigInteger amount = amountIn;
        List<Pool> pools = e.pools();
        for (int i = 0; i < pools.size(); i++) {
            Quote q = quote(g.curve(pools.get(i)), denoms.get(i), amount);
            out.add(q);
            amount = q.amountOut();
        }
        return out;
    }

    /** The module's {@code get_d} for two coins: Newton's iteration on D in u256, ann including A_PRECISION. */
    static BigInteger stableD(BigInteger x, BigInteger y, long ann) {
        BigInteger sum = x.add(y);
        if (sum.signum() == 0) return BigInteger.ZERO;
        BigInteger a = BigInteger.valueOf(ann);
        BigInteger two = BigInteger.TWO;
        BigInteger d = sum;
        for (int round = 0; round < 255; round++) {
            BigInteger dProd =
                    d.multiply(d).divide(two).divide(x).multiply(d).divide(two).divide(y);
            BigInteger next = a.multiply(sum)
                    .divide(A_PRECISION)
                    .add(dProd.multiply(two))
                    .multiply(d)
                    .divide(a.subtract(A_PRECISION)
                            .multiply(d)
                            .divide(A_PRECISION)
                            .add(BigInteger.valueOf(3).multiply(dProd)));
            boolean done = next.subtract(d).abs().compareTo(BigInteger.ONE) <= 0;
            d = next;
            if (done) break;
        }
        return d;
    }

    /** The module's {@code get_y_with_given_d}: the other balance once one balance is {@code x}, keeping D. */
    static BigInteger stableY(BigInteger x, BigInteger d, long ann) {
        BigInteger a = BigInteger.valueOf(ann);
        BigInteger two = BigInteger.TWO;
        BigInteger c = d.multiply(d)
                .divide(x.multiply(two))
                .multiply(d)
                .multiply(A_PRECISION)
                .divide(a)
                .divide(two);
        BigInteger bPlusD = x.add(d.multiply(A_PRECISION).divide(a));
        BigInteger y = d;
        for (int round = 0; round < 255; round++) {
            BigInteger next =
                    y.multiply(y).add(c).divide(y.multiply(two).add(bPlusD).subtract(d));
            boolean done = next.subtract(y).abs().compareTo(BigInteger.ONE) <= 0;
            y = next;
            if (done) break;
        }
        return y;
    }

    /**
     * {@link #stableY(BigInteger, BigInteger, long)} on longs for non-negative x and d and a positive ann, with the
     * module's u256 intermediates in 128 bits, or {@link WeightedCurve#TOO_WIDE} where one would not fit (x or d from
     * 2^61 on, among others).
     */
    static long stableY(long x, long d, long ann) {
        if (x >= 1L << 61 || x <= 0) return WeightedCurve.TOO_WIDE;
        long q = U128.mulDiv(d, d, 2 * x);
        if (q == U128.OVERFLOW) return WeightedCurve.TOO_WIDE;
        // c = ⌊⌊q·d·100/ann⌋/2⌋ in 128 bits (cHi, cLo)
        long mHi = Math.multiplyHigh(q, d);
        long mLo = q * d;
        if ((mHi >>> 56) != 0) return WeightedCurve.TOO_WIDE;
        long pHi = mHi * 100 + U128.mulHigh(mLo, 100);
        long pLo = mLo * 100;
        long cHi = Long.divideUnsigned(pHi, ann);
        long cLo = U128.divide(Long.remainderUnsigned(pHi, ann), pLo, ann);
        cLo = (cLo >>> 1) | (cHi << 63);
        cHi >>>= 1;
        long scaledD = U128.mulDiv(d, 100, ann);
        if (scaledD == U128.OVERFLOW || scaledD >= 1L << 61) return WeightedCurve.TOO_WIDE;
        long bPlusD = x + scaledD;
        long y = d;
        for (int round = 0; round < 255; round++) {
            if (y >= 1L << 61) return WeightedCurve.TOO_WIDE;
            long sLo = y * y + cLo;
            long sHi = Math.multiplyHigh(y, y) + cHi + (Long.compareUnsigned(sLo, y * y) < 0 ? 1 : 0);
            long den = 2 * y + bPlusD - d;
            if (sHi < 0 || den <= 0 || Long.compareUnsigned(sHi, den) >= 0) return WeightedCurve.TOO_WIDE;
            long next = U128.divide(sHi, sLo, den);
            if (next < 0) return WeightedCurve.TOO_WIDE;
            boolean done = Math.abs(next - y) <= 1;
            y = next;
            if (done) break;
        }
        return y;
    }

    /** −dy/dx on the invariant at (x, y), with Ann = ann/100: (Ann + D³/(4x²y)) / (Ann + D³/(4xy²)). */
    static BigDecimal stableSpot(BigInteger x, BigInteger y, BigInteger d, long ann) {
        BigDecimal a = BigDecimal.valueOf(ann).divide(HUNDRED, MC);
        BigDecimal d3 = new BigDecimal(d.pow(3));
        BigDecimal bx = new BigDecimal(x);
        BigDecimal by = new BigDecimal(y);
        BigDecimal fx =
                a.add(d3.divide(BigDecimal.valueOf(4).multiply(bx).multiply(bx).multiply(by), MC));
        BigDecimal fy =
                a.add(d3.divide(BigDecimal.valueOf(4).multiply(bx).multiply(by).multiply(by), MC));
        return fx.divide(fy, MC);
    }
}
