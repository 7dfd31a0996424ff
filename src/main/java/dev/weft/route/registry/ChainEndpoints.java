package dev.weft.route.registry;

import java.util.List;

/** Where a chain's node APIs are, as the registry says; shared by the route and track roles. */
public final class ChainEndpoints {
    private ChainEndpoints() {}

    /** The REST URLs of a chain: the registry's {@code apis.rest}, else none. */
    public static List<String> rest(Registry registry, String chainId) {
        Chain c = registry.chain(chainId);
        if (c != null && c.rest() != null && !c.rest().isBlank()) return List.of(c.rest());
        return List.of();
    }
}
