package dev.weft.devnet;

import static dev.weft.testsupport.DevnetAccounts.ALICE;
import static dev.weft.testsupport.DevnetAccounts.BOB;
import static dev.weft.testsupport.DevnetAccounts.CAROL;
import static dev.weft.testsupport.DevnetAccounts.NEVER_RELAYED;
import static dev.weft.testsupport.DevnetAccounts.REFUSES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.CosmosTx;
import dev.weft.route.registry.Denoms;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.RelayedTxs;
import dev.weft.testsupport.RouteTxs;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The multi-chain devnet over HTTP: txs broadcast to weft-l1-1, weft-devnet-1 and weft-move-1 as a wallet sends them,
 * executed into live blocks; the relayer delivering packets, acknowledgements and timeouts, PFM forwarding through the
 * L1, error acks, OPinit deposits, withdrawals and output proposals, with the ibc-go / OPinit event formats, all
 * findable through {@code /tx} and {@code /tx_search}.
 */
class MultiChainTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1";
    static final String EVM = "weft-devnet-1";
    static final String MOVE = "weft-move-1";
    static final String INIT_OVER_IBC = Denoms.ibc("transfer/channel-0/uinit");
    static DevnetHarness d;

    @BeforeAll
    static void start() {
        TestConfig c = weft.config()
                .roles("devnet")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 10)
                .set("devnet.block_interval", "100ms")
                .set("devnet.txs_per_block", 5)
                .set("devnet.relayer.delay", "300ms")
                .set("devnet.opinit.delay", "300ms")
                .set("devnet.opinit.output_interval", "500ms")
                .set("devnet.relayer.timeout_receivers", new JsonArray().add(NEVER_RELAYED))
                .set("devnet.relayer.error_receivers", new JsonArray().add(REFUSES));
        d = DevnetHarness.start(weft, c);
    }

    // ---- helpers ----

    static long now() {
        return System.currentTimeMillis() * 1_000_000L;
    }

    /** A tx of one message signed by its sender (a test key's account) for {@code chain}. */
    static byte[] tx(String chain, String typeUrl, JsonObject msg, String feeDenom) {
        return d.wallet.sign(chain, msg.getString("sender"), List.of(RouteTxs.any(typeUrl, msg)), feeDenom);
    }

    /** broadcast_tx_commit over JSON-RPC; the result. */
    static JsonObject commit(String chain, byte[] raw) {
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 7)
                .put("method", "broadcast_tx_commit")
                .put("params", new JsonObject().put("tx", RouteTxs.base64(raw)));
        JsonObject res = new JsonObject(d.post(d.rpcPort(chain), req.encode()).body());
        assertNull(res.getValue("error"), res.encode());
        return res.getJsonObject("result");
    }

    static JsonArray search(String chain, String query) {
        String q = URLEncoder.encode("\"" + query + "\"", StandardCharsets.UTF_8);
        JsonObject res = new JsonObject(d.get(d.rpcPort(chain), "/tx_search?query=" + q + "&per_page=100")
                .body());
        return res.getJsonObject("result").getJsonArray("txs");
    }

    /** Waits (generously) for the one tx a query matches. */
    static JsonObject awaitTx(String chain, String query) {
        JsonObject tx = await(
                () -> {
                    JsonArray txs = search(chain, query);
                    return txs.isEmpty() ? null : txs.getJsonObject(0);
                },
                chain + ": " + query);
        return RelayedTxs.onlyMessageOfPacket(tx, query);
    }

    static <T> T await(Await.Probe<T> probe, String what) {
        return Await.value(what, 30, probe);
    }

    /** The attributes of the events of a type in a tx result, in order. */
    static List<JsonObject> events(JsonObject txResult, String type) {
        return RelayedTxs.attributes(txResult, type);
    }

    static JsonObject event(JsonObject txResult, String type) {
        List<JsonObject> e = events(txResult, type);
        assertEquals(1, e.size(), type + " in " + txResult.encode());
        return e.get(0);
    }

    static String ack(JsonObject writeAck) {
        return writeAck.getString("packet_ack");
    }

    // ---- tests ----

    @Test
    @DisplayName(
            "a MsgTransfer L1 → minievm: send_packet with ibc-go's attributes, recv + success ack on the rollup, ack back on the L1")
    void directTransfer() {
        JsonObject msg =
                RouteTxs.transferJson("channel-0", "uinit", "1000000", ALICE, BOB, now() + 60_000_000_000L, "");
        JsonObject res = commit(L1, tx(L1, "/ibc.applications.transfer.v1.MsgTransfer", msg, "uinit"));
        assertEquals(0, res.getJsonObject("check_tx").getInteger("code"));
        JsonObject result = res.getJsonObject("tx_result");
        assertEquals(0, result.getInteger("code"), result.encode());
        JsonObject send = event(result, "send_packet");
        assertEquals(
                List.of(
                        "packet_data",
                        "packet_data_hex",
                        "packet_timeout_height",
                        "packet_timeout_timestamp",
                        "packet_sequence",
                        "packet_src_port",
                        "packet_src_channel",
                        "packet_dst_port",
                        "packet_dst_channel",
                        "packet_channel_ordering",
                        "packet_connection",
                        "connection_id",
                        "msg_index"),
                new ArrayList<>(send.fieldNames()));
        String data = "{\"amount\":\"1000000\",\"denom\":\"uinit\",\"memo\":\"\",\"receiver\":\"" + BOB
                + "\",\"sender\":\"" + ALICE + "\"}";
        assertEquals(data, send.getString("packet_data"));
        assertEquals(
                dev.weft.chain.Hex.lower(data.getBytes(StandardCharsets.UTF_8)), send.getString("packet_data_hex"));
        assertEquals("0-0", send.getString("packet_timeout_height"));
        assertEquals("channel-0", send.getString("packet_dst_channel"));
        String seq = send.getString("packet_sequence");
        // the escrow and the transfer event, in ibc-go's order
        List<String> types = result.getJsonArray("events").stream()
                .map(o -> ((JsonObject) o).getString("type"))
                .toList();
        assertTrue(
                types.indexOf("send_packet") > types.indexOf("coin_spent")
                        && types.indexOf("ibc_transfer") > types.indexOf("send_packet"),
                types.toString());
        // the tx is found by hash and by its events
        assertEquals(
                res.getString("hash"),
                new JsonObject(d.get(d.rpcPort(L1), "/tx?hash=0x" + res.getString("hash"))
                                .body())
                        .getJsonObject("result")
                        .getString("hash"));

        JsonObject recv = awaitTx(
                EVM, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + seq + "'");
        JsonObject rr = recv.getJsonObject("tx_result");
        assertEquals(0, rr.getInteger("code"));
        assertEquals("{\"result\":\"AQ==\"}", ack(event(rr, "write_acknowledgement")));
        JsonObject token = event(rr, "fungible_token_packet");
        assertEquals("true", token.getString("success"));
        assertEquals(BOB, token.getString("receiver"));
        List<JsonObject> received = events(rr, "coin_received");
        assertEquals(
                INIT_OVER_IBC,
                received.get(received.size() - 1).getString("amount").substring(7));

        JsonObject ackTx = awaitTx(
                L1,
                "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + seq
                        + "'");
        JsonObject ar = ackTx.getJsonObject("tx_result");
        assertEquals("\u0001", events(ar, "fungible_token_packet").get(1).getString("success"));
    }

    @Test
    @DisplayName(
            "a PFM transfer minievm → L1 → minimove: the L1 forwards in the recv tx and acknowledges upstream only after the downstream ack")
    void pfmTransfer() {
        String memo = new JsonObject()
                .put(
                        "forward",
                        new JsonObject()
                                .put("receiver", CAROL)
                                .put("port", "transfer")
                                .put("channel", "channel-1")
                                .put("timeout", "1m")
                                .put("retries", 2))
                .encode();
        JsonObject msg =
                RouteTxs.transferJson("channel-0", INIT_OVER_IBC, "2500", BOB, ALICE, now() + 60_000_000_000L, memo);
        JsonObject res = commit(EVM, tx(EVM, "/ibc.applications.transfer.v1.MsgTransfer", msg, null));
        JsonObject result = res.getJsonObject("tx_result");
        assertEquals(0, result.getInteger("code"), result.encode());
        JsonObject send = event(result, "send_packet");
        assertTrue(send.getString("packet_data").contains("\"denom\":\"transfer/channel-0/uinit\""), send.encode());
        assertNotNull(event(result, "burn")); // a voucher going home is burned
        String seq = send.getString("packet_sequence");

        JsonObject hop1 =
                awaitTx(L1, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + seq + "'");
        JsonObject h1 = hop1.getJsonObject("tx_result");
        assertTrue(events(h1, "write_acknowledgement").isEmpty(), "PFM acknowledges asynchronously");
        JsonObject recv1 = event(h1, "recv_packet");
        JsonObject forward = event(h1, "send_packet");
        assertEquals(recv1.getString("msg_index"), forward.getString("msg_index"));
        assertEquals("channel-1", forward.getString("packet_src_channel"));
        assertTrue(forward.getString("packet_data").contains("\"denom\":\"uinit\"")
                && forward.getString("packet_data").contains(CAROL));
        String seq2 = forward.getString("packet_sequence");

        JsonObject hop2 = awaitTx(
                MOVE, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + seq2 + "'");
        assertEquals("{\"result\":\"AQ==\"}", ack(event(hop2.getJsonObject("tx_result"), "write_acknowledgement")));

        JsonObject ack2 = awaitTx(
                L1,
                "acknowledge_packet.packet_src_channel='channel-1' AND acknowledge_packet.packet_sequence='" + seq2
                        + "'");
        JsonObject upstream = event(ack2.getJsonObject("tx_result"), "write_acknowledgement");
        assertEquals("channel-0", upstream.getString("packet_dst_channel"));
        assertEquals(seq, upstream.getString("packet_sequence"));
        assertEquals("{\"result\":\"AQ==\"}", ack(upstream));
        awaitTx(
                EVM,
                "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + seq
                        + "'");
    }

    @Test
    @DisplayName(
            "a packet to a timeout receiver is never relayed: after its timeout the L1 gets timeout_packet and refunds the sender")
    void timeout() {
        JsonObject msg =
                RouteTxs.transferJson("channel-0", "uusdc", "777", ALICE, NEVER_RELAYED, now() + 1_500_000_000L, "");
        JsonObject res = commit(L1, tx(L1, "/ibc.applications.transfer.v1.MsgTransfer", msg, "uinit"));
        String seq = event(res.getJsonObject("tx_result"), "send_packet").getString("packet_sequence");
        JsonObject t = awaitTx(
                L1, "timeout_packet.packet_src_channel='channel-0' AND timeout_packet.packet_sequence='" + seq + "'");
        JsonObject refund = event(t.getJsonObject("tx_result"), "timeout");
        assertEquals(ALICE, refund.getString("refund_receiver"));
        assertEquals("777", refund.getString("refund_amount"));
        assertTrue(
                search(EVM, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + seq + "'")
                        .isEmpty());
    }

    @Test
    @DisplayName("a packet to an error receiver gets an error acknowledgement; the ack refunds the sender on the L1")
    void errorAck() {
        JsonObject msg =
                RouteTxs.transferJson("channel-0", "uinit", "555", ALICE, REFUSES, now() + 60_000_000_000L, "");
        JsonObject res = commit(L1, tx(L1, "/ibc.applications.transfer.v1.MsgTransfer", msg, "uinit"));
        String seq = event(res.getJsonObject("tx_result"), "send_packet").getString("packet_sequence");
        JsonObject recv = awaitTx(
                EVM, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + seq + "'");
        JsonObject rr = recv.getJsonObject("tx_result");
        assertEquals(
                "{\"error\":\"ABCI code: 4: error handling packet: see events for details\"}",
                ack(event(rr, "write_acknowledgement")));
        assertTrue(event(rr, "ibccallbackerror-fungible_token_packet")
                .getString("error")
                .endsWith("unauthorized"));
        JsonObject ackTx = awaitTx(
                L1,
                "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + seq
                        + "'");
        JsonObject ar = ackTx.getJsonObject("tx_result");
        assertTrue(events(ar, "fungible_token_packet").get(1).containsKey("error"));
        assertTrue(events(ar, "coin_received").stream()
                .anyMatch(e -> e.getString("receiver").equals(ALICE)
                        && e.getString("amount").equals("555uinit")));
    }

    @Test
    @DisplayName("an OPinit deposit on the L1 is finalized on its rollup by the executor, matched by l1_sequence")
    void deposit() {
        JsonObject msg = new JsonObject()
                .put("sender", ALICE)
                .put("bridge_id", "1")
                .put("to", BOB)
                .put("amount", new JsonObject().put("denom", "uinit").put("amount", "2500000"))
                .put("data", "");
        JsonObject res = commit(L1, tx(L1, "/opinit.ophost.v1.MsgInitiateTokenDeposit", msg, "uinit"));
        JsonObject dep = event(res.getJsonObject("tx_result"), "initiate_token_deposit");
        assertEquals(
                List.of(
                        "bridge_id",
                        "l1_sequence",
                        "from",
                        "to",
                        "l1_denom",
                        "l2_denom",
                        "amount",
                        "data",
                        "msg_index"),
                new ArrayList<>(dep.fieldNames()));
        assertEquals(Denoms.l2(1, "uinit"), dep.getString("l2_denom"));
        JsonObject fin = awaitTx(EVM, "finalize_token_deposit.l1_sequence='" + dep.getString("l1_sequence") + "'");
        JsonObject f = event(fin.getJsonObject("tx_result"), "finalize_token_deposit");
        assertEquals(
                List.of(
                        "l1_sequence",
                        "sender",
                        "recipient",
                        "denom",
                        "base_denom",
                        "amount",
                        "finalize_height",
                        "success",
                        "reason",
                        "msg_index"),
                new ArrayList<>(f.fieldNames()));
        assertEquals("true", f.getString("success"));
        assertEquals(BOB, f.getString("recipient"));
        assertEquals(res.getString("height"), f.getString("finalize_height"));
    }

    @Test
    @DisplayName(
            "a withdrawal on minimove emits initiate_token_withdrawal; the executor then proposes an output covering it on the L1")
    void withdrawal() {
        JsonObject msg = new JsonObject()
                .put("sender", CAROL)
                .put("to", ALICE)
                .put(
                        "amount",
                        new JsonObject().put("denom", Denoms.l2(2, "uinit")).put("amount", "4200"));
        JsonObject res = commit(MOVE, tx(MOVE, "/opinit.opchild.v1.MsgInitiateTokenWithdrawal", msg, null));
        JsonObject w = event(res.getJsonObject("tx_result"), "initiate_token_withdrawal");
        assertEquals(
                List.of("from", "to", "denom", "base_denom", "amount", "l2_sequence", "msg_index"),
                new ArrayList<>(w.fieldNames()));
        assertEquals("uinit", w.getString("base_denom"));
        long height = Long.parseLong(res.getString("height"));
        await(
                () -> search(L1, "propose_output.bridge_id='2'").stream()
                        .flatMap(o -> events(((JsonObject) o).getJsonObject("tx_result"), "propose_output").stream())
                        .filter(e -> e.getString("bridge_id").equals("2")
                                && Long.parseLong(e.getString("l2_block_number")) >= height)
                        .findFirst()
                        .orElse(null),
                "an output covering " + height);
    }

    @Test
    @DisplayName(
            "CheckTx: unknown and unregistered message types, duplicates; REST broadcast, encode and the decoded tx")
    void checkTxAndRest() {
        byte[] unknown = RouteTxs.unsigned(List.of(new CosmosTx.Any("/x.y.MsgNothing", new byte[0])), null);
        JsonObject r = new JsonObject(d.post(
                        d.rpcPort(L1),
                        new JsonObject()
                                .put("jsonrpc", "2.0")
                                .put("id", 1)
                                .put("method", "broadcast_tx_sync")
                                .put("params", new JsonObject().put("tx", RouteTxs.base64(unknown)))
                                .encode())
                .body());
        assertEquals(2, r.getJsonObject("result").getInteger("code"));
        assertEquals(
                "unable to resolve type URL /x.y.MsgNothing: tx parse error",
                r.getJsonObject("result").getString("log"));
        // a deposit belongs to the L1's ophost: a rollup does not know it
        JsonObject dep = new JsonObject()
                .put("sender", BOB)
                .put("bridge_id", "1")
                .put("to", BOB)
                .put("amount", new JsonObject().put("denom", "uinit").put("amount", "1"))
                .put("data", "");
        byte[] onRollup =
                RouteTxs.unsigned(List.of(RouteTxs.any("/opinit.ophost.v1.MsgInitiateTokenDeposit", dep)), null);
        JsonObject rest = new JsonObject(d.post(
                        d.restPort(EVM),
                        "/cosmos/tx/v1beta1/txs",
                        new JsonObject()
                                .put("tx_bytes", RouteTxs.base64(onRollup))
                                .put("mode", "BROADCAST_MODE_SYNC")
                                .encode())
                .body());
        assertEquals(2, rest.getJsonObject("tx_response").getInteger("code"));
        assertEquals(CosmosTx.hash(onRollup), rest.getJsonObject("tx_response").getString("txhash"));

        JsonObject msg =
                RouteTxs.transferJson("channel-0", "uusdc", "10", ALICE, BOB, now() + 60_000_000_000L, "hello");
        byte[] raw = tx(L1, "/ibc.applications.transfer.v1.MsgTransfer", msg, "uinit");
        JsonObject sync = new JsonObject(d.post(
                        d.restPort(L1),
                        "/cosmos/tx/v1beta1/txs",
                        new JsonObject()
                                .put("tx_bytes", RouteTxs.base64(raw))
                                .put("mode", "BROADCAST_MODE_SYNC")
                                .encode())
                .body());
        assertEquals(0, sync.getJsonObject("tx_response").getInteger("code"), sync.encode());
        String hash = sync.getJsonObject("tx_response").getString("txhash");
        JsonObject again = new JsonObject(d.post(
                        d.restPort(L1),
                        "/cosmos/tx/v1beta1/txs",
                        new JsonObject()
                                .put("tx_bytes", RouteTxs.base64(raw))
                                .put("mode", "BROADCAST_MODE_SYNC")
                                .encode())
                .body());
        assertEquals("tx already exists in cache", again.getString("message"), again.encode());
        JsonObject got = await(
                () -> {
                    var resp = d.get(d.restPort(L1), "/cosmos/tx/v1beta1/txs/" + hash);
                    return resp.statusCode() == 200 ? new JsonObject(resp.body()) : null;
                },
                "the tx by hash");
        JsonObject m = got.getJsonObject("tx")
                .getJsonObject("body")
                .getJsonArray("messages")
                .getJsonObject(0);
        assertEquals("/ibc.applications.transfer.v1.MsgTransfer", m.getString("@type"));
        assertEquals("hello", m.getString("memo"));
        assertEquals(Long.toString(msg.getLong("timeout_timestamp")), m.getString("timeout_timestamp"));
        assertEquals(
                List.of(
                        "@type",
                        "source_port",
                        "source_channel",
                        "token",
                        "sender",
                        "receiver",
                        "timeout_height",
                        "timeout_timestamp",
                        "memo"),
                new ArrayList<>(m.fieldNames()));
        // TxEncode of the same tx as JSON gives the same bytes back
        JsonObject txJson = got.getJsonObject("tx");
        JsonObject enc = new JsonObject(d.post(
                        d.restPort(L1),
                        "/cosmos/tx/v1beta1/encode",
                        new JsonObject().put("tx", txJson).encode())
                .body());
        assertEquals(RouteTxs.base64(raw), enc.getString("tx_bytes"));
    }

    @Test
    @DisplayName(
            "submitted txs follow the generated ones of a live block of weft-devnet-1: /block, /block_results and the traces stay aligned")
    void alignedBlocks() {
        JsonObject msg =
                RouteTxs.transferJson("channel-0", INIT_OVER_IBC, "1", BOB, ALICE, now() + 60_000_000_000L, "");
        JsonObject res = commit(EVM, tx(EVM, "/ibc.applications.transfer.v1.MsgTransfer", msg, null));
        String h = res.getString("height");
        JsonArray raw = d.rpc("/block?height=" + h)
                .getJsonObject("result")
                .getJsonObject("block")
                .getJsonObject("data")
                .getJsonArray("txs");
        JsonArray results =
                d.rpc("/block_results?height=" + h).getJsonObject("result").getJsonArray("txs_results");
        assertEquals(raw.size(), results.size());
        int mine = -1;
        for (int i = 0; i < raw.size(); i++)
            if (CosmosTx.hash(java.util.Base64.getDecoder().decode(raw.getString(i)))
                    .equals(res.getString("hash"))) mine = i;
        assertTrue(mine >= 0);
        JsonObject found = new JsonObject(d.get(d.rpcPort(EVM), "/tx?hash=0x" + res.getString("hash"))
                        .body())
                .getJsonObject("result");
        assertEquals(mine, found.getInteger("index"));
        JsonArray traces = d.eth(
                        "debug_traceBlockByNumber",
                        DevnetHarness.hex(Long.parseLong(h)),
                        new JsonObject().put("tracer", "callTracer"))
                .getJsonArray("result");
        assertEquals(raw.size(), traces.size());
    }
}
