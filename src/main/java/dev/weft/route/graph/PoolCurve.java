package dev.weft.route.graph;

import dev.weft.route.registry.SwapVenue.Pool;
import dev.weft.route.registry.SwapVenue.PoolType;

import java.math.BigInteger;

/**
 * A pool's parameters in the module's 18-decimal fixed point, derived once per pool state (a route graph is built per
 * market state) instead of on every swap a search evaluates: the fee rate, each direction's weight exponent
 * {@code w_in/w_out} of a weighted pair, and a stableswap pool's invariant D, which depends only on its reserves.
 */
final class PoolCurve {
  final Pool pool;
  final BigInteger feeRate;
  /** w_A/w_B and w_B/w_A (weighted pairs; null for stableswap). */
  final BigInteger exponentFromA;
  final BigInteger exponentFromB;
  /** The stableswap invariant at the pool's reserves (null for weighted pairs). */
  final BigInteger d;

  private PoolCurve(Pool pool) {
    this.pool = pool;
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
      d = PoolMath.stableD(pool.reserveA(), pool.reserveB(), pool.ann());
    }
  }

  static PoolCurve of(Pool pool) {
    return new PoolCurve(pool);
  }

  BigInteger exponentFrom(String denomIn) {
    return denomIn.equals(pool.denomA()) ? exponentFromA : exponentFromB;
  }
}
