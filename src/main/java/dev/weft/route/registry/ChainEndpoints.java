package dev.weft.route.registry;

import dev.weft.runtime.NodeInfo;
import java.util.List;

/** Where a chain's node APIs are, as the registry and the local devnet say; shared by the route and track roles. */
public final class ChainEndpoints {
    private ChainEndpoints() {}

    /**
     * The REST URLs of a chain: the registry's {@code apis.rest}, else the local devnet's REST port for the chain (when
     * this node runs the devnet), else none.
     */
    public static List<String> rest(Registry registry, String chainId, NodeInfo info) {
        Chain c = registry.chain(chainId);
        if (c != null && c.rest() != null && !c.rest().isBlank()) return List.of(c.rest());
        NodeInfo.Devnet devnet = info == null ? null : info.devnet();
        if (devnet == null) return List.of();
        return devnet.chain(chainId).map(d -> List.of(devnet.url(d.restPort()))).orElse(List.of());
    }
}
