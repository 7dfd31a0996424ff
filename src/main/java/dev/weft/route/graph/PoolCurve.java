package dev.weft.route.graph;

import dev.weft.route.registry.SwapVenue.Pool;
import dev.weft.route.registry.SwapVenue.PoolType;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A pool's parameters in the module's 18-decimal fixed point, derived once per pool state (a route graph is built per
 * market state) instead of on every swap a search evaluates: the fee rate, each direction's weight exponent
 * {@code w_in/w_out} of a weighted pair, a stableswap pool's invariant D, which depends only on its reserves, and each
 * direction's spot price.
 */
final class PoolCurve {
    final Pool pool;
    final BigInteger feeRate;
    /** w_A/w_B and w_B/w_A (weighted pairs; null for stableswap). */
    final BigInteger exponentFromA;

    final BigInteger exponentFromB;
    /** The stableswap invariant at the pool's reserves (null for weighted pairs). */
    final BigInteger d;
    /** The fee-free spot price of B in A (B per A) and of A in B, for the price impact. */
    final BigDecimal spotFromA;

    final BigDecimal spotFromB;

    /** A reserve is zero: the pool quotes nothing (and its invariant and spot price are undefined). */
    final boolean empty;

    /**
     * Every parameter is below 2^62 (a fee rate at most 1), so swaps of amounts below 2^62 can take the {@code long}
     * forms of the math; the fields below are those parameters as longs (0 when not {@code narrow}).
     */
    final boolean narrow;

    final long reserveALong;
    final long reserveBLong;
    final long feeRateLong;
    final long exponentFromALong;
    final long exponentFromBLong;
    final long dLong;

    private PoolCurve(Pool pool) {
        this.pool = pool;
        this.empty = pool.reserveA().signum() <= 0 || pool.reserveB().signum() <= 0;
        this.feeRate = WeightedCurve.scaled(pool.feeRate());
        if (pool.type() == PoolType.WEIGHTED) {
            BigInteger wA = WeightedCurve.scaled(pool.weightA());
            BigInteger wB = WeightedCurve.scaled(pool.weightB());
            exponentFromA = WeightedCurve.ratio(wA, wB);
            exponentFromB = WeightedCurve.ratio(wB, wA);
            d = null;
        } else {
            exponentFromA = null;
            exponentFromB = null;
            d = empty ? null : PoolMath.stableD(pool.reserveA(), pool.reserveB(), pool.ann());
        }
        spotFromA = empty ? null : PoolMath.spot(this, pool.denomA(), pool.denomB());
        spotFromB = empty ? null : PoolMath.spot(this, pool.denomB(), pool.denomA());
        narrow = !empty
                && fits(pool.reserveA())
                && fits(pool.reserveB())
                && feeRate.compareTo(WeightedCurve.UNIT) <= 0
                && (pool.type() == PoolType.WEIGHTED
                        ? fits(exponentFromA) && fits(exponentFromB)
                        : fits(d) && pool.ann() > 0);
        reserveALong = narrow ? pool.reserveA().longValue() : 0;
        reserveBLong = narrow ? pool.reserveB().longValue() : 0;
        feeRateLong = narrow ? feeRate.longValue() : 0;
        exponentFromALong = narrow && exponentFromA != null ? exponentFromA.longValue() : 0;
        exponentFromBLong = narrow && exponentFromB != null ? exponentFromB.longValue() : 0;
        dLong = narrow && d != null ? d.longValue() : 0;
    }

    /** Non-negative and below 2^62, so that a sum of two stays a positive long. */
    static boolean fits(BigInteger v) {
        return v.signum() >= 0 && v.bitLength() <= 62;
    }

    static PoolCurve of(Pool pool) {
        return new PoolCurve(pool);
    }

    BigDecimal spotFrom(String denomIn) {
        return denomIn.equals(pool.denomA()) ? spotFromA : spotFromB;
    }

    BigInteger exponentFrom(String denomIn) {
        return denomIn.equals(pool.denomA()) ? exponentFromA : exponentFromB;
    }

    long exponentFromLong(String denomIn) {
        return denomIn.equals(pool.denomA()) ? exponentFromALong : exponentFromBLong;
    }

    long reserveLong(String denom) {
        return denom.equals(pool.denomA()) ? reserveALong : reserveBLong;
    }
}
