package dev.weft.testsupport;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.proto.ProtoWriter;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Signable txs of {@code /v2/fungible/msgs} turned into TxRaw bytes the way a wallet does, written here by hand from
 * the protos (independently of the devnet's own codec, so that a wrong field number on either side shows):
 * <ul>
 *   <li>{@code ibc.applications.transfer.v1.MsgTransfer}: source_port=1, source_channel=2, token=3 (Coin denom=1,
 *   amount=2), sender=4, receiver=5, timeout_height=6 (Height revision_number=1, revision_height=2),
 *   timeout_timestamp=7, memo=8;</li>
 *   <li>{@code opinit.ophost.v1.MsgInitiateTokenDeposit}: sender=1, bridge_id=2, to=3, amount=4, data=5;</li>
 *   <li>{@code opinit.opchild.v1.MsgInitiateTokenWithdrawal}: sender=1, to=2, amount=3;</li>
 *   <li>{@code initia.move.v1.MsgExecute}: sender=1, module_address=2, module_name=3, function_name=4, type_args=5
 *   (repeated string), args=6 (repeated bytes).</li>
 * </ul>
 * The tx is signed for real by the {@link DevnetWallet} holding the key of its signer (one of {@link DevnetAccounts}).
 */
public final class RouteTxs {
    private RouteTxs() {}

    /** The TxRaw of the {@code i}-th {@code txs[]} entry of a msgs answer (a {@code cosmos_tx}), signed by its signer. */
    public static byte[] txRaw(JsonObject msgsAnswer, int i, DevnetWallet wallet, String feeDenom) {
        JsonObject cosmos = msgsAnswer.getJsonArray("txs").getJsonObject(i).getJsonObject("cosmos_tx");
        List<CosmosTx.Any> anys = new ArrayList<>();
        for (Object o : cosmos.getJsonArray("msgs")) {
            JsonObject m = (JsonObject) o;
            anys.add(any(m.getString("msg_type_url"), new JsonObject(m.getString("msg"))));
        }
        return wallet.sign(cosmos.getString("chain_id"), cosmos.getString("signer_address"), anys, feeDenom);
    }

    /**
     * A TxRaw with a key but no valid signature, for txs a chain refuses before its ante handler checks signatures
     * (an unknown message type, a message the chain has no module for).
     */
    public static byte[] unsigned(List<CosmosTx.Any> anys, String feeDenom) {
        List<CosmosTx.Coin> fee = feeDenom == null ? List.of() : List.of(new CosmosTx.Coin(feeDenom, "3000"));
        byte[] pub = AccountAddress.compressedPublicKey(BigInteger.valueOf(0xC0FFEE));
        return new CosmosTx(
                        anys,
                        "",
                        0,
                        List.of(new CosmosTx.SignerInfo("/initia.crypto.v1beta1.ethsecp256k1.PubKey", pub, 0)),
                        new CosmosTx.Fee(fee, 200_000, "", ""),
                        List.of(new byte[64]))
                .encode();
    }

    public static CosmosTx.Any any(String typeUrl, JsonObject msg) {
        return new CosmosTx.Any(
                typeUrl,
                switch (typeUrl) {
                    case "/ibc.applications.transfer.v1.MsgTransfer" -> transfer(msg);
                    case "/opinit.ophost.v1.MsgInitiateTokenDeposit" -> deposit(msg);
                    case "/opinit.opchild.v1.MsgInitiateTokenWithdrawal" -> withdrawal(msg);
                    case "/initia.move.v1.MsgExecute" -> execute(msg);
                    default -> throw new IllegalArgumentException("no test encoding for " + typeUrl);
                });
    }

    static byte[] transfer(JsonObject m) {
        JsonObject h = m.getJsonObject("timeout_height", new JsonObject());
        return new ProtoWriter()
                .string(1, m.getString("source_port"))
                .string(2, m.getString("source_channel"))
                .message(3, coin(m.getJsonObject("token")))
                .string(4, m.getString("sender"))
                .string(5, m.getString("receiver"))
                .message(
                        6,
                        new ProtoWriter()
                                .varint(1, u64(h.getValue("revision_number", "0")))
                                .varint(2, u64(h.getValue("revision_height", "0"))))
                .varint(7, u64(m.getValue("timeout_timestamp", "0")))
                .string(8, m.getString("memo", ""))
                .toByteArray();
    }

    static byte[] deposit(JsonObject m) {
        return new ProtoWriter()
                .string(1, m.getString("sender"))
                .varint(2, u64(m.getValue("bridge_id")))
                .string(3, m.getString("to"))
                .message(4, coin(m.getJsonObject("amount")))
                .bytes(5, Base64.getDecoder().decode(m.getString("data", "")))
                .toByteArray();
    }

    static byte[] withdrawal(JsonObject m) {
        return new ProtoWriter()
                .string(1, m.getString("sender"))
                .string(2, m.getString("to"))
                .message(3, coin(m.getJsonObject("amount")))
                .toByteArray();
    }

    static byte[] execute(JsonObject m) {
        ProtoWriter w = new ProtoWriter()
                .string(1, m.getString("sender"))
                .string(2, m.getString("module_address"))
                .string(3, m.getString("module_name"))
                .string(4, m.getString("function_name"));
        for (Object t : m.getJsonArray("type_args"))
            w.bytesAlways(5, String.valueOf(t).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        for (Object a : m.getJsonArray("args"))
            w.bytesAlways(6, Base64.getDecoder().decode(String.valueOf(a)));
        return w.toByteArray();
    }

    private static ProtoWriter coin(JsonObject c) {
        return new ProtoWriter().string(1, c.getString("denom")).string(2, c.getString("amount"));
    }

    private static long u64(Object v) {
        return new BigInteger(String.valueOf(v)).longValue();
    }

    /** A MsgTransfer as {@code /v2/fungible/msgs} writes it (for tests that need no route). */
    public static JsonObject transferJson(
            String channel,
            String denom,
            String amount,
            String sender,
            String receiver,
            long timeoutNanos,
            String memo) {
        return new JsonObject()
                .put("source_port", "transfer")
                .put("source_channel", channel)
                .put("token", new JsonObject().put("denom", denom).put("amount", amount))
                .put("sender", sender)
                .put("receiver", receiver)
                .put(
                        "timeout_height",
                        new JsonObject().put("revision_number", "0").put("revision_height", "0"))
                .put("timeout_timestamp", timeoutNanos)
                .put("memo", memo);
    }

    public static String base64(byte[] raw) {
        return Base64.getEncoder().encodeToString(raw);
    }
}
