package dev.weft.bus;

import static dev.weft.testsupport.TestNodes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Outside subscribers through the TCP bridge and the SockJS bridge: updates out, only permitted requests in. */
class BridgeTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WeftNode node;
    static NetClient net;
    static WebSocketClient ws;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        node = weft.start(weft.config().roles("api").set("bridge.tcp_port", 0));
        net = vertx.createNetClient();
        ws = vertx.createWebSocketClient();
    }

    /** A TCP bridge client: frames are a 4-byte big-endian length followed by JSON. */
    static final class TcpClient {
        final NetSocket socket;
        final LinkedBlockingQueue<JsonObject> frames = new LinkedBlockingQueue<>();

        TcpClient(NetSocket socket) {
            this.socket = socket;
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

        void send(JsonObject frame) {
            Buffer json = frame.toBuffer();
            socket.write(Buffer.buffer().appendInt(json.length()).appendBuffer(json));
        }

        JsonObject next() throws InterruptedException {
            JsonObject f = frames.poll(20, TimeUnit.SECONDS);
            assertNotNull(f, "no frame from the TCP bridge");
            return f;
        }
    }

    @Test
    @DisplayName(
            "TCP bridge: a subscriber receives every published block update in order; a forbidden publish is refused")
    void tcpBridge() throws Exception {
        int port = node.context().info().bridgeTcpPort();
        TcpClient c = new TcpClient(await(net.connect(port, "127.0.0.1")));
        c.send(new JsonObject().put("type", "register").put("address", Addresses.BLOCK_INDEXED));
        c.send(new JsonObject().put("type", "ping"));
        assertEquals("pong", c.next().getString("type"));
        for (int h = 1; h <= 20; h++)
            vertx.eventBus().publish(Addresses.BLOCK_INDEXED, new JsonObject().put("height", h));
        List<Long> heights = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            JsonObject f = c.next();
            assertEquals("message", f.getString("type"), f.encode());
            assertEquals(Addresses.BLOCK_INDEXED, f.getString("address"));
            heights.add(f.getJsonObject("body").getLong("height"));
        }
        assertEquals(java.util.stream.LongStream.rangeClosed(1, 20).boxed().toList(), heights);

        List<Object> leaked = new ArrayList<>();
        vertx.eventBus().consumer("weft.internal.secret", m -> leaked.add(m.body()));
        c.send(new JsonObject()
                .put("type", "publish")
                .put("address", "weft.internal.secret")
                .put("body", new JsonObject().put("x", 1)));
        JsonObject err = c.next();
        assertEquals("err", err.getString("type"), err.encode());
        assertEquals("access_denied", err.getString("message"));
        c.send(new JsonObject().put("type", "register").put("address", "weft.internal.secret"));
        assertEquals("err", c.next().getString("type"));
        assertTrue(leaked.isEmpty());
        await(c.socket.close());
    }

    @Test
    @DisplayName(
            "SockJS bridge (raw WebSocket): a subscriber receives every block update in order; inbound publish refused")
    void sockJsBridge() throws Exception {
        int port = TestNodes.httpPort(node);
        LinkedBlockingQueue<JsonObject> frames = new LinkedBlockingQueue<>();
        WebSocket socket = await(ws.connect(
                new WebSocketConnectOptions().setPort(port).setHost("127.0.0.1").setURI("/eventbus/websocket")));
        socket.handler(buf -> frames.add(buf.toJsonObject())); // the raw endpoint sends binary frames holding JSON
        socket.writeTextMessage(new JsonObject()
                .put("type", "register")
                .put("address", Addresses.BLOCK_INDEXED)
                .encode());
        // registration is asynchronous: publish a marker until it arrives, then the real run
        JsonObject first = null;
        for (int i = 0; i < 200 && first == null; i++) {
            vertx.eventBus().publish(Addresses.BLOCK_INDEXED, new JsonObject().put("height", 0));
            first = frames.poll(50, TimeUnit.MILLISECONDS);
        }
        assertNotNull(first, "no update through the SockJS bridge");
        for (int h = 1; h <= 20; h++)
            vertx.eventBus().publish(Addresses.BLOCK_INDEXED, new JsonObject().put("height", h));
        List<Long> heights = new ArrayList<>();
        while (heights.size() < 20) {
            JsonObject f = frames.poll(20, TimeUnit.SECONDS);
            assertNotNull(f, "missing updates after " + heights);
            assertEquals("rec", f.getString("type"));
            long h = f.getJsonObject("body").getLong("height");
            if (h > 0) heights.add(h);
        }
        assertEquals(java.util.stream.LongStream.rangeClosed(1, 20).boxed().toList(), heights);

        List<Object> leaked = new ArrayList<>();
        vertx.eventBus().consumer("weft.internal.secret", m -> leaked.add(m.body()));
        socket.writeTextMessage(new JsonObject()
                .put("type", "publish")
                .put("address", "weft.internal.secret")
                .put("body", new JsonObject())
                .encode());
        JsonObject err;
        do {
            err = frames.poll(20, TimeUnit.SECONDS);
            assertNotNull(err, "no refusal");
        } while ("rec".equals(err.getString("type")));
        assertEquals("err", err.getString("type"), err.encode());
        assertEquals("access_denied", err.getString("body"));
        assertTrue(leaked.isEmpty());
        await(socket.close());
    }

    @Test
    @DisplayName("the live page is served at /")
    void livePage() {
        var r = TestNodes.get(
                vertx.createHttpClient() == null ? null : io.vertx.ext.web.client.WebClient.create(vertx),
                TestNodes.httpPort(node),
                "/");
        assertEquals(200, r.statusCode());
        assertTrue(r.getHeader("content-type").startsWith("text/html"));
        assertTrue(r.bodyAsString().contains("<title>Weft live</title>"));
        assertTrue(r.bodyAsString().contains("/eventbus/websocket"));
    }
}
