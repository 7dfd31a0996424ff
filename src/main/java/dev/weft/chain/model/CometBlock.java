package dev.weft.chain.model;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.Hex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What ingestion needs from CometBFT {@code /block}: header facts and the raw txs.
 *
 * @param timeNs block time as nanoseconds since the epoch (exact, unlike PostgreSQL's microseconds)
 * @param txs    raw tx bytes in block order
 */
public record CometBlock(
        long height, String chainId, byte[] hash, long timeNs, byte[] proposerAddress, List<byte[]> txs) {

    /** Reads the {@code result} object of {@code /block} from a streaming parser on its START_OBJECT. */
    public static CometBlock read(JsonParser p) throws IOException {
        String blockId = "";
        Long height = null;
        String chainId = "";
        String time = "";
        String proposer = "";
        List<byte[]> txs = new ArrayList<>();
        Base64.Decoder b64 = Base64.getDecoder();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (f.equals("block_id") && t == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String g = p.currentName();
                    p.nextToken();
                    if (g.equals("hash")) blockId = p.getValueAsString("");
                    else p.skipChildren();
                }
            } else if (f.equals("block") && t == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String g = p.currentName();
                    JsonToken v = p.nextToken();
                    if (g.equals("header") && v == JsonToken.START_OBJECT) {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String h = p.currentName();
                            p.nextToken();
                            switch (h) {
                                case "height" ->
                                    height = Long.parseLong(
                                            p.getValueAsString("").trim());
                                case "chain_id" -> chainId = p.getValueAsString("");
                                case "time" -> time = p.getValueAsString("");
                                case "proposer_address" -> proposer = p.getValueAsString("");
                                default -> p.skipChildren();
                            }
                        }
                    } else if (g.equals("data") && v == JsonToken.START_OBJECT) {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String d = p.currentName();
                            JsonToken dv = p.nextToken();
                            if (d.equals("txs") && dv == JsonToken.START_ARRAY) {
                                while (p.nextToken() == JsonToken.VALUE_STRING)
                                    txs.add(p.getBinaryValue(Base64Variants.MIME_NO_LINEFEEDS));
                            } else {
                                p.skipChildren();
                            }
                        }
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
        if (height == null) throw new IllegalArgumentException("block without header height");
        return new CometBlock(
                height,
                chainId,
                Hex.decode(blockId),
                Rfc3339.parseNanos(time),
                proposer.isEmpty() ? new byte[0] : Hex.decode(proposer),
                txs);
    }

    /** Parses the {@code result} object of {@code /block} from a tree. */
    public static CometBlock parse(JsonNode result) {
        try (JsonParser p = NodeJson.MAPPER.treeAsTokens(result)) {
            p.nextToken();
            return read(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
