package dev.weft.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.chain.LayerZero;
import dev.weft.testsupport.AnvilNode;
import dev.weft.testsupport.LayerZeroSource;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.RecordingProxy;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The LayerZero lane end to end on a real Anvil source (31337) and the devnet: the devnet's delivery simulator
 * ({@code devnet.layer_zero.source_rpc}) follows the source's {@code OFTSent}/{@code PacketSent} logs and credits the
 * recipient on weft-devnet-1 in a tx of its own whose receipt carries the destination OFT's {@code OFTReceived}; the
 * tracker follows the send from its 0x hash to that delivery. Both read through recording proxies, so their requests
 * are checked too.
 */
class LayerZeroDeliveryTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String DEVNET = "weft-devnet-1";
    static final int DELAY_BLOCKS = 3;

    static LayerZeroSource source;
    static Vertx proxies;
    static RecordingProxy toSource;
    static RecordingProxy toDevnet;
    static TrackingHarness h;
    static long sourceHeadAtStart;

    @BeforeAll
    static void start() throws Exception {
        source = LayerZeroSource.start();
        weft.closeAfter(source); // after the devnet and the proxies reading it
        source.mint(AnvilNode.ACCOUNT1, 100_000_000);
        source.approve(AnvilNode.ACCOUNT1, 100_000_000);
        sourceHeadAtStart = source.anvil().blockNumber();
        proxies = weft.newVertx();
        int devnetJsonRpc = Ports.free();
        toSource = RecordingProxy.start(proxies, source.url(), 0);
        toDevnet = RecordingProxy.start(proxies, "http://127.0.0.1:" + devnetJsonRpc, 0);
        h = TrackingHarness.start(
                weft,
                TrackingHarness.config()
                        .set("devnet.json_rpc_port", devnetJsonRpc)
                        .set(
                                "chain.json_rpc",
                                new JsonArray()
                                        .add(toDevnet.url())) // the tracker reads the devnet's logs through the proxy
                        .set("devnet.layer_zero.source_rpc", toSource.url())
                        .set("devnet.layer_zero.poll_interval", "100ms")
                        .set("devnet.layer_zero.delay_blocks", DELAY_BLOCKS)
                        .set("track.stall_timeout", "4s")
                        .set(
                                "track.nodes",
                                new JsonObject().put(LayerZeroSource.CHAIN, new JsonArray().add(source.url()))));
        TrackingHarness.await(
                () -> toSource.received.stream().anyMatch(o -> o.toString().contains("eth_blockNumber")) ? true : null,
                "the devnet reading the source's head");
    }

    private static JsonObject devnetRpc(String method, JsonArray params) {
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", method)
                .put("params", params);
        int port = dev.weft.devnet.DevnetEndpoints.of(h.node().context().info())
                .generated()
                .jsonRpcPort();
        return new JsonObject(h.post(port, "/", req).body());
    }

    @Test
    @DisplayName(
            "an OFT send is delivered on weft-devnet-1 (OFTReceived in the delivery's receipt, the bank credited) and tracked to LAYER_ZERO_TRANSFER_RECEIVED, STATE_COMPLETED_SUCCESS, released on the destination")
    void delivered() throws Exception {
        String recipient = AnvilNode.ACCOUNT3;
        String bech32 = AccountAddress.of(Hex.decode(recipient)).bech32("init");
        java.math.BigInteger sourceBefore = source.balance(AnvilNode.ACCOUNT1);
        String hash = source.send(AnvilNode.ACCOUNT1, recipient, 5_000_000);
        assertEquals(
                sourceBefore.subtract(java.math.BigInteger.valueOf(5_000_000)), source.balance(AnvilNode.ACCOUNT1));
        String guid = source.anvil().receipt(hash).getJsonArray("logs").stream()
                .map(o -> (JsonObject) o)
                .filter(l -> l.getJsonArray("topics").getString(0).equals(LayerZero.OFT_SENT_TOPIC))
                .findFirst()
                .orElseThrow()
                .getJsonArray("topics")
                .getString(1);
        assertEquals(200, h.track(hash, LayerZeroSource.CHAIN).statusCode());
        JsonObject status =
                TrackingHarness.normalized(h.awaitState(hash, LayerZeroSource.CHAIN, "STATE_COMPLETED_SUCCESS"));

        JsonObject hop =
                status.getJsonArray("transfer_sequence").getJsonObject(0).getJsonObject("layer_zero_transfer");
        String receiveHash =
                hop.getJsonObject("txs").getJsonObject("receive_tx").getString("tx_hash");
        JsonObject sendTx = new JsonObject()
                .put("chain_id", LayerZeroSource.CHAIN)
                .put("tx_hash", hash)
                .put("explorer_link", "http://scan.weft.localhost/31337/tx/" + hash)
                .put("on_chain_at", "<time>");
        JsonObject receiveTx = new JsonObject()
                .put("chain_id", DEVNET)
                .put("tx_hash", receiveHash)
                .put("explorer_link", "http://scan.weft.localhost/weft-devnet-1/txs/" + receiveHash)
                .put("on_chain_at", "<time>");
        JsonObject expectedHop = new JsonObject()
                .put(
                        "layer_zero_transfer",
                        new JsonObject()
                                .put("from_chain_id", LayerZeroSource.CHAIN)
                                .put("to_chain_id", DEVNET)
                                .put("src_chain_id", LayerZeroSource.CHAIN)
                                .put("dst_chain_id", DEVNET)
                                .put("state", "LAYER_ZERO_TRANSFER_RECEIVED")
                                .put(
                                        "txs",
                                        new JsonObject()
                                                .put("send_tx", sendTx)
                                                .put("receive_tx", receiveTx)
                                                .putNull("compose_tx")
                                                .putNull("error_tx")));
        JsonObject release = new JsonObject()
                .put("chain_id", DEVNET)
                .put("denom", LayerZeroSource.DEST_DENOM)
                .put("amount", "5000000")
                .put("released", true);
        JsonObject transfer = new JsonObject()
                .put("state", "STATE_COMPLETED_SUCCESS")
                .put("transfer_sequence", new JsonArray().add(expectedHop))
                .putNull("next_blocking_transfer")
                .put("transfer_asset_release", release)
                .putNull("error");
        assertEquals(
                new JsonObject()
                        .put("state", "STATE_COMPLETED_SUCCESS")
                        .put("transfers", new JsonArray().add(transfer))
                        .put("transfer_sequence", new JsonArray().add(expectedHop.copy()))
                        .putNull("next_blocking_transfer")
                        .put("transfer_asset_release", release.copy())
                        .putNull("error")
                        .put("status", "STATE_COMPLETED"),
                status);
        assertEquals(
                List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"),
                h.events.get(LayerZeroSource.CHAIN + "/" + hash));

        // the delivery on the devnet: an EVM receipt from the destination OFT with the mint and OFTReceived
        JsonObject receipt = devnetRpc("eth_getTransactionReceipt", new JsonArray().add(receiveHash))
                .getJsonObject("result");
        assertEquals("0x1", receipt.getString("status"));
        assertEquals(LayerZeroSource.DEST_OFT, receipt.getString("to"));
        String amount = "0x" + LayerZero.word(java.math.BigInteger.valueOf(5_000_000));
        String toTopic = LayerZero.addressTopic(Hex.decode(recipient));
        JsonArray logs = receipt.getJsonArray("logs");
        assertEquals(2, logs.size(), logs.encode());
        JsonObject mint = logs.getJsonObject(0);
        assertEquals(LayerZeroSource.DEST_OFT, mint.getString("address"));
        assertEquals(
                new JsonArray()
                        .add(LayerZero.TRANSFER_TOPIC)
                        .add(LayerZero.addressTopic(new byte[20]))
                        .add(toTopic),
                mint.getJsonArray("topics"));
        assertEquals(amount, mint.getString("data"));
        JsonObject received = logs.getJsonObject(1);
        assertEquals(LayerZeroSource.DEST_OFT, received.getString("address"));
        assertEquals(
                new JsonArray().add(LayerZero.OFT_RECEIVED_TOPIC).add(guid).add(toTopic),
                received.getJsonArray("topics"));
        assertEquals(
                "0x" + LayerZero.word(java.math.BigInteger.valueOf(LayerZeroSource.SOURCE_EID)) + amount.substring(2),
                received.getString("data"));
        // … in a tx of its own, at least the configured delay after the source tx was seen
        JsonObject block = devnetRpc(
                        "eth_getBlockByNumber",
                        new JsonArray().add(receipt.getString("blockNumber")).add(false))
                .getJsonObject("result");
        assertTrue(block.getJsonArray("transactions").contains(receiveHash));
        // the recipient's bank balance of the OFT's denom on weft-devnet-1
        int rest = dev.weft.devnet.DevnetEndpoints.of(h.node().context().info())
                .chain(DEVNET)
                .orElseThrow()
                .restPort();
        JsonObject bank = new JsonObject(
                h.get(rest, "/cosmos/bank/v1beta1/balances/" + bech32).body());
        assertEquals(
                new JsonArray()
                        .add(new JsonObject()
                                .put("denom", LayerZeroSource.DEST_DENOM)
                                .put("amount", "5000000")),
                bank.getJsonArray("balances"));
    }

    @Test
    @DisplayName(
            "the route's /v2/fungible/msgs evm_tx (OFT send with the messaging fee as value, after its exact ERC-20 approval) is accepted by the OFT adapter and delivered")
    void routeMsgsAreAccepted() throws Exception {
        String recipient = AccountAddress.of(Hex.decode(AnvilNode.ACCOUNT2)).bech32("init");
        JsonObject msgs = h.msgs(
                "7000",
                LayerZeroSource.CHAIN,
                LayerZeroSource.TOKEN,
                DEVNET,
                LayerZeroSource.DEST_DENOM,
                List.of(AnvilNode.ACCOUNT1, recipient),
                null);
        JsonObject evm = msgs.getJsonArray("txs").getJsonObject(0).getJsonObject("evm_tx");
        JsonObject approval = evm.getJsonArray("required_erc20_approvals").getJsonObject(0);
        assertEquals(
                new JsonObject()
                        .put("token_contract", LayerZeroSource.TOKEN)
                        .put("spender", evm.getString("to"))
                        .put("amount", "7000"),
                approval);
        source.call(
                AnvilNode.ACCOUNT1,
                approval.getString("token_contract"),
                Hex.prefixed(dev.weft.route.msgs.Abi.call(
                        "approve(address,uint256)",
                        new dev.weft.route.msgs.Abi.Address(Hex.decode(approval.getString("spender"))),
                        dev.weft.route.msgs.Abi.uint(7000))),
                null);
        String hash = source.call(
                AnvilNode.ACCOUNT1,
                evm.getString("to"),
                "0x" + evm.getString("data"),
                "0x" + new java.math.BigInteger(evm.getString("value")).toString(16));
        assertEquals("0x1", source.anvil().receipt(hash).getString("status"));
        assertEquals(200, h.track(hash, LayerZeroSource.CHAIN).statusCode());
        JsonObject done = h.awaitState(hash, LayerZeroSource.CHAIN, "STATE_COMPLETED_SUCCESS");
        assertEquals(
                new JsonObject()
                        .put("chain_id", DEVNET)
                        .put("denom", LayerZeroSource.DEST_DENOM)
                        .put("amount", "7000")
                        .put("released", true),
                done.getJsonObject("transfer_asset_release"));
        source.approve(AnvilNode.ACCOUNT1, 100_000_000); // the other tests' allowance
    }

    @Test
    @DisplayName(
            "the delivery simulator reads the source by eth_getLogs over bounded block ranges from its head at start (no per-tx requests); the tracker reads the destination by OFT address and topic, never by guid")
    void boundedReads() throws Exception {
        source.send(AnvilNode.ACCOUNT1, AnvilNode.ACCOUNT2, 1_000);
        List<String> hashes = new ArrayList<>();
        for (int i = 0; i < 3; i++) hashes.add(source.send(AnvilNode.ACCOUNT1, AnvilNode.ACCOUNT2, 2_000 + i));
        for (String hash : hashes)
            assertEquals(200, h.track(hash, LayerZeroSource.CHAIN).statusCode());
        for (String hash : hashes) h.awaitState(hash, LayerZeroSource.CHAIN, "STATE_COMPLETED_SUCCESS");

        long firstFrom = -1;
        for (Object o : List.copyOf(toSource.received)) {
            JsonObject call = (JsonObject) o;
            String method = call.getString("method");
            assertTrue(
                    method.equals("eth_blockNumber") || method.equals("eth_getLogs"),
                    "the devnet asked the source " + call.encode());
            if (!method.equals("eth_getLogs")) continue;
            JsonObject filter = call.getJsonArray("params").getJsonObject(0);
            long from = Long.decode(filter.getString("fromBlock"));
            long to = Long.decode(filter.getString("toBlock"));
            if (firstFrom < 0) firstFrom = from;
            assertTrue(to >= from && to - from < 500, filter.encode());
            assertEquals(new JsonArray().add(LayerZeroSource.OFT), filter.getJsonArray("address"));
            assertEquals(
                    new JsonArray()
                            .add(new JsonArray().add(LayerZero.OFT_SENT_TOPIC).add(LayerZero.PACKET_SENT_TOPIC)),
                    filter.getJsonArray("topics"));
        }
        assertEquals(sourceHeadAtStart + 1, firstFrom, "the simulator starts after the source's head at its start");

        int logReads = 0;
        for (Object o : List.copyOf(toDevnet.received)) {
            for (Object c : o instanceof JsonArray a ? a : new JsonArray().add(o)) {
                JsonObject call = (JsonObject) c;
                if (!call.getString("method").equals("eth_getLogs")) continue;
                logReads++;
                JsonObject filter = call.getJsonArray("params").getJsonObject(0);
                assertEquals(
                        List.of(LayerZeroSource.DEST_OFT),
                        filter.getJsonArray("address").stream()
                                .map(a -> a.toString().toLowerCase())
                                .toList());
                assertEquals(new JsonArray().add(LayerZero.OFT_RECEIVED_TOPIC), filter.getJsonArray("topics"));
                assertTrue(
                        Long.decode(filter.getString("toBlock")) - Long.decode(filter.getString("fromBlock")) < 200,
                        filter.encode());
            }
        }
        assertTrue(logReads > 0);
    }

    @Test
    @DisplayName(
            "a send whose recipient is not an EVM account is not delivered: pending at LAYER_ZERO_TRANSFER_SENT, then STATE_ABANDONED after track.stall_timeout")
    void undeliveredIsAbandoned() throws Exception {
        String hash = source.call(
                AnvilNode.ACCOUNT1,
                LayerZeroSource.OFT,
                LayerZeroSource.sendData32("ff".repeat(32), 3_000, AnvilNode.ACCOUNT1),
                "0x" + LayerZeroSource.FEE.toString(16));
        assertEquals(200, h.track(hash, LayerZeroSource.CHAIN).statusCode());
        JsonObject pending = h.awaitState(hash, LayerZeroSource.CHAIN, "STATE_PENDING");
        assertEquals(
                "LAYER_ZERO_TRANSFER_SENT",
                pending.getJsonArray("transfer_sequence")
                        .getJsonObject(0)
                        .getJsonObject("layer_zero_transfer")
                        .getString("state"));
        JsonObject abandoned = h.awaitState(hash, LayerZeroSource.CHAIN, "STATE_ABANDONED");
        assertFalse(abandoned.getJsonArray("transfers").isEmpty());
        assertEquals(
                "LAYER_ZERO_TRANSFER_SENT",
                abandoned
                        .getJsonArray("transfer_sequence")
                        .getJsonObject(0)
                        .getJsonObject("layer_zero_transfer")
                        .getString("state"));
    }

    @Test
    @DisplayName(
            "a watched EVM address (POST /v2/watch on 31337) sends an OFT without /v2/tx/track: the tracker finds its OFTSent by eth_getLogs, lists it in /v2/tx/by_address and follows it to STATE_COMPLETED_SUCCESS")
    void watchedSender() throws Exception {
        String sender = AnvilNode.ACCOUNT2; // no other test sends from it: nothing else is found for the watch
        source.mint(sender, 10_000_000);
        source.approve(sender, 10_000_000);
        String shown = AccountAddress.of(Hex.decode(sender)).checksumHex();
        var watched = h.post(
                h.api,
                "/v2/watch",
                new JsonObject()
                        .put("chain_id", LayerZeroSource.CHAIN)
                        .put("address", sender.toUpperCase().replace("0X", "0x")));
        assertEquals(201, watched.statusCode(), watched.body());
        assertEquals(shown, new JsonObject(watched.body()).getString("address"));

        String hash = source.send(sender, AnvilNode.ACCOUNT3, 2_000_000);
        String byAddress = "/v2/tx/by_address?chain_id=" + LayerZeroSource.CHAIN + "&address=" + sender;
        JsonObject page = TrackingHarness.await(
                () -> {
                    var r = h.get(h.api, byAddress);
                    if (r.statusCode() != 200) return null;
                    JsonObject o = new JsonObject(r.body());
                    JsonArray txs = o.getJsonArray("txs");
                    return txs.size() == 1
                                    && "STATE_COMPLETED_SUCCESS"
                                            .equals(txs.getJsonObject(0).getString("state"))
                            ? o
                            : null;
                },
                "the watched sender's OFT send listed and completed");
        JsonObject tx = page.getJsonArray("txs").getJsonObject(0);
        assertEquals(hash, tx.getString("tx_hash"));
        assertEquals(LayerZeroSource.CHAIN, tx.getString("chain_id"));
        assertEquals("http://scan.weft.localhost/31337/tx/" + hash, tx.getString("explorer_link"));
        assertEquals(
                "LAYER_ZERO_TRANSFER_RECEIVED",
                tx.getJsonArray("transfer_sequence")
                        .getJsonObject(0)
                        .getJsonObject("layer_zero_transfer")
                        .getString("state"));
        assertTrue(page.getValue("next") == null, page.encode());
        // the same registration /v2/tx/track makes: tracking it now is the idempotent 200 of a tx tracked already
        assertEquals(200, h.track(hash, LayerZeroSource.CHAIN).statusCode());
        JsonObject status = h.awaitState(hash, LayerZeroSource.CHAIN, "STATE_COMPLETED_SUCCESS");
        assertEquals("STATE_COMPLETED_SUCCESS", status.getString("state"));
        assertEquals(
                200,
                h.get(h.api, "/v2/watch?chain_id=" + LayerZeroSource.CHAIN + "&address=" + sender)
                        .statusCode());
    }

    @Test
    @DisplayName(
            "the EVM watch cursor is durable: sends made while the tracker was down, more blocks back than track.lookback_blocks, are found by the next tracker")
    void watchedSenderAcrossRestart() throws Exception {
        String sender = AnvilNode.ACCOUNT3; // sends from no other test: only this test's sends are found
        source.mint(sender, 10_000_000);
        source.approve(sender, 10_000_000);
        var watched = h.post(
                h.api,
                "/v2/watch",
                new JsonObject().put("chain_id", LayerZeroSource.CHAIN).put("address", sender));
        assertEquals(201, watched.statusCode(), watched.body());
        String first = source.send(sender, AnvilNode.ACCOUNT1, 1_000_000);
        awaitListed(sender, Set.of(first));
        long firstBlock = Long.decode(source.anvil().receipt(first).getString("blockNumber"));
        // the read position past the first send is in the database
        TrackingHarness.await(
                () -> {
                    var rows = TestNodes.await(h.node()
                            .context()
                            .pool()
                            .preparedQuery("SELECT next_height FROM track_evm_cursor WHERE chain_id = $1")
                            .execute(io.vertx.sqlclient.Tuple.of(LayerZeroSource.CHAIN)));
                    return rows.size() == 1 && rows.iterator().next().getLong(0) > firstBlock ? true : null;
                },
                "the EVM cursor saved past the first send");

        String id = h.node().deployments().get("track").get(0);
        TestNodes.await(h.node().scale("track", 0));
        TrackingHarness.await(
                () -> h.node().context().vertx().deploymentIDs().contains(id) ? null : true, "the tracker undeployed");
        int lookback = h.node().context().config().track().lookbackBlocks();
        // while no tracker runs: a send, buried under more blocks than the look back
        source.anvil().rpc("anvil_mine", new JsonArray().add("0x" + Long.toHexString(lookback + 20)));
        String during = source.send(sender, AnvilNode.ACCOUNT1, 1_500_000);
        source.anvil().rpc("anvil_mine", new JsonArray().add("0x" + Long.toHexString(lookback + 50)));
        long duringBlock = Long.decode(source.anvil().receipt(during).getString("blockNumber"));
        assertTrue(source.anvil().blockNumber() - duringBlock > lookback, "the send is beyond the look back");

        TestNodes.await(h.node().scale("track", 1));
        JsonObject page = awaitListed(sender, Set.of(first, during));
        assertEquals(during, page.getJsonArray("txs").getJsonObject(0).getString("tx_hash"), "newest first");
    }

    /** The by_address listing of a sender on the source once it holds exactly these hashes. */
    private static JsonObject awaitListed(String sender, Set<String> hashes) {
        String byAddress = "/v2/tx/by_address?chain_id=" + LayerZeroSource.CHAIN + "&address=" + sender;
        return TrackingHarness.await(
                () -> {
                    var r = h.get(h.api, byAddress);
                    if (r.statusCode() != 200) return null;
                    JsonObject o = new JsonObject(r.body());
                    Set<String> listed = new java.util.HashSet<>();
                    for (Object t : o.getJsonArray("txs")) listed.add(((JsonObject) t).getString("tx_hash"));
                    return listed.equals(hashes) ? o : null;
                },
                "the watched sender's sends " + hashes + " listed");
    }
}
