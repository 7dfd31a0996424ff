package dev.weft.api;

import dev.weft.runtime.SharedMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The event log readers' metrics ({@code weft_events_*}): open subscriptions per transport ({@code ws}, {@code sockjs},
 * {@code tcp}), events sent replayed and live, slow subscribers cut off per transport, and the event log reads of the
 * subscriptions and polls ({@code weft_events_log_reads_total{reader}}: {@code tail}, one per new range of the log and
 * event loop, shared by every live subscriber; {@code replay}, a subscriber's own page while it catches up;
 * {@code poll}, a {@code GET /v1/events} read).
 */
final class EventsMetrics {
    static final java.util.List<String> TRANSPORTS = java.util.List.of("ws", "sockjs", "tcp");

    private final Map<String, AtomicLong> subscribers = new ConcurrentHashMap<>();
    private final Map<String, Counter> cutOff = new ConcurrentHashMap<>();
    private final Counter replayed;
    private final Map<String, Counter> reads = new ConcurrentHashMap<>();
    private final Counter live;

    static EventsMetrics get() {
        return SharedMeters.of("events", EventsMetrics::new);
    }

    private EventsMetrics(MeterRegistry r) {
        for (String t : TRANSPORTS) {
            AtomicLong n = new AtomicLong();
            subscribers.put(t, n);
            Gauge.builder("weft_events_subscribers", n, AtomicLong::get)
                    .description("open event subscriptions")
                    .tag("transport", t)
                    .register(r);
            cutOff.put(
                    t,
                    Counter.builder("weft_events_cut_off_total")
                            .description("subscribers cut off because their send buffer was full")
                            .tag("transport", t)
                            .register(r));
        }
        replayed = Counter.builder("weft_events_sent_total")
                .description("events sent to subscriptions")
                .tag("phase", "replay")
                .register(r);
        live = Counter.builder("weft_events_sent_total")
                .description("events sent to subscriptions")
                .tag("phase", "live")
                .register(r);
        for (String reader : java.util.List.of("tail", "replay", "poll"))
            reads.put(
                    reader,
                    Counter.builder("weft_events_log_reads_total")
                            .description("event log reads of the subscriptions and polls")
                            .tag("reader", reader)
                            .register(r));
    }

    void logRead(String reader) {
        reads.get(reader).increment();
    }

    /** For tests: the log reads of one kind on this JVM. */
    double logReads(String reader) {
        return reads.get(reader).count();
    }

    void subscribed(String transport) {
        subscribers.get(transport).incrementAndGet();
    }

    void unsubscribed(String transport) {
        subscribers.get(transport).decrementAndGet();
    }

    /** For tests and the bench: open subscriptions of a transport on this JVM. */
    long subscribers(String transport) {
        return subscribers.get(transport).get();
    }

    void cutOff(String transport) {
        cutOff.get(transport).increment();
    }

    double cutOffs(String transport) {
        return cutOff.get(transport).count();
    }

    void replayed() {
        replayed.increment();
    }

    double replayedCount() {
        return replayed.count();
    }

    void live() {
        live.increment();
    }
}
