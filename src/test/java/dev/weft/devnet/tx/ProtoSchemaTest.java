package dev.weft.devnet.tx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.CosmosTx;
import dev.weft.testsupport.RouteTxs;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The devnet's message codec against the hand-written test encoding of the same protos. */
class ProtoSchemaTest {
    static final String ALICE = "init1rvdr7nz7d4agh8qdrchn5j6ud4lglxstnn40t5";

    @Test
    @DisplayName(
            "a MsgTransfer as /v2/fungible/msgs writes it encodes to the bytes a wallet builds, and decodes to proto JSON")
    void transfer() {
        String memo =
                "{\"forward\":{\"receiver\":\"x\",\"port\":\"transfer\",\"channel\":\"channel-1\",\"timeout\":\"5m\",\"retries\":2}}";
        JsonObject amino =
                RouteTxs.transferJson("channel-0", "uinit", "1000000", ALICE, ALICE, 1767225900000000000L, memo);
        byte[] bytes = MsgTypes.of(MsgTypes.TRANSFER).schema().encode(amino);
        assertArrayEquals(RouteTxs.any(MsgTypes.TRANSFER, amino).value(), bytes);
        JsonObject decoded = MsgTypes.of(MsgTypes.TRANSFER).schema().decode(bytes);
        assertEquals(
                new JsonObject()
                        .put("source_port", "transfer")
                        .put("source_channel", "channel-0")
                        .put("token", new JsonObject().put("denom", "uinit").put("amount", "1000000"))
                        .put("sender", ALICE)
                        .put("receiver", ALICE)
                        .put(
                                "timeout_height",
                                new JsonObject().put("revision_number", "0").put("revision_height", "0"))
                        .put("timeout_timestamp", "1767225900000000000")
                        .put("memo", memo),
                decoded);
        assertArrayEquals(
                bytes,
                MsgTypes.of(MsgTypes.TRANSFER).schema().encode(decoded),
                "proto JSON encodes back to the same bytes");
    }

    @Test
    @DisplayName("OPinit deposit (bridge id as a string, data base64) and withdrawal match the wallet encoding")
    void opinit() {
        JsonObject deposit = new JsonObject()
                .put("sender", ALICE)
                .put("bridge_id", "16")
                .put("to", ALICE)
                .put("amount", new JsonObject().put("denom", "uinit").put("amount", "2500000"))
                .put("data", Base64.getEncoder().encodeToString(new byte[] {1, 2, 3}));
        assertArrayEquals(
                RouteTxs.any(MsgTypes.DEPOSIT, deposit).value(),
                MsgTypes.of(MsgTypes.DEPOSIT).schema().encode(deposit));
        JsonObject withdrawal = new JsonObject()
                .put("sender", ALICE)
                .put("to", ALICE)
                .put("amount", new JsonObject().put("denom", "l2/ab").put("amount", "7"));
        byte[] w = MsgTypes.of(MsgTypes.WITHDRAWAL).schema().encode(withdrawal);
        assertArrayEquals(RouteTxs.any(MsgTypes.WITHDRAWAL, withdrawal).value(), w);
        assertEquals(withdrawal, MsgTypes.of(MsgTypes.WITHDRAWAL).schema().decode(w));
    }

    @Test
    @DisplayName("bad values name their field; bytes that do not parse are refused")
    void errors() {
        ProtoSchema s = MsgTypes.of(MsgTypes.TRANSFER).schema();
        var e = assertThrows(
                IllegalArgumentException.class, () -> s.encode(new JsonObject().put("timeout_timestamp", "soon")));
        assertEquals("timeout_timestamp must be an unsigned integer", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.encode(new JsonObject().put("token", "uinit")));
        assertThrows(IllegalArgumentException.class, () -> s.decode(new byte[] {0x0a, 0x7f, 0x01}));
    }

    @Test
    @DisplayName(
            "CheckTx: an unsigned tx of known messages decodes; unknown types, empty txs and foreign signers are refused with the SDK's codes")
    void decodeTx() {
        byte[] ok = new CosmosTx(
                        List.of(RouteTxs.any(
                                MsgTypes.TRANSFER,
                                RouteTxs.transferJson("channel-0", "uinit", "1", ALICE, ALICE, 1, ""))),
                        "",
                        0,
                        List.of(),
                        new CosmosTx.Fee(List.of(), 0, "", ""),
                        List.of())
                .encode();
        DecodedTx d = DecodedTx.decode(ok, java.util.Set.of(MsgTypes.TRANSFER), a -> a.startsWith("init1"));
        assertEquals(ALICE, d.msgs().get(0).signer());
        var unknown = assertThrows(
                DecodedTx.Rejected.class, () -> DecodedTx.decode(ok, java.util.Set.of(MsgTypes.SEND), a -> true));
        assertEquals(2, unknown.code);
        assertTrue(unknown.getMessage()
                .startsWith("unable to resolve type URL /ibc.applications.transfer.v1.MsgTransfer"));
        var empty = assertThrows(
                DecodedTx.Rejected.class,
                () -> DecodedTx.decode(
                        new CosmosTx(List.of(), "", 0, List.of(), new CosmosTx.Fee(List.of(), 0, "", ""), List.of())
                                .encode(),
                        java.util.Set.of(),
                        a -> true));
        assertEquals(18, empty.code);
        var signer = assertThrows(
                DecodedTx.Rejected.class, () -> DecodedTx.decode(ok, java.util.Set.of(MsgTypes.TRANSFER), a -> false));
        assertEquals(7, signer.code);
        assertEquals(
                2,
                assertThrows(
                                DecodedTx.Rejected.class,
                                () -> DecodedTx.decode(new byte[] {(byte) 0xff}, java.util.Set.of(), a -> true))
                        .code);
    }
}
