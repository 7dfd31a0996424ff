package dev.weft.route.registry;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An immutable registry version: chains, assets (listed and derived), IBC channels, OPinit bridges, LayerZero lanes,
 * swap venues, ERC-20 wrappers and USD prices, with the lookups the router needs. Built by {@link RegistryLoader}.
 */
public final class Registry {
    private final List<String> sources;
    private final Map<String, Chain> chains;
    private final List<Asset> assets;
    private final Map<String, Map<String, Asset>> assetsByChain;
    private final Map<String, Map<String, Asset>> aliasesByChain;
    private final List<IbcChannel> channels;
    private final Map<String, IbcChannel> channelIndex;
    private final List<LayerZeroLane> lanes;
    private final List<SwapVenue> venues;
    private final List<Erc20Wrapper> wrappers;
    private final Map<String, BigDecimal> usdPrices;
    private final List<String> priceOracles;
    private final Map<String, BigDecimal> oraclePrices;

    Registry(
            List<String> sources,
            Map<String, Chain> chains,
            List<Asset> assets,
            List<IbcChannel> channels,
            List<LayerZeroLane> lanes,
            List<SwapVenue> venues,
            List<Erc20Wrapper> wrappers,
            Map<String, BigDecimal> usdPrices) {
        this(sources, chains, assets, channels, lanes, venues, wrappers, usdPrices, List.of(), Map.of());
    }

    Registry(
            List<String> sources,
            Map<String, Chain> chains,
            List<Asset> assets,
            List<IbcChannel> channels,
            List<LayerZeroLane> lanes,
            List<SwapVenue> venues,
            List<Erc20Wrapper> wrappers,
            Map<String, BigDecimal> usdPrices,
            List<String> priceOracles,
            Map<String, BigDecimal> oraclePrices) {
        this.priceOracles = List.copyOf(priceOracles);
        this.oraclePrices = Map.copyOf(oraclePrices);
        this.sources = List.copyOf(sources);
        this.chains = Collections.unmodifiableMap(new LinkedHashMap<>(chains));
        this.assets = List.copyOf(assets);
        this.channels = List.copyOf(channels);
        this.lanes = List.copyOf(lanes);
        this.venues = List.copyOf(venues);
        this.wrappers = List.copyOf(wrappers);
        this.usdPrices = Map.copyOf(usdPrices);
        Map<String, Map<String, Asset>> byChain = new LinkedHashMap<>();
        Map<String, Map<String, Asset>> aliases = new LinkedHashMap<>();
        for (Asset a : assets) {
            byChain.computeIfAbsent(a.chainId(), k -> new LinkedHashMap<>()).put(a.denom(), a);
            Map<String, Asset> al = aliases.computeIfAbsent(a.chainId(), k -> new LinkedHashMap<>());
            al.putIfAbsent(a.denom().toLowerCase(Locale.ROOT), a);
            if (a.tokenContract() != null) al.putIfAbsent(a.tokenContract().toLowerCase(Locale.ROOT), a);
        }
        this.assetsByChain = byChain;
        this.aliasesByChain = aliases;
        Map<String, IbcChannel> idx = new LinkedHashMap<>();
        for (IbcChannel c : channels) {
            idx.put(c.chainA() + "/" + c.channelA(), c);
            idx.put(c.chainB() + "/" + c.channelB(), c);
        }
        this.channelIndex = idx;
    }

    /** The registry files (or resources) this version was loaded from. */
    public List<String> sources() {
        return sources;
    }

    public Map<String, Chain> chains() {
        return chains;
    }

    public Chain chain(String chainId) {
        return chains.get(chainId);
    }

    /** Every asset, listed ones first in file order, then the derived ones. */
    public List<Asset> assets() {
        return assets;
    }

    public List<Asset> assetsOn(String chainId) {
        Map<String, Asset> m = assetsByChain.get(chainId);
        return m == null ? List.of() : List.copyOf(m.values());
    }

    /** The asset with exactly this denom on the chain, or null. */
    public Asset asset(String chainId, String denom) {
        Map<String, Asset> m = assetsByChain.get(chainId);
        return m == null ? null : m.get(denom);
    }

    /**
     * The asset a client names: its exact denom, the denom in another case (hex digests, EIP-55 addresses) or, on
     * chains with an EVM, its ERC-20 contract address. Null when unknown.
     */
    public Asset resolve(String chainId, String denom) {
        Asset exact = asset(chainId, denom);
        if (exact != null) return exact;
        Map<String, Asset> m = aliasesByChain.get(chainId);
        return m == null ? null : m.get(denom.toLowerCase(Locale.ROOT));
    }

    public List<IbcChannel> channels() {
        return channels;
    }

    /** The transfer channel with this id on this chain, or null. */
    public IbcChannel channel(String chainId, String channelId) {
        return channelIndex.get(chainId + "/" + channelId);
    }

    public List<LayerZeroLane> lanes() {
        return lanes;
    }

    public List<SwapVenue> venues() {
        return venues;
    }

    public List<Erc20Wrapper> wrappers() {
        return wrappers;
    }

    /** The chains whose Connect oracle prices the registry's assets (USD per whole token, by symbol). */
    public List<String> priceOracles() {
        return priceOracles;
    }

    /**
     * This registry with the market state read from the chains: the live venues' pools as last read, and the oracle's
     * USD prices by symbol (upper case).
     */
    public Registry withMarket(List<SwapVenue> liveVenues, Map<String, BigDecimal> pricesBySymbol) {
        return new Registry(
                sources,
                chains,
                assets,
                channels,
                lanes,
                liveVenues,
                wrappers,
                usdPrices,
                priceOracles,
                pricesBySymbol);
    }

    /**
     * USD price of one whole token of the asset: the oracle's price of its symbol (the origin asset's symbol), else the
     * configured price of its origin, else of itself; null when none.
     */
    public BigDecimal usdPrice(Asset a) {
        if (!oraclePrices.isEmpty()) {
            Asset origin = asset(a.originChainId(), a.originDenom());
            String symbol = origin != null && origin.symbol() != null ? origin.symbol() : a.symbol();
            BigDecimal live = symbol == null ? null : oraclePrices.get(symbol.toUpperCase(Locale.ROOT));
            if (live != null) return live;
        }
        BigDecimal p = usdPrices.get(a.originChainId() + "/" + a.originDenom());
        return p != null ? p : usdPrices.get(a.key());
    }
}
