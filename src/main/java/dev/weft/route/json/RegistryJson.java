package dev.weft.route.json;

import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.SwapVenue;
import dev.weft.runtime.JsonBytes;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One registry version's assets and venues as Skip objects, each built and encoded once on first use and then shared
 * by every route answer that shows it (frozen: {@link JsonBytes#frozen}). At most one entry per asset and venue of the
 * registry; a new registry version (a reload or new market state) starts a new instance.
 */
public final class RegistryJson {
    private final Registry registry;
    /** By chain id, then denom (assets) or name (venues): the registry's keys, whose strings keep their hash codes. */
    private final Map<String, Map<String, JsonObject>> assets = new ConcurrentHashMap<>();

    private final Map<String, Map<String, JsonObject>> venues = new ConcurrentHashMap<>();

    public RegistryJson(Registry registry) {
        this.registry = registry;
    }

    /** {@link SkipJson#asset}, frozen. */
    public JsonObject asset(Asset a) {
        return assets.computeIfAbsent(a.chainId(), c -> new ConcurrentHashMap<>())
                .computeIfAbsent(a.denom(), d -> JsonBytes.frozen(SkipJson.asset(registry, a)));
    }

    /** {@link SkipJson#venue}, frozen. */
    public JsonObject venue(SwapVenue v) {
        return venues.computeIfAbsent(v.chainId(), c -> new ConcurrentHashMap<>())
                .computeIfAbsent(v.name(), n -> JsonBytes.frozen(SkipJson.venue(v)));
    }
}
