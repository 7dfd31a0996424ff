package dev.weft.api;

import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.runtime.NodeContext;
import dev.weft.store.EventStore;
import io.vertx.core.Context;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one reader of the event log that every push transport of an event loop shares (the WebSocket endpoint, the
 * SockJS bridge, the TCP bridge). A {@link Stream} starts by replaying: it reads the log after its {@code after}, with
 * its own filters, a replay page at a time, until a page comes back short; such a page holds every matching event up to
 * the log's head of its snapshot ({@link EventStore.Page#head}), the stream's {@code covered} position. Then it joins
 * the feed's tail: one unfiltered read of each new range of the log per notification ({@code weft.updates.events}),
 * whatever the number of subscribers, fanned out in sequence order to every live stream whose filters match. Streams
 * at the live position so cost one log read per commit together, not one each (the cost {@code bench/event-push.sh}
 * measured).
 *
 * <p>No gap and no duplicate where a replay turns live: the tail has sent every event up to its {@code position} to
 * its live streams, and keeps the last events it read (a bounded ring). A stream that covered the tail's position or
 * more joins at once (the tail skips what it covered); one a little behind gets the ring's events after its position
 * first; one further behind replays another page. Reads never overlap per stream, and a notification is only a
 * wake-up: its payload is never forwarded.
 *
 * <p>One feed per event loop ({@link #of}): created there, its notification consumer runs there, and so do its
 * streams' reads and writes, so its state needs no lock.
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

        /** One event; {@code text} is its encoding (made once per event for all the streams it goes to). */
        void send(JsonObject event, String text);

        /** The stream ended and writes no more; {@code error} is the JSON error a bridge client gets. */
        void end(End why, String reason, BusError error);
    }

    private static final String CONTEXT_KEY = EventFeed.class.getName();
    /** Writes the tail makes in one turn of the event loop before it yields (bounds the time a fan-out holds it). */
    static final int WRITES_PER_TURN = 2048;
    /** For tests: the streams following a tail, in this JVM. */
    private static final java.util.concurrent.atomic.AtomicInteger LIVE =
            new java.util.concurrent.atomic.AtomicInteger();

    private final EventStore store;
    private final int replayPage;
    private final EventsMetrics metrics;
    /** Long polls waiting for more events on this event loop. */
    private final Set<Runnable> waiting = new LinkedHashSet<>();

    private final Tail tail;
    /** The event loop the feed serves (its fan-out resumes there). */
    private final Context context;

    private EventFeed(NodeContext ctx) {
        this.context = ctx.vertx().getOrCreateContext();
        this.store = new EventStore(ctx.pool());
        this.replayPage = ctx.config().events().replayPage();
        this.metrics = EventsMetrics.get();
        this.tail = new Tail(Math.max(2 * replayPage, 256));
        ctx.vertx().eventBus().<JsonObject>consumer(Addresses.EVENTS_APPENDED, m -> wake());
    }

    /**
     * The feed of the calling event loop (created at the first call there): every transport mounted on one verticle
     * shares its tail read. Must be called on that event loop: the notification consumer is registered on it.
     */
    static EventFeed of(NodeContext ctx) {
        Context c = ctx.vertx().getOrCreateContext();
        EventFeed f = c.get(CONTEXT_KEY);
        if (f == null) {
            f = new EventFeed(ctx);
            c.put(CONTEXT_KEY, f);
        }
        return f;
    }

    EventStore store() {
        return store;
    }

    /** Reads a page for a long poll (counted as a log read). */
    io.vertx.core.Future<EventStore.Page> poll(EventStore.Query q) {
        metrics.logRead("poll");
        return store.after(q);
    }

    /** Runs {@code r} at the next notification (once; a reader that wants more waits again). */
    void await(Runnable r) {
        waiting.add(r);
    }

    void cancel(Runnable r) {
        waiting.remove(r);
    }

    private void wake() {
        tail.read();
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

    /** For tests: the streams following a tail (of any feed) in this JVM. */
    static int liveStreams() {
        return LIVE.get();
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

    /** The shared read of the log's new ranges, and the live streams it feeds. */
    private final class Tail {
        private final int ringSize;
        private final Set<Stream> live = new LinkedHashSet<>();
        /** The last events read, every one in {@code (ringFrom, position]}. */
        private final ArrayDeque<EventStore.Event> ring = new ArrayDeque<>();

        private long ringFrom;
        /** Every event up to here has gone to every live stream it matches (-1: not started). */
        private long position = -1;

        private boolean reading;
        private boolean again;

        Tail(int ringSize) {
            this.ringSize = ringSize;
        }

        /** A stream that has sent every matching event up to {@code s.covered} joins, or replays more. */
        void join(Stream s) {
            if (position < 0 || (live.isEmpty() && !reading)) {
                // no one followed the tail: it starts again here (one read, for a notification its replay overlapped)
                position = s.covered;
                ringFrom = position;
                ring.clear();
                follow(s);
                read();
                return;
            }
            if (s.covered < ringFrom) {
                s.run(); // too far behind the ring: another replay page
                return;
            }
            if (s.covered < position) {
                for (EventStore.Event e : ring) {
                    if (e.sequence() <= s.covered || !s.q.matches(e)) continue;
                    if (!s.deliver(e, EventsApi.json(e), null)) return;
                }
                s.covered = position;
            }
            follow(s);
        }

        private void follow(Stream s) {
            if (live.add(s)) LIVE.incrementAndGet();
        }

        void leave(Stream s) {
            if (live.remove(s)) LIVE.decrementAndGet();
        }

        void read() {
            if (reading) {
                again = true;
                return;
            }
            if (live.isEmpty()) return;
            reading = true;
            again = false;
            long from = position;
            metrics.logRead("tail");
            store.after(new EventStore.Query(from, replayPage, null, null, null, null, null))
                    .onComplete(ar -> {
                        if (ar.failed()) {
                            reading = false;
                            endAll(End.FAILED, End.FAILED.reason, BusError.unavailable(End.FAILED.reason));
                            return;
                        }
                        EventStore.Page p = ar.result();
                        if (p.gone(from)) {
                            reading = false;
                            endAll(
                                    End.PRUNED,
                                    "pruned: oldest_sequence " + (p.prunedThrough() + 1),
                                    pruned(p.prunedThrough()));
                            return;
                        }
                        fanOut(p, 0);
                    });
        }

        /**
         * Sends the page's events from {@code i} on to the live streams, event by event, and yields the event loop
         * once {@link #WRITES_PER_TURN} writes are made (a page to a thousand subscribers is half a million writes);
         * then reads on when the page was full or a notification came meanwhile. Each event goes to every live stream
         * before the position moves past it, so a stream joining between two events misses neither.
         */
        private void fanOut(EventStore.Page p, int i) {
            int writes = 0;
            List<EventStore.Event> events = p.events();
            for (; i < events.size() && writes < WRITES_PER_TURN; i++) {
                EventStore.Event e = events.get(i);
                JsonObject json = null;
                String text = null;
                for (Stream s : live.toArray(new Stream[0])) {
                    if (s.closed || e.sequence() <= s.covered || !s.q.matches(e)) continue;
                    if (json == null) {
                        json = EventsApi.json(e);
                        text = json.encode();
                    }
                    // one broken connection must not stop the tail (it would stay reading, and every stream stall)
                    try {
                        s.deliver(e, json, text);
                    } catch (RuntimeException broken) {
                        s.close();
                    }
                    writes++;
                }
                ring.addLast(e);
                if (ring.size() > ringSize) ringFrom = ring.removeFirst().sequence();
                position = e.sequence();
            }
            if (i < events.size()) {
                int next = i;
                context.runOnContext(v -> fanOut(p, next));
                return;
            }
            reading = false;
            boolean full = events.size() == replayPage;
            // a short page holds every event up to the head of its snapshot
            if (!full) position = Math.max(position, p.head());
            if (full || again) read();
        }

        private void endAll(End why, String reason, BusError error) {
            for (Stream s : live.toArray(new Stream[0])) s.end(why, reason, error);
            position = -1;
        }
    }

    /** One subscriber's reader: its own replay pages, then the tail's fan-out. */
    final class Stream implements Runnable {
        private final EventQuery q;
        private final Sink sink;
        private final String transport;
        /** Every matching event up to here has been sent. */
        private long covered;

        private long last;
        private boolean closed;

        private Stream(EventQuery q, Sink sink, String transport) {
            this.q = q;
            this.sink = sink;
            this.transport = transport;
            this.last = q.after();
            this.covered = q.after();
        }

        /** The last sequence sent (the {@code after} to resume from). */
        long last() {
            return last;
        }

        /** Reads a replay page from {@code covered}; joins the tail once a page comes back short. */
        @Override
        public void run() {
            if (closed) return;
            metrics.logRead("replay");
            store.after(q.store(covered, replayPage)).onComplete(ar -> {
                if (closed) return;
                if (ar.failed()) {
                    end(End.FAILED, End.FAILED.reason, BusError.unavailable(End.FAILED.reason));
                    return;
                }
                EventStore.Page p = ar.result();
                if (p.gone(covered)) {
                    end(End.PRUNED, "pruned: oldest_sequence " + (p.prunedThrough() + 1), pruned(p.prunedThrough()));
                    return;
                }
                for (EventStore.Event e : p.events()) {
                    if (!deliver(e, EventsApi.json(e), null)) return;
                    covered = e.sequence();
                }
                if (p.events().size() == replayPage) {
                    run();
                } else {
                    covered = Math.max(covered, p.head());
                    tail.join(this);
                }
            });
        }

        /** Sends one event (false: the stream was cut off, its send buffer full). */
        private boolean deliver(EventStore.Event e, JsonObject json, String text) {
            // checked before each write: what is queued stays within the buffer plus one event
            if (sink.full()) {
                metrics.cutOff(transport);
                end(End.SLOW, End.SLOW.reason, new BusError(429, End.SLOW.reason));
                return false;
            }
            sink.send(json, text == null ? json.encode() : text);
            last = e.sequence();
            if (tail.live.contains(this)) metrics.live();
            else metrics.replayed();
            return true;
        }

        private void end(End why, String reason, BusError error) {
            close();
            sink.end(why, reason, error);
        }

        /** Stops the stream (idempotent): no more reads, no more writes. */
        void close() {
            if (closed) return;
            closed = true;
            tail.leave(this);
            metrics.unsubscribed(transport);
        }
    }
}
