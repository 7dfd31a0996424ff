package dev.weft.api;

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
import java.util.Map;
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
    /** The close codes of a subscription the server ends ({@link EventFeed.End}). */
    static final short CLOSE_SLOW = EventFeed.End.SLOW.code;

    static final short CLOSE_PRUNED = EventFeed.End.PRUNED.code;
    static final short CLOSE_FAILED = EventFeed.End.FAILED.code;

    private final NodeContext ctx;
    private final EventsConfig cfg;
    private final ClientAddress clients;
    /** Created when mounted, on the HTTP verticle's event loop, where its requests run too: it needs no lock. */
    private EventFeed feed;

    public EventsApi(NodeContext ctx) {
        this.ctx = ctx;
        this.cfg = ctx.config().events();
        this.clients = new ClientAddress(ctx.config().http().trustedProxies());
    }

    @Override
    public void mount(Router router) {
        feed = EventFeed.of(ctx);
        router.get("/v1/events").handler(this::poll);
        router.get("/v1/events/ws").handler(this::subscribe);
    }

    @Override
    public String openApiFragment() {
        return "openapi/events.json";
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
            if (waits) feed.await(this);
            feed.poll(q.store(q.after(), q.limit())).onComplete(ar -> {
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
            feed.cancel(this);
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
        return EventFeed.pruned(prunedThrough);
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
            EventFeed.Stream s = feed.open(q, new Socket(ws), "ws");
            // a quiet subscription (a rare account) still writes: a ping at half the idle timeout keeps it open
            long pings = ctx.vertx()
                    .setPeriodic(Math.max(500, ctx.config().http().idleTimeout().toMillis() / 2), t -> {
                        if (!ws.isClosed()) ws.writePing(io.vertx.core.buffer.Buffer.buffer());
                    });
            ws.closeHandler(v -> {
                ctx.vertx().cancelTimer(pings);
                s.close();
                release(client, open);
            });
            ws.handler(b -> {}); // the client sends nothing that matters; pings are answered by Vert.x
        });
    }

    private static void release(String client, AtomicInteger open) {
        if (open.decrementAndGet() <= 0) SUBSCRIPTIONS.remove(client, open);
    }

    /** A WebSocket subscriber: one JSON event per text frame; the end of its stream closes it with the end's code. */
    private record Socket(ServerWebSocket ws) implements EventFeed.Sink {
        // a socket the client closed stays open to the feed until its close handler runs: until then nothing is
        // written to it (Vert.x throws on a write to a closed WebSocket) and it is not counted a slow consumer
        @Override
        public boolean full() {
            return !ws.isClosed() && ws.writeQueueFull();
        }

        @Override
        public void send(JsonObject event, String text) {
            if (!ws.isClosed()) ws.writeTextMessage(text);
        }

        @Override
        public void end(EventFeed.End why, String reason, BusError error) {
            if (!ws.isClosed()) ws.close(why.code, reason);
        }
    }

    /** For tests: the subscriptions open in this JVM (every node and client). */
    static int open() {
        return SUBSCRIPTIONS.values().stream().mapToInt(AtomicInteger::get).sum();
    }
}
