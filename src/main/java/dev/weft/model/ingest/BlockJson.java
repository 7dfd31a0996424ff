package dev.weft.model.ingest;

import dev.weft.chain.CosmosTx;
import dev.weft.chain.Hex;
import dev.weft.chain.model.Rfc3339;

/**
 * The block record of the API (as rollytics' api/handler/block/types.go in initia-labs/rollytics serves it): int64 values as strings, upper-case hex hash, RFC 3339
 * timestamp in whole seconds, {@code total_fee} {@code []} when empty, and the proposer resolved at ingest.
 */
public final class BlockJson {
    private BlockJson() {}

    public static byte[] render(IndexedBlock b, long blockTimeMs) {
        return JsonOut.render(g -> {
            g.writeStartObject();
            JsonOut.string(g, "chain_id", b.chainId());
            g.writeStringField("height", Long.toString(b.height()));
            g.writeStringField("hash", Hex.upper(b.hash()));
            g.writeStringField("block_time", Long.toString(blockTimeMs));
            g.writeStringField("timestamp", Rfc3339.seconds(b.timeNs()));
            g.writeStringField("gas_used", Long.toString(b.gasUsed()));
            g.writeStringField("gas_wanted", Long.toString(b.gasWanted()));
            g.writeStringField("tx_count", Integer.toString(b.txCount()));
            g.writeFieldName("total_fee");
            coins(g, b.totalFee());
            g.writeObjectFieldStart("proposer");
            JsonOut.string(g, "moniker", b.proposer().moniker());
            JsonOut.string(g, "identity", b.proposer().identity());
            JsonOut.string(g, "operator_address", b.proposer().operatorAddress());
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    /** The fee sum as stored in {@code block.total_fee} (jsonb). */
    public static String totalFee(IndexedBlock b) {
        return new String(JsonOut.render(g -> coins(g, b.totalFee())), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void coins(com.fasterxml.jackson.core.JsonGenerator g, java.util.List<CosmosTx.Coin> coins)
            throws java.io.IOException {
        g.writeStartArray();
        for (CosmosTx.Coin c : coins) {
            g.writeStartObject();
            JsonOut.string(g, "denom", c.denom());
            g.writeStringField("amount", c.amount());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** Milliseconds since the previous block, truncated like Go's {@code Duration.Milliseconds()}; 0 without one. */
    public static long blockTimeMs(long timeNs, Long previousTimeNs) {
        if (previousTimeNs == null) return 0;
        return (timeNs - previousTimeNs) / 1_000_000L;
    }
}
