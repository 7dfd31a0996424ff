package dev.weft.route.graph;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a route request allows (Skip's {@code bridges}, {@code allow_swaps}, {@code swap_venues},
 * {@code allow_multi_tx}): the edge kinds a route may use, whether it may swap and on which venues, and whether it must
 * fit in one user tx. {@link #NONE} allows everything.
 *
 * @param kinds  the non-swap edge kinds allowed
 * @param swaps  whether a swap is allowed
 * @param venues the venues a swap may use, as {@code chain_id + "/" + name} or {@code "*" + "/" + name} (null: any)
 */
public record RouteLimits(Set<Edge.Kind> kinds, boolean swaps, Set<String> venues, boolean singleTx) {
    private static final Set<Edge.Kind> ALL_BRIDGES = EnumSet.complementOf(EnumSet.of(Edge.Kind.SWAP));
    public static final RouteLimits NONE = new RouteLimits(ALL_BRIDGES, true, null, false);

    public RouteLimits {
        kinds = Set.copyOf(kinds);
        venues = venues == null ? null : Set.copyOf(venues);
    }

    public boolean isNone() {
        return equals(NONE);
    }

    public boolean allows(Edge e) {
        if (!e.isSwap()) return kinds.contains(e.kind());
        if (!swaps) return false;
        return venues == null
                || venues.contains(e.venue().chainId() + "/" + e.venue().name())
                || venues.contains("*/" + e.venue().name());
    }

    /** The same limits without the single-tx rule (to tell "no single-tx route" from "no route"). */
    public RouteLimits withMultiTx() {
        return new RouteLimits(kinds, swaps, venues, false);
    }
}
