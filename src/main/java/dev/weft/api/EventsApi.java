package dev.weft.api;

import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.chain.Hex;
import dev.weft.config.EventsConfig;
import dev.weft.runtime.NodeContext;
import dev.weft.store.EventStore;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The durable event log over HTTP: {@code GET /v1/events} (keyset pages by sequence, with a bounded long poll) and
 * {@code GET /v1/events/ws} (a WebSocket subscription that replays the log after {@code after}, then follows it live).
 * Both read the log itself ({@link EventStore}); the bus's {@code weft.updates.events} only wakes them, so nothing a
 * notification lost or carried is ever forwarded: a reader resumes from the last sequence it has sent.
 */
public final class EventsApi implements ApiModule {
    /** Open subscriptions per node and client address (every HTTP verticle instance of a node shares it). */
    private static final Map<String, AtomicInteger> SUBSCRIPTIONS = new ConcurrentHashMap<>();
    /** The close code of a subscription the server ends (RFC 6455: 4000–4999 are the application's own). */
    static final short CLOSE_SLOW = 4008;

    static final short CLOSE_PRUNED = 4010;
    static final short CLOSE_FAILED = 4011;

    private final NodeContext ctx;
    private final EventsConfig cfg;
    private final EventStore store;
    private final ClientAddress clients;
    private final EventsMetrics metrics;
    /** Everyone waiting for more events on this instance's event loop: long polls and live subscriptions. */
    private final Set<Runnable> waiting = new LinkedHashSet<>();

    public EventsApi(NodeContext ctx) {
        this.ctx = ctx;
        this.cfg = ctx.config().events();
        this.store = new EventStore(ctx.pool());
        this.clients = new ClientAddress(ctx.config().http().trustedProxies());
        this.metrics = EventsMetrics.get();
    }

    @Override
    public void mount(Router router) {
        // registered on the HTTP verticle's event loop, where its requests run too: the waiters need no lock
        ctx.vertx().eventBus().<JsonObject>consumer(Addresses.EVENTS_APPENDED, m -> wake());
        router.get("/v1/events").handler(this::poll);
        router.get("/v1/events/ws").handler(this::subscribe);
    }

    @Override
    public String openApiFragment() {
        return "openapi/events.json";
    }

    private void wake() {
        if (waiting.isEmpty()) return;
        Runnable[] all = waiting.toArray(new Runnable[0]);
        waiting.clear();
        for (Runnable r : all) r.run();
    }

    // ---- the poll ----

    private void poll(RoutingContext rc) {
        EventQuery q = EventQuery.parse(
                rc.queryParams(), EventQuery.POLL, cfg.maxWait().toMillis());
        long deadline = q.waitMs() > 0 ? System.nanoTime() + q.waitMs() * 1_000_000 : 0;
        new Poll(rc, q, deadline).read();
    }

    /** One poll: read; when empty and a wait was asked, wait for a notification (or the wait's end) and read again. */
    private final class Poll implements Runnable {
        private final RoutingContext rc;
        private final EventQuery q;
        private final long deadline;
        private long timer = -1;
        private boolean done;

        Poll(RoutingContext rc, EventQuery q, long deadline) {
            this.rc = rc;
            this.q = q;
            this.deadline = deadline;
        }

        void read() {
            // waiting from before the read: a notification that comes while it runs reads again
            boolean waits = deadline != 0 && deadline - System.nanoTime() > 0;
            if (waits) waiting.add(this);
            store.after(q.store(q.after(), q.limit())).onComplete(ar -> {
                if (done) return;
                if (ar.failed()) {
                    finish();
                    rc.fail(ar.cause());
                } else if (ar.result().gone(q.after())) {
                    finish();
                    rc.fail(pruned(ar.result().prunedThrough()));
                } else if (!ar.result().events().isEmpty() || !waits) {
                    finish();
                    Responses.json(rc, page(q.after(), ar.result()));
                } else if (timer < 0) {
                    long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                    timer = ctx.vertx().setTimer(left, t -> {
                        timer = -1;
                        if (done) return;
                        finish();
                        Responses.json(rc, page(q.after(), ar.result()));
                    });
                    rc.response().closeHandler(v -> finish());
                }
            });
        }

        @Override
        public void run() {
            if (!done) read();
        }

        private void finish() {
            done = true;
            waiting.remove(this);
            if (timer >= 0) ctx.vertx().cancelTimer(timer);
        }
    }

    static JsonObject page(long after, EventStore.Page p) {
        JsonArray events = new JsonArray();
        long next = after;
        for (EventStore.Event e : p.events()) {
            events.add(json(e));
            next = e.sequence();
        }
        return new JsonObject().put("events", events).put("next", next).put("oldest_sequence", p.prunedThrough() + 1);
    }

    static BusError pruned(long prunedThrough) {
        return new BusError(
                410,
                "events up to sequence " + prunedThrough + " were pruned by retention; the oldest kept is "
                        + (prunedThrough + 1) + ": ask again with after >= " + prunedThrough,
                new JsonArray()
                        .add(BusError.errorInfo(
                                "EVENTS_PRUNED",
                                new JsonObject().put("oldest_sequence", Long.toString(prunedThrough + 1)))));
    }

