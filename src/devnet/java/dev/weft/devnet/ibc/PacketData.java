package dev.weft.devnet.ibc;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;

/**
 * ICS-20 {@code FungibleTokenPacketData}: the denom as its full trace path, the amount, sender, receiver and memo.
 * Serialised as ibc-go does: proto JSON with every field (an empty memo too) and sorted keys.
 */
public record PacketData(String denom, String amount, String sender, String receiver, String memo) {

    public byte[] bytes() {
        JsonObject o = new JsonObject()
                .put("amount", amount)
                .put("denom", denom)
                .put("memo", memo)
                .put("receiver", receiver)
                .put("sender", sender);
        return o.encode().getBytes(StandardCharsets.UTF_8);
    }

    /** Parses packet data; throws IllegalArgumentException when it is not ICS-20 JSON. */
    public static PacketData parse(byte[] data) {
        JsonObject o;
        try {
            o = new JsonObject(new String(data, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("cannot unmarshal ICS-20 transfer packet data");
        }
        String denom = o.getString("denom", "");
        String amount = o.getString("amount", "");
        if (denom.isEmpty() || !amount.matches("\\d{1,78}"))
            throw new IllegalArgumentException("invalid ICS-20 transfer packet data");
        return new PacketData(
                denom, amount, o.getString("sender", ""), o.getString("receiver", ""), o.getString("memo", ""));
    }
}
