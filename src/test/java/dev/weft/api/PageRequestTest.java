package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.BusError;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PageRequestTest {

    private static PageRequest parse(String... kv) {
        MultiMap q = MultiMap.caseInsensitiveMultiMap();
        for (int i = 0; i < kv.length; i += 2) q.add(kv[i], kv[i + 1]);
        return PageRequest.parse(q);
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes());
    }

    @Test
    @DisplayName("defaults: limit 100, offset 0, count_total and reverse true")
    void defaults() {
        PageRequest p = parse();
        assertEquals(100, p.limit());
        assertEquals(0, p.offset());
        assertTrue(p.countTotal());
        assertTrue(p.reverse());
        assertNull(p.cursorLong("sequence"));
    }

    @Test
    @DisplayName(
            "empty values are absent ones (rollytics' QueryInt/QueryBool default them): limit 100, offset 0, both flags true")
    void emptyValues() {
        PageRequest p = parse(
                "pagination.limit",
                "",
                "pagination.offset",
                "",
                "pagination.key",
                "",
                "pagination.count_total",
                "",
                "pagination.reverse",
                "");
        assertEquals(100, p.limit());
        assertEquals(0, p.offset());
        assertFalse(p.hasCursor());
        assertTrue(p.countTotal());
        assertTrue(p.reverse());
        assertEquals(7, parse("pagination.limit", " ", "pagination.offset", "7").offset());
    }

    @Test
    @DisplayName("booleans: Go's strconv.ParseBool forms (rollytics reads them with Fiber's QueryBool)")
    void booleans() {
        for (String t : new String[] {"true", "True", "TRUE", "t", "T", "1"}) {
            assertTrue(
                    parse("pagination.reverse", t, "pagination.count_total", t).reverse(), t);
            assertTrue(parse("pagination.count_total", t).countTotal(), t);
        }
        for (String f : new String[] {"false", "False", "FALSE", "f", "F", "0"}) {
            assertFalse(parse("pagination.reverse", f).reverse(), f);
            assertFalse(parse("pagination.count_total", f).countTotal(), f);
        }
    }

    @Test
    @DisplayName("malformed values are 400s with the rollytics wording")
    void badValues() {
        assertMessage("pagination.limit must be between 1 and 1000", "pagination.limit", "0");
        assertMessage("pagination.limit must be between 1 and 1000", "pagination.limit", "1001");
        assertMessage("pagination.limit must be between 1 and 1000", "pagination.limit", "ten");
        assertMessage("pagination.offset cannot be negative", "pagination.offset", "-1");
        assertMessage("pagination.key must be a valid base64 encoded string", "pagination.key", "%%%");
        assertMessage("pagination.key must decode to a nonnegative integer", "pagination.key", b64("abc"));
        assertMessage("pagination.reverse must be true or false", "pagination.reverse", "maybe");
        assertMessage("pagination.count_total must be true or false", "pagination.count_total", "yes please");
    }

    private static void assertMessage(String message, String... kv) {
        BusError e = assertThrows(BusError.class, () -> parse(kv));
        assertEquals(400, e.httpStatus());
        assertEquals(3, e.grpcCode());
        assertEquals(message, e.getMessage());
    }

    @Test
    @DisplayName("a key decodes to a cursor object or to an offset that overrides pagination.offset")
    void keys() {
        PageRequest cursor = parse("pagination.key", b64("{\"sequence\":12345}"));
        assertEquals(12345L, cursor.cursorLong("sequence"));
        assertThrows(BusError.class, () -> cursor.cursorLong("height"));
        PageRequest offset = parse("pagination.key", b64("200"), "pagination.offset", "5");
        assertEquals(200, offset.offset());
        assertFalse(offset.hasCursor());
    }

    @Test
    @DisplayName("responses: next_key null at the end, totals as strings, previous_key for offsets")
    void responses() {
        PageRequest p = parse("pagination.limit", "100");
        assertEquals(
                new JsonObject()
                        .putNull("previous_key")
                        .put("next_key", "eyJzZXF1ZW5jZSI6MTIzNDV9")
                        .put("total", "98765"),
                PageResponse.cursor("sequence", 12345L, 98765, p));
        assertEquals(
                new JsonObject().putNull("previous_key").putNull("next_key").put("total", "3"),
                PageResponse.cursor("sequence", null, 3, p));
        assertEquals(
                new JsonObject().putNull("previous_key").put("next_key", "MTAw").put("total", "250"),
                PageResponse.offset(p, true, 250));
        PageRequest second = parse("pagination.key", "MTAw");
        assertEquals(
                new JsonObject()
                        .put("previous_key", "MA==")
                        .put("next_key", "MjAw")
                        .put("total", "250"),
                PageResponse.offset(second, true, 250));
        PageRequest noCount = parse("pagination.count_total", "false");
        assertEquals("0", PageResponse.offset(noCount, false, 250).getString("total"));
    }
}
