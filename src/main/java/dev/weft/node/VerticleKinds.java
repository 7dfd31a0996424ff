package dev.weft.node;

import dev.weft.api.BridgeStreams;
import dev.weft.api.HttpApiVerticle;
import dev.weft.bus.TcpBridgeVerticle;
import dev.weft.config.Role;
import dev.weft.evm.EvmTraceVerticle;
import dev.weft.ingest.BlockIngestVerticle;
import dev.weft.richlist.RichListVerticle;
import dev.weft.route.RouteComputeVerticle;
import dev.weft.runtime.VerticleKind;
import dev.weft.track.TxTrackerVerticle;
import dev.weft.webhook.WebhookDeliveryVerticle;
import java.util.List;
import java.util.Optional;

/**
 * Every built-in verticle kind, in deployment order: producers first, the HTTP API last (plugins such as the devnet
 * start before all of them: {@link dev.weft.runtime.RolePlugin}).
 */
public final class VerticleKinds {
    private VerticleKinds() {}

    public static List<VerticleKind> all() {
        return List.of(
                new VerticleKind("route", Role.ROUTE, 1, false, RouteComputeVerticle::new),
                new VerticleKind("track", Role.TRACK, 1, true, TxTrackerVerticle::new),
                new VerticleKind("ingest", Role.INGEST, 1, true, BlockIngestVerticle::new),
                new VerticleKind("evm", Role.EVM, 1, true, EvmTraceVerticle::new),
                new VerticleKind("richlist", Role.RICHLIST, 1, true, RichListVerticle::new),
                new VerticleKind("webhooks", Role.API, 1, true, WebhookDeliveryVerticle::new),
                new VerticleKind("api", Role.API, 1, false, c -> new HttpApiVerticle(c, ApiModules.forNode(c))),
                new VerticleKind("bridge", Role.API, 1, false, c -> new TcpBridgeVerticle(c, BridgeStreams::tcp)));
    }

    public static Optional<VerticleKind> byName(String name) {
        return all().stream().filter(k -> k.name().equals(name)).findFirst();
    }
}
