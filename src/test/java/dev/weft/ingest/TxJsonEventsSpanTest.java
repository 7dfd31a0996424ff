package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.weft.chain.model.BlockResults;
import dev.weft.chain.model.RestTx;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Events copied from the node's bytes into the stored tx record: the copy is taken only where it is byte for byte what
 * writing the parsed events gives, over events written every way a node may write them.
 */
class TxJsonEventsSpanTest {
    private static final RestTx TX = Nodes.restTx(new JsonObject().put("body", new JsonObject()));
    /** Characters event strings are drawn from: plain ones, and every kind the two encodings treat differently. */
    private static final String[] PIECES = {
        "a",
        "Z",
        "0",
        "9",
        "init1",
        "0x",
        ":",
        "/",
        "{",
        "}",
        "[",
        "]",
        ",",
        " ",
        "\"",
        "\\",
        "\n",
        "\t",
        "\r",
        "\b",
        "\f",
        "\u0001",
        "\u001f",
        "\u0000",
        "<",
        ">",
        "&",
        "é",
        "\u2028",
        "\uD83D\uDE00",
        "\u007f"
    };

    @Test
    @DisplayName(
            "events copied from the node's bytes are exactly the events written again; the copy is taken for compact Go-style events")
    void copyEqualsRendering() {
        Random rnd = new Random(17);
        int copied = 0;
        int written = 0;
        for (int n = 0; n < 3_000; n++) {
            boolean go = rnd.nextBoolean();
            boolean spaced = rnd.nextInt(10) == 0;
            String events = events(rnd, go, spaced);
            byte[] result = ("{\"height\":\"7\",\"txs_results\":[{\"code\":0,\"data\":\"\",\"events\":" + events
                            + ",\"codespace\":\"\"}]}")
                    .getBytes(StandardCharsets.UTF_8);
            BlockResults.TxResult r = Nodes.txResult(result);
            BlockResults.TxResult rewritten = new BlockResults.TxResult(
                    r.code(), r.codespace(), r.data(), r.log(), r.info(), r.gasWanted(), r.gasUsed(), r.events(), null);
            byte[] expected = TxJson.render("AB", 7, rewritten, TX, "t");
            assertArrayEquals(expected, TxJson.render("AB", 7, r, TX, "t"), events);
            if (r.eventsJson() != null) {
                copied++;
                assertEquals(
                        events,
                        new String(
                                r.eventsJson().source(),
                                r.eventsJson().start(),
                                r.eventsJson().end() - r.eventsJson().start(),
                                StandardCharsets.UTF_8));
            } else {
                written++;
            }
        }
        // both paths taken often: the copy for the plain compact events most nodes send, writing for the rest
        assertTrue(copied > 300, "copied " + copied);
        assertTrue(written > 300, "written " + written);
    }

    @Test
    @DisplayName("the events of a CometBFT answer are copied: compact, every value present, true indexes only")
    void cometEventsCopied() {
        String events =
                "[{\"type\":\"coin_spent\",\"attributes\":[{\"key\":\"spender\",\"value\":\"init1q\",\"index\":true},"
                        + "{\"key\":\"amount\",\"value\":\"5uinit\",\"index\":true}]},{\"type\":\"evm\",\"attributes\":[{\"key\":\"log\","
                        + "\"value\":\"{\\\"address\\\":\\\"0x01\\\",\\\"topics\\\":[]}\",\"index\":true}]},{\"type\":\"message\",\"attributes\":[{\"key\":\"m\",\"value\":\"\"}]}]";
        byte[] result =
                ("{\"height\":\"1\",\"txs_results\":[{\"events\":" + events + "}]}").getBytes(StandardCharsets.UTF_8);
        BlockResults.TxResult r = Nodes.txResult(result);
        assertNotNull(r.eventsJson());
        String out = new String(TxJson.render("AB", 1, r, TX, "t"), StandardCharsets.UTF_8);
        assertTrue(out.endsWith(",\"events\":" + events + "}"), out);
        assertEquals(
                "{\"address\":\"0x01\",\"topics\":[]}",
                r.events().get(1).attributes().get(0).value());
    }

