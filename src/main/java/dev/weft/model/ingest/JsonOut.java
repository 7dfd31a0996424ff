package dev.weft.model.ingest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.model.NodeJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;

/**
 * Writing node JSON back out: trees are copied field by field with NUL characters replaced by U+FFFD (PostgreSQL
 * rejects them in JSON, rollytics#114), so stored JSON is always valid for {@code ::jsonb} as well.
 */
public final class JsonOut {
    private JsonOut() {}

    public interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    public static byte[] render(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
        try (JsonGenerator g = NodeJson.FACTORY.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static String clean(String s) {
        return s.indexOf('\u0000') < 0 ? s : s.replace('\u0000', '\uFFFD');
    }

    public static void string(JsonGenerator g, String field, String value) throws IOException {
        g.writeFieldName(field);
        if (value == null) g.writeNull();
        else g.writeString(clean(value));
    }

    /** Copies a tree, skipping top-level fields named in {@code skip}. */
    public static void tree(JsonGenerator g, JsonNode n, String... skip) throws IOException {
        if (n == null || n.isMissingNode() || n.isNull()) {
            g.writeNull();
        } else if (n.isObject()) {
            g.writeStartObject();
            Iterator<Map.Entry<String, JsonNode>> it = n.fields();
            outer:
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                for (String s : skip) if (s.equals(e.getKey())) continue outer;
                g.writeFieldName(clean(e.getKey()));
                tree(g, e.getValue());
            }
            g.writeEndObject();
        } else if (n.isArray()) {
            g.writeStartArray();
            for (JsonNode c : n) tree(g, c);
            g.writeEndArray();
        } else if (n.isTextual()) {
            g.writeString(clean(n.textValue()));
        } else {
            g.writeTree(n);
        }
    }
}
