package dev.weft.api;

import dev.weft.runtime.SharedMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/** The event log readers' metrics ({@code weft_events_*}): open subscriptions, events sent replayed and live. */
final class EventsMetrics {
    private final AtomicLong subscribers = new AtomicLong();
    private final Counter replayed;
    private final Counter live;

    static EventsMetrics get() {
        return SharedMeters.of("events", EventsMetrics::new);
    }

    private EventsMetrics(MeterRegistry r) {
        Gauge.builder("weft_events_subscribers", subscribers, AtomicLong::get)
                .description("open WebSocket event subscriptions")
                .register(r);
        replayed = Counter.builder("weft_events_sent_total")
                .description("events sent to subscriptions")
                .tag("phase", "replay")
                .register(r);
        live = Counter.builder("weft_events_sent_total")
                .description("events sent to subscriptions")
                .tag("phase", "live")
                .register(r);
    }

    void subscribed() {
        subscribers.incrementAndGet();
    }

    void unsubscribed() {
        subscribers.decrementAndGet();
    }

    void replayed() {
        replayed.increment();
    }

    void live() {
        live.increment();
    }
}
