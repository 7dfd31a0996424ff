package dev.weft.bus;

import static dev.weft.testsupport.TestNodes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Outside subscribers receive every {@code block indexed} of a real ingestion run, in order, over both bridges. */
class SubscriberTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final int BLOCKS = 40;

    @Test
    @DisplayName("a TCP-bridge client and a SockJS client receive every block indexed for a run of blocks, in order")
    void everyBlockInOrder() throws Exception {
        Vertx vertx = weft.vertx();
        TestConfig devnetApi = weft.config()
                .roles("devnet", "api")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.txs_per_block", 4);
        WeftNode front = weft.start(devnetApi);
        NetClient net = vertx.createNetClient();
        WebSocketClient wsClient = vertx.createWebSocketClient();
        BridgeTest.TcpClient tcp = new BridgeTest.TcpClient(
                await(net.connect(front.context().info().bridgeTcpPort(), "127.0.0.1")));
        tcp.send(new JsonObject().put("type", "register").put("address", Addresses.BLOCK_INDEXED));
        tcp.send(new JsonObject().put("type", "ping"));
        assertEquals("pong", tcp.next().getString("type")); // frames are handled in order: the registration is done
        LinkedBlockingQueue<JsonObject> sockJs = new LinkedBlockingQueue<>();
        WebSocket ws = await(wsClient.connect(new WebSocketConnectOptions()
                .setPort(TestNodes.httpPort(front))
                .setHost("127.0.0.1")
                .setURI("/eventbus/websocket")));
        ws.handler(b -> sockJs.add(b.toJsonObject()));
        ws.writeTextMessage(new JsonObject()
                .put("type", "register")
                .put("address", Addresses.BLOCK_INDEXED)
                .encode());
        // the SockJS registration has no acknowledgement: publish markers (height 0) until one arrives
        JsonObject marker = null;
        for (int i = 0; i < 200 && marker == null; i++) {
            vertx.eventBus().publish(Addresses.BLOCK_INDEXED, new JsonObject().put("height", 0));
            marker = sockJs.poll(50, TimeUnit.MILLISECONDS);
        }
        assertNotNull(marker, "the SockJS subscription never became active");

        // now index the chain: the indexer node shares the event bus (same Vert.x), as a cluster member would
        var chain = front.context().config().chain();
        TestConfig ingest = weft.config()
                .roles("ingest")
                .set("chain.rpc", new io.vertx.core.json.JsonArray(chain.rpcUrls()))
                .set("chain.rest", new io.vertx.core.json.JsonArray(chain.restUrls()))
                .set("chain.json_rpc", new io.vertx.core.json.JsonArray(chain.jsonRpcUrls()))
                .set("ingest.poll_interval", "50ms");
        weft.start(ingest);

        List<Long> want = LongStream.rangeClosed(1, BLOCKS).boxed().toList();
        assertEquals(want, heights(tcp.frames, "message", BLOCKS));
        assertEquals(want, heights(sockJs, "rec", BLOCKS));
        await(tcp.socket.close());
        await(ws.close());
    }

    /** The next {@code n} block heights from a subscriber's frames, skipping markers. */
    private static List<Long> heights(LinkedBlockingQueue<JsonObject> frames, String type, int n)
            throws InterruptedException {
        List<Long> out = new ArrayList<>();
        while (out.size() < n) {
            JsonObject f = frames.poll(60, TimeUnit.SECONDS);
            assertNotNull(f, "missing block events after " + out);
            assertEquals(type, f.getString("type"), f.encode());
            JsonObject body = f.getJsonObject("body");
            long h = body.getLong("height");
            if (h == 0) continue;
            assertEquals(
                    List.of("chain_id", "height", "hash", "tx_count", "time", "sequence"),
                    new ArrayList<>(body.fieldNames()),
                    body.encode());
            out.add(h);
        }
        return out;
    }
}
