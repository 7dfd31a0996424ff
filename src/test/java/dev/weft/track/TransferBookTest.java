package dev.weft.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Hex;
import dev.weft.config.ConfigSource;
import dev.weft.config.TrackConfig;
import dev.weft.model.track.Hop;
import dev.weft.model.track.ObservedTx;
import dev.weft.model.track.Transfer;
import dev.weft.model.track.TransferState;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.RegistryLoader;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The hop state machines and their aggregation, driven by hand-made chain events (no node, no database). */
class TransferBookTest {
    static final String L1 = "weft-l1-1", EVM = "weft-devnet-1", MOVE = "weft-move-1";
    static final String INIT_IBC = Denoms.ibc("transfer/channel-0/uinit");
    static final long SEC = 1_000_000_000L;
    static final TrackChains CHAINS = new TrackChains(
            RegistryLoader.load(List.of("conf/registry/devnet.json"), Map.of(MOVE, Duration.ofSeconds(30))),
            TrackConfig.from(ConfigSource.fileOnly(new JsonObject())),
            Map.of(),
            null);

    /** A book whose chains are all scanned from time 0 (no catch-up needed unless said otherwise). */
    static final class Fixture {
        long clock = 1000;
        final TransferBook book = new TransferBook(CHAINS, () -> clock);
        final Map<String, Long> covered = new HashMap<>(Map.of(L1, 0L, EVM, 0L, MOVE, 0L));
        long id = 1;

        Transfer track(String chain, String hash) {
            Transfer t = new Transfer(id++, chain, hash);
            book.add(t, TransferState.STATE_SUBMITTED, 0);
            return t;
        }

        void apply(ObservedTx... txs) {
            book.apply(List.of(txs), covered);
        }
    }

    static String hash(int n) {
        return String.format("%064X", n);
    }

    static ObservedTx tx(String chain, String hash, long height, long time, List<ObservedTx.Event> events) {
        return new ObservedTx(chain, hash, height, time, 0, "", events);
    }

