package dev.weft.track;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.micrometer.backends.BackendRegistries;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tracker's Prometheus metrics: poll cycle duration ({@code weft_track_cycle_seconds}) and the transfers being
 * followed ({@code weft_track_open_transfers}); the requests it sends are counted per chain by the RPC clients
 * ({@code weft_track_node_requests_total}). One instance per meter registry, so a redeployed tracker keeps the gauge.
 */
final class TrackMetrics {
    private static final Map<MeterRegistry, TrackMetrics> BY_REGISTRY =
            Collections.synchronizedMap(new WeakHashMap<>());

    private final Timer cycle;
    private final AtomicLong open = new AtomicLong();

    static TrackMetrics get() {
        MeterRegistry r = BackendRegistries.getDefaultNow();
        if (r == null) return new TrackMetrics(new SimpleMeterRegistry());
        return BY_REGISTRY.computeIfAbsent(r, TrackMetrics::new);
    }

    private TrackMetrics(MeterRegistry r) {
        cycle = Timer.builder("weft_track_cycle_seconds")
                .description("one poll cycle of the tracker (scan, searches, save)")
                .register(r);
        Gauge.builder("weft_track_open_transfers", open, AtomicLong::get)
                .description("transfers the tracker follows")
                .register(r);
    }

    void cycle(long millis, int openTransfers) {
        cycle.record(millis, TimeUnit.MILLISECONDS);
        open.set(openTransfers);
    }
}
