package dev.weft.route.msgs;

import dev.weft.chain.CosmosTx;
import dev.weft.chain.proto.ProtoWriter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The protobuf {@code Any} of the messages {@link CosmosMsgs} writes as JSON, for simulating a tx on its chain's node.
 * Field numbers from the protos: ibc-go {@code MsgTransfer} (source_port 1, source_channel 2, token 3, sender 4,
 * receiver 5, timeout_height 6, timeout_timestamp 7, memo 8), OPinit {@code MsgInitiateTokenDeposit} (sender 1,
 * bridge_id 2, to 3, amount 4, data 5) and {@code MsgInitiateTokenWithdrawal} (sender 1, to 2, amount 3), Initia's
 * {@code MsgExecute} (sender 1, module_address 2, module_name 3, function_name 4, type_args 5, args 6), bank
 * {@code MsgSend} (from_address 1, to_address 2, amount 3); a Coin is denom 1, amount 2.
 */
public final class MsgProto {
    private MsgProto() {}

    /** The Any of a {@code {msg_type_url, msg}} entry of a {@code cosmos_tx}; IllegalArgumentException for another type. */
    public static CosmosTx.Any any(String typeUrl, JsonObject m) {
        byte[] value = switch (typeUrl) {
            case CosmosMsgs.TRANSFER -> transfer(m);
            case CosmosMsgs.DEPOSIT ->
                new ProtoWriter()
                        .string(1, m.getString("sender"))
                        .varint(2, u64(m.getValue("bridge_id")))
                        .string(3, m.getString("to"))
                        .message(4, coin(m.getJsonObject("amount")))
                        .bytes(5, Base64.getDecoder().decode(m.getString("data", "")))
                        .toByteArray();
            case CosmosMsgs.WITHDRAWAL ->
                new ProtoWriter()
                        .string(1, m.getString("sender"))
                        .string(2, m.getString("to"))
                        .message(3, coin(m.getJsonObject("amount")))
                        .toByteArray();
            case CosmosMsgs.EXECUTE -> execute(m);
            case CosmosMsgs.SEND -> {
                ProtoWriter w =
                        new ProtoWriter().string(1, m.getString("from_address")).string(2, m.getString("to_address"));
                for (Object c : m.getJsonArray("amount")) w.message(3, coin((JsonObject) c));
                yield w.toByteArray();
            }
            default -> throw new IllegalArgumentException("no proto encoding for " + typeUrl);
        };
        return new CosmosTx.Any(typeUrl, value);
    }

    private static byte[] transfer(JsonObject m) {
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

    private static byte[] execute(JsonObject m) {
        ProtoWriter w = new ProtoWriter()
                .string(1, m.getString("sender"))
                .string(2, m.getString("module_address"))
                .string(3, m.getString("module_name"))
                .string(4, m.getString("function_name"));
        JsonArray types = m.getJsonArray("type_args", new JsonArray());
        for (Object t : types) w.bytesAlways(5, String.valueOf(t).getBytes(StandardCharsets.UTF_8));
        for (Object a : m.getJsonArray("args", new JsonArray()))
            w.bytesAlways(6, Base64.getDecoder().decode(String.valueOf(a)));
        return w.toByteArray();
    }

    private static ProtoWriter coin(JsonObject c) {
        return new ProtoWriter().string(1, c.getString("denom")).string(2, c.getString("amount"));
    }

    private static long u64(Object v) {
        return new BigInteger(String.valueOf(v)).longValue();
    }
}
