package dev.weft.api;

import dev.weft.bus.BusError;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Base64;

/**
 * The five pagination parameters of list endpoints, validated the rollytics way (with 400s instead of silent
 * defaults for malformed values). An empty value ({@code pagination.limit=}) is an absent one, as in rollytics, whose
 * {@code QueryInt}/{@code QueryBool} fall back to the default for it. {@code pagination.key} is base64 of either a JSON cursor ({@code {"sequence":N}},
 * {@code {"height":N}}) or a decimal offset; an offset key overrides {@code pagination.offset}.
 */
public record PageRequest(int limit, long offset, JsonObject cursor, boolean countTotal, boolean reverse) {
    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1000;

    public static PageRequest parse(RoutingContext rc) {
        return parse(rc.queryParams());
    }

    public static PageRequest parse(MultiMap q) {
        int limit = DEFAULT_LIMIT;
        String l = q.get("pagination.limit");
        if (l != null && !l.isBlank()) {
            try {
                limit = (int) Math.min(Integer.MAX_VALUE, Math.max(Integer.MIN_VALUE, IndexerParams.wholeNumber(l)));
            } catch (NumberFormatException e) {
                throw BusError.badRequest("pagination.limit must be between 1 and " + MAX_LIMIT);
            }
            if (limit < 1 || limit > MAX_LIMIT)
                throw BusError.badRequest("pagination.limit must be between 1 and " + MAX_LIMIT);
        }
        long offset = 0;
        String o = q.get("pagination.offset");
        if (o != null && !o.isBlank()) {
            try {
                offset = IndexerParams.wholeNumber(o);
            } catch (NumberFormatException e) {
                throw BusError.badRequest("pagination.offset must be a nonnegative integer");
            }
            if (offset < 0) throw BusError.badRequest("pagination.offset cannot be negative");
        }
        JsonObject cursor = null;
        String k = q.get("pagination.key");
        if (k != null && !k.isEmpty()) {
            String text;
            try {
                text = TextGate.strictUtf8(Base64.getDecoder().decode(k.trim())).trim();
            } catch (IllegalArgumentException e) {
                throw BusError.badRequest("pagination.key must be a valid base64 encoded string");
            } catch (java.nio.charset.CharacterCodingException e) {
                throw BusError.badRequest("pagination.key must be base64 of UTF-8 text");
            }
            if (text.startsWith("{")) {
                try {
                    cursor = new JsonObject(text);
                } catch (RuntimeException e) {
                    throw BusError.badRequest("pagination.key must decode to a nonnegative integer or a cursor object");
                }
                checkCursor(cursor);
            } else {
                try {
                    offset = IndexerParams.wholeNumber(text);
                } catch (NumberFormatException e) {
                    throw BusError.badRequest("pagination.key must decode to a nonnegative integer");
                }
                if (offset < 0) throw BusError.badRequest("pagination.key must decode to a nonnegative integer");
            }
        }
        return new PageRequest(
                limit, offset, cursor, bool(q, "pagination.count_total", true), bool(q, "pagination.reverse", true));
    }

    /** The fields a cursor key may hold: the keyset positions Weft and rollytics write. */
    private static final java.util.Set<String> CURSOR_FIELDS =
            java.util.Set.of("sequence", "height", "token_id", "transfer_index", "log_position", "activity_index");

    /**
     * A decoded cursor, field by field, before any store sees it: only known fields; positions are nonnegative
     * integers (as numbers or digit strings) within a long; a token id is text the {@link TextGate} accepts.
     */
    private static void checkCursor(JsonObject cursor) {
        for (String field : cursor.fieldNames()) {
            if (!CURSOR_FIELDS.contains(field)) {
                TextGate.text("pagination.key", field, 64);
                throw BusError.badRequest("pagination.key holds an unknown cursor field \"" + field + "\"");
            }
            Object v = cursor.getValue(field);
            if (field.equals("token_id")) {
                if (!(v instanceof String s)) throw BusError.badRequest("pagination.key token_id must be a string");
                TextGate.text("pagination.key token_id", s, TextGate.TOKEN_ID);
            } else if (v != null && position(v) == null) {
                throw BusError.badRequest("pagination.key " + field + " must be a nonnegative integer");
            }
        }
    }

    /** A cursor position: a nonnegative long, written as a JSON integer or as digits; null when it is not one. */
    private static Long position(Object v) {
        if ((v instanceof Integer || v instanceof Long) && ((Number) v).longValue() >= 0)
            return ((Number) v).longValue();
        if (v instanceof String s) {
            try {
                long parsed = IndexerParams.wholeNumber(s);
                if (parsed >= 0) return parsed;
            } catch (NumberFormatException ignored) {
                // not a position
            }
        }
        return null;
    }

    /** Go's {@code strconv.ParseBool} vocabulary (what rollytics' Fiber {@code QueryBool} reads), any case. */
    private static boolean bool(MultiMap q, String name, boolean def) {
        String v = q.get(name);
        if (v == null || v.isBlank()) return def;
        return switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "t", "1" -> true;
            case "false", "f", "0" -> false;
            default -> throw BusError.badRequest(name + " must be true or false");
        };
    }

    /**
     * The value of a cursor field ({@code sequence}, {@code height}) from the key, or null when the request has no
     * cursor key. A cursor key without that field, or with a non-integer value, is a 400.
     */
    public Long cursorLong(String field) {
        if (cursor == null) return null;
        Long v = position(cursor.getValue(field));
        if (v != null) return v;
        throw BusError.badRequest("pagination.key must hold a " + field + " cursor");
    }

    /** A cursor field of another type (for composite cursors such as token_id), or null. */
    public String cursorString(String field) {
        if (cursor == null) return null;
        Object v = cursor.getValue(field);
        return v == null ? null : String.valueOf(v);
    }

    /** The same request with {@code count_total} set (for an endpoint whose total does not depend on it). */
    public PageRequest withCountTotal(boolean count) {
        return new PageRequest(limit, offset, cursor, count, reverse);
    }

    /** Whether the query runs from a cursor (keyset) rather than an offset. */
    public boolean hasCursor() {
        return cursor != null;
    }
}
