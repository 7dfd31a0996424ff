package dev.weft.route.registry;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/** A DEX on one chain and its pools. */
public record SwapVenue(String name, String chainId, String logoUri, List<Pool> pools) {

  public enum PoolType { CONSTANT_PRODUCT, STABLESWAP }

  /**
   * A two-asset pool. {@code pool} is the pool's id as the venue names it (InitiaDEX: {@code move/<object address>},
   * the LP token of the pair). {@code amplification} is Curve's A (stableswap only).
   */
  public record Pool(String pool, PoolType type, String denomA, String denomB, BigInteger reserveA, BigInteger reserveB,
                     BigDecimal feeRate, long amplification) {

    public BigInteger reserveOf(String denom) {
      return denom.equals(denomA) ? reserveA : reserveB;
    }
  }
}
