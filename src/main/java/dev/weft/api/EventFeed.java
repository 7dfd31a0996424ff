package dev.weft.api;

import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.runtime.NodeContext;
import dev.weft.store.EventStore;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The one reader of the event log that every push transport shares (the WebSocket endpoint, the SockJS bridge, the
 * TCP bridge): a {@link Stream} reads the log after the last sequence it sent, a replay page at a time, until a page
 * comes back short (caught up); then waits for a {@code weft.updates.events} notification and reads again from the
 * same place. Reads never overlap and every event goes out once, in sequence order, whether replayed or live, so
 * there is no gap and no duplicate where the replay turns live. A notification is only a wake-up: its payload is never
 * forwarded.
 *
 * <p>One feed per event loop (an HTTP verticle instance, the TCP bridge verticle): it is created there, its
 * notification consumer runs there, and so do its streams' reads and writes, so its state needs no lock.
 */
final class EventFeed {
    /** Why a stream ended; the codes are the WebSocket close codes (RFC 6455: 4000–4999 are the application's). */
    enum End {
        SLOW(4008, "send buffer full: the subscriber reads too slowly"),
        PRUNED(4010, "pruned"),
        FAILED(4011, "the event log could not be read");

        final short code;
        final String reason;

        End(int code, String reason) {
            this.code = (short) code;
            this.reason = reason;
        }
    }

    /** Where a stream writes: one transport's connection (or one subscription on it). */
    interface Sink {
        /** Whether the connection's send buffer is full: the stream ends {@link End#SLOW} rather than queue more. */
        boolean full();

        void send(JsonObject event);

        /** The stream ended and writes no more; {@code error} is the JSON error a bridge client gets. */
        void end(End why, String reason, BusError error);
    }

    private final EventStore store;
    private final int replayPage;
    private final EventsMetrics metrics;
    /** Everyone waiting for more events on this event loop: long polls and live streams. */
    private final Set<Runnable> waiting = new LinkedHashSet<>();

    /** Must be called on the event loop the feed serves: the notification consumer is registered on it. */
    EventFeed(NodeContext ctx) {
        this.store = new EventStore(ctx.pool());
        this.replayPage = ctx.config().events().replayPage();
        this.metrics = EventsMetrics.get();
        ctx.vertx().eventBus().<JsonObject>consumer(Addresses.EVENTS_APPENDED, m -> wake());
    }

    EventStore store() {
        return store;
    }

    /** Runs {@code r} at the next notification (once; a reader that wants more waits again). */
    void await(Runnable r) {
        waiting.add(r);
    }

    void cancel(Runnable r) {
        waiting.remove(r);
    }

    private void wake() {
        if (waiting.isEmpty()) return;
        Runnable[] all = waiting.toArray(new Runnable[0]);
        waiting.clear();
        for (Runnable r : all) r.run();
    }

    /** Starts a stream of the events matching {@code q} after {@code q.after()}; {@code transport} names it in metrics. */
    Stream open(EventQuery q, Sink sink, String transport) {
        Stream s = new Stream(q, sink, transport);
        metrics.subscribed(transport);
        s.run();
        return s;
    }

    static BusError pruned(long prunedThrough) {
        return new BusError(
                410,
                "events up to sequence " + prunedThrough + " were pruned by retention; the oldest kept is "
                        + (prunedThrough + 1) + ": ask again with after >= " + prunedThrough,
                new io.vertx.core.json.JsonArray()
                        .add(BusError.errorInfo(
                                "EVENTS_PRUNED",
                                new JsonObject().put("oldest_sequence", Long.toString(prunedThrough + 1)))));
    }

    /** One subscriber's reader. */
    final class Stream implements Runnable {
        private final EventQuery q;
        private final Sink sink;
        private final String transport;
        private long last;
        private boolean reading;
        private boolean again;
        private boolean replaying = true;
        private boolean closed;

        private Stream(EventQuery q, Sink sink, String transport) {
            this.q = q;
            this.sink = sink;
            this.transport = transport;
            this.last = q.after();
        }

        /** The last sequence sent (the {@code after} to resume from). */
        long last() {
            return last;
        }

        @Override
        public void run() {
            if (closed) return;
            if (reading) {
                again = true;
                return;
            }
            reading = true;
            again = false;
            // waiting from before the read: a notification that comes while it runs reads again
            waiting.add(this);
            store.after(q.store(last, replayPage)).onComplete(ar -> {
                reading = false;
                if (closed) return;
                if (ar.failed()) {
                    end(End.FAILED, End.FAILED.reason, BusError.unavailable(End.FAILED.reason));
                    return;
                }
                EventStore.Page p = ar.result();
                if (p.gone(last)) {
                    end(End.PRUNED, "pruned: oldest_sequence " + (p.prunedThrough() + 1), pruned(p.prunedThrough()));
                    return;
                }
                for (EventStore.Event e : p.events()) {
                    // checked before each write: what is queued stays within the buffer plus one event
                    if (sink.full()) {
                        metrics.cutOff(transport);
                        end(End.SLOW, End.SLOW.reason, new BusError(429, End.SLOW.reason));
                        return;
                    }
                    sink.send(EventsApi.json(e));
                    last = e.sequence();
                    if (replaying) metrics.replayed();
                    else metrics.live();
                }
                if (p.events().size() == replayPage || again) {
                    waiting.remove(this);
                    run();
                } else {
                    replaying = false;
                }
            });
        }

        private void end(End why, String reason, BusError error) {
            close();
            sink.end(why, reason, error);
        }

        /** Stops the stream (idempotent): no more reads, no more writes. */
        void close() {
            if (closed) return;
            closed = true;
            waiting.remove(this);
            metrics.unsubscribed(transport);
        }
    }
}
