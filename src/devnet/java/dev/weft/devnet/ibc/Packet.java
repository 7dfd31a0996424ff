package dev.weft.devnet.ibc;

import dev.weft.chain.Hex;
import dev.weft.devnet.tx.MsgTypes;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * An ICS-04 packet: its sequence on the source channel, both ends, the ICS-20 data and the timeouts (height as
 * revision number and height, timestamp in nanoseconds; zero means none).
 */
public record Packet(
        long sequence,
        String sourcePort,
        String sourceChannel,
        String destinationPort,
        String destinationChannel,
        byte[] data,
        long timeoutRevisionNumber,
        long timeoutRevisionHeight,
        long timeoutTimestamp) {

    /** The packet of a proto-JSON {@code packet} field (as {@link MsgTypes#PACKET} decodes it). */
    public static Packet fromJson(JsonObject p) {
        JsonObject h = p.getJsonObject("timeout_height");
        return new Packet(
                Long.parseUnsignedLong(p.getString("sequence")),
                p.getString("source_port"),
                p.getString("source_channel"),
                p.getString("destination_port"),
                p.getString("destination_channel"),
                Base64.getDecoder().decode(p.getString("data")),
                Long.parseUnsignedLong(h.getString("revision_number")),
                Long.parseUnsignedLong(h.getString("revision_height")),
                Long.parseUnsignedLong(p.getString("timeout_timestamp")));
    }

    /** Proto JSON of the packet (what {@link MsgTypes#PACKET} encodes). */
    public JsonObject toJson() {
        return new JsonObject()
                .put("sequence", Long.toUnsignedString(sequence))
                .put("source_port", sourcePort)
                .put("source_channel", sourceChannel)
                .put("destination_port", destinationPort)
                .put("destination_channel", destinationChannel)
                .put("data", Base64.getEncoder().encodeToString(data))
                .put(
                        "timeout_height",
                        new JsonObject()
                                .put("revision_number", Long.toUnsignedString(timeoutRevisionNumber))
                                .put("revision_height", Long.toUnsignedString(timeoutRevisionHeight)))
                .put("timeout_timestamp", Long.toUnsignedString(timeoutTimestamp));
    }

    /** ibc-go's {@code Height.String()}: {@code revision-height}. */
    public String timeoutHeightText() {
        return Long.toUnsignedString(timeoutRevisionNumber) + "-" + Long.toUnsignedString(timeoutRevisionHeight);
    }

    public String dataText() {
        return new String(data, StandardCharsets.UTF_8);
    }

    public String dataHex() {
        return Hex.lower(data);
    }

    /** Whether a chain at that height and block time can no longer receive the packet. */
    public boolean timedOut(long height, long timeNanos) {
        return (timeoutTimestamp != 0 && Long.compareUnsigned(timeNanos, timeoutTimestamp) >= 0)
                || (timeoutRevisionHeight != 0 && height >= timeoutRevisionHeight);
    }

    /** Identity of the packet on its source chain: {@code port/channel/sequence}. */
    public String sourceKey() {
        return sourcePort + "/" + sourceChannel + "/" + sequence;
    }
}
