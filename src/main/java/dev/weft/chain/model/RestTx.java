package dev.weft.chain.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One decoded tx of a REST {@code GetBlockWithTxs} page, kept as the byte span of the node's own JSON (so it can be
 * stored as is, without building and re-writing a tree) plus what identifies it: its signatures and message types.
 *
 * @param needsRewrite the span cannot be copied verbatim: it has a top-level {@code @type} or a NUL character
 */
public record RestTx(
        byte[] source, int start, int end, List<String> signatures, List<String> msgTypes, boolean needsRewrite) {

    /** A page: its txs, and the node's {@code pagination.total} (-1 when absent) and {@code next_key}. */
    public record Page(List<RestTx> txs, long total, String nextKey) {}

    public int length() {
        return end - start;
    }

    /** The tx as a tree (for the rare txs that need rewriting, and for tests). */
    public JsonNode tree() {
        try {
            return NodeJson.MAPPER.readTree(source, start, end - start);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Scans a {@code GetBlockWithTxs} answer. */
    public static Page scanPage(byte[] json) {
        List<RestTx> txs = new ArrayList<>();
        long total = -1;
        String nextKey = null;
        try (JsonParser p = NodeJson.FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new IllegalArgumentException("not a JSON object");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken t = p.nextToken();
                if (f.equals("txs") && t == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.START_OBJECT) txs.add(tx(p, json));
                } else if (f.equals("pagination") && t == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String pf = p.currentName();
                        JsonToken pt = p.nextToken();
                        if (pf.equals("total") && pt != JsonToken.VALUE_NULL)
                            total = Long.parseLong(p.getValueAsString("-1"));
                        else if (pf.equals("next_key") && pt != JsonToken.VALUE_NULL) nextKey = p.getValueAsString();
                        else p.skipChildren();
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + e.getMessage(), e);
        }
        return new Page(txs, total, nextKey);
    }

    private static RestTx tx(JsonParser p, byte[] src) throws IOException {
        int start = (int) p.currentTokenLocation().getByteOffset();
        List<String> sigs = new ArrayList<>(1);
        List<String> types = new ArrayList<>(2);
        boolean rewrite = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            switch (f) {
                case "@type" -> rewrite = true;
                case "signatures" -> {
                    if (t == JsonToken.START_ARRAY) while (p.nextToken() != JsonToken.END_ARRAY) sigs.add(p.getText());
                }
                case "body" -> {
                    if (t != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        break;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String bf = p.currentName();
                        JsonToken bt = p.nextToken();
                        if (bf.equals("messages") && bt == JsonToken.START_ARRAY) {
                            while (p.nextToken() == JsonToken.START_OBJECT) {
                                while (p.nextToken() == JsonToken.FIELD_NAME) {
                                    String mf = p.currentName();
                                    p.nextToken();
                                    if (mf.equals("@type")) types.add(p.getText());
                                    else p.skipChildren();
                                }
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
        int end = (int) p.currentTokenLocation().getByteOffset() + 1;
        return new RestTx(src, start, end, sigs, types, rewrite || hasNulEscape(src, start, end));
    }

    /** Whether the span holds {@code \u0000} (a rare false positive, an escaped backslash before "u0000", only costs a rewrite). */
    static boolean hasNulEscape(byte[] b, int from, int to) {
        for (int i = from; i + 5 < to; i++) {
            if (b[i] == '\\'
                    && b[i + 1] == 'u'
                    && b[i + 2] == '0'
                    && b[i + 3] == '0'
                    && b[i + 4] == '0'
                    && b[i + 5] == '0') return true;
        }
        return false;
    }
}
