package dev.weft.track;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.AccountAddress;
import dev.weft.model.track.ObservedTx;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Which accounts started a transfer in a scanned tx ({@link AddressWatcher#starters}). */
class AddressWatcherTest {
    static AccountAddress account(int b) {
        byte[] a = new byte[20];
        Arrays.fill(a, (byte) b);
        return AccountAddress.of(a);
    }

    static ObservedTx.Event event(String type, String... kv) {
        Map<String, String> attrs = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) attrs.put(kv[i], kv[i + 1]);
        return new ObservedTx.Event(type, attrs, "0");
    }

    static ObservedTx tx(int code, ObservedTx.Event... events) {
        return new ObservedTx("c-1", "AB", 5, 1, code, "", List.of(events));
    }

    static final AccountAddress SIGNER = account(1), SENDER = account(2), FROM = account(3);
    static final ObservedTx.Event SIGNED = event("tx", "acc_seq", SIGNER.bech32("init") + "/7");

    @Test
    @DisplayName(
            "the signer and the ICS-20 sender of a send_packet, the from of OPinit events (bech32 of any prefix or 0x): one hex key each")
    void starters() {
        String data = new JsonObject()
                .put("amount", "1")
                .put("denom", "uinit")
                .put("receiver", "x")
                .put("sender", SENDER.bech32("init"))
                .encode();
        assertEquals(
                Set.of(SIGNER.hex(), SENDER.hex()),
                AddressWatcher.starters(tx(0, SIGNED, event("send_packet", "packet_data", data))));
        assertEquals(
                Set.of(SIGNER.hex(), FROM.hex()),
                AddressWatcher.starters(tx(0, SIGNED, event("initiate_token_deposit", "from", FROM.bech32("other")))));
        assertEquals(
                Set.of(FROM.hex()),
                AddressWatcher.starters(tx(0, event("initiate_token_withdrawal", "from", FROM.checksumHex()))));
        // a packet of another application: its data is no ICS-20 JSON, the signer still counts
        assertEquals(
                Set.of(SIGNER.hex()),
                AddressWatcher.starters(tx(0, SIGNED, event("send_packet", "packet_data", "\u0001binary"))));
    }

    @Test
    @DisplayName("no starter for a failed tx, a tx that starts nothing, or a relayer's recv (a PFM hop) or finalize tx")
    void none() {
        String data = new JsonObject().put("sender", SENDER.bech32("init")).encode();
        assertEquals(Set.of(), AddressWatcher.starters(tx(1, SIGNED, event("send_packet", "packet_data", data))));
        assertEquals(Set.of(), AddressWatcher.starters(tx(0, SIGNED)));
        assertEquals(
                Set.of(),
                AddressWatcher.starters(
                        tx(0, SIGNED, event("recv_packet"), event("send_packet", "packet_data", data))));
        assertEquals(
                Set.of(),
                AddressWatcher.starters(tx(
                        0,
                        SIGNED,
                        event("finalize_token_deposit"),
                        event("initiate_token_withdrawal", "from", FROM.hex()))));
    }
}
