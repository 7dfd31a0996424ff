package dev.weft.chain.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * CometBFT 0.38 {@code /block_results}: one result per tx (events as light records, not JSON trees: they are most of
 * a block's bytes) and the block events. Parsed with a streaming parser, straight from the answer's bytes.
 */
public record BlockResults(long height, List<TxResult> txs, List<AbciEvent> finalizeBlockEvents) {

    /**
     * One {@code ExecTxResult}. {@code data} is base64 as on the wire; gas values are kept as the node's decimal text.
     *
     * @param eventsJson the node's own bytes of {@code events} when they are exactly what the stored tx record writes
     *                   for them (see {@link EventsSpan}), so they can be copied instead of written again; else null
     */
    public record TxResult(
            int code,
            String codespace,
            String data,
            String log,
            String info,
            String gasWanted,
            String gasUsed,
            List<AbciEvent> events,
            EventsSpan eventsJson) {
        public TxResult(
                int code,
                String codespace,
                String data,
                String log,
                String info,
                String gasWanted,
                String gasUsed,
                List<AbciEvent> events) {
            this(code, codespace, data, log, info, gasWanted, gasUsed, events, null);
        }

        public long gasWantedLong() {
            return parse(gasWanted);
        }

        public long gasUsedLong() {
            return parse(gasUsed);
        }

        private static long parse(String s) {
            return s == null || s.isEmpty() ? 0 : Long.parseLong(s);
        }
    }

    /** Reads a value from a parser positioned on the START_OBJECT of an answer's {@code result}. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(JsonParser p) throws IOException;
    }

    /**
     * Reads the {@code result} object; the parser is on its START_OBJECT and reads {@code source} from its first byte
     * (so the txs' events can keep their span of it).
     */
    public static BlockResults read(JsonParser p, byte[] source) throws IOException {
        return result(p, source);
    }

    /** Parses the {@code result} object (a tree already read, for callers that have one). */
    public static BlockResults parse(com.fasterxml.jackson.databind.JsonNode result) {
        try (JsonParser p = NodeJson.MAPPER.treeAsTokens(result)) {
            expect(p.nextToken(), JsonToken.START_OBJECT);
            return result(p, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static BlockResults result(JsonParser p, byte[] source) throws IOException {
        Long height = null;
        List<TxResult> txs = new ArrayList<>();
        List<AbciEvent> block = List.of();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            switch (f) {
                case "height" -> height = longOf(p, t, "height");
                case "txs_results" -> {
                    if (t == JsonToken.START_ARRAY)
                        while (p.nextToken() == JsonToken.START_OBJECT) txs.add(txResult(p, source));
                    else if (t != JsonToken.VALUE_NULL)
                        throw new IllegalArgumentException("txs_results is not an array");
                }
                case "finalize_block_events" -> block = events(p, t, new EventsSpan.Check());
                default -> p.skipChildren();
            }
        }
        if (height == null) throw new IllegalArgumentException("missing height");
        return new BlockResults(height, txs, block);
    }

    private static TxResult txResult(JsonParser p, byte[] source) throws IOException {
        int code = 0;
        String codespace = "";
        String data = "";
        String log = "";
        String info = "";
        String gasWanted = "0";
        String gasUsed = "0";
        List<AbciEvent> events = List.of();
        EventsSpan span = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            switch (f) {
                case "code" -> code = t == JsonToken.VALUE_NULL ? 0 : p.getValueAsInt();
                case "codespace" -> codespace = text(p, t);
                case "data" -> data = text(p, t);
                case "log" -> log = text(p, t);
                case "info" -> info = text(p, t);
                case "gas_wanted" -> gasWanted = t == JsonToken.VALUE_NULL ? "0" : p.getValueAsString();
                case "gas_used" -> gasUsed = t == JsonToken.VALUE_NULL ? "0" : p.getValueAsString();
                case "events" -> {
                    int start = (int) p.currentTokenLocation().getByteOffset();
                    EventsSpan.Check check = new EventsSpan.Check();
                    events = events(p, t, check);
                    span = source != null && t == JsonToken.START_ARRAY && start >= 0
                            ? check.span(
                                    source,
                                    start,
                                    (int) p.currentTokenLocation().getByteOffset() + 1)
                            : null;
                }
                default -> p.skipChildren();
            }
        }
        return new TxResult(code, codespace, data, log, info, gasWanted, gasUsed, events, span);
    }

    private static List<AbciEvent> events(JsonParser p, JsonToken t, EventsSpan.Check check) throws IOException {
        if (t == JsonToken.VALUE_NULL) return List.of();
        if (t != JsonToken.START_ARRAY) throw new IllegalArgumentException("events is not an array");
        List<AbciEvent> out = new ArrayList<>();
        while (p.nextToken() == JsonToken.START_OBJECT) {
            String type = "";
            List<AbciEvent.Attribute> attrs = new ArrayList<>();
            check.startEvent();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken v = p.nextToken();
                if (f.equals("type")) {
                    type = text(p, v);
                    check.type(v, type);
                } else if (f.equals("attributes") && v == JsonToken.START_ARRAY) {
                    check.attributes();
                    while (p.nextToken() == JsonToken.START_OBJECT) attrs.add(attribute(p, check));
                    check.endAttributes(attrs.size());
                } else {
                    check.fail();
                    p.skipChildren();
                }
            }
            out.add(new AbciEvent(type, attrs));
        }
        return out;
    }

    private static AbciEvent.Attribute attribute(JsonParser p, EventsSpan.Check check) throws IOException {
        String key = "";
        String value = "";
        boolean index = false;
        check.startAttribute();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken v = p.nextToken();
            switch (f) {
                case "key" -> {
                    key = text(p, v);
                    check.key(v, key);
                }
                case "value" -> {
                    value = text(p, v);
                    check.value(v);
                }
                case "index" -> {
                    index = v == JsonToken.VALUE_TRUE;
                    check.index(v);
                }
                default -> {
                    check.fail();
                    p.skipChildren();
                }
            }
        }
        check.endAttribute();
        return new AbciEvent.Attribute(key, value, index);
    }

    private static String text(JsonParser p, JsonToken t) throws IOException {
        return t == JsonToken.VALUE_NULL ? "" : p.getValueAsString("");
    }

    private static long longOf(JsonParser p, JsonToken t, String field) throws IOException {
        if (t == JsonToken.VALUE_NUMBER_INT) return p.getLongValue();
        try {
            return Long.parseLong(p.getValueAsString("").trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " is not an integer");
        }
    }

    private static void expect(JsonToken t, JsonToken want) {
        if (t != want) throw new IllegalArgumentException("expected " + want + " but found " + t);
    }
}
