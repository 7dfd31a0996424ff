package dev.weft.route.registry;

import java.util.List;
import java.util.Map;

/** Where a chain's node APIs are, as the configuration and the registry say; shared by the route and track roles. */
public final class ChainEndpoints {
    private ChainEndpoints() {}

    /**
     * The REST URLs of a chain: its entry of {@code configured} ({@code route.rest}), else the registry's
     * {@code apis.rest}, else none.
     */
    public static List<String> rest(Registry registry, String chainId, Map<String, List<String>> configured) {
        List<String> own = configured.get(chainId);
        if (own != null) return own;
        Chain c = registry.chain(chainId);
        if (c != null && c.rest() != null && !c.rest().isBlank()) return List.of(c.rest());
        return List.of();
    }
}
