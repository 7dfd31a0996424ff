package dev.weft.webhook;

import dev.weft.runtime.SharedMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Webhook delivery metrics ({@code weft_webhook_*}): delivery attempts by outcome, and per webhook the delivery lag
 * (the log's newest sequence minus the webhook's cursor) and its dead letters. Per-webhook gauges are bounded by
 * {@code webhooks.max_webhooks} and removed with their webhook.
 */
final class WebhookMetrics {
    static final String DELIVERED = "delivered";
    static final String RETRIED = "retried";
    static final String DEAD_LETTERED = "dead_lettered";
    static final String REDRIVEN = "redriven";

    private final MeterRegistry registry;
    private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong[]> perHook = new ConcurrentHashMap<>();
    private final Map<String, Gauge[]> gauges = new ConcurrentHashMap<>();
    private final AtomicLong inFlight = new AtomicLong();

    static WebhookMetrics get() {
        return SharedMeters.of("webhooks", WebhookMetrics::new);
    }

    private WebhookMetrics(MeterRegistry r) {
        this.registry = r;
        for (String o : new String[] {DELIVERED, RETRIED, DEAD_LETTERED, REDRIVEN})
            outcomes.put(
                    o,
                    Counter.builder("weft_webhook_deliveries_total")
                            .description("webhook delivery attempts by outcome (retried: failed, tried again later)")
                            .tag("outcome", o)
                            .register(r));
        // exported with no webhook too (the dashboard's panel): the largest lag and all dead letters
        Gauge.builder(
                        "weft_webhook_lag_max",
                        perHook,
                        m -> m.values().stream()
                                .mapToLong(a -> a[0].get())
                                .max()
                                .orElse(0))
                .description("the largest weft_webhook_lag over the webhooks (0 with none)")
                .register(r);
        Gauge.builder("weft_webhook_in_flight", inFlight, AtomicLong::get)
                .description("webhook deliveries in flight (at most webhooks.max_concurrent)")
                .register(r);
    }

    void outcome(String o) {
        outcomes.get(o).increment();
    }

    void inFlight(int n) {
        inFlight.set(n);
    }

    /** Sets a webhook's lag and dead-letter count, registering its gauges the first time. */
    void hook(String id, long lag, long deadLetters) {
        AtomicLong[] v = perHook.computeIfAbsent(id, k -> {
            AtomicLong[] a = {new AtomicLong(), new AtomicLong()};
            gauges.put(k, new Gauge[] {
                Gauge.builder("weft_webhook_lag", a[0], AtomicLong::get)
                        .description("events of the log after the webhook's cursor (newest sequence - cursor)")
                        .tag("webhook", k)
                        .register(registry),
                Gauge.builder("weft_webhook_dead_letters", a[1], AtomicLong::get)
                        .description("the webhook's dead letters")
                        .tag("webhook", k)
                        .register(registry)
            });
            return a;
        });
        v[0].set(Math.max(0, lag));
        if (deadLetters >= 0) v[1].set(deadLetters);
    }

    void deadLettered(String id) {
        AtomicLong[] v = perHook.get(id);
        if (v != null) v[1].incrementAndGet();
    }

    void removed(String id) {
        perHook.remove(id);
        Gauge[] g = gauges.remove(id);
        if (g != null) for (Gauge x : g) registry.remove(x);
    }
}
