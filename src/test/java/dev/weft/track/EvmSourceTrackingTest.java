package dev.weft.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.AnvilNode;
import dev.weft.testsupport.LayerZeroSource;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.RecordingProxy;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tracking a tx of the LayerZero lane's source chain (31337 in the devnet registry) on a real Anvil node: the tracker
 * reads its receipt over JSON-RPC ({@code track.nodes.31337}). {@code FakeOft} is deployed at the lane's OFT adapter
 * address ({@link LayerZeroSource}) and emits LayerZero's {@code OFTSent}. No devnet runs here, so nothing delivers:
 * the transfer stays pending at {@code LAYER_ZERO_TRANSFER_SENT} (the delivery: {@code LayerZeroDeliveryTest}).
 */
class EvmSourceTrackingTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static final String CHAIN = "31337";
    private static final String LANE_OFT = LayerZeroSource.OFT;

    static LayerZeroSource source;
    static AnvilNode anvil;
    static Vertx vertx;
    /** What the tracker sent to the chain's JSON-RPC (through a recording proxy in front of Anvil), in order. */
    static List<Object> RECEIVED;

    static WeftNode node;
    static int api;
    static final LocalHttp HTTP = new LocalHttp();

    @BeforeAll
    static void start() throws Exception {
        source = LayerZeroSource.start();
        weft.closeAfter(source); // after the node reading it
        anvil = source.anvil();
        source.mint(AnvilNode.ACCOUNT1, 10_000_000);
        source.approve(AnvilNode.ACCOUNT1, 10_000_000);
        vertx = weft.vertx();
        RecordingProxy proxy = RecordingProxy.start(vertx, anvil.url(), 0);
        RECEIVED = proxy.received;
        node = weft.start(weft.config()
                .roles("track", "api")
                .set("route.registries", new JsonArray().add("conf/registry/devnet.json"))
                .set("track.nodes", new JsonObject().put(CHAIN, new JsonArray().add(proxy.url())))
                .set("track.poll_interval", "100ms")
                .set("track.unknown_ttl", "5s")
                .set("track.registrations_per_client", 1000));
        api = TestNodes.httpPort(node);
    }

    private static String call(String signature, String args) throws Exception {
        String data = "0x"
                + Hex.lower(Hashes.keccak256(signature.getBytes(StandardCharsets.UTF_8)))
                        .substring(0, 8) + args;
        String hash = anvil.send(AnvilNode.ACCOUNT1, LANE_OFT, data, null, 200_000);
        anvil.receipt(hash);
        return hash;
    }

    private static HttpResponse<String> track(String hash) {
        return HTTP.post(
                api,
                "/v2/tx/track",
                new JsonObject().put("tx_hash", hash).put("chain_id", CHAIN).encode());
    }

    private static JsonObject awaitState(String hash, String state) {
        return TrackingHarness.await(
                () -> {
                    var r = HTTP.get(api, "/v2/tx/status?tx_hash=" + hash + "&chain_id=" + CHAIN);
                    if (r.statusCode() != 200) return null;
                    JsonObject s = new JsonObject(r.body());
                    return s.getString("state").equals(state) ? s : null;
                },
                hash + " reaching " + state);
    }

    @Test
    @DisplayName(
            "an OFT send on the EVM source: tracked by its 0x hash, one layer_zero_transfer, pending at LAYER_ZERO_TRANSFER_SENT while its delivery is not seen")
    void layerZeroSend() throws Exception {
        String hash = source.send(AnvilNode.ACCOUNT1, AnvilNode.ACCOUNT2, 5_000_000);
        var tracked = track(hash.toUpperCase().replace("0X", "0x")); // any case: stored as JSON-RPC writes it
        assertEquals(200, tracked.statusCode(), tracked.body());
        assertEquals(
                new JsonObject()
                        .put("tx_hash", hash)
                        .put("explorer_link", "http://scan.weft.localhost/31337/tx/" + hash),
                new JsonObject(tracked.body()));
        JsonObject sendTx = new JsonObject()
                .put("chain_id", CHAIN)
                .put("tx_hash", hash)
                .put("explorer_link", "http://scan.weft.localhost/31337/tx/" + hash)
                .put("on_chain_at", "<time>");
        JsonObject hop = new JsonObject()
                .put(
                        "layer_zero_transfer",
                        new JsonObject()
                                .put("from_chain_id", CHAIN)
                                .put("to_chain_id", "weft-devnet-1")
                                .put("src_chain_id", CHAIN)
                                .put("dst_chain_id", "weft-devnet-1")
                                .put("state", "LAYER_ZERO_TRANSFER_SENT")
                                .put(
                                        "txs",
                                        new JsonObject()
                                                .put("send_tx", sendTx)
                                                .putNull("receive_tx")
                                                .putNull("compose_tx")
                                                .putNull("error_tx")));
        JsonObject blocking = new JsonObject().put("transfer_sequence_index", 0);
        JsonObject transfer = new JsonObject()
                .put("state", "STATE_PENDING")
                .put("transfer_sequence", new JsonArray().add(hop))
                .put("next_blocking_transfer", blocking)
                .putNull("transfer_asset_release")
                .putNull("error");
        JsonObject expected = new JsonObject()
                .put("state", "STATE_PENDING")
                .put("transfers", new JsonArray().add(transfer))
                .put("transfer_sequence", new JsonArray().add(hop.copy()))
                .put("next_blocking_transfer", blocking.copy())
                .putNull("transfer_asset_release")
                .putNull("error")
                .put("status", "STATE_PENDING");
        assertEquals(expected, TrackingHarness.normalized(awaitState(hash, "STATE_PENDING")));
    }

    @Test
    @DisplayName(
            "unseen hashes cost one receipts batch per cycle (at most 100 a request), never a request per hash; track.unknown_ttl ends them")
    void receiptsAreBatched() {
        List<String> hashes = new ArrayList<>();
        for (int i = 0; i < 150; i++) hashes.add("0x%064x".formatted(0xE7A0000L + i));
        int before = RECEIVED.size();
        for (String h : hashes) assertEquals(200, track(h).statusCode());
        awaitState(hashes.get(149), "STATE_ABANDONED");
        List<Object> sent = List.copyOf(RECEIVED.subList(before, RECEIVED.size()));
        int largest = 0;
        for (Object o : sent) {
            assertTrue(o instanceof JsonArray, "every request is a batch: " + o);
            int receipts = 0;
            for (Object call : (JsonArray) o) {
                if (((JsonObject) call).getString("method").equals("eth_getTransactionReceipt")) receipts++;
            }
            largest = Math.max(largest, receipts);
        }
        assertEquals(100, largest, "150 unseen hashes: batches of 100 and 50");
        // abandoned: no longer asked for, while a newer unseen hash is
        int after = RECEIVED.size();
        String newer = "0x%064x".formatted(0xE7B0000L);
        assertEquals(200, track(newer).statusCode());
        TrackingHarness.await(
                () -> RECEIVED.subList(after, RECEIVED.size()).stream()
                                .anyMatch(o -> o.toString().contains(newer))
                        ? true
                        : null,
                "a receipt request for " + newer);
        for (Object o : List.copyOf(RECEIVED.subList(after, RECEIVED.size()))) {
            for (Object call : (JsonArray) o)
                assertFalse(
                        ((JsonObject) call)
                                .getJsonArray("params")
                                .encode()
                                .contains(hashes.get(0).substring(2)),
                        "asked after abandon: " + call);
        }
    }

    @Test
    @DisplayName(
            "a reverted EVM tx: STATE_COMPLETED_ERROR, one transfers entry with STATUS_ERROR_TRANSACTION_EXECUTION")
    void revertedTx() throws Exception {
        String hash = call("failingSend()", "");
        assertEquals(200, track(hash).statusCode());
        String log = "execution reverted (receipt status 0x0)";
        JsonObject error = new JsonObject()
                .put("type", "STATUS_ERROR_TRANSACTION_EXECUTION")
                .put("message", log)
                .put("details", new JsonObject().put("code", 1).put("message", log));
        JsonObject s = awaitState(hash, "STATE_COMPLETED_ERROR");
        assertEquals(
                new JsonArray()
                        .add(new JsonObject()
                                .put("state", "STATE_COMPLETED_ERROR")
                                .put("transfer_sequence", new JsonArray())
                                .putNull("next_blocking_transfer")
                                .putNull("transfer_asset_release")
                                .put("error", error)),
                s.getJsonArray("transfers"));
        assertEquals(error, s.getJsonObject("error"));
    }

    @Test
    @DisplayName(
            "a plain EVM tx of the source chain that sends nothing over LayerZero: STATE_COMPLETED_SUCCESS with an empty sequence")
    void txWithoutTransfer() throws Exception {
        String hash = call("nonce()", "");
        assertEquals(200, track(hash).statusCode());
        JsonObject s = awaitState(hash, "STATE_COMPLETED_SUCCESS");
        assertEquals(
                new JsonArray(), s.getJsonArray("transfers").getJsonObject(0).getJsonArray("transfer_sequence"));
    }
}
