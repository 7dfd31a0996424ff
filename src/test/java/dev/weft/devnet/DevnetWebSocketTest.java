package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** CometBFT's /websocket on a live devnet: calls, NewBlock and Tx subscriptions in CometBFT 0.38's event JSON, bounds. */
class DevnetWebSocketTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static final String COMET = "cometbft-v0.38-kvstore-tendermint-rs/";

    @Test
    @DisplayName(
            "subscribe to tm.event='NewBlock' and 'Tx' gets CometBFT's ResultEvents; calls work on the socket; at most 5 subscriptions")
    void subscriptions() throws Exception {
        TestConfig config = weft.config()
                .roles("devnet")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 3)
                .set("devnet.block_interval", "100ms")
                .set("devnet.state_file", "")
                .set("devnet.txs_per_block", 20)
                .set("devnet.empty_block_share", 0.0);
        DevnetHarness devnet = DevnetHarness.start(weft, config);
        Vertx vertx = devnet.vertx();
        WebSocketClient client = vertx.createWebSocketClient();
        BlockingQueue<JsonObject> in = new LinkedBlockingQueue<>();
        WebSocket ws = TestNodes.await(client.connect(devnet.rpcPort, "127.0.0.1", "/websocket"));
        ws.textMessageHandler(t -> in.add(new JsonObject(t)));

        ws.writeTextMessage(request(1, "subscribe", "tm.event='NewBlock'"));
        assertEquals(new JsonObject("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"), next(in));
        JsonObject event = next(in);
        assertEquals(1, event.getInteger("id"));
        JsonObject result = event.getJsonObject("result");
        assertEquals("tm.event='NewBlock'", result.getString("query"));
        assertEquals(
                new JsonArray().add("NewBlock"), result.getJsonObject("events").getJsonArray("tm.event"));
        JsonObject value = result.getJsonObject("data").getJsonObject("value");
        String height = value.getJsonObject("block").getJsonObject("header").getString("height");
        assertEquals(
                devnet.rpc("/block?height=" + height).getJsonObject("result"),
                new JsonObject()
                        .put("block_id", value.getJsonObject("block_id"))
                        .put("block", value.getJsonObject("block")));
        WireShape.unordered()
                .typeMayDiffer("id", "result.data.value.block.data.txs", "result.data.value.block.header.version")
                .extra(
                        "result.data.value.result_finalize_block.events",
                        "result.data.value.result_finalize_block.tx_results",
                        "result.events.devnet_begin_block.height",
                        "result.events.devnet_begin_block.mode",
                        "result.events.devnet_end_block.tx_count",
                        "result.events.devnet_end_block.mode")
                .check(Fixtures.object(COMET + "subscribe_newblock_1.json"), event);

        ws.writeTextMessage(request(2, "unsubscribe", "tm.event='NewBlock'"));
        JsonObject unsubscribed = skipEvents(in, 2);
        assertEquals(new JsonObject(), unsubscribed.getJsonObject("result"));

        ws.writeTextMessage(request(3, "subscribe", "tm.event='Tx'"));
        assertEquals(new JsonObject(), skipEvents(in, 3).getJsonObject("result"));
        JsonObject tx = next(in);
        assertEquals(3, tx.getInteger("id"));
        JsonObject txResult = tx.getJsonObject("result")
                .getJsonObject("data")
                .getJsonObject("value")
                .getJsonObject("TxResult");
        JsonObject events = tx.getJsonObject("result").getJsonObject("events");
        String hash = events.getJsonArray("tx.hash").getString(0);
        JsonObject viaRpc = devnet.rpc("/tx?hash=0x" + hash).getJsonObject("result");
        assertEquals(viaRpc.getString("tx"), txResult.getString("tx"));
        assertEquals(
                viaRpc.getString("height"), events.getJsonArray("tx.height").getString(0));
        WireShape.unordered()
                .typeMayDiffer("id")
                .absent("result.data.value.TxResult.result.events[].attributes[].index")
                .extra(
                        "result.data.value.TxResult.result.gas_wanted",
                        "result.data.value.TxResult.result.gas_used",
                        "result.data.value.TxResult.result.data",
                        "result.data.value.TxResult.index",
                        "result.data.value.TxResult.result.code",
                        "result.data.value.TxResult.result.log",
                        "result.data.value.TxResult.result.codespace")
                .typeMayDiffer("result.events", "result.data.value.TxResult.result.events")
                .check(Fixtures.object(COMET + "subscribe_txs_1.json"), tx);

        // a normal call on the socket; the subscription bound; unsubscribe_all
        ws.writeTextMessage(new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", "s")
                .put("method", "health")
                .put("params", new JsonObject())
                .encode());
        assertEquals(new JsonObject(), skipEvents(in, "s").getJsonObject("result"));
        for (int i = 0; i < 4; i++) {
            ws.writeTextMessage(request(10 + i, "subscribe", "tm.event='Tx' AND tx.height > " + i));
            assertEquals(new JsonObject(), skipEvents(in, 10 + i).getJsonObject("result"));
        }
        ws.writeTextMessage(request(20, "subscribe", "tm.event='NewBlock' AND block.height > 0"));
        assertEquals(
                "max_subscriptions_per_client 5 reached",
                skipEvents(in, 20).getJsonObject("error").getString("data"));
        ws.writeTextMessage(request(21, "unsubscribe", "tm.event='Nope'"));
        assertEquals(
                "subscription not found",
                skipEvents(in, 21).getJsonObject("error").getString("data"));
        ws.writeTextMessage(new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 22)
                .put("method", "unsubscribe_all")
                .put("params", new JsonObject())
                .encode());
        assertEquals(new JsonObject(), skipEvents(in, 22).getJsonObject("result"));
        TestNodes.await(ws.close());
    }

    private static String request(Object id, String method, String query) {
        return new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", id)
                .put("method", method)
                .put("params", new JsonObject().put("query", query))
                .encode();
    }

    private static JsonObject next(BlockingQueue<JsonObject> in) throws InterruptedException {
        JsonObject m = in.poll(30, TimeUnit.SECONDS);
        assertNotNull(m, "no message within 30 s");
        return m;
    }

    /** The answer to request {@code id}, skipping the events still arriving for earlier subscriptions. */
    private static JsonObject skipEvents(BlockingQueue<JsonObject> in, Object id) throws InterruptedException {
        for (int i = 0; i < 10_000; i++) {
            JsonObject m = next(in);
            if (id.equals(m.getValue("id"))
                    && (m.containsKey("error") || !m.getJsonObject("result").containsKey("query"))) return m;
        }
        throw new AssertionError("no answer to " + id);
    }
}
