package dev.weft.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.micrometer.backends.BackendRegistries;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Holders of a verticle's meters, one per meter registry (each Vert.x instance has its own) and key, so a redeployed
 * verticle (failover, restart) keeps updating the gauges its predecessor registered instead of registering new ones.
 */
public final class SharedMeters {
    private static final Map<MeterRegistry, Map<String, Object>> BY_REGISTRY =
            Collections.synchronizedMap(new WeakHashMap<>());

    private SharedMeters() {}

    /** The holder of {@code key} in the default registry, created on first use; a private registry when metrics are off. */
    @SuppressWarnings("unchecked")
    public static <T> T of(String key, Function<MeterRegistry, T> create) {
        MeterRegistry registry = BackendRegistries.getDefaultNow();
        if (registry == null) return create.apply(new SimpleMeterRegistry());
        return (T) BY_REGISTRY
                .computeIfAbsent(registry, r -> new ConcurrentHashMap<>())
                .computeIfAbsent(key, k -> create.apply(registry));
    }
}
