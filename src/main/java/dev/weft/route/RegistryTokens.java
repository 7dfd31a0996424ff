package dev.weft.route;

import dev.weft.api.TokenMetadata;
import dev.weft.chain.Hex;
import dev.weft.config.ChainConfig;
import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.RegistryLoader;
import dev.weft.runtime.NodeContext;
import io.vertx.core.Future;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The registry's assets on the indexed chain as {@link TokenMetadata}: keyed by the token address the transfer rows
 * hold, the ERC-20 contract of an asset on an EVM chain, the fungible-asset metadata object of its denom on a Move chain.
 */
public final class RegistryTokens implements TokenMetadata {
    private final NodeContext ctx;
    private Future<Map<String, Info>> known;

    public RegistryTokens(NodeContext ctx) {
        this.ctx = ctx;
    }

    /** The assets of {@code chainId} by token address (lower-case 0x hex). */
    public static Map<String, Info> of(Registry registry, String chainId, ChainConfig.Vm vm) {
        Map<String, Info> out = new HashMap<>();
        for (Asset a : registry.assetsOn(chainId)) {
            String key = switch (vm) {
                case EVM -> a.tokenContract() == null ? null : a.tokenContract().toLowerCase(Locale.ROOT);
                case MOVE -> Hex.prefixed(Denoms.moveMetadata(a.denom()));
                case WASM -> null;
            };
            if (key != null) out.putIfAbsent(key, new Info(a.symbol(), a.decimals(), a.denom()));
        }
        return out;
    }

    @Override
    public Future<Map<String, Info>> byToken() {
        if (known == null) {
            known = ctx.vertx()
                    .executeBlocking(() -> of(
                            RegistryLoader.load(
                                    ctx.config().route().registries(),
                                    ctx.config().route().finalizationPeriods()),
                            ctx.config().chain().chainId(),
                            ctx.config().chain().vm()));
            known.onFailure(e -> known = null);
        }
        return known;
    }
}
