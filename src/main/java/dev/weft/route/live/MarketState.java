package dev.weft.route.live;

import dev.weft.route.registry.Registry;
import dev.weft.route.registry.SwapVenue;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What was last read from the chains: the state of each live venue (by {@code chain/name}) and the oracle prices (by
 * symbol). Immutable; the source replaces it as a whole.
 */
public record MarketState(Map<String, VenueState> venues, Map<String, OraclePrice> prices) {
    public static final MarketState EMPTY = new MarketState(Map.of(), Map.of());

    public MarketState {
        venues = Map.copyOf(venues);
        prices = Map.copyOf(prices);
    }

    public MarketState withVenue(VenueState v) {
        Map<String, VenueState> m = new LinkedHashMap<>(venues);
        m.put(v.key(), v);
        return new MarketState(m, prices);
    }

    /** Whether some live venue has state older than {@code maxAge}. */
    public boolean anyStale(Instant now, Duration maxAge) {
        return venues.values().stream().anyMatch(s -> stale(s, now, maxAge));
    }

    public MarketState withPrices(Map<String, OraclePrice> read) {
        Map<String, OraclePrice> m = new LinkedHashMap<>(prices);
        m.putAll(read);
        return new MarketState(venues, m);
    }

    /** Whether a venue's state was read longer than {@code maxAge} before {@code now}. */
    public static boolean stale(VenueState s, Instant now, Duration maxAge) {
        return s.readAt().plus(maxAge).isBefore(now);
    }

    /**
     * The registry as quotes use it at {@code now}: every live venue with the pools last read (none before the first
     * read, none when that read is older than {@code maxAge} unless {@code withStale}), fixed venues as listed, and the
     * oracle prices updated within {@code maxAge}.
     */
    public Registry apply(Registry base, Instant now, Duration maxAge, boolean withStale) {
        List<SwapVenue> venuesNow = new ArrayList<>();
        for (SwapVenue v : base.venues()) {
            if (!v.live()) {
                venuesNow.add(v);
                continue;
            }
            VenueState s = venues.get(v.chainId() + "/" + v.name());
            venuesNow.add(v.withPools(s == null || !withStale && stale(s, now, maxAge) ? List.of() : s.pools()));
        }
        Map<String, BigDecimal> fresh = new LinkedHashMap<>();
        for (OraclePrice p : prices.values()) {
            if (!p.updatedAt().plus(maxAge).isBefore(now)) fresh.put(p.symbol(), p.usd());
        }
        return base.withMarket(venuesNow, fresh);
    }
}
