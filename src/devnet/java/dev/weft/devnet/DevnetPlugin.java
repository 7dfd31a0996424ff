package dev.weft.devnet;

import dev.weft.config.ConfigSource;
import dev.weft.devnet.config.DevnetConfig;
import dev.weft.devnet.config.LayerZeroDeliveryConfig;
import dev.weft.runtime.NodeContext;
import dev.weft.runtime.RolePlugin;

/** The {@code devnet} role, found by the node on its class path (META-INF/services/dev.weft.runtime.RolePlugin). */
public final class DevnetPlugin implements RolePlugin {
    public static final String ROLE = "devnet";

    @Override
    public String role() {
        return ROLE;
    }

    @Override
    public void check(ConfigSource config) {
        DevnetConfig.from(config);
        LayerZeroDeliveryConfig.from(config);
    }

    @Override
    public Started create(NodeContext ctx) {
        return new DevnetVerticle(ctx);
    }
}