    @Test
    @DisplayName(
            "events written again: a dropped empty value, a false index, a \\u escape, whitespace, another field order, empty parts")
    void eventsWrittenAgain() {
        String[] refused = {
            "[{\"type\":\"tx\",\"attributes\":[{\"key\":\"fee\",\"index\":true}]}]",
            "[{\"type\":\"tx\",\"attributes\":[{\"key\":\"k\",\"value\":\"v\",\"index\":false}]}]",
            "[{\"type\":\"tx\",\"attributes\":[{\"key\":\"k\",\"value\":\"a\\u003cb\",\"index\":true}]}]",
            "[{\"type\":\"tx\",\"attributes\":[{\"key\":\"k\",\"value\":\"a\\/b\"}]}]",
            "[ {\"type\":\"tx\",\"attributes\":[{\"key\":\"k\",\"value\":\"v\"}]}]",
            "[{\"type\":\"tx\",\"attributes\":[{\"key\":\"k\",\"value\":\"a b\"}]}]",
            "[{\"attributes\":[{\"key\":\"k\",\"value\":\"v\"}],\"type\":\"tx\"}]",
            "[{\"type\":\"tx\",\"attributes\":[{\"value\":\"v\",\"key\":\"k\"}]}]",
            "[{\"type\":\"tx\",\"attributes\":[{\"key\":\"k\",\"index\":true,\"value\":\"v\"}]}]",
            "[{\"type\":\"tx\",\"attributes\":[]}]",
            "[{\"type\":\"tx\",\"attributes\":null}]",
            "[{\"type\":\"\",\"attributes\":[{\"key\":\"k\",\"value\":\"v\"}]}]",
            "[{\"type\":\"tx\",\"attributes\":[{\"key\":\"\",\"value\":\"v\"}]}]",
            "[{\"type\":\"tx\",\"attributes\":[{\"key\":\"k\",\"value\":null}]}]",
            "[{\"type\":\"tx\",\"attributes\":[{\"key\":\"k\",\"value\":\"v\",\"extra\":1}]}]",
            "[{\"type\":\"tx\",\"other\":\"x\"}]",
        };
        for (String events : refused) {
            byte[] result = ("{\"height\":\"1\",\"txs_results\":[{\"events\":" + events + "}]}")
                    .getBytes(StandardCharsets.UTF_8);
            assertNull(Nodes.txResult(result).eventsJson(), events);
        }
        // null events are written as []; an empty array is copied as it is
        assertNull(Nodes.txResult(
                        "{\"height\":\"1\",\"txs_results\":[{\"events\":null}]}".getBytes(StandardCharsets.UTF_8))
                .eventsJson());
        assertNotNull(
                Nodes.txResult("{\"height\":\"1\",\"txs_results\":[{\"events\":[]}]}".getBytes(StandardCharsets.UTF_8))
                        .eventsJson());
    }

    /** One tx's events array, written the way Go does ({@code go}) or the way Jackson does, compact unless {@code spaced}. */
    private static String events(Random rnd, boolean go, boolean spaced) {
        String colon = spaced ? ": " : ":";
        String comma = spaced ? ", " : ",";
        StringBuilder b = new StringBuilder("[");
        int events = rnd.nextInt(4);
        for (int e = 0; e < events; e++) {
            if (e > 0) b.append(comma);
            b.append('{');
            String type = rnd.nextInt(10) == 0 ? "" : string(rnd);
            boolean fields = false;
            boolean attributesFirst = rnd.nextInt(20) == 0;
            int attrs = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(4);
            boolean writeAttributes = attrs > 0 || !go;
            if (!attributesFirst && (!type.isEmpty() || !go)) {
                b.append("\"type\"").append(colon).append(quote(type, go));
                fields = true;
            }
            if (writeAttributes) {
                if (fields) b.append(comma);
                b.append("\"attributes\"").append(colon).append('[');
                for (int a = 0; a < attrs; a++) {
                    if (a > 0) b.append(comma);
                    attribute(b, rnd, go, colon, comma);
                }
                b.append(']');
                fields = true;
            }
            if (attributesFirst && (!type.isEmpty() || !go)) {
                if (fields) b.append(comma);
                b.append("\"type\"").append(colon).append(quote(type, go));
            }
            b.append('}');
        }
        return b.append(']').toString();
    }

    private static void attribute(StringBuilder b, Random rnd, boolean go, String colon, String comma) {
        String key = rnd.nextInt(10) == 0 ? "" : string(rnd);
        String value = rnd.nextInt(10) == 0 ? "" : string(rnd);
        boolean index = rnd.nextInt(5) > 0;
        b.append('{');
        boolean fields = false;
        // Go omits empty strings and a false index; a Jackson-written node writes every field
        if (!key.isEmpty() || !go) {
            b.append("\"key\"").append(colon).append(quote(key, go));
            fields = true;
        }
        if (!value.isEmpty() || !go) {
            if (fields) b.append(comma);
            b.append("\"value\"").append(colon).append(quote(value, go));
            fields = true;
        }
        if (index || !go) {
            if (fields) b.append(comma);
            b.append("\"index\"").append(colon).append(index);
        }
        b.append('}');
    }

    /** A string: plain most of the time, else with characters the two encodings escape differently. */
    private static String string(Random rnd) {
        StringBuilder s = new StringBuilder();
        int n = 1 + rnd.nextInt(12);
        boolean plain = rnd.nextInt(4) > 0;
        for (int i = 0; i < n; i++) s.append(PIECES[rnd.nextInt(plain ? 6 : PIECES.length)]);
        return s.toString();
    }

    /** A JSON string as Go's encoding/json writes it, or as Jackson does. */
    private static String quote(String s, boolean go) {
        if (!go) return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029')
                        b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }
}
