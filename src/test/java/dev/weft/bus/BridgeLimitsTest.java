package dev.weft.bus;

import static dev.weft.testsupport.Shapes.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The bridges facing outsiders: bounded TCP frames, subscribe-only traffic, and SockJS for its own origin only. */
class BridgeLimitsTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WeftNode node;
    static WebClient web;
    static WebSocketClient ws;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        node = weft.start(
                weft.config().roles("api").set("bridge.tcp_port", 0).set("http.cors_origins", "https://app.example"));
        web = WebClient.create(vertx);
        ws = vertx.createWebSocketClient();
    }

    private static Socket bridge() throws IOException {
        Socket s = new Socket("127.0.0.1", node.context().info().bridgeTcpPort());
        s.setSoTimeout(20_000);
        return s;
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

    @Test
    @DisplayName(
            "a frame announcing 1 GiB closes the connection at its header: the trickled bytes after it are never buffered")
    void hugeFrameAnnounce() throws Exception {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        long before = rt.totalMemory() - rt.freeMemory();
        try (Socket s = bridge()) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt(1 << 30);
            out.flush();
            // the server closes on the header alone: a read sees the end of the stream (or a reset), not a timeout
            int r;
            try {
                r = s.getInputStream().read();
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the bridge kept a connection that announced a 1 GiB frame");
            } catch (IOException reset) {
                r = -1;
            }
            assertEquals(-1, r);
            byte[] chunk = new byte[64 * 1024];
            assertThrows(IOException.class, () -> {
                for (int i = 0; i < 1024; i++)
                    out.write(chunk); // 64 MiB into a closed connection fails long before the end
            });
        }
        System.gc();
        long after = rt.totalMemory() - rt.freeMemory();
        assertTrue(after - before < 32L << 20, "heap grew by " + ((after - before) >> 20) + " MiB");
    }

    @Test
    @DisplayName("a frame just over bridge.tcp_max_frame_bytes closes the connection; frames within it still work")
    void limit() throws Exception {
        try (Socket s = bridge()) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            frame(out, new JsonObject().put("type", "ping"));
            assertEquals("pong", read(new DataInputStream(s.getInputStream())).getString("type"));
            out.writeInt(64 * 1024 + 1);
            out.flush();
            assertEquals(-1, readOrEnd(s));
        }
    }

    private static int readOrEnd(Socket s) throws IOException {
        try {
            return s.getInputStream().read();
        } catch (SocketTimeoutException e) {
            return -2;
        } catch (IOException reset) {
            return -1;
        }
    }

    @Test
    @DisplayName("inbound traffic is subscribe-only: sending to a request address is access_denied")
    void subscribeOnly() throws Exception {
        try (Socket s = bridge()) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            DataInputStream in = new DataInputStream(s.getInputStream());
            frame(
                    out,
                    new JsonObject()
                            .put("type", "send")
                            .put("address", Addresses.TRACK_REGISTER)
                            .put("replyAddress", "r1")
                            .put(
                                    "body",
                                    new JsonObject()
                                            .put("tx_hash", "00".repeat(32))
                                            .put("chain_id", "weft-devnet-1")));
            JsonObject err = read(in);
            assertEquals("err", err.getString("type"), err.encode());
            assertEquals("access_denied", err.getString("message"));
            frame(out, new JsonObject().put("type", "register").put("address", Addresses.BLOCK_INDEXED));
            frame(out, new JsonObject().put("type", "ping"));
            assertEquals("pong", read(in).getString("type"));
        }
    }

    @Test
    @DisplayName(
            "SockJS: a foreign Origin is refused (403 JSON, no CORS echo); its own origin and cors_origins work, never with credentials")
    void sockJsOrigins() {
        int port = TestNodes.httpPort(node);
        var foreign = TestNodes.await(web.get(port, "127.0.0.1", "/eventbus/info")
                .putHeader("origin", "http://evil.example")
                .send());
        assertEquals(403, foreign.statusCode());
        assertError(foreign.bodyAsJsonObject(), 7);
        assertNull(foreign.getHeader("access-control-allow-origin"));
        assertNull(foreign.getHeader("access-control-allow-credentials"));
        var same = TestNodes.await(web.get(port, "127.0.0.1", "/eventbus/info")
                .putHeader("origin", "http://127.0.0.1:" + port)
                .send());
        assertEquals(200, same.statusCode());
        assertNull(same.getHeader("access-control-allow-credentials"));
        var listed = TestNodes.await(web.get(port, "127.0.0.1", "/eventbus/info")
                .putHeader("origin", "https://app.example")
                .send());
        assertEquals(200, listed.statusCode());
        assertNull(listed.getHeader("access-control-allow-credentials"));
        assertThrows(
                RuntimeException.class,
                () -> TestNodes.await(ws.connect(new WebSocketConnectOptions()
                        .setPort(port)
                        .setHost("127.0.0.1")
                        .setURI("/eventbus/websocket")
                        .addHeader("origin", "http://evil.example"))));
    }
}
