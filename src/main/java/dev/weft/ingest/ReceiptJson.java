package dev.weft.ingest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.model.BlockReceipt;
import dev.weft.model.ingest.JsonOut;
import java.io.IOException;

/**
 * The EVM tx record of the API: the receipt fields rollytics keeps, in its order; every other
 * receipt field ({@code blockTimestamp}, {@code blobGasPrice}…) is dropped. Values are the node's own strings, except
 * a contract creation's {@code "to": null}, answered as {@code ""} like rollytics (its {@code EvmTx.To} is a Go string;
 * Celatone's schema rejects null). A receipt already in that form is stored as it came ({@link BlockReceipt}).
 */
final class ReceiptJson {
    private ReceiptJson() {}

    static byte[] render(JsonNode receipt) {
        return JsonOut.render(g -> {
            g.writeStartObject();
            for (String f : BlockReceipt.FIELDS) {
                g.writeFieldName(f);
                JsonNode v = receipt.get(f);
                if (f.equals("logs")) logs(g, v);
                else if (f.equals("to") && (v == null || v.isNull())) g.writeString(""); // a contract creation
                else JsonOut.tree(g, v);
            }
            g.writeEndObject();
        });
    }

    private static void logs(JsonGenerator g, JsonNode logs) throws IOException {
        g.writeStartArray();
        if (logs != null && logs.isArray()) {
            for (JsonNode l : logs) {
                g.writeStartObject();
                for (String f : BlockReceipt.LOG_FIELDS) {
                    g.writeFieldName(f);
                    JsonNode v = l.get(f);
                    if (f.equals("removed")) g.writeBoolean(v != null && v.asBoolean(false));
                    else if (f.equals("topics") && (v == null || v.isNull())) {
                        g.writeStartArray();
                        g.writeEndArray();
                    } else JsonOut.tree(g, v);
                }
                g.writeEndObject();
            }
        }
        g.writeEndArray();
    }
}
