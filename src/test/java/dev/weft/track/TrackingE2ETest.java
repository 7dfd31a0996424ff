package dev.weft.track;

import static dev.weft.testsupport.DevnetAccounts.ALICE;
import static dev.weft.testsupport.DevnetAccounts.BOB;
import static dev.weft.testsupport.DevnetAccounts.CAROL;
import static dev.weft.testsupport.DevnetAccounts.NEVER_RELAYED;
import static dev.weft.testsupport.DevnetAccounts.REFUSES;
import static dev.weft.track.TrackingHarness.normalized;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.route.registry.Denoms;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * End to end on the multi-chain devnet, as a wallet uses Weft: route → msgs → sign → broadcast to the chain → track →
 * poll the status until it is final, for a direct IBC transfer, a two-hop PFM transfer, an OP deposit, a timed-out
 * packet and an error ack in the middle of a PFM route; the final status JSON is asserted whole (times normalised),
 * and so are the {@code transfer updated} events, in order.
 */
class TrackingE2ETest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1", EVM = "weft-devnet-1", MOVE = "weft-move-1";
    static final String INIT_IBC = Denoms.ibc("transfer/channel-0/uinit");
    static final String USDC_IBC = Denoms.ibc("transfer/channel-0/uusdc");
    static TrackingHarness h;

    @BeforeAll
    static void start() {
        h = TrackingHarness.start(
                weft,
                TrackingHarness.config()
                        .set("devnet.relayer.timeout_receivers", new JsonArray().add(NEVER_RELAYED))
                        .set("devnet.relayer.error_receivers", new JsonArray().add(REFUSES))
                        .set(
                                "route.finalization_periods",
                                new JsonObject().put(MOVE, "1s").put(EVM, "1s")));
    }

    // ---- expected JSON ----

    static JsonObject tx(String chain, String hash) {
        return hash == null
                ? null
                : new JsonObject()
                        .put("chain_id", chain)
                        .put("tx_hash", hash)
                        .put("explorer_link", "http://scan.weft.localhost/" + chain + "/txs/" + hash)
                        .put("on_chain_at", "<time>");
    }

    static JsonObject ibc(
            String from,
            String to,
            String state,
            JsonObject send,
            JsonObject recv,
            JsonObject ack,
            JsonObject timeout,
            JsonObject error) {
        return new JsonObject()
                .put(
                        "ibc_transfer",
                        new JsonObject()
                                .put("from_chain_id", from)
                                .put("to_chain_id", to)
                                .put("src_chain_id", from)
                                .put("dst_chain_id", to)
                                .put("state", state)
                                .put(
                                        "packet_txs",
                                        new JsonObject()
                                                .put("send_tx", send)
                                                .put("receive_tx", recv)
                                                .put("acknowledge_tx", ack)
                                                .put("timeout_tx", timeout)
                                                .put("error", error)));
    }

    static JsonObject opinit(String from, String to, String state, JsonObject send, JsonObject recv) {
        return new JsonObject()
                .put(
                        "op_init_transfer",
                        new JsonObject()
                                .put("from_chain_id", from)
                                .put("to_chain_id", to)
                                .put("src_chain_id", from)
                                .put("dst_chain_id", to)
                                .put("state", state)
                                .put(
                                        "txs",
                                        new JsonObject().put("send_tx", send).put("receive_tx", recv)));
    }

    static JsonObject release(String chain, String denom, String amount, boolean released) {
        return new JsonObject()
                .put("chain_id", chain)
                .put("denom", denom)
                .put("amount", amount)
                .put("released", released);
    }

    static JsonObject packetError(String type, String message) {
        return new JsonObject().put("type", type).put("message", message).putNull("details");
    }

    /** A final status with one transfer. */
    static JsonObject status(String state, JsonArray sequence, Integer blocking, JsonObject release, JsonObject error) {
        JsonObject next = blocking == null ? null : new JsonObject().put("transfer_sequence_index", blocking);
        JsonObject transfer = new JsonObject()
                .put("state", state)
                .put("transfer_sequence", sequence)
                .put("next_blocking_transfer", next)
                .put("transfer_asset_release", release)
                .put("error", error);
        return new JsonObject()
                .put("state", state)
                .put("transfers", new JsonArray().add(transfer))
                .put("transfer_sequence", sequence.copy())
                .put("next_blocking_transfer", next == null ? null : next.copy())
                .put("transfer_asset_release", release == null ? null : release.copy())
                .put("error", error == null ? null : error.copy())
                .put("status", "STATE_COMPLETED");
    }

    /** The txs of a two-hop PFM transfer weft-devnet-1 → weft-l1-1 → weft-move-1 after its source tx {@code commit}. */
    record PfmTxs(String hop1, String recv2, String ack2, String ack1) {}

    static PfmTxs pfmTxs(JsonObject commit) {
        String s1 = seq(commit, "send_packet");
        JsonObject hop1 = h.awaitTx(
                L1, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s1 + "'");
        String s2 = seq(hop1, "send_packet");
        return new PfmTxs(
                hashOf(hop1),
                hashOf(h.awaitTx(
                        MOVE,
                        "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s2 + "'")),
                hashOf(h.awaitTx(
                        L1,
                        "acknowledge_packet.packet_src_channel='channel-1' AND acknowledge_packet.packet_sequence='"
                                + s2 + "'")),
                hashOf(h.awaitTx(
                        EVM,
                        "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='"
                                + s1 + "'")));
    }

    static String seq(JsonObject commit, String type) {
        for (Object o : commit.getJsonObject("tx_result").getJsonArray("events")) {
            JsonObject e = (JsonObject) o;
            if (!e.getString("type").equals(type)) continue;
            for (Object a : e.getJsonArray("attributes")) {
                JsonObject kv = (JsonObject) a;
                if (kv.getString("key").equals("packet_sequence")
                        || kv.getString("key").equals("l1_sequence")) return kv.getString("value");
            }
        }
        throw new AssertionError(type + " not in " + commit.encode());
    }

    /**
     * The events of a failed transfer: SUBMITTED, PENDING, then PENDING_ERROR when a poll saw the failure before the
     * refund (it may see both at once), then COMPLETED_ERROR.
     */
    static void assertErrorEvents(List<String> events) {
        List<String> full = List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_PENDING_ERROR", "STATE_COMPLETED_ERROR");
        if (!events.equals(full))
            assertEquals(List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_ERROR"), events);
    }

    /** Tracks a tx by its lower-case 0x form; the answer names it as the chain does. */
    static void track(String hash, String chain) {
        var r = h.track("0x" + hash.toLowerCase(Locale.ROOT), chain);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(
                new JsonObject()
                        .put("tx_hash", hash)
                        .put("explorer_link", "http://scan.weft.localhost/" + chain + "/txs/" + hash),
                new JsonObject(r.body()));
    }

    static String hashOf(JsonObject found) {
        return found.getString("hash");
    }

    // ---- tests ----

    @Test
    @DisplayName(
            "direct IBC weft-l1-1 → weft-devnet-1: COMPLETED_SUCCESS with send, receive and ack txs; events SUBMITTED, PENDING, COMPLETED_SUCCESS")
    void directIbc() {
        JsonObject msgs = h.msgs("1000000", L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null);
        JsonObject commit = h.broadcast(msgs, "uinit");
        String hash = commit.getString("hash");
        track(hash, L1);
        JsonObject status = h.awaitState(hash, L1, "STATE_COMPLETED_SUCCESS");
        String s = seq(commit, "send_packet");
        String recv = hashOf(h.awaitTx(
                EVM, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s + "'"));
        String ack = hashOf(h.awaitTx(
                L1,
                "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + s
                        + "'"));
        JsonArray seqs = new JsonArray()
                .add(ibc(L1, EVM, "TRANSFER_SUCCESS", tx(L1, hash), tx(EVM, recv), tx(L1, ack), null, null));
        assertEquals(
                status("STATE_COMPLETED_SUCCESS", seqs, null, release(EVM, INIT_IBC, "1000000", true), null),
                normalized(status));
        assertEquals(List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"), h.events(L1, hash));
    }

    @Test
    @DisplayName(
            "two-hop PFM weft-devnet-1 → weft-l1-1 → weft-move-1: the L1's recv tx sends the second hop; COMPLETED_SUCCESS on weft-move-1")
    void pfmTwoHops() {
        JsonObject msgs = h.msgs("2500", EVM, INIT_IBC, MOVE, INIT_IBC, List.of(BOB, ALICE, CAROL), null);
        assertEquals(
                List.of(EVM, L1, MOVE),
                msgs.getJsonArray("txs")
                        .getJsonObject(0)
                        .getJsonObject("cosmos_tx")
                        .getJsonArray("path")
                        .getList());
        JsonObject commit = h.broadcast(msgs, null);
        String hash = commit.getString("hash");
        track(hash, EVM);
        JsonObject status = h.awaitStateAndReceives(hash, EVM, "STATE_COMPLETED_SUCCESS");
        PfmTxs p = pfmTxs(commit);
        JsonArray seqs = new JsonArray()
                .add(ibc(EVM, L1, "TRANSFER_SUCCESS", tx(EVM, hash), tx(L1, p.hop1()), tx(EVM, p.ack1()), null, null))
                .add(ibc(
                        L1,
                        MOVE,
                        "TRANSFER_SUCCESS",
                        tx(L1, p.hop1()),
                        tx(MOVE, p.recv2()),
                        tx(L1, p.ack2()),
                        null,
                        null));
        assertEquals(
                status("STATE_COMPLETED_SUCCESS", seqs, null, release(MOVE, INIT_IBC, "2500", true), null),
                normalized(status));
        assertEquals(List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"), h.events(EVM, hash));
    }

    @Test
    @DisplayName(
            "OP deposit weft-l1-1 → weft-devnet-1: OPINIT_TRANSFER_RECEIVED on finalize_token_deposit, COMPLETED_SUCCESS")
    void opDeposit() {
        String l2 = Denoms.l2(1, "uinit");
        JsonObject msgs = h.msgs("2500000", L1, "uinit", EVM, l2, List.of(ALICE, BOB), null);
        assertEquals(
                "/opinit.ophost.v1.MsgInitiateTokenDeposit",
                msgs.getJsonArray("txs")
                        .getJsonObject(0)
                        .getJsonObject("cosmos_tx")
                        .getJsonArray("msgs")
                        .getJsonObject(0)
                        .getString("msg_type_url"));
        JsonObject commit = h.broadcast(msgs, "uinit");
        String hash = commit.getString("hash");
        track(hash, L1);
        JsonObject status = h.awaitState(hash, L1, "STATE_COMPLETED_SUCCESS");
        String fin = hashOf(
                h.awaitTx(EVM, "finalize_token_deposit.l1_sequence='" + seq(commit, "initiate_token_deposit") + "'"));
        JsonArray seqs = new JsonArray().add(opinit(L1, EVM, "OPINIT_TRANSFER_RECEIVED", tx(L1, hash), tx(EVM, fin)));
        assertEquals(
                status("STATE_COMPLETED_SUCCESS", seqs, null, release(EVM, l2, "2500000", true), null),
                normalized(status));
        assertEquals(List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"), h.events(L1, hash));
    }

    @Test
    @DisplayName(
            "a failed OP deposit: PENDING_ERROR while its refund withdrawal finalizes, then COMPLETED_ERROR released on the L1")
    void opDepositRefunded() {
        String l2 = Denoms.l2(1, "uinit");
        JsonObject msgs = h.msgs("1234", L1, "uinit", EVM, l2, List.of(ALICE, REFUSES), null);
        JsonObject commit = h.broadcast(msgs, "uinit");
        String hash = commit.getString("hash");
        track(hash, L1);
        JsonObject status = h.awaitState(hash, L1, "STATE_COMPLETED_ERROR");
        JsonObject finTx =
                h.awaitTx(EVM, "finalize_token_deposit.l1_sequence='" + seq(commit, "initiate_token_deposit") + "'");
        assertEquals(
                1,
                dev.weft.testsupport.RelayedTxs.attributes(
                                finTx.getJsonObject("tx_result"), "initiate_token_withdrawal")
                        .size(),
                "the rollup refunds in the finalize tx");
        JsonArray seqs =
                new JsonArray().add(opinit(L1, EVM, "OPINIT_TRANSFER_RECEIVED", tx(L1, hash), tx(EVM, hashOf(finTx))));
        JsonObject expected = status(
                "STATE_COMPLETED_ERROR",
                seqs,
                0,
                release(L1, "uinit", "1234", true),
                new JsonObject()
                        .put("type", "STATUS_ERROR_TRANSFER")
                        .put("message", "deposit failed")
                        .putNull("details"));
        assertEquals(expected, normalized(status));
        assertEquals(
                List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_PENDING_ERROR", "STATE_COMPLETED_ERROR"),
                h.events(L1, hash));
    }

    @Test
    @DisplayName(
            "OP withdrawal weft-move-1 → weft-l1-1: done once claimable (an output covering it, older than the finalization period)")
    void opWithdrawal() {
        String l2 = Denoms.l2(2, "uinit");
        JsonObject msgs = h.msgs(
                new JsonObject().put("is_op_withdraw", true),
                "4200",
                MOVE,
                l2,
                L1,
                "uinit",
                List.of(CAROL, ALICE),
                null);
        assertEquals(
                "/opinit.opchild.v1.MsgInitiateTokenWithdrawal",
                msgs.getJsonArray("txs")
                        .getJsonObject(0)
                        .getJsonObject("cosmos_tx")
                        .getJsonArray("msgs")
                        .getJsonObject(0)
                        .getString("msg_type_url"));
        JsonObject commit = h.broadcast(msgs, null);
        String hash = commit.getString("hash");
        track(hash, MOVE);
        JsonObject status = h.awaitState(hash, MOVE, "STATE_COMPLETED_SUCCESS");
        String output = hashOf(h.awaitTx(
                L1, "propose_output.bridge_id='2' AND propose_output.l2_block_number>=" + commit.getString("height")));
        JsonArray seqs =
                new JsonArray().add(opinit(MOVE, L1, "OPINIT_TRANSFER_RECEIVED", tx(MOVE, hash), tx(L1, output)));
        assertEquals(
                status("STATE_COMPLETED_SUCCESS", seqs, null, release(L1, "uinit", "4200", true), null),
                normalized(status));
        assertEquals(List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"), h.events(MOVE, hash));
    }

    @Test
    @DisplayName(
            "a packet that times out: PENDING_ERROR once the destination passed the timeout, then COMPLETED_ERROR with the refund released on the source")
    void timeout() {
        JsonObject msgs = h.msgs("777", L1, "uusdc", EVM, USDC_IBC, List.of(ALICE, NEVER_RELAYED), 2L);
        JsonObject commit = h.broadcast(msgs, "uinit");
        String hash = commit.getString("hash");
        track(hash, L1);
        JsonObject status = h.awaitState(hash, L1, "STATE_COMPLETED_ERROR");
        String s = seq(commit, "send_packet");
        String timeout = hashOf(h.awaitTx(
                L1, "timeout_packet.packet_src_channel='channel-0' AND timeout_packet.packet_sequence='" + s + "'"));
        JsonObject err = packetError("PACKET_ERROR_TIMEOUT", "packet timed out");
        JsonArray seqs =
                new JsonArray().add(ibc(L1, EVM, "TRANSFER_FAILURE", tx(L1, hash), null, null, tx(L1, timeout), err));
        assertEquals(
                status(
                        "STATE_COMPLETED_ERROR",
                        seqs,
                        0,
                        release(L1, "uusdc", "777", true),
                        new JsonObject()
                                .put("type", "STATUS_ERROR_TRANSFER")
                                .put("message", "packet timed out")
                                .putNull("details")),
                normalized(status));
        assertErrorEvents(h.events(L1, hash));
    }

    @Test
    @DisplayName(
            "an error ack on the second hop of a PFM route: refunded back along the path, COMPLETED_ERROR released on the origin")
    void pfmErrorAck() {
        JsonObject msgs = h.msgs("3100", EVM, INIT_IBC, MOVE, INIT_IBC, List.of(BOB, ALICE, REFUSES), null);
        JsonObject commit = h.broadcast(msgs, null);
        String hash = commit.getString("hash");
        track(hash, EVM);
        JsonObject status = h.awaitStateAndReceives(hash, EVM, "STATE_COMPLETED_ERROR");
        PfmTxs p = pfmTxs(commit);
        String refused = "ABCI code: 4: error handling packet: see events for details";
        JsonArray seqs = new JsonArray()
                .add(ibc(
                        EVM,
                        L1,
                        "TRANSFER_FAILURE",
                        tx(EVM, hash),
                        tx(L1, p.hop1()),
                        tx(EVM, p.ack1()),
                        null,
                        packetError(
                                "PACKET_ERROR_ACKNOWLEDGEMENT",
                                "ABCI code: 1: error handling packet: see events for details")))
                .add(ibc(
                        L1,
                        MOVE,
                        "TRANSFER_FAILURE",
                        tx(L1, p.hop1()),
                        tx(MOVE, p.recv2()),
                        tx(L1, p.ack2()),
                        null,
                        packetError("PACKET_ERROR_ACKNOWLEDGEMENT", refused)));
        assertEquals(
                status(
                        "STATE_COMPLETED_ERROR",
                        seqs,
                        1,
                        release(EVM, INIT_IBC, "3100", true),
                        new JsonObject()
                                .put("type", "STATUS_ERROR_TRANSFER")
                                .put("message", refused)
                                .putNull("details")),
                normalized(status));
        assertErrorEvents(h.events(EVM, hash));
    }

    @Test
    @DisplayName(
            "POST /v2/tx/submit broadcasts through the chain's RPC and registers the tx: it is tracked to COMPLETED_SUCCESS; a tx CheckTx refuses is a 400 with the node's code and log")
    void submit() {
        JsonObject msgs = h.msgs("7", L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null);
        byte[] raw = dev.weft.testsupport.RouteTxs.txRaw(msgs, 0, h.wallet, "uinit");
        var r = h.post(
                h.api,
                "/v2/tx/submit",
                new JsonObject()
                        .put("tx", dev.weft.testsupport.RouteTxs.base64(raw))
                        .put("chain_id", L1));
        assertEquals(200, r.statusCode(), r.body());
        String hash = dev.weft.chain.CosmosTx.hash(raw);
        assertEquals(
                new JsonObject()
                        .put("tx_hash", hash)
                        .put("explorer_link", "http://scan.weft.localhost/weft-l1-1/txs/" + hash),
                new JsonObject(r.body()));
        JsonObject status = h.awaitState(hash, L1, "STATE_COMPLETED_SUCCESS");
        assertEquals(
                "TRANSFER_SUCCESS",
                status.getJsonArray("transfers")
                        .getJsonObject(0)
                        .getJsonArray("transfer_sequence")
                        .getJsonObject(0)
                        .getJsonObject("ibc_transfer")
                        .getString("state"));

        var refused = h.post(
                h.api,
                "/v2/tx/submit",
                new JsonObject()
                        .put("tx", java.util.Base64.getEncoder().encodeToString("not a tx".getBytes()))
                        .put("chain_id", L1));
        assertEquals(400, refused.statusCode(), refused.body());
        JsonObject body = new JsonObject(refused.body());
        assertEquals(3, body.getInteger("code"));
        JsonObject meta = body.getJsonArray("details").getJsonObject(0).getJsonObject("metadata");
        assertEquals(
                "CHECK_TX_FAILED", body.getJsonArray("details").getJsonObject(0).getString("reason"));
        assertEquals(
                "tx rejected by weft-l1-1: code " + meta.getString("code") + " (" + meta.getString("codespace") + "): "
                        + meta.getString("log"),
                body.getString("message"));
        org.junit.jupiter.api.Assertions.assertTrue(Integer.parseInt(meta.getString("code")) > 0);
        // the chain verifies signatures: a tx signed over another account number is code 4, a reused sequence code 32
        JsonObject again = h.msgs("8", L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null);
        byte[] good = dev.weft.testsupport.RouteTxs.txRaw(again, 0, h.wallet, "uinit");
        dev.weft.chain.CosmosTx parsed = dev.weft.chain.CosmosTx.decode(good);
        dev.weft.chain.CosmosTx unsigned = new dev.weft.chain.CosmosTx(
                parsed.messages(),
                parsed.memo(),
                parsed.timeoutHeight(),
                parsed.signerInfos(),
                parsed.fee(),
                List.of());
        java.math.BigInteger aliceKey = dev.weft.testsupport.DevnetAccounts.keyOf(ALICE);
        long number = Long.parseLong(new JsonObject(h.get(h.restPort(L1), "/cosmos/auth/v1beta1/accounts/" + ALICE)
                        .body())
                .getJsonObject("account")
                .getString("account_number"));
        assertSubmitRefused(
                dev.weft.devnet.tx.DirectSign.sign(unsigned, aliceKey, L1, number + 1),
                "4",
                "sdk",
                "signature verification failed; please verify account number (" + number + ") and chain-id (" + L1
                        + "): unauthorized");
        long used = parsed.signerInfos().get(0).sequence() - 1;
        dev.weft.chain.CosmosTx replay = new dev.weft.chain.CosmosTx(
                parsed.messages(),
                parsed.memo(),
                parsed.timeoutHeight(),
                List.of(new dev.weft.chain.CosmosTx.SignerInfo(
                        parsed.signerInfos().get(0).pubKeyType(),
                        parsed.signerInfos().get(0).pubKey(),
                        used)),
                parsed.fee(),
                List.of());
        assertSubmitRefused(
                dev.weft.devnet.tx.DirectSign.sign(replay, aliceKey, L1, number),
                "32",
                "sdk",
                "account sequence mismatch, expected " + (used + 1) + ", got " + used + ": incorrect account sequence");
        var notBase64 =
                h.post(h.api, "/v2/tx/submit", new JsonObject().put("tx", "%%%").put("chain_id", L1));
        assertEquals(400, notBase64.statusCode());
        assertEquals(
                "tx must be the signed transaction in base64", new JsonObject(notBase64.body()).getString("message"));
        assertEquals(
                404,
                h.post(
                                h.api,
                                "/v2/tx/submit",
                                new JsonObject().put("tx", "AA==").put("chain_id", "cosmoshub-4"))
                        .statusCode());
    }

    /** POST /v2/tx/submit of a tx CheckTx refuses: 400 with the node's code, codespace and log. */
    void assertSubmitRefused(byte[] raw, String code, String codespace, String log) {
        var r = h.post(
                h.api,
                "/v2/tx/submit",
                new JsonObject()
                        .put("tx", dev.weft.testsupport.RouteTxs.base64(raw))
                        .put("chain_id", L1));
        assertEquals(400, r.statusCode(), r.body());
        JsonObject body = new JsonObject(r.body());
        JsonObject meta = body.getJsonArray("details").getJsonObject(0).getJsonObject("metadata");
        assertEquals(code, meta.getString("code"), r.body());
        assertEquals(codespace, meta.getString("codespace"));
        assertEquals(log, meta.getString("log"));
        assertEquals(
                "tx rejected by " + L1 + ": code " + code + " (" + codespace + "): " + log, body.getString("message"));
    }

    @Test
    @DisplayName(
            "tracking is idempotent and takes any hash form; unknown chains, malformed hashes and untracked txs are JSON errors")
    void registrationAndErrors() {
        JsonObject msgs = h.msgs("5", L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null);
        String hash = h.broadcast(msgs, "uinit").getString("hash");
        track(hash, L1);
        track(hash, L1);
        var again = h.track(hash.toLowerCase(Locale.ROOT), L1);
        assertEquals(200, again.statusCode());
        h.awaitState(hash.toLowerCase(Locale.ROOT), L1, "STATE_COMPLETED_SUCCESS");
        assertEquals(
                List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"),
                h.events(L1, hash),
                "one SUBMITTED despite three requests");

        var unknownChain = h.track(hash, "cosmoshub-4");
        assertEquals(404, unknownChain.statusCode());
        assertEquals(
                new JsonObject()
                        .put("code", 5)
                        .put("message", "chain ID not supported")
                        .put("details", new JsonArray()),
                new JsonObject(unknownChain.body()));
        // an EVM chain of the registry (the LayerZero lane's source) is tracked by receipt; its hashes are 0x-prefixed
        var evmChain = h.track(hash, "31337");
        assertEquals(200, evmChain.statusCode(), evmChain.body());
        assertEquals("0x" + hash.toLowerCase(Locale.ROOT), new JsonObject(evmChain.body()).getString("tx_hash"));
        var bad = h.track("0x1234", L1);
        assertEquals(400, bad.statusCode());
        assertEquals(3, new JsonObject(bad.body()).getInteger("code"));
        var missing = h.post(h.api, "/v2/tx/track", new JsonObject().put("chain_id", L1));
        assertEquals(400, missing.statusCode());
        assertEquals("tx_hash is required", new JsonObject(missing.body()).getString("message"));
        var untracked = h.status("AB".repeat(32), L1);
        assertEquals(404, untracked.statusCode());
        assertEquals(
                new JsonObject().put("code", 5).put("message", "tx not found").put("details", new JsonArray()),
                new JsonObject(untracked.body()));
        var noQuery = h.get(h.api, "/v2/tx/status?tx_hash=" + hash);
        assertEquals(400, noQuery.statusCode());
        var statusUnknownChain = h.status(hash, "no-such-chain-1");
        assertEquals(404, statusUnknownChain.statusCode());
        assertEquals(
                new JsonObject()
                        .put("code", 5)
                        .put("message", "chain ID not supported")
                        .put("details", new JsonArray()),
                new JsonObject(statusUnknownChain.body()));
        var badHash = h.get(h.api, "/v2/tx/status?tx_hash=xyz&chain_id=" + L1);
        assertEquals(400, badHash.statusCode());
        assertEquals(3, new JsonObject(badHash.body()).getInteger("code"));
    }
}
