package dev.weft.chain.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One receipt of {@code eth_getBlockReceipts} as ingestion reads it, without building a tree: its span of the node's
 * answer and, when the span is byte for byte the stored EVM tx record ({@code verbatim}), the fields ingestion takes
 * from it. The record keeps {@link #FIELDS} in that order and, in each log, {@link #LOG_FIELDS}: go-ethereum's
 * receipt (its keys sorted) and log encodings, so a receipt from such a node, compact, is stored as it came. Any other
 * receipt (another field or order, a contract creation's {@code "to": null}, a number, whitespace, an escape) is read
 * as a tree ({@link #tree}) and written again.
 *
 * @param logs each log's address and topics (only filled for a verbatim receipt)
 */
public record BlockReceipt(
        byte[] source,
        int start,
        int end,
        boolean verbatim,
        String blockNumber,
        String transactionHash,
        String transactionIndex,
        String from,
        String to,
        String contractAddress,
        List<Log> logs) {
    /** The receipt fields the stored record keeps, in its order (rollytics', which is go-ethereum's sorted keys). */
    public static final List<String> FIELDS = List.of(
            "blockHash",
            "blockNumber",
            "contractAddress",
            "cumulativeGasUsed",
            "effectiveGasPrice",
            "from",
            "gasUsed",
            "logs",
            "logsBloom",
            "status",
            "to",
            "transactionHash",
            "transactionIndex",
            "type");
    /** The log fields the stored record keeps, in its order (go-ethereum's log encoding). */
    public static final List<String> LOG_FIELDS = List.of(
            "address",
            "topics",
            "data",
            "blockNumber",
            "transactionHash",
            "transactionIndex",
            "blockHash",
            "logIndex",
            "removed");

    public record Log(String address, List<String> topics) {}

    /** The receipt as a tree (the receipts that are not verbatim, and tests). */
    public JsonNode tree() {
        try {
            return NodeJson.MAPPER.readTree(source, start, end - start);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads the receipts of a {@code result} array; the parser is on its START_ARRAY and reads {@code source} from its first byte. */
    public static List<BlockReceipt> readAll(JsonParser p, byte[] source) throws IOException {
        List<BlockReceipt> out = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.START_OBJECT) out.add(read(p, source));
        if (t != JsonToken.END_ARRAY) throw new IllegalArgumentException("a receipt is not an object");
        return out;
    }

    private static BlockReceipt read(JsonParser p, byte[] source) throws IOException {
        int start = (int) p.currentTokenLocation().getByteOffset();
        boolean verbatim = start >= 0;
        String blockNumber = null;
        String hash = null;
        String index = null;
        String from = null;
        String to = null;
        String contract = null;
        List<Log> logs = new ArrayList<>();
        int field = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (field >= FIELDS.size() || !FIELDS.get(field).equals(f)) verbatim = false;
            field++;
            if (f.equals("logs")) {
                if (t == JsonToken.START_ARRAY) {
                    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                        Log log = t == JsonToken.START_OBJECT ? log(p) : null;
                        if (log != null) {
                            logs.add(log);
                        } else {
                            verbatim = false;
                            p.skipChildren();
                        }
                    }
                } else {
                    verbatim = false;
                    p.skipChildren();
                }
                continue;
            }
            if (t != JsonToken.VALUE_STRING) {
                // null is written back as null, except a creation's "to" (written ""); anything else is read as a tree
                if (t != JsonToken.VALUE_NULL || f.equals("to")) verbatim = false;
                p.skipChildren();
                continue;
            }
            switch (f) {
                case "blockNumber" -> blockNumber = p.getText();
                case "transactionHash" -> hash = p.getText();
                case "transactionIndex" -> index = p.getText();
                case "from" -> from = p.getText();
                case "to" -> to = p.getText();
                case "contractAddress" -> contract = p.getText();
                default -> {}
            }
        }
        int end = (int) p.currentTokenLocation().getByteOffset() + 1;
        verbatim = verbatim && field == FIELDS.size() && PlainJson.plain(source, start, end, '{', '}');
        return verbatim
                ? new BlockReceipt(
                        source, start, end, true, blockNumber, hash, index, from, to, contract, List.copyOf(logs))
                : new BlockReceipt(source, start, end, false, null, null, null, null, null, null, List.of());
    }

    /** One log, the parser on its START_OBJECT; null when it is not exactly the stored log (the receipt is then read as a tree). */
    private static Log log(JsonParser p) throws IOException {
        boolean ok = true;
        String address = null;
        List<String> topics = new ArrayList<>(4);
        int field = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (field >= LOG_FIELDS.size() || !LOG_FIELDS.get(field).equals(f)) ok = false;
            field++;
            if (f.equals("topics") && t == JsonToken.START_ARRAY) {
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == JsonToken.VALUE_STRING) {
                        topics.add(p.getText());
                    } else {
                        ok = false;
                        p.skipChildren();
                    }
                }
            } else if (f.equals("removed")) {
                if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) ok = false;
                p.skipChildren();
            } else if (t == JsonToken.VALUE_STRING) {
                if (f.equals("address")) address = p.getText();
            } else {
                // "topics": null is written []; any other value that is not a string is read as a tree
                if (t != JsonToken.VALUE_NULL || f.equals("topics")) ok = false;
                p.skipChildren();
            }
        }
        return ok && field == LOG_FIELDS.size() ? new Log(address, List.copyOf(topics)) : null;
    }
}