    /** An event as readers see it: its payload's fields, then the columns (sequence, chain, topic, keys). */
    public static JsonObject json(EventStore.Event e) {
        JsonObject o = e.payload() == null ? new JsonObject() : e.payload().copy();
        o.put("sequence", e.sequence()).put("chain_id", e.chainId()).put("topic", e.topic());
        if (e.height() != null) o.put("height", e.height());
        if (e.account() != null) o.put("account", Hex.prefixed(e.account()));
        if (e.txHash() != null) o.put("tx_hash", Hex.upper(e.txHash()));
        if (e.transfer() != null) o.put("transfer", e.transfer());
        return o;
    }

    // ---- the subscription ----

    private void subscribe(RoutingContext rc) {
        EventQuery q = EventQuery.parse(rc.queryParams(), EventQuery.SUBSCRIBE, 0);
        // checked before a subscription is counted: a request that cannot become a WebSocket gets the JSON error body
        // (not the server's plain-text refusal) and never holds one of its client's subscriptions
        if (!rc.request().canUpgradeToWebSocket()) {
            throw BusError.badRequest(
                    "GET /v1/events/ws is a WebSocket endpoint: send a WebSocket handshake (Connection: Upgrade,"
                            + " Upgrade: websocket), or poll GET /v1/events");
        }
        String client = ctx.nodeId() + "/" + clients.of(rc.request());
        AtomicInteger open = SUBSCRIPTIONS.computeIfAbsent(client, k -> new AtomicInteger());
        if (open.incrementAndGet() > cfg.subscriptionsPerClient()) {
            release(client, open);
            throw new BusError(
                    429,
                    "too many event subscriptions from this client (events.ws_subscriptions_per_client = "
                            + cfg.subscriptionsPerClient() + ")");
        }
        io.vertx.core.Future<ServerWebSocket> upgrade;
        try {
            upgrade = rc.request().toWebSocket();
        } catch (RuntimeException e) {
            release(client, open);
            throw BusError.badRequest("not a WebSocket handshake: " + e.getMessage());
        }
        upgrade.onComplete(ar -> {
            if (ar.failed()) {
                release(client, open);
                if (!rc.response().ended())
                    rc.fail(BusError.badRequest(
                            "not a WebSocket handshake: " + ar.cause().getMessage()));
                return;
            }
            ServerWebSocket ws = ar.result();
            ws.setWriteQueueMaxSize(cfg.sendBufferBytes());
            Subscription s = new Subscription(ws, q);
            metrics.subscribed();
            // a quiet subscription (a rare account) still writes: a ping at half the idle timeout keeps it open
            long pings = ctx.vertx()
                    .setPeriodic(Math.max(500, ctx.config().http().idleTimeout().toMillis() / 2), t -> {
                        if (!ws.isClosed()) ws.writePing(io.vertx.core.buffer.Buffer.buffer());
                    });
            ws.closeHandler(v -> {
                ctx.vertx().cancelTimer(pings);
                s.closed = true;
                waiting.remove(s);
                metrics.unsubscribed();
                release(client, open);
            });
            ws.handler(b -> {}); // the client sends nothing that matters; pings are answered by Vert.x
            s.run();
        });
    }

    private static void release(String client, AtomicInteger open) {
        if (open.decrementAndGet() <= 0) SUBSCRIPTIONS.remove(client, open);
    }

    /**
     * One subscriber: reads the log after the last sequence sent, a replay page at a time, until a page comes back
     * short (caught up); then waits for a notification and reads again from the same place. Reads never overlap and
     * every event goes out once, in sequence order, whether it was replayed or live.
     */
    private final class Subscription implements Runnable {
        private final ServerWebSocket ws;
        private final EventQuery q;
        private long last;
        private boolean reading;
        private boolean again;
        private boolean replaying = true;
        boolean closed;

        Subscription(ServerWebSocket ws, EventQuery q) {
            this.ws = ws;
            this.q = q;
            this.last = q.after();
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
            int page = cfg.replayPage();
            store.after(q.store(last, page)).onComplete(ar -> {
                reading = false;
                if (closed) return;
                if (ar.failed()) {
                    ws.close(CLOSE_FAILED, "the event log could not be read");
                    return;
                }
                if (ar.result().gone(last)) {
                    ws.close(
                            CLOSE_PRUNED,
                            "pruned: oldest_sequence " + (ar.result().prunedThrough() + 1));
                    return;
                }
                for (EventStore.Event e : ar.result().events()) {
                    if (ws.writeQueueFull()) {
                        ws.close(CLOSE_SLOW, "send buffer full: the subscriber reads too slowly");
                        return;
                    }
                    ws.writeTextMessage(json(e).encode());
                    last = e.sequence();
                    if (replaying) metrics.replayed();
                    else metrics.live();
                }
                if (ar.result().events().size() == page || again) {
                    waiting.remove(this);
                    run();
                } else {
                    replaying = false;
                }
            });
        }
    }

    /** For tests: the subscriptions open in this JVM (every node and client). */
    static int open() {
        return SUBSCRIPTIONS.values().stream().mapToInt(AtomicInteger::get).sum();
    }
}
