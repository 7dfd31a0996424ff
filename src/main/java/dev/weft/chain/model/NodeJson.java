package dev.weft.chain.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Jackson for node answers: one shared mapper, lenient tree access (missing and null read the same). */
public final class NodeJson {
    public static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(512 * 1024 * 1024)
                    .build())
            .build();
    public static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

    private NodeJson() {}

    public static JsonNode parse(Buffer b) {
        return parse(bytes(b));
    }

    /**
     * The bytes of a buffer, without a copy when it is exactly one heap array (how the node clients fill answers whose
     * size the server announced).
     */
    public static byte[] bytes(Buffer b) {
        var bb = ((io.vertx.core.internal.buffer.BufferInternal) b).getByteBuf();
        if (bb.hasArray() && bb.arrayOffset() == 0 && bb.readerIndex() == 0 && bb.writerIndex() == bb.array().length)
            return bb.array();
        return b.getBytes();
    }

    public static JsonNode parse(byte[] b) {
        try {
            return MAPPER.readTree(b);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + e.getMessage(), e);
        }
    }

    /** The text of a field (numbers rendered as text), or {@code def} when missing or null. */
    public static String text(JsonNode n, String field, String def) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() ? def : v.asText();
    }

    /** A 64-bit integer CometBFT renders as a string (or a number, leniently); {@code def} when missing. */
    public static long longValue(JsonNode n, String field, long def) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) return def;
        if (v.isNumber()) return v.asLong();
        String s = v.asText().trim();
        if (s.isEmpty()) return def;
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " is not an integer: " + s);
        }
    }

    /** A required 64-bit integer field. */
    public static long requiredLong(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) throw new IllegalArgumentException("missing " + field);
        return longValue(n, field, 0);
    }

    /** An array field; null and missing read as an empty array (CometBFT renders nil slices as null). */
    public static Iterable<JsonNode> array(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) return java.util.List.of();
        if (!v.isArray()) throw new IllegalArgumentException(field + " is not an array");
        return v;
    }

    public static int size(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || !v.isArray() ? 0 : v.size();
    }

    /** Parses a hex quantity of JSON-RPC ({@code "0x1a"}) or a decimal string. */
    public static long quantity(String s) {
        if (s == null || s.isEmpty()) throw new IllegalArgumentException("empty quantity");
        if (s.startsWith("0x") || s.startsWith("0X"))
            return s.length() == 2 ? 0 : Long.parseUnsignedLong(s.substring(2), 16);
        return Long.parseLong(s);
    }
}
