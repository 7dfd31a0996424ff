package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.Hashes;
import dev.weft.chain.proto.ProtoWriter;
import dev.weft.devnet.crypto.Secp256k1;
import dev.weft.devnet.tx.AminoJson;
import dev.weft.devnet.tx.DecodedTx;
import dev.weft.devnet.tx.DirectSign;
import dev.weft.devnet.tx.MsgTypes;
import dev.weft.devnet.world.World;
import dev.weft.testsupport.DevnetAccounts;
import dev.weft.testsupport.RouteTxs;
import dev.weft.testsupport.SkipClientScripts;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * LEGACY_AMINO_JSON signatures (what Ledger users sign): the devnet rebuilds the StdSignDoc from the tx and verifies the
 * signature over it. Proven with a sign doc written out by hand here (OPinit and Move messages, an ethsecp256k1 key)
 * and with a tx cosmjs signs through its own amino converters ({@code src/test/node/amino-sign.mjs}).
 */
class AminoSignTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1";
    static final long AMINO = 127;
    static DevnetHarness d;

    @BeforeAll
    static void start() {
        d = DevnetHarness.start(
                weft,
                weft.config()
                        .roles("devnet")
                        .set("devnet.mode", "live")
                        .set("devnet.history_blocks", 10)
                        .set("devnet.block_interval", "100ms")
                        .set("devnet.txs_per_block", 2));
    }

    static long accountNumber(String address) {
        return Long.parseLong(new JsonObject(d.get(d.restPort(L1), "/cosmos/auth/v1beta1/accounts/" + address)
                        .body())
                .getJsonObject("account")
                .getString("account_number"));
    }

    /** A TxRaw whose one signer says SIGN_MODE_LEGACY_AMINO_JSON, written field by field from cosmos.tx.v1beta1's protos. */
    static byte[] aminoTxRaw(List<CosmosTx.Any> msgs, String memo, byte[] pub, long sequence, byte[] signature) {
        ProtoWriter body = new ProtoWriter();
        for (CosmosTx.Any m : msgs)
            body.message(1, new ProtoWriter().string(1, m.typeUrl()).bytes(2, m.value()));
        body.string(2, memo);
        ProtoWriter key = new ProtoWriter()
                .string(1, DirectSign.ETHSECP256K1)
                .bytes(2, new ProtoWriter().bytes(1, pub).toByteArray());
        ProtoWriter signer = new ProtoWriter()
                .message(1, key)
                .message(2, new ProtoWriter().message(1, new ProtoWriter().varint(1, AMINO)))
                .varint(3, sequence);
        ProtoWriter fee = new ProtoWriter()
                .message(1, new ProtoWriter().string(1, "uinit").string(2, "3000"))
                .varint(2, 200_000);
        ProtoWriter auth = new ProtoWriter().message(1, signer).message(2, fee);
        return new ProtoWriter()
                .bytes(1, body.toByteArray())
                .bytes(2, auth.toByteArray())
                .bytesAlways(3, signature)
                .toByteArray();
    }

    static JsonObject sync(byte[] raw) {
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", "broadcast_tx_sync")
                .put("params", new JsonObject().put("tx", RouteTxs.base64(raw)));
        return new JsonObject(d.post(d.rpcPort(L1), req.encode()).body()).getJsonObject("result");
    }

    @Test
    @DisplayName(
            "a hand-written StdSignDoc (ophost/MsgInitiateTokenDeposit, move/MsgExecute; sorted keys, defaults omitted, amount kept) signed with an ethsecp256k1 key is accepted; the same signature over another memo is code 4")
    void handWrittenSignDoc() {
        BigInteger key = World.TEST_ACCOUNT_KEYS.get(6);
        byte[] pub = AccountAddress.compressedPublicKey(key);
        String sender = DevnetAccounts.address(key);
        long number = accountNumber(sender);
        JsonObject deposit = new JsonObject()
                .put("sender", sender)
                .put("bridge_id", "1")
                .put("to", sender)
                .put("amount", new JsonObject().put("denom", "uinit").put("amount", "25"))
                .put("data", "");
        JsonObject execute = new JsonObject()
                .put("sender", sender)
                .put("module_address", "0x1")
                .put("module_name", "dex")
                .put("function_name", "noop")
                .put("type_args", new JsonArray())
                .put("args", new JsonArray().add("AQI="));
        List<CosmosTx.Any> msgs =
                List.of(RouteTxs.any(MsgTypes.DEPOSIT, deposit), RouteTxs.any(MsgTypes.EXECUTE, execute));
        // what a Ledger displays and signs: data and type_args are empty, so absent; the deposit's amount is
        // dont_omitempty
        String doc = "{\"account_number\":\"" + number + "\",\"chain_id\":\"weft-l1-1\","
                + "\"fee\":{\"amount\":[{\"amount\":\"3000\",\"denom\":\"uinit\"}],\"gas\":\"200000\"},\"memo\":\"ledger \\u003c\\u0026\\u003e\","
                + "\"msgs\":[{\"type\":\"ophost/MsgInitiateTokenDeposit\",\"value\":{\"amount\":{\"amount\":\"25\",\"denom\":\"uinit\"},"
                + "\"bridge_id\":\"1\",\"sender\":\"" + sender + "\",\"to\":\"" + sender + "\"}},"
                + "{\"type\":\"move/MsgExecute\",\"value\":{\"args\":[\"AQI=\"],\"function_name\":\"noop\",\"module_address\":\"0x1\","
                + "\"module_name\":\"dex\",\"sender\":\"" + sender + "\"}}],\"sequence\":\"0\"}";
        byte[] signature = Secp256k1.sign(key, Hashes.keccak256(doc.getBytes(StandardCharsets.UTF_8)));
        byte[] raw = aminoTxRaw(msgs, "ledger <&>", pub, 0, signature);
        DecodedTx decoded = DecodedTx.decode(raw, Set.of(MsgTypes.DEPOSIT, MsgTypes.EXECUTE), s -> true);
        assertEquals(doc, new String(AminoJson.signBytes(decoded, L1, number, 0), StandardCharsets.UTF_8));

        JsonObject otherMemo = sync(aminoTxRaw(msgs, "ledger", pub, 0, signature));
        assertEquals(4, otherMemo.getInteger("code"), otherMemo.encode());
        assertEquals(
                "signature verification failed; please verify account number (" + number + ") and chain-id (" + L1
                        + "): unauthorized",
                otherMemo.getString("log"));
        JsonObject ok = sync(raw);
        assertEquals(0, ok.getInteger("code"), ok.encode());
    }

    @Test
    @DisplayName(
            "cosmjs signAmino (Secp256k1Wallet, its cosmos-sdk/MsgSend and cosmos-sdk/MsgTransfer converters) produces a tx the devnet accepts and executes")
    void cosmjsSignAmino() throws Exception {
        BigInteger key = World.TEST_ACCOUNT_KEYS.get(4);
        String address = AccountAddress.fromSecp256k1(AccountAddress.compressedPublicKey(key))
                .bech32("init");
        long timeout = (System.currentTimeMillis() + 600_000) * 1_000_000L;
        JsonArray msgs = new JsonArray()
                .add(new JsonObject()
                        .put("typeUrl", MsgTypes.SEND)
                        .put(
                                "value",
                                new JsonObject()
                                        .put("fromAddress", address)
                                        .put("toAddress", DevnetAccounts.BOB)
                                        .put(
                                                "amount",
                                                new JsonArray()
                                                        .add(new JsonObject()
                                                                .put("denom", "uinit")
                                                                .put("amount", "7")))))
                .add(new JsonObject()
                        .put("typeUrl", MsgTypes.TRANSFER)
                        .put(
                                "value",
                                new JsonObject()
                                        .put("sourcePort", "transfer")
                                        .put("sourceChannel", "channel-0")
                                        .put(
                                                "token",
                                                new JsonObject()
                                                        .put("denom", "uinit")
                                                        .put("amount", "11"))
                                        .put("sender", address)
                                        .put("receiver", DevnetAccounts.BOB)
                                        .put(
                                                "timeoutHeight",
                                                new JsonObject()
                                                        .put("revisionNumber", "0")
                                                        .put("revisionHeight", "0"))
                                        .put("timeoutTimestamp", Long.toString(timeout))
                                        .put("memo", "{\"note\":\"<amino & ledger>\"}")));
        JsonObject input = new JsonObject()
                .put("key", String.format("%064x", key))
                .put("prefix", "init")
                .put("chain_id", L1)
                .put("account_number", accountNumber(address))
                .put("sequence", 0)
                .put("memo", "signed with cosmjs' amino signer")
                .put(
                        "fee",
                        new JsonObject()
                                .put(
                                        "amount",
                                        new JsonArray()
                                                .add(new JsonObject()
                                                        .put("denom", "uinit")
                                                        .put("amount", "3000")))
                                .put("gas", "200000"))
                .put("msgs", msgs);
        String out = SkipClientScripts.run("amino-sign.mjs", input.encode());
        JsonObject signed = new JsonObject(out);
        assertEquals(address, signed.getString("address"));
        byte[] raw = Base64.getDecoder().decode(signed.getString("tx"));

        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", "broadcast_tx_commit")
                .put("params", new JsonObject().put("tx", RouteTxs.base64(raw)));
        JsonObject res = new JsonObject(d.post(d.rpcPort(L1), req.encode()).body()).getJsonObject("result");
        assertEquals(0, res.getJsonObject("check_tx").getInteger("code"), res.encode());
        assertEquals(0, res.getJsonObject("tx_result").getInteger("code"), res.encode());
        assertEquals(
                "1",
                new JsonObject(d.get(d.restPort(L1), "/cosmos/auth/v1beta1/accounts/" + address)
                                .body())
                        .getJsonObject("account")
                        .getString("sequence"));
    }
}
