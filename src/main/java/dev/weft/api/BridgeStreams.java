package dev.weft.api;

import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.bus.TcpBridgeHook;
import dev.weft.config.EventsConfig;
import dev.weft.runtime.NodeContext;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.bridge.BaseBridgeEvent;
import io.vertx.ext.bridge.BridgeEventType;
import io.vertx.ext.web.handler.sockjs.SockJSSocket;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Resumable event subscriptions over the SockJS and TCP bridges, through the bridges' event hooks, on the same
 * {@link EventFeed} as {@code /v1/events/ws}. The protocol, on either bridge:
 *
 * <ol>
 *   <li>the client {@code send}s to {@code weft.events.subscribe} (with a {@code replyAddress}) the body
 *       {@code {after, chain_id, topic, account, tx_hash, transfer}}; the hook validates it on the connection's event
 *       loop and reserves a subscription of that connection, and the reply is {@code {address, after}} — or the
 *       bridge's error frame ({@code failureCode} 400, 429 or 410, {@code message} the usual JSON error body);
 *   <li>the client {@code register}s {@code address} ({@code weft.events.sub.<uuid>}; any other connection is
 *       refused); once registered, the server writes every stored matching event after {@code after}, then the live
 *       ones, each once, in order, as the bridge's message frames of that address;
 *   <li>{@code unregister} (or closing the connection) ends it. A stream whose log read fails or whose position was
 *       pruned gets one error frame on its address and ends; a connection whose send buffer fills is cut off (an
 *       error frame, then closed: SockJS with code 4008).
 * </ol>
 *
 * The hook overwrites the headers of every {@code weft.events.subscribe} message, so the answer it carries to the
 * echoing consumer ({@link #answer}) cannot be forged by a client.
 */
public final class BridgeStreams {
    static final String HEADER_SUBSCRIPTION = "weft-subscription";
    static final String HEADER_AFTER = "weft-after";
    static final String HEADER_STATUS = "weft-error-status";
    static final String HEADER_ERROR = "weft-error";
    /** Subscriptions open through either bridge in this JVM (for tests). */
    private static final AtomicInteger OPEN = new AtomicInteger();

    private final EventsConfig cfg;
    private final EventFeed feed;
    private final String transport;
    /** This event loop's connections, by socket (the bridges hand the same socket object to every event). */
    private final Map<Object, Connection> connections = new IdentityHashMap<>();

    private BridgeStreams(NodeContext ctx, String transport) {
        this.cfg = ctx.config().events();
        this.feed = EventFeed.of(ctx);
        this.transport = transport;
        // stateless: it answers what the hook decided, so every instance may register it
        ctx.vertx().eventBus().<Object>localConsumer(Addresses.EVENTS_SUBSCRIBE, BridgeStreams::answer);
    }

    /** The SockJS bridge's hook; call on the HTTP verticle's event loop. */
    static Handler<io.vertx.ext.web.handler.sockjs.BridgeEvent> sockJs(NodeContext ctx) {
        BridgeStreams s = new BridgeStreams(ctx, "sockjs");
        return e -> {
            SockJSSocket sock = e.socket();
            if (e.type() == BridgeEventType.SOCKET_CREATED) {
                sock.setWriteQueueMaxSize(s.cfg.sendBufferBytes());
                s.connections.put(sock, s.new Connection(new SockJsOut(sock)));
            }
            s.handle(e, sock);
            if (e.type() == BridgeEventType.SOCKET_CLOSED) s.closed(sock);
        };
    }

    /** The TCP bridge's hook; called by the bridge verticle on its event loop. */
    public static TcpBridgeHook tcp(NodeContext ctx) {
        BridgeStreams s = new BridgeStreams(ctx, "tcp");
        return new TcpBridgeHook() {
            @Override
            public void connected(NetSocket socket) {
                socket.setWriteQueueMaxSize(s.cfg.sendBufferBytes());
                s.connections.put(socket, s.new Connection(new TcpOut(socket)));
                socket.closeHandler(v -> s.closed(socket));
            }

            @Override
            public void handle(io.vertx.ext.eventbus.bridge.tcp.BridgeEvent e) {
                s.handle(e, e.socket());
            }
        };
    }

    /** For tests: subscriptions open through the bridges in this JVM. */
    static int open() {
        return OPEN.get();
    }

    private void closed(Object socket) {
        Connection c = connections.remove(socket);
        if (c != null) c.closeAll();
    }

    private void handle(BaseBridgeEvent e, Object socket) {
        Connection c = connections.get(socket);
        JsonObject raw = e.getRawMessage();
        String address = raw == null ? null : raw.getValue("address") instanceof String a ? a : null;
        if (c == null || address == null) {
            e.complete(true);
            return;
        }
        switch (e.type()) {
            case SEND -> {
                if (address.equals(Addresses.EVENTS_SUBSCRIBE)) c.subscribe(e, raw);
                else e.complete(true);
            }
            case PUBLISH -> e.complete(!address.equals(Addresses.EVENTS_SUBSCRIBE));
            // a subscription's address is registrable once, by the connection that opened it
            case REGISTER ->
                e.complete(!address.startsWith(Addresses.EVENTS_SUBSCRIPTION_PREFIX) || c.pending(address));
            case REGISTERED -> {
                c.start(address);
                e.complete(true);
            }
            case UNREGISTER -> {
                c.stop(address);
                e.complete(true);
            }
            default -> e.complete(true);
        }
    }

    /** The consumer of {@code weft.events.subscribe}: answers what the hook wrote in the headers. */
    private static void answer(Message<Object> m) {
        String error = m.headers().get(HEADER_ERROR);
        String address = m.headers().get(HEADER_SUBSCRIPTION);
        if (error != null) {
            m.fail(Integer.parseInt(m.headers().get(HEADER_STATUS)), error);
        } else if (address != null) {
            m.reply(new JsonObject()
                    .put("address", address)
                    .put("after", Long.parseLong(m.headers().get(HEADER_AFTER))));
        } else {
            BusError.badRequest(Addresses.EVENTS_SUBSCRIBE + " opens a subscription of a SockJS or TCP bridge"
                            + " connection: send it through a bridge")
                    .failTo(m);
        }
    }

    /** A subscribe body as the parameters of {@code /v1/events/ws}: strings, and whole numbers for {@code after}. */
    static MultiMap params(Object body) {
        if (body != null && !(body instanceof JsonObject))
            throw BusError.badRequest("the body of " + Addresses.EVENTS_SUBSCRIBE
                    + " is a JSON object: {after, chain_id, topic, account, tx_hash, transfer}");
        MultiMap out = MultiMap.caseInsensitiveMultiMap();
        if (body == null) return out;
        for (Map.Entry<String, Object> f : (JsonObject) body) {
            Object v = f.getValue();
            if (v == null) continue;
            if (v instanceof String s) out.add(f.getKey(), s);
            else if (v instanceof Long || v instanceof Integer) out.add(f.getKey(), v.toString());
            else throw BusError.invalidValue(f.getKey(), String.valueOf(v), "a string, or a whole number");
        }
        return out;
    }

    /** How a subscription writes on its connection's socket, in the bridge's own frames. */
    private interface Out {
        boolean full();

        void message(String address, JsonObject body);

        void error(String address, BusError e);

        /** Cuts the connection off, saying why. */
        void cut(short code, String reason);
    }

    private static JsonObject errorFrame(String address, BusError e) {
        return new JsonObject()
                .put("type", "err")
                .put("address", address)
                .put("failureCode", e.httpStatus())
                .put("failureType", "RECIPIENT_FAILURE")
                .put(
                        "message",
                        new JsonObject()
                                .put("message", e.getMessage())
                                .put("details", e.details())
                                .encode());
    }

    private record SockJsOut(SockJSSocket sock) implements Out {
        @Override
        public boolean full() {
            return sock.writeQueueFull();
        }

        @Override
        public void message(String address, JsonObject body) {
            sock.write(Buffer.buffer(new JsonObject()
                    .put("type", "rec")
                    .put("address", address)
                    .put("body", body)
                    .encode()));
        }

        @Override
        public void error(String address, BusError e) {
            sock.write(Buffer.buffer(errorFrame(address, e).encode()));
        }

        @Override
        public void cut(short code, String reason) {
            sock.close(code, reason);
        }
    }

    private record TcpOut(NetSocket socket) implements Out {
        private void frame(JsonObject f) {
            Buffer json = f.toBuffer();
            socket.write(
                    Buffer.buffer(json.length() + 4).appendInt(json.length()).appendBuffer(json));
        }

        @Override
        public boolean full() {
            return socket.writeQueueFull();
        }

        @Override
        public void message(String address, JsonObject body) {
            frame(new JsonObject()
                    .put("type", "message")
                    .put("address", address)
                    .put("send", false)
                    .put("body", body));
        }

        @Override
        public void error(String address, BusError e) {
            frame(errorFrame(address, e));
        }

        @Override
        public void cut(short code, String reason) {
            frame(new JsonObject().put("type", "err").put("message", "slow_consumer: " + reason));
            // at once: a socket's own close waits for its queued writes, which a reader that stopped never takes;
            // the reason frame, queued behind the full buffer, reaches the client only if it had room for it
            if (socket instanceof io.vertx.core.internal.net.NetSocketInternal s)
                s.channelHandlerContext().channel().close();
            else socket.close();
        }
    }

    /** One bridge connection's subscriptions: reserved at {@code send}, streaming once registered. */
    private final class Connection {
        private final Out out;
        private final Map<String, Sub> subs = new LinkedHashMap<>();
        private boolean closed;

        Connection(Out out) {
            this.out = out;
        }

        void subscribe(BaseBridgeEvent e, JsonObject raw) {
            // the client's own headers are dropped: these carry the hook's decision to the answering consumer
            JsonObject headers = new JsonObject();
            raw.put("headers", headers);
            EventQuery q;
            try {
                q = EventQuery.parse(params(raw.getValue("body")), EventQuery.SUBSCRIBE, 0);
                if (subs.size() >= cfg.bridgeSubscriptionsPerConnection())
                    throw new BusError(
                            429,
                            "too many event subscriptions on this connection"
                                    + " (events.bridge_subscriptions_per_connection = "
                                    + cfg.bridgeSubscriptionsPerConnection() + ")");
            } catch (BusError err) {
                fail(headers, err);
                e.complete(true);
                return;
            }
            String address = Addresses.EVENTS_SUBSCRIPTION_PREFIX + UUID.randomUUID();
            subs.put(address, new Sub(q)); // reserved now: the bound holds while the retention check runs
            feed.store().bounds().onComplete(ar -> {
                if (ar.failed()) {
                    subs.remove(address);
                    fail(headers, BusError.unavailable(EventFeed.End.FAILED.reason));
                } else if (q.after() < ar.result().prunedThrough()) {
                    subs.remove(address);
                    fail(headers, EventFeed.pruned(ar.result().prunedThrough()));
                } else {
                    headers.put(HEADER_SUBSCRIPTION, address).put(HEADER_AFTER, Long.toString(q.after()));
                }
                e.complete(true);
            });
        }

        private static void fail(JsonObject headers, BusError err) {
            headers.put(HEADER_STATUS, Integer.toString(err.httpStatus()))
                    .put(
                            HEADER_ERROR,
                            new JsonObject()
                                    .put("message", err.getMessage())
                                    .put("details", err.details())
                                    .encode());
        }

        boolean pending(String address) {
            Sub s = subs.get(address);
            return s != null && s.stream == null;
        }

        void start(String address) {
            Sub s = subs.get(address);
            if (closed || s == null || s.stream != null) return;
            OPEN.incrementAndGet();
            s.stream = feed.open(
                    s.q,
                    new EventFeed.Sink() {
                        @Override
                        public boolean full() {
                            return out.full();
                        }

                        @Override
                        public void send(JsonObject event, String text) {
                            out.message(address, event);
                        }

                        @Override
                        public void end(EventFeed.End why, String reason, BusError error) {
                            if (why == EventFeed.End.SLOW) {
                                closeAll();
                                out.cut(why.code, reason);
                            } else {
                                stop(address);
                                out.error(address, error);
                            }
                        }
                    },
                    transport);
        }

        void stop(String address) {
            Sub s = subs.remove(address);
            if (s != null && s.stream != null) {
                s.stream.close();
                OPEN.decrementAndGet();
            }
        }

        void closeAll() {
            closed = true;
            for (String a : subs.keySet().toArray(new String[0])) stop(a);
        }
    }

    private static final class Sub {
        final EventQuery q;
        EventFeed.Stream stream;

        Sub(EventQuery q) {
            this.q = q;
        }
    }
}
