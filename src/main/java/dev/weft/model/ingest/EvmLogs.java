package dev.weft.model.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.chain.Hex;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The logs of a stored EVM receipt (the API's EVM tx record, whose {@code logs} keep go-ethereum's log fields), as the
 * rows of the indexed {@code evm_log} table: the emitting contract, up to four topics, and the log's JSON as the
 * receipt holds it. A log whose address or topics are not hex of the right length is left out (a node would never
 * send one; nothing could match it).
 */
public final class EvmLogs {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EvmLogs() {}

    /** One log: {@code topics} has 0 to 4 entries of 32 bytes; {@code json} is its object as the receipt holds it. */
    public record Log(byte[] address, List<byte[]> topics, byte[] json) {}

    public static List<Log> of(byte[] receiptJson) {
        JsonNode logs;
        try {
            logs = JSON.readTree(receiptJson).get("logs");
        } catch (IOException e) {
            return List.of();
        }
        if (logs == null || !logs.isArray() || logs.isEmpty()) return List.of();
        List<Log> out = new ArrayList<>(logs.size());
        for (JsonNode l : logs) {
            String address = l.path("address").asText("");
            if (!Hex.isHex(address, 20)) continue;
            List<byte[]> topics = new ArrayList<>(4);
            boolean ok = true;
            for (JsonNode t : l.path("topics")) {
                String s = t.asText("");
                if (!Hex.isHex(s, 32) || topics.size() == 4) {
                    ok = false;
                    break;
                }
                topics.add(Hex.decode(s));
            }
            if (!ok) continue;
            out.add(new Log(Hex.decode(address), topics, l.toString().getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }
}
