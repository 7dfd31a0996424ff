package dev.weft.route.registry;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * A DEX on one chain and its pools. A venue with a {@code moduleAddress} (InitiaDEX: {@code 0x1}) is read from the
 * chain: its pools are discovered and kept fresh by the route role's market-state source, and {@code pools} lists what
 * was last read. A venue without one trades only the pools the registry lists (fixed reserves: tests, examples).
 *
 * <p>{@code hookEntryPoint} is the address of Skip's Move entry point ({@code entry_point::swap_and_action},
 * initia-labs/skipapi-move-integration) on the venue's chain, or null: with it, and ibc-hooks on the chain, an IBC
 * transfer can swap on arrival in the same tx (the hook's caller is an intermediate account nobody can sign for, so the
 * output must leave it in the same call, which {@code dex::swap_script} does not do and the entry point does).
 */
public record SwapVenue(
        String name, String chainId, String logoUri, String moduleAddress, String hookEntryPoint, List<Pool> pools) {

    public enum PoolType {
        WEIGHTED,
        STABLESWAP
    }

    public SwapVenue {
        pools = List.copyOf(pools);
    }

    /** Whether the venue's pools come from the chain. */
    public boolean live() {
        return moduleAddress != null;
    }

    public SwapVenue withPools(List<Pool> read) {
        return new SwapVenue(name, chainId, logoUri, moduleAddress, hookEntryPoint, read);
    }

    /**
     * A two-asset pool. {@code pool} is the pool's id as the venue names it (InitiaDEX: {@code move/<object address>},
     * the LP token of the pair). Weighted pools ({@code 0x1::dex}) trade on {@code weightA}/{@code weightB} (their
     * current weights, 18 decimals); stableswap pools ({@code 0x1::stableswap}) on {@code ann} = A·n^n·100.
     */
    public record Pool(
            String pool,
            PoolType type,
            String denomA,
            String denomB,
            BigInteger reserveA,
            BigInteger reserveB,
            BigDecimal feeRate,
            BigDecimal weightA,
            BigDecimal weightB,
            long ann) {

        /** A 50/50 weighted pair. */
        public static Pool weighted(
                String pool,
                String denomA,
                String denomB,
                BigInteger reserveA,
                BigInteger reserveB,
                BigDecimal feeRate) {
            BigDecimal half = new BigDecimal("0.5");
            return new Pool(pool, PoolType.WEIGHTED, denomA, denomB, reserveA, reserveB, feeRate, half, half, 0);
        }

        /** A two-coin stableswap pool of amplification A (ann = A·4·100). */
        public static Pool stable(
                String pool,
                String denomA,
                String denomB,
                BigInteger reserveA,
                BigInteger reserveB,
                BigDecimal feeRate,
                long a) {
            return new Pool(
                    pool, PoolType.STABLESWAP, denomA, denomB, reserveA, reserveB, feeRate, null, null, a * 4 * 100);
        }

        public BigInteger reserveOf(String denom) {
            return denom.equals(denomA) ? reserveA : reserveB;
        }

        public BigDecimal weightOf(String denom) {
            return denom.equals(denomA) ? weightA : weightB;
        }
    }
}
