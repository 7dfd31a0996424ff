package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Resumable event subscriptions over the SockJS bridge (raw WebSocket transport) and the TCP bridge, on a node
 * indexing a live devnet: resume after a disconnect with exactly the missed events, bad input as error frames, slow
 * consumers cut off on every transport (WebSocket endpoint included), and positions below retention.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BridgeStreamsTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WeftNode node;
    static String url;
    static int http;
    static int tcp;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        TestConfig c = weft.config()
                .roles("devnet", "ingest", "api")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 40)
                .set("devnet.block_interval", "150ms")
                .set("devnet.txs_per_block", 6)
                .set("ingest.poll_interval", "50ms")
                .set("bridge.tcp_port", 0)
                .set("events.bridge_subscriptions_per_connection", 2)
                // small enough for a stalled reader to fill soon; a page (20 events) always fits in it
                .set("events.ws_replay_page", 20)
                .set("events.ws_send_buffer_bytes", 32768);
        url = (String) c.get("database.url");
        node = weft.start(c);
        http = TestNodes.httpPort(node);
        tcp = node.context().info().bridgeTcpPort();
        Await.cursor(url, "ingest", 40, 60);
    }

    /** A bridge connection: frames out, frames in (message frames normalised to {type: "message"}). */
    interface Bridge {
        void send(JsonObject frame);

        LinkedBlockingQueue<JsonObject> frames();

        void close();

        default JsonObject next() throws InterruptedException {
            JsonObject f = frames().poll(20, TimeUnit.SECONDS);
            assertNotNull(f, "no frame from the bridge");
            return f;
        }

        /** Sends a subscribe request and answers the reply frame (a message or an err). */
        default JsonObject subscribe(JsonObject body) throws InterruptedException {
            String reply = "r-" + System.nanoTime();
            send(new JsonObject()
                    .put("type", "send")
                    .put("address", Addresses.EVENTS_SUBSCRIBE)
                    .put("replyAddress", reply)
                    .put("body", body));
            while (true) {
                JsonObject f = next();
                if (reply.equals(f.getString("address")) || "err".equals(f.getString("type"))) return f;
            }
        }

        /** Subscribes, registers the answered address, and answers it. */
        default String open(JsonObject body) throws InterruptedException {
            JsonObject r = subscribe(body);
            assertEquals("message", r.getString("type"), r.encode());
            String address = r.getJsonObject("body").getString("address");
            assertTrue(address.startsWith(Addresses.EVENTS_SUBSCRIPTION_PREFIX), address);
            send(new JsonObject().put("type", "register").put("address", address));
            return address;
        }
    }

    static final class Tcp implements Bridge {
        final NetSocket socket;
        final LinkedBlockingQueue<JsonObject> frames = new LinkedBlockingQueue<>();

        Tcp() {
            socket = TestNodes.await(vertx.createNetClient().connect(tcp, "127.0.0.1"));
            RecordParser parser = RecordParser.newFixed(4);
            int[] expected = {-1};
            parser.handler(buf -> {
                if (expected[0] < 0) {
                    expected[0] = buf.getInt(0);
                    parser.fixedSizeMode(expected[0]);
                } else {
                    frames.add(buf.toJsonObject());
                    expected[0] = -1;
                    parser.fixedSizeMode(4);
                }
            });
            socket.handler(parser);
        }

        @Override
        public void send(JsonObject frame) {
            Buffer json = frame.toBuffer();
            socket.write(Buffer.buffer().appendInt(json.length()).appendBuffer(json));
        }

        @Override
        public LinkedBlockingQueue<JsonObject> frames() {
            return frames;
        }

        @Override
        public void close() {
            TestNodes.await(socket.close());
        }
    }

    static final class SockJs implements Bridge {
        final WebSocket socket;
        final LinkedBlockingQueue<JsonObject> frames = new LinkedBlockingQueue<>();

        SockJs() {
            socket = TestNodes.await(vertx.createWebSocketClient()
                    .connect(new WebSocketConnectOptions()
                            .setPort(http)
                            .setHost("127.0.0.1")
                            .setURI("/eventbus/websocket")));
            socket.handler(buf -> {
                JsonObject f = buf.toJsonObject();
                if ("rec".equals(f.getString("type"))) f.put("type", "message");
                frames.add(f);
            });
        }

        @Override
        public void send(JsonObject frame) {
            socket.writeTextMessage(frame.encode());
        }

        @Override
        public LinkedBlockingQueue<JsonObject> frames() {
            return frames;
        }

        @Override
        public void close() {
            TestNodes.await(socket.close());
        }
    }

    /** The log's sequences in (after, upTo] matching a SQL condition, straight from the table. */
    static List<Long> logged(long after, long upTo, String where) throws Exception {
        List<Long> out = new ArrayList<>();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT sequence FROM event_log WHERE sequence > " + after
                        + " AND sequence <= " + upTo + " AND " + where + " ORDER BY sequence")) {
            while (rs.next()) out.add(rs.getLong(1));
        }
        return out;
    }

    static long stored() throws Exception {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT coalesce(max(sequence), 0) FROM event_log")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The sequences of the events received on {@code address}, until {@code enough} of them. */
    static List<Long> receive(Bridge b, String address, java.util.function.LongPredicate done)
            throws InterruptedException {
        List<Long> out = new ArrayList<>();
        while (out.isEmpty() || !done.test(out.get(out.size() - 1))) {
            JsonObject f = b.next();
            assertEquals("message", f.getString("type"), f.encode());
            assertEquals(address, f.getString("address"), f.encode());
            JsonObject e = f.getJsonObject("body");
            assertEquals("blocks", e.getString("topic"));
            out.add(e.getLong("sequence"));
        }
        return out;
    }

    void resumes(java.util.function.Supplier<Bridge> connect) throws Exception {
        Bridge first = connect.get();
        String a = first.open(new JsonObject().put("topic", "blocks").put("after", 0));
        long storedAtStart = stored();
        List<Long> seen = receive(first, a, s -> s > storedAtStart);
        first.close();
        long lastSeen = seen.get(seen.size() - 1);
        assertEquals(logged(0, lastSeen, "topic = 'blocks'"), seen, "replay then live: every block event, in order");
        // the devnet makes blocks and transfers while no one listens
        long cursor = Await.cursorHeight(url, "ingest");
        Await.until("blocks made while disconnected", 30, () -> Await.cursorHeight(url, "ingest") >= cursor + 5);
        long storedAtReconnect = stored();
        Bridge again = connect.get();
        String b = again.open(new JsonObject().put("topic", "blocks").put("after", Long.toString(lastSeen)));
        List<Long> resumed = receive(again, b, s -> s > storedAtReconnect + 3);
        again.close();
        assertEquals(
                logged(lastSeen, resumed.get(resumed.size() - 1), "topic = 'blocks'"),
                resumed,
                "exactly the missed events, then live ones: no gap, no duplicate");
        assertTrue(resumed.stream().filter(s -> s <= storedAtReconnect).count() >= 5, "the missed events came first");
        Await.until("subscriptions released", 10, () -> BridgeStreams.open() == 0);
    }

    @Test
    @Order(1)
    @DisplayName(
            "TCP bridge: subscribe with after, disconnect, reconnect with the last sequence seen: exactly the missed events, then live, no duplicate")
    void tcpResumes() throws Exception {
        resumes(Tcp::new);
    }

    @Test
    @Order(2)
    @DisplayName(
            "SockJS bridge: subscribe with after, disconnect, reconnect with the last sequence seen: exactly the missed events, then live, no duplicate")
    void sockJsResumes() throws Exception {
        resumes(SockJs::new);
    }

    void badInput(Bridge c) throws Exception {
        for (JsonObject body : List.of(
                new JsonObject().put("nope", 1),
                new JsonObject().put("after", "abc"),
                new JsonObject().put("after", -1),
                new JsonObject().put("after", 1.5),
                new JsonObject().put("topic", "nope"),
                new JsonObject().put("account", "init1xyz"),
                new JsonObject().put("limit", 5))) {
            JsonObject r = c.subscribe(body);
            assertEquals("err", r.getString("type"), body + " → " + r.encode());
            assertEquals(400, r.getInteger("failureCode"), body + " → " + r.encode());
            JsonObject error = new JsonObject(r.getString("message"));
            assertTrue(
                    error.getString("message").contains("INVALID_VALUE")
                            || error.getString("message").contains("unknown parameter"),
                    error.encode());
        }
        // a subscription address that is not this connection's is refused
        c.send(new JsonObject()
                .put("type", "register")
                .put("address", Addresses.EVENTS_SUBSCRIPTION_PREFIX + java.util.UUID.randomUUID()));
        assertEquals("err", c.next().getString("type"));
        // two per connection; the third is a 429
        c.open(new JsonObject().put("chain_id", "elsewhere-1"));
        c.open(new JsonObject().put("chain_id", "elsewhere-1"));
        JsonObject third = c.subscribe(new JsonObject().put("chain_id", "elsewhere-1"));
        assertEquals("err", third.getString("type"));
        assertEquals(429, third.getInteger("failureCode"), third.encode());
        c.close();
        Await.until("subscriptions released", 10, () -> BridgeStreams.open() == 0);
    }

    @Test
    @Order(3)
    @DisplayName(
            "bad input is the bridge's error frame with the JSON error: unknown filter, malformed sequence, another's address, too many")
    void badInput() throws Exception {
        badInput(new Tcp());
        badInput(new SockJs());
    }

    @Test
    @Order(4)
    @DisplayName("TCP bridge: a subscriber that never reads is cut off, never buffered without limit")
    void tcpSlowConsumer() throws Exception {
        EventsMetrics m = EventsMetrics.get();
        double cutBefore = m.cutOffs("tcp");
        long total = stored();
        int frames = 0;
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(4096);
            s.connect(new InetSocketAddress("127.0.0.1", tcp));
            s.setSoTimeout(30_000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            DataInputStream in = new DataInputStream(s.getInputStream());
            frame(
                    out,
                    new JsonObject()
                            .put("type", "send")
                            .put("address", Addresses.EVENTS_SUBSCRIBE)
                            .put("replyAddress", "r")
                            .put("body", new JsonObject().put("after", 0)));
            String address = read(in).getJsonObject("body").getString("address");
            frame(out, new JsonObject().put("type", "register").put("address", address));
            // reads nothing more until the server has given up on it
            Await.until("the TCP subscriber cut off", 60, () -> m.cutOffs("tcp") > cutBefore);
            Await.until("its subscription released", 10, () -> BridgeStreams.open() == 0);
            // closed by the server: what the kernel held arrives, then the end of the stream (or a reset), never
            // a read that waits for more
            try {
                while (true) {
                    read(in);
                    frames++;
                }
            } catch (java.net.SocketTimeoutException stillOpen) {
                throw new AssertionError("the connection was not closed after " + frames + " frames", stillOpen);
            } catch (IOException endOfStream) {
                // the end
            }
        }
        assertTrue(frames > 0 && total > 0, frames + " frames");
    }

    @Test
    @Order(5)
    @DisplayName("SockJS bridge: a subscriber that never reads is cut off with code 4008")
    void sockJsSlowConsumer() throws Exception {
        EventsMetrics m = EventsMetrics.get();
        double cutBefore = m.cutOffs("sockjs");
        SockJs c = new SockJs();
        String address = c.open(new JsonObject().put("after", 0));
        c.socket.pause();
        Short[] closed = {null};
        c.socket.closeHandler(v -> closed[0] = c.socket.closeStatusCode());
        Await.until("the SockJS subscriber cut off", 60, () -> m.cutOffs("sockjs") > cutBefore);
        Await.until("its subscription released", 10, () -> BridgeStreams.open() == 0);
        c.socket.resume();
        Await.until("closed by the server", 30, () -> closed[0] != null);
        assertEquals(EventFeed.End.SLOW.code, closed[0]);
        assertTrue(address.startsWith(Addresses.EVENTS_SUBSCRIPTION_PREFIX));
    }

    @Test
    @Order(6)
    @DisplayName("WebSocket endpoint: a subscriber that never reads is cut off with code 4008")
    void wsSlowConsumer() throws Exception {
        EventsMetrics m = EventsMetrics.get();
        double cutBefore = m.cutOffs("ws");
        io.vertx.core.http.ClientWebSocket ws = vertx.createWebSocketClient(
                        new WebSocketClientOptions().setReceiveBufferSize(4096))
                .webSocket();
        Short[] closed = {null};
        ws.closeHandler(v -> closed[0] = ws.closeStatusCode());
        ws.handler(b -> {});
        TestNodes.await(ws.connect(
                new WebSocketConnectOptions().setHost("127.0.0.1").setPort(http).setURI("/v1/events/ws?after=0")));
        ws.pause();
        Await.until("the WebSocket subscriber cut off", 60, () -> m.cutOffs("ws") > cutBefore);
        Await.until("its subscription released", 10, () -> m.subscribers("ws") == 0);
        ws.resume();
        Await.until("closed by the server", 30, () -> closed[0] != null);
        assertEquals(EventFeed.End.SLOW.code, closed[0]);
    }

    @Test
    @Order(7)
    @DisplayName("below retention: the subscribe answers a 410 error frame naming the oldest sequence kept")
    void belowRetention() throws Exception {
        long cut = 30;
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            st.execute("BEGIN; DELETE FROM event_log WHERE sequence <= " + cut
                    + "; UPDATE event_retention SET pruned_through = " + cut + "; COMMIT");
        }
        for (Bridge b : List.of(new Tcp(), new SockJs())) {
            JsonObject r = b.subscribe(new JsonObject().put("after", 5));
            assertEquals("err", r.getString("type"), r.encode());
            assertEquals(410, r.getInteger("failureCode"), r.encode());
            JsonObject error = new JsonObject(r.getString("message"));
            assertTrue(error.getString("message").contains("oldest kept is " + (cut + 1)), error.encode());
            assertEquals(
                    Long.toString(cut + 1),
                    error.getJsonArray("details")
                            .getJsonObject(0)
                            .getJsonObject("metadata")
                            .getString("oldest_sequence"));
            // from the oldest kept on, all is well
            String a = b.open(new JsonObject().put("after", cut).put("topic", "blocks"));
            JsonObject f = b.next();
            assertEquals(a, f.getString("address"), f.encode());
            assertTrue(f.getJsonObject("body").getLong("sequence") > cut);
            b.close();
        }
    }

    private static void frame(DataOutputStream out, JsonObject json) throws IOException {
        byte[] b = json.encode().getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
        out.flush();
    }

    private static JsonObject read(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new JsonObject(new String(b, StandardCharsets.UTF_8));
    }
}
