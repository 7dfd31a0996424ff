package dev.weft.devnet.dex;

import dev.weft.chain.Hex;
import dev.weft.devnet.registry.ChainDenoms;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * InitiaDEX state of the devnet L1: the pairs of {@code 0x1::dex} (kept in the order of their table key: coin a, coin b,
 * liquidity token, as bytes) and the pools of {@code 0x1::stableswap}. Its genesis holds four weighted pairs over INIT,
 * USDC, ETH and the INIT that comes back from weft-devnet-1 over IBC (one of them a liquidity bootstrapping pair whose weights
 * move over 30 days, and INIT/ETH, ETH's only pair) and one stableswap pool. Only submitted swaps move the balances.
 */
public final class Dex {
    /** INIT of weft-devnet-1 back on weft-l1-1 over channel-0. */
    public static final String IBC_INIT = "ibc/82EB1C694C571F954E68BFD68CFCFCD6123B0EBB69AAA8BAB7A082939B45E802";

    /** The handle of {@code stableswap::ModuleStore.pools} (a table's handle is an address). */
    static final String STABLE_POOLS_TABLE =
            Hex.prefixed(ChainDenoms.moveMetadata("0x1::stableswap::ModuleStore/pools"));

    private final List<WeightedPair> pairs = new ArrayList<>();
    private final Map<String, WeightedPair> pairByAddress = new LinkedHashMap<>();
    private final Map<String, StablePool> poolByAddress = new LinkedHashMap<>();

    /** The devnet genesis; {@code genesis} is the chain's block 1 time (the LBP's weights start moving then). */
    public static Dex genesis(String chainId, Instant genesis) {
        Dex d = new Dex();
        MoveCoin init = coin("uinit");
        MoveCoin usdc = coin("uusdc");
        MoveCoin ibcInit = coin(IBC_INIT);
        long t0 = genesis.getEpochSecond();
        WeightedPair.Weight half = new WeightedPair.Weight(MoveDecimal.parse("0.5"), MoveDecimal.parse("0.5"), 0);
        d.add(new WeightedPair(
                init,
                usdc,
                poolAddress(chainId, "INIT-USDC"),
                half,
                half,
                MoveDecimal.parse("0.003"),
                1_000_000_000_000L,
                500_000_000_000L));
        WeightedPair.Weight w8020 = new WeightedPair.Weight(MoveDecimal.parse("0.8"), MoveDecimal.parse("0.2"), 0);
        d.add(new WeightedPair(
                init,
                usdc,
                poolAddress(chainId, "INIT-USDC-80-20"),
                w8020,
                w8020,
                MoveDecimal.parse("0.005"),
                400_000_000_000L,
                50_000_000_000L));
        d.add(new WeightedPair(
                usdc,
                ibcInit,
                poolAddress(chainId, "USDC-ibcINIT-LBP"),
                new WeightedPair.Weight(MoveDecimal.parse("0.2"), MoveDecimal.parse("0.8"), t0),
                new WeightedPair.Weight(
                        MoveDecimal.parse("0.5"),
                        MoveDecimal.parse("0.5"),
                        t0 + Duration.ofDays(30).toSeconds()),
                MoveDecimal.parse("0.0025"),
                100_000_000_000L,
                800_000_000_000L));
        // ETH trades only against INIT: USDC → ETH goes through two pools
        d.add(new WeightedPair(
                init,
                coin("ueth"),
                poolAddress(chainId, "INIT-ETH"),
                half,
                half,
                MoveDecimal.parse("0.003"),
                600_000_000_000L,
                100_000_000L));
        // A = 100 for two coins: ann = A · n^n · A_PRECISION
        d.add(new StablePool(
                poolAddress(chainId, "INIT-ibcINIT"),
                List.of(init, ibcInit),
                new long[] {200_000_000_000L, 200_000_000_000L},
                100 * 4 * 100,
                MoveDecimal.parse("0.001")));
        return d;
    }

    private static MoveCoin coin(String denom) {
        return new MoveCoin(denom, Hex.prefixed(ChainDenoms.moveMetadata(denom)));
    }

    /** Pool objects are named objects of 0x1: sha3-256(0x1 ‖ "{chain}/initia-dex/{name}" ‖ 0xFE). */
    static String poolAddress(String chainId, String name) {
        return Hex.prefixed(ChainDenoms.moveMetadata(chainId + "/initia-dex/" + name));
    }

    private void add(WeightedPair p) {
        pairs.add(p);
        pairs.sort(Comparator.comparing((WeightedPair x) -> x.coinA.metadata())
                .thenComparing(x -> x.coinB.metadata())
                .thenComparing(x -> x.liquidityToken));
        pairByAddress.put(p.liquidityToken, p);
    }

    private void add(StablePool p) {
        poolByAddress.put(p.address, p);
    }

    List<WeightedPair> pairs() {
        return pairs;
    }

    WeightedPair pair(String address) {
        return pairByAddress.get(address);
    }

    StablePool pool(String address) {
        return poolByAddress.get(address);
    }

    /** Stableswap pools by address, descending (the order of {@code get_all_pools}). */
    List<StablePool> poolsDescending() {
        return poolByAddress.values().stream()
                .sorted(Comparator.comparing((StablePool p) -> p.address).reversed())
                .toList();
    }

    /** The denom of a metadata address, as {@code coin::metadata_to_denom}; {@code move/<hex>} for an unknown one. */
    String denomOf(String metadata) {
        for (WeightedPair p : pairs) {
            if (p.coinA.metadata().equals(metadata)) return p.coinA.denom();
            if (p.coinB.metadata().equals(metadata)) return p.coinB.denom();
        }
        for (StablePool p : poolByAddress.values()) {
            for (MoveCoin c : p.coins) if (c.metadata().equals(metadata)) return c.denom();
        }
        return "move/" + metadata.substring(2);
    }

    /** {@code coin::denom_to_metadata}: a {@code move/<hex>} denom names its object, any other is 0x1's named object. */
    static String metadataOf(String denom) {
        if (denom.startsWith("move/")) return MoveViews.address(denom.substring(5));
        return Hex.prefixed(ChainDenoms.moveMetadata(denom));
    }
}
