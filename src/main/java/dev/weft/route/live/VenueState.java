package dev.weft.route.live;

import dev.weft.route.registry.SwapVenue;
import java.time.Instant;
import java.util.List;

/**
 * The pools of a live venue as read from its chain: every pool trading two assets of the registry, with balances,
 * current weights, amplification and fee rate as of block {@code height} (block time {@code blockTime}, seconds),
 * read at {@code readAt}.
 */
public record VenueState(
        String chainId, String name, List<SwapVenue.Pool> pools, long height, long blockTime, Instant readAt) {
    public VenueState {
        pools = List.copyOf(pools);
    }

    public String key() {
        return chainId + "/" + name;
    }
}