    static ObservedTx.Event ev(String type, String msgIndex, String... kv) {
        Map<String, String> attrs = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) attrs.put(kv[i], kv[i + 1]);
        return new ObservedTx.Event(type, attrs, msgIndex);
    }

    static String data(String denom, String amount, String memo) {
        return "{\"amount\":\"" + amount + "\",\"denom\":\"" + denom + "\",\"memo\":\"" + memo
                + "\",\"receiver\":\"r\",\"sender\":\"s\"}";
    }

    static List<String> packet(String type, String srcChannel, String dstChannel, long seq, long timeout, String data) {
        List<String> kv = new ArrayList<>(List.of(
                "packet_timeout_height",
                "0-0",
                "packet_timeout_timestamp",
                Long.toString(timeout),
                "packet_sequence",
                Long.toString(seq),
                "packet_src_port",
                "transfer",
                "packet_src_channel",
                srcChannel,
                "packet_dst_port",
                "transfer",
                "packet_dst_channel",
                dstChannel));
        if (data != null)
            kv.addAll(
                    0,
                    List.of("packet_data", data, "packet_data_hex", Hex.lower(data.getBytes(StandardCharsets.UTF_8))));
        return kv;
    }

    static ObservedTx.Event send(String msg, String src, String dst, long seq, long timeout, String data) {
        return ev(
                "send_packet",
                msg,
                packet("send_packet", src, dst, seq, timeout, data).toArray(new String[0]));
    }

    static ObservedTx.Event recv(String msg, String src, String dst, long seq) {
        return ev(
                "recv_packet",
                msg,
                packet("recv_packet", src, dst, seq, 0, "{}").toArray(new String[0]));
    }

    static ObservedTx.Event writeAck(String msg, String src, String dst, long seq, String ack) {
        List<String> kv = packet("write_acknowledgement", src, dst, seq, 0, "{}");
        kv.addAll(List.of("packet_ack", ack, "packet_ack_hex", Hex.lower(ack.getBytes(StandardCharsets.UTF_8))));
        return ev("write_acknowledgement", msg, kv.toArray(new String[0]));
    }

    static ObservedTx.Event ackEvent(String msg, String src, String dst, long seq) {
        return ev(
                "acknowledge_packet",
                msg,
                packet("acknowledge_packet", src, dst, seq, 0, null).toArray(new String[0]));
    }

    static ObservedTx.Event timeoutEvent(String msg, String src, String dst, long seq) {
        return ev(
                "timeout_packet",
                msg,
                packet("timeout_packet", src, dst, seq, 0, null).toArray(new String[0]));
    }

    static final String OK = "{\"result\":\"AQ==\"}";
    static final String ERR = "{\"error\":\"ABCI code: 4: error handling packet: see events for details\"}";

    @Test
    @DisplayName(
            "direct IBC: SUBMITTED → PENDING (sent) → still PENDING when received → COMPLETED_SUCCESS on the ack, released on the destination")
    void direct() {
        Fixture f = new Fixture();
        Transfer t = f.track(L1, hash(1));
        assertEquals(TransferState.STATE_SUBMITTED, t.state());
        f.apply(tx(
                L1,
                hash(1),
                10,
                10 * SEC,
                List.of(send("0", "channel-0", "channel-0", 7, 99 * SEC, data("uinit", "1000", "")))));
        assertEquals(TransferState.STATE_PENDING, t.state());
        Hop h = t.hop(0, 0);
        assertEquals(EVM, h.toChain);
        assertEquals("uinit", h.denom);
        assertEquals(INIT_IBC, h.destDenom);
        assertEquals(0, t.flows().get(0).nextBlocking());
        f.apply(tx(
                EVM,
                hash(2),
                12,
                12 * SEC,
                List.of(recv("0", "channel-0", "channel-0", 7), writeAck("0", "channel-0", "channel-0", 7, OK))));
        assertEquals(Hop.TRANSFER_RECEIVED, h.state());
        assertEquals(TransferState.STATE_PENDING, t.state());
        f.apply(tx(L1, hash(3), 14, 14 * SEC, List.of(ackEvent("0", "channel-0", "channel-0", 7))));
        assertEquals(Hop.TRANSFER_SUCCESS, h.state());
        assertEquals(TransferState.STATE_COMPLETED_SUCCESS, t.state());
        assertEquals(
                new JsonObject()
                        .put("chain_id", EVM)
                        .put("denom", INIT_IBC)
                        .put("amount", "1000")
                        .put("released", true),
                t.flows().get(0).release());
        assertNull(t.flows().get(0).nextBlocking());
        assertEquals(1, f.book.changes().size(), "one transfer changed, recorded once");
    }

    @Test
    @DisplayName("the events of one batch apply whatever their order, and a tx seen twice changes nothing")
    void anyOrderIdempotent() {
        Fixture f = new Fixture();
        Transfer t = f.track(L1, hash(1));
        ObservedTx sent = tx(
                L1, hash(1), 10, 10 * SEC, List.of(send("0", "channel-0", "channel-0", 7, 0, data("uinit", "5", ""))));
        ObservedTx received = tx(
                EVM,
                hash(2),
                12,
                12 * SEC,
                List.of(recv("0", "channel-0", "channel-0", 7), writeAck("0", "channel-0", "channel-0", 7, OK)));
        ObservedTx acked = tx(L1, hash(3), 14, 14 * SEC, List.of(ackEvent("0", "channel-0", "channel-0", 7)));
        f.apply(acked, received, sent);
        assertEquals(TransferState.STATE_COMPLETED_SUCCESS, t.state());
        assertEquals(hash(2), t.hop(0, 0).receiveTx().hash());
        f.book.saved(f.book.changes());
        f.apply(sent, received, acked);
        assertTrue(f.book.changes().isEmpty());
    }

    @Test
    @DisplayName(
            "two-hop PFM: the intermediate's recv tx is the next hop's send tx; success once the first hop's async ack lands")
    void pfm() {
        Fixture f = new Fixture();
        Transfer t = f.track(EVM, hash(1));
        String memo = "{\\\"forward\\\":{}}";
        f.apply(tx(
                EVM,
                hash(1),
                10,
                10 * SEC,
                List.of(send("0", "channel-0", "channel-0", 3, 0, data("transfer/channel-0/uinit", "9", memo)))));
        Hop first = t.hop(0, 0);
        assertEquals(INIT_IBC, first.denom);
        assertEquals("uinit", first.destDenom);
        assertEquals(L1, first.toChain);
        // the L1 receives and forwards in the same message, without an ack
        f.apply(tx(
                L1,
                hash(2),
                12,
                12 * SEC,
                List.of(
                        recv("1", "channel-0", "channel-0", 3),
                        send("1", "channel-1", "channel-0", 5, 0, data("uinit", "9", "")))));
        Hop second = t.hop(0, 1);
        assertEquals(hash(2), second.sendTx().hash());
        assertEquals(hash(2), first.receiveTx().hash());
        assertEquals(MOVE, second.toChain);
        assertEquals(INIT_IBC, second.destDenom);
        assertEquals(1, t.flows().get(0).nextBlocking());
        f.apply(tx(
                MOVE,
                hash(3),
                14,
                14 * SEC,
                List.of(recv("0", "channel-1", "channel-0", 5), writeAck("0", "channel-1", "channel-0", 5, OK))));
        f.apply(tx(
                L1,
                hash(4),
                16,
                16 * SEC,
                List.of(ackEvent("0", "channel-1", "channel-0", 5), writeAck("0", "channel-0", "channel-0", 3, OK))));
        assertEquals(Hop.TRANSFER_SUCCESS, second.state());
        assertEquals(Hop.TRANSFER_RECEIVED, first.state());
        assertEquals(TransferState.STATE_PENDING, t.state());
        f.apply(tx(EVM, hash(5), 18, 18 * SEC, List.of(ackEvent("0", "channel-0", "channel-0", 3))));
        assertEquals(TransferState.STATE_COMPLETED_SUCCESS, t.state());
        assertEquals(
                new JsonObject()
                        .put("chain_id", MOVE)
                        .put("denom", INIT_IBC)
                        .put("amount", "9")
                        .put("released", true),
                t.flows().get(0).release());
    }

    @Test
    @DisplayName(
            "a PFM memo announces its hops: the first hop acknowledged before the intermediate's receipt is seen is not the end")
    void pfmAnnouncedHops() {
        Fixture f = new Fixture();
        Transfer t = f.track(EVM, hash(1));
        String memo = "{\\\"forward\\\":{\\\"receiver\\\":\\\"c\\\",\\\"next\\\":{\\\"forward\\\":{}}}}";
        f.apply(tx(
                EVM,
                hash(1),
                10,
                10 * SEC,
                List.of(send("0", "channel-0", "channel-0", 3, 0, data("transfer/channel-0/uinit", "9", memo)))));
        assertEquals(2, t.hop(0, 0).forwards());
        f.apply(tx(EVM, hash(5), 18, 18 * SEC, List.of(ackEvent("0", "channel-0", "channel-0", 3))));
        assertEquals(Hop.TRANSFER_SUCCESS, t.hop(0, 0).state());
        assertEquals(TransferState.STATE_PENDING, t.state());
        assertEquals(1, t.flows().get(0).nextBlocking());
    }

    @Test
    @DisplayName(
            "an error ack on the second hop of a PFM route: PENDING_ERROR (refund on the way to the origin) → COMPLETED_ERROR released on the origin")
    void pfmErrorAck() {
        Fixture f = new Fixture();
        Transfer t = f.track(EVM, hash(1));
        f.apply(tx(
                EVM,
                hash(1),
                10,
                10 * SEC,
                List.of(send("0", "channel-0", "channel-0", 3, 0, data("transfer/channel-0/uinit", "9", "m")))));
        f.apply(tx(
                L1,
                hash(2),
                12,
                12 * SEC,
                List.of(
                        recv("0", "channel-0", "channel-0", 3),
                        send("0", "channel-1", "channel-0", 5, 0, data("uinit", "9", "")))));
        f.apply(tx(
                MOVE,
                hash(3),
                14,
                14 * SEC,
                List.of(recv("0", "channel-1", "channel-0", 5), writeAck("0", "channel-1", "channel-0", 5, ERR))));
        assertEquals(TransferState.STATE_PENDING_ERROR, t.state());
        JsonObject release =
                new JsonObject().put("chain_id", EVM).put("denom", INIT_IBC).put("amount", "9");
        assertEquals(release.copy().put("released", false), t.flows().get(0).release());
        assertEquals(1, t.flows().get(0).nextBlocking());
        f.apply(tx(
                L1,
                hash(4),
                16,
                16 * SEC,
                List.of(
                        ackEvent("0", "channel-1", "channel-0", 5),
                        writeAck(
                                "0",
                                "channel-0",
                                "channel-0",
                                3,
                                "{\"error\":\"ABCI code: 1: error handling packet: see events for details\"}"))));
        assertEquals(Hop.TRANSFER_FAILURE, t.hop(0, 1).state());
        assertEquals(TransferState.STATE_PENDING_ERROR, t.state());
        f.apply(tx(EVM, hash(5), 18, 18 * SEC, List.of(ackEvent("0", "channel-0", "channel-0", 3))));
        assertEquals(Hop.TRANSFER_FAILURE, t.hop(0, 0).state());
        assertEquals(TransferState.STATE_COMPLETED_ERROR, t.state());
        assertEquals(release.copy().put("released", true), t.flows().get(0).release());
        assertEquals("STATUS_ERROR_TRANSFER", t.flows().get(0).error().getString("type"));
        assertEquals(Hop.PACKET_ERROR_ACKNOWLEDGEMENT, t.hop(0, 1).packetErrorType());
    }

    @Test
    @DisplayName(
            "a timeout: the destination's clock passing the timeout makes it PENDING_ERROR; timeout_packet refunds: COMPLETED_ERROR")
    void timeout() {
        Fixture f = new Fixture();
        Transfer t = f.track(L1, hash(1));
        f.apply(tx(
                L1,
                hash(1),
                10,
                10 * SEC,
                List.of(send("0", "channel-0", "channel-0", 1, 20 * SEC, data("uusdc", "3", "")))));
        f.clock = 1000;
        f.book.tick(Map.of(EVM, 19 * SEC), 60_000);
        assertEquals(TransferState.STATE_PENDING, t.state());
        f.clock = 1000;
        f.book.tick(Map.of(EVM, 20 * SEC), 60_000);
        assertEquals(TransferState.STATE_PENDING_ERROR, t.state());
        assertEquals(Hop.PACKET_ERROR_TIMEOUT, t.hop(0, 0).packetErrorType());
        f.apply(tx(L1, hash(2), 22, 22 * SEC, List.of(timeoutEvent("0", "channel-0", "channel-0", 1))));
        assertEquals(TransferState.STATE_COMPLETED_ERROR, t.state());
        assertEquals(
                new JsonObject()
                        .put("chain_id", L1)
                        .put("denom", "uusdc")
                        .put("amount", "3")
                        .put("released", true),
                t.flows().get(0).release());
        assertEquals(hash(2), t.hop(0, 0).timeoutTx().hash());
    }

    @Test
    @DisplayName(
            "OPinit deposit: SENT → RECEIVED on finalize_token_deposit (matched by l1_sequence); a failed deposit is refunded (PENDING_ERROR until claimable on the L1, then COMPLETED_ERROR), a failed hook is delivered")
    void deposit() {
        Fixture f = new Fixture();
        Transfer ok = f.track(L1, hash(1));
        Transfer ko = f.track(L1, hash(2));
        String l2 = Denoms.l2(1, "uinit");
        f.apply(
                tx(
                        L1,
                        hash(1),
                        10,
                        10 * SEC,
                        List.of(ev(
                                "initiate_token_deposit",
                                "0",
                                "bridge_id",
                                "1",
                                "l1_sequence",
                                "4",
                                "from",
                                "a",
                                "to",
                                "b",
                                "l1_denom",
                                "uinit",
                                "l2_denom",
                                l2,
                                "amount",
                                "250",
                                "data",
                                ""))),
                tx(
                        L1,
                        hash(2),
                        10,
                        10 * SEC,
                        List.of(ev(
                                "initiate_token_deposit",
                                "0",
                                "bridge_id",
                                "1",
                                "l1_sequence",
                                "5",
                                "from",
                                "a",
                                "to",
                                "c",
                                "l1_denom",
                                "uinit",
                                "l2_denom",
                                l2,
                                "amount",
                                "9",
                                "data",
                                ""))));
        assertEquals(EVM, ok.hop(0, 0).toChain);
        assertEquals(Hop.OPINIT_SENT, ok.hop(0, 0).state());
        f.apply(tx(
                EVM,
                hash(3),
                11,
                11 * SEC,
                List.of(
                        ev("finalize_token_deposit", "0", "l1_sequence", "4", "success", "true", "reason", ""),
                        ev(
                                "finalize_token_deposit",
                                "1",
                                "l1_sequence",
                                "5",
                                "success",
                                "false",
                                "reason",
                                "deposit failed"))));
        assertEquals(TransferState.STATE_COMPLETED_SUCCESS, ok.state());
        assertEquals(
                new JsonObject()
                        .put("chain_id", EVM)
                        .put("denom", l2)
                        .put("amount", "250")
                        .put("released", true),
                ok.flows().get(0).release());
        // a failed deposit is refunded by a withdrawal to the L1 sender (started in the finalize tx, at rollup height
        // 11):
        // PENDING_ERROR, stall-proof, until an output covering it is older than the finalization period on the L1
        assertEquals(TransferState.STATE_PENDING_ERROR, ko.state());
        assertEquals("deposit failed", ko.flows().get(0).error().getString("message"));
        assertEquals(
                new JsonObject()
                        .put("chain_id", L1)
                        .put("denom", "uinit")
                        .put("amount", "9")
                        .put("released", false),
                ko.flows().get(0).release());
        assertTrue(ko.waitingForFinalization());
        f.apply(tx(
                L1,
                hash(6),
                15,
                15 * SEC,
                List.of(ev("propose_output", "0", "bridge_id", "1", "output_index", "3", "l2_block_number", "10"))));
        assertEquals(null, ko.hop(0, 0).outputTx(), "an output below the refund's height does not cover it");
        f.apply(tx(
                L1,
                hash(7),
                16,
                16 * SEC,
                List.of(ev("propose_output", "0", "bridge_id", "1", "output_index", "4", "l2_block_number", "11"))));
        assertEquals(hash(7), ko.hop(0, 0).outputTx().hash());
        Hop saved = ko.hop(0, 0);
        Hop restored =
                Hop.fromRow(0, 0, saved.kind.name(), saved.state(), saved.fromChain, saved.toChain, saved.toJson());
        assertEquals(saved.toJson(), restored.toJson(), "the refund survives a restart");
        assertTrue(restored.awaitingOutput() && !restored.refunded());
        f.clock += 3_600_000;
        f.book.tick(Map.of(L1, 17 * SEC), 600_000);
        assertEquals(TransferState.STATE_PENDING_ERROR, ko.state());
        f.book.tick(Map.of(L1, 16 * SEC + 30 * 24 * 3600 * SEC), 600_000);
        assertEquals(TransferState.STATE_COMPLETED_ERROR, ko.state());
        assertEquals(
                new JsonObject()
                        .put("chain_id", L1)
                        .put("denom", "uinit")
                        .put("amount", "9")
                        .put("released", true),
                ko.flows().get(0).release());
        assertEquals(Hop.OPINIT_RECEIVED, ko.hop(0, 0).state());
        assertFalse(ko.waitingForFinalization());

        // a failed hook still delivered the coins on the rollup
        Transfer hooked = f.track(L1, hash(4));
        f.apply(tx(
                L1,
                hash(4),
                12,
                12 * SEC,
                List.of(ev(
                        "initiate_token_deposit",
                        "0",
                        "bridge_id",
                        "1",
                        "l1_sequence",
                        "6",
                        "from",
                        "a",
                        "to",
                        "d",
                        "l1_denom",
                        "uinit",
                        "l2_denom",
                        l2,
                        "amount",
                        "7",
                        "data",
                        "0a0b"))));
        f.apply(tx(
                EVM,
                hash(5),
                13,
                13 * SEC,
                List.of(ev(
                        "finalize_token_deposit",
                        "0",
                        "l1_sequence",
                        "6",
                        "success",
                        "false",
                        "reason",
                        "hook failed; signature verification failed"))));
        assertEquals(TransferState.STATE_COMPLETED_SUCCESS, hooked.state());
        assertEquals(
                new JsonObject()
                        .put("chain_id", EVM)
                        .put("denom", l2)
                        .put("amount", "7")
                        .put("released", true),
                hooked.flows().get(0).release());
    }

    @Test
    @DisplayName(
            "OPinit withdrawal: claimable (RECEIVED, success) once an output covering it is older than the finalization period")
    void withdrawal() {
        Fixture f = new Fixture();
        Transfer t = f.track(MOVE, hash(1));
        f.apply(tx(
                MOVE,
                hash(1),
                50,
                50 * SEC,
                List.of(ev(
                        "initiate_token_withdrawal",
                        "0",
                        "from",
                        "a",
                        "to",
                        "b",
                        "denom",
                        Denoms.l2(2, "uinit"),
                        "base_denom",
                        "uinit",
                        "amount",
                        "42",
                        "l2_sequence",
                        "1"))));
        Hop h = t.hop(0, 0);
        assertEquals(L1, h.toChain);
        assertEquals(50, h.l2Height);
        f.apply(tx(
                L1,
                hash(2),
                51,
                51 * SEC,
                List.of(ev("propose_output", "0", "bridge_id", "2", "output_index", "1", "l2_block_number", "49"))));
        f.clock = 1000;
        f.book.tick(Map.of(L1, 500 * SEC), 600_000);
        assertEquals(Hop.OPINIT_SENT, h.state());
        f.apply(tx(
                L1,
                hash(3),
                53,
                53 * SEC,
                List.of(ev("propose_output", "0", "bridge_id", "2", "output_index", "2", "l2_block_number", "50"))));
        f.clock = 1000 + 3_600_000; // an hour without progress: a withdrawal waiting to finalize is not stalled
        f.book.tick(Map.of(L1, 82 * SEC), 600_000);
        assertEquals(Hop.OPINIT_SENT, h.state());
        assertEquals(TransferState.STATE_PENDING, t.state());
        f.book.tick(Map.of(L1, 83 * SEC), 600_000);
        assertEquals(Hop.OPINIT_RECEIVED, h.state());
        assertEquals(hash(3), h.receiveTx().hash());
        assertEquals(TransferState.STATE_COMPLETED_SUCCESS, t.state());
        assertEquals(
                new JsonObject()
                        .put("chain_id", L1)
                        .put("denom", "uinit")
                        .put("amount", "42")
                        .put("released", true),
                t.flows().get(0).release());
    }

    @Test
    @DisplayName(
            "a pending IBC transfer with no progress for the stall timeout is ABANDONED (its hop stays as it was); progress re-arms the timer")
    void pendingStalls() {
        Fixture f = new Fixture();
        Transfer t = f.track(L1, hash(1));
        f.apply(tx(
                L1,
                hash(1),
                10,
                10 * SEC,
                List.of(send("0", "channel-0", "channel-0", 7, 9_999 * SEC, data("uinit", "1000", "")))));
        assertEquals(TransferState.STATE_PENDING, t.state());
        f.book.saved(f.book.changes());
        f.clock += 50_000;
        f.apply(tx(
                EVM,
                hash(2),
                12,
                12 * SEC,
                List.of(recv("0", "channel-0", "channel-0", 7), writeAck("0", "channel-0", "channel-0", 7, OK))));
        f.book.saved(f.book.changes());
        f.clock += 59_000; // 109 s after the send, 59 s after the last progress
        f.book.tick(Map.of(), 60_000);
        assertEquals(TransferState.STATE_PENDING, t.state(), "the receipt was progress");
        f.clock += 2_000;
        f.book.tick(Map.of(), 60_000);
        assertEquals(TransferState.STATE_ABANDONED, t.state());
        assertEquals(Hop.TRANSFER_RECEIVED, t.hop(0, 0).state());
        assertEquals(TransferState.STATE_ABANDONED, t.flows().get(0).state());
        assertEquals(0, t.flows().get(0).nextBlocking());
    }

    @Test
    @DisplayName(
            "a tx failed on chain is COMPLETED_ERROR; one never seen is ABANDONED after the stall timeout; a tx starting no transfer succeeds")
    void failedAbandonedEmpty() {
        Fixture f = new Fixture();
        Transfer failed = f.track(L1, hash(1));
        Transfer never = f.track(L1, hash(2));
        Transfer plain = f.track(L1, hash(3));
        f.apply(
                new ObservedTx(L1, hash(1), 10, 10 * SEC, 5, "insufficient funds", List.of()),
                tx(L1, hash(3), 10, 10 * SEC, List.of()));
        assertEquals(TransferState.STATE_COMPLETED_ERROR, failed.state());
        assertEquals(TransferState.STATE_COMPLETED_SUCCESS, plain.state());
        f.clock = 1000 + 59_000;
        f.book.tick(Map.of(), 60_000);
        assertEquals(TransferState.STATE_SUBMITTED, never.state());
        f.clock = 1000 + 61_000;
        f.book.tick(Map.of(), 60_000);
        assertEquals(TransferState.STATE_ABANDONED, never.state());
        f.book.saved(f.book.changes());
        assertEquals(0, f.book.size(), "terminal transfers leave the book");
        assertTrue(f.book.chains().isEmpty());
    }

    @Test
    @DisplayName("a hop whose next event may lie behind a chain's scans gets catch-up searches with exact packet keys")
    void catchUps() {
        Fixture f = new Fixture();
        f.covered.put(EVM, 30 * SEC); // weft-devnet-1 was scanned past the send's time
        f.track(L1, hash(1));
        f.apply(tx(
                L1, hash(1), 10, 10 * SEC, List.of(send("0", "channel-0", "channel-0", 7, 0, data("uinit", "1", "")))));
        List<String> queries = f.book.takeCatchUps(10).stream()
                .map(c -> c.chainId() + " " + c.query())
                .toList();
        assertEquals(
                List.of(
                        EVM
                                + " recv_packet.packet_dst_port='transfer' AND recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='7'",
                        EVM
                                + " write_acknowledgement.packet_dst_port='transfer' AND write_acknowledgement.packet_dst_channel='channel-0' AND write_acknowledgement.packet_sequence='7'"),
                queries);
        assertFalse(f.book.pendingCatchUps() > 0);
    }

    @Test
    @DisplayName(
            "LayerZero: OFTSent on the lane's source starts a SENT hop (pending); only the destination OFT's OFTReceived of its guid delivers it (RECEIVED, completed, released); the guid survives a save")
    void layerZeroDelivery() {
        Fixture f = new Fixture();
        String send = "0x" + "ab".repeat(32);
        String guid = "0x" + "0c".repeat(32);
        String oft = "0x5e7709f66122317f741d68f529df2121175c6fa2";
        Transfer t = f.track("31337", send);
        f.apply(tx(
                "31337",
                send,
                9,
                5 * SEC,
                List.of(ev(
                        dev.weft.track.poll.EvmReceipts.OFT_SENT,
                        "3",
                        "contract",
                        "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
                        "guid",
                        guid,
                        "from",
                        "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                        "dst_eid",
                        "40397",
                        "amount_sent",
                        "700",
                        "amount_received",
                        "700"))));
        assertEquals(TransferState.STATE_PENDING, t.state());
        assertEquals(0, t.flows().get(0).nextBlocking());
        Hop hop = t.hops().get(0);
        assertEquals(Hop.LAYER_ZERO_SENT, hop.state());
        Hop restored = Hop.fromRow(
                hop.flow, hop.index, hop.kind.name(), hop.state(), hop.fromChain, hop.toChain, hop.toJson());
        assertEquals(guid, restored.guid());

        String receive = "0x" + "cd".repeat(32);
        f.apply(
                tx(
                        EVM,
                        receive,
                        20,
                        7 * SEC,
                        List.of(ev(
                                dev.weft.track.poll.EvmReceipts.OFT_RECEIVED,
                                "0",
                                "contract",
                                "0x" + "11".repeat(20),
                                "guid",
                                guid))),
                tx(
                        EVM,
                        receive,
                        20,
                        7 * SEC,
                        List.of(ev(
                                dev.weft.track.poll.EvmReceipts.OFT_RECEIVED,
                                "1",
                                "contract",
                                oft,
                                "guid",
                                "0x" + "0d".repeat(32)))));
        assertEquals(
                TransferState.STATE_PENDING,
                t.state(),
                "another contract's or another guid's OFTReceived delivers nothing");
        f.apply(tx(
                EVM,
                receive,
                20,
                7 * SEC,
                List.of(ev(dev.weft.track.poll.EvmReceipts.OFT_RECEIVED, "2", "contract", oft, "guid", guid))));
        assertEquals(TransferState.STATE_COMPLETED_SUCCESS, t.state());
        assertEquals(Hop.LAYER_ZERO_RECEIVED, hop.state());
        assertEquals(receive, hop.receiveTx().hash());
        assertEquals(
                new JsonObject()
                        .put("chain_id", EVM)
                        .put("denom", "evm/5e7709f66122317f741d68F529dF2121175C6FA2")
                        .put("amount", "700")
                        .put("released", true),
                t.flows().get(0).release());
    }
}
