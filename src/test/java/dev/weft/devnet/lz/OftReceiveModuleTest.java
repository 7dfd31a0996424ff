package dev.weft.devnet.lz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.chain.LayerZero;
import dev.weft.devnet.exec.EventLog;
import dev.weft.devnet.exec.ExecError;
import dev.weft.devnet.exec.IbcAddresses;
import dev.weft.devnet.exec.MsgContext;
import dev.weft.devnet.gen.Event;
import dev.weft.devnet.tx.MsgTypes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The destination OFT's side of the devnet's LayerZero delivery, on the executor's calldata. */
class OftReceiveModuleTest {
    static final String OFT = "0x5e7709f66122317f741d68f529df2121175c6fa2";
    static final String DENOM = "evm/5e7709f66122317f741d68F529dF2121175C6FA2";
    static final byte[] TO = Hex.decode("90f79bf6eb2c4f870365e785982e1f101e93b906");
    static final String EXECUTOR =
            AccountAddress.of(Hex.decode("11".repeat(20))).bech32("init");
    static final MsgContext CTX = new MsgContext("weft-devnet-1", 10, 0, "AA", 0);

    static LayerZero.OftPacket packet(String guid) {
        byte[] sendTo = new byte[32];
        System.arraycopy(TO, 0, sendTo, 12, 20);
        return new LayerZero.OftPacket(
                1, 40337, new byte[32], 40397, new byte[32], guid, sendTo, BigInteger.valueOf(4_200));
    }

    static JsonObject call(String sender, String contract, String input) {
        return new JsonObject()
                .put("sender", sender)
                .put("contract_addr", contract)
                .put("input", input)
                .put("value", "0")
                .put("access_list", new JsonArray());
    }

    static OftReceiveModule module() {
        OftReceiveModule m = new OftReceiveModule("init", EXECUTOR);
        m.addOft(OFT, DENOM);
        return m;
    }

    @Test
    @DisplayName(
            "the executor's lzReceive mints amountSD of the OFT's denom to sendTo and logs Transfer and OFTReceived(guid, srcEid, to, amount) from the OFT")
    void delivers() {
        OftReceiveModule m = module();
        String guid = "0x" + "0c".repeat(32);
        JsonObject msg = call(EXECUTOR, OFT, LzExecutor.lzReceive(packet(guid), Hex.decode("11".repeat(20))));
        m.check(CTX, MsgTypes.EVM_CALL, msg);
        EventLog log = new EventLog(0);
        m.execute(CTX, MsgTypes.EVM_CALL, msg, log);
        String to = AccountAddress.of(TO).bech32("init");
        List<Event> events = log.events();
        assertEquals(
                to,
                events.stream()
                        .filter(e -> e.type().equals("transfer"))
                        .findFirst()
                        .orElseThrow()
                        .value("recipient"));
        assertEquals(
                "4200" + DENOM,
                events.stream()
                        .filter(e -> e.type().equals("coinbase"))
                        .findFirst()
                        .orElseThrow()
                        .value("amount"));
        assertEquals(
                IbcAddresses.module("evm", "init"),
                events.stream()
                        .filter(e -> e.type().equals("coinbase"))
                        .findFirst()
                        .orElseThrow()
                        .value("minter"));
        List<JsonObject> logs = events.stream()
                .filter(e -> e.type().equals("evm"))
                .map(e -> new JsonObject(e.value("log")))
                .toList();
        String checksum = AccountAddress.of(Hex.decode(OFT)).checksumHex();
        String amount = "0x" + LayerZero.word(BigInteger.valueOf(4_200));
        assertEquals(
                List.of(
                        new JsonObject()
                                .put("address", checksum)
                                .put(
                                        "topics",
                                        new JsonArray()
                                                .add(LayerZero.TRANSFER_TOPIC)
                                                .add(LayerZero.addressTopic(new byte[20]))
                                                .add(LayerZero.addressTopic(TO)))
                                .put("data", amount),
                        new JsonObject()
                                .put("address", checksum)
                                .put(
                                        "topics",
                                        new JsonArray()
                                                .add(LayerZero.OFT_RECEIVED_TOPIC)
                                                .add(guid)
                                                .add(LayerZero.addressTopic(TO)))
                                .put("data", "0x" + LayerZero.word(BigInteger.valueOf(40337)) + amount.substring(2))),
                logs);
        // a guid is delivered once
        ExecError again = assertThrows(ExecError.class, () -> m.check(CTX, MsgTypes.EVM_CALL, msg));
        assertEquals("execution reverted: InvalidNonce (guid " + guid + " delivered)", again.getMessage());
    }

    @Test
    @DisplayName("lzReceive from anyone but the executor is refused (OnlyEndpoint); other calls are only recorded")
    void onlyTheExecutor() {
        OftReceiveModule m = module();
        String user = AccountAddress.of(TO).bech32("init");
        JsonObject forged = call(user, OFT, LzExecutor.lzReceive(packet("0x" + "0d".repeat(32)), TO));
        assertEquals(
                "execution reverted: OnlyEndpoint",
                assertThrows(ExecError.class, () -> m.check(CTX, MsgTypes.EVM_CALL, forged))
                        .getMessage());
        JsonObject other = call(user, OFT, "0xa9059cbb" + "00".repeat(64));
        m.check(CTX, MsgTypes.EVM_CALL, other);
        EventLog log = new EventLog(0);
        m.execute(CTX, MsgTypes.EVM_CALL, other, log);
        assertEquals(List.of(), log.events());
    }
}
