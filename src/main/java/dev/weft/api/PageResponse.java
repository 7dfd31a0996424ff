package dev.weft.api;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The pagination object of list responses: {@code {"previous_key": …, "next_key": …, "total": "N"}}. Unlike
 * rollytics, {@code next_key} is null when no row follows (queries fetch limit+1 rows to know), and {@code total}
 * is exact ("0" when {@code count_total=false}).
 */
public final class PageResponse {
    private PageResponse() {}

    /** For keyset endpoints: {@code next} is the cursor value of the last row returned, or null when nothing follows. */
    public static JsonObject cursor(String field, Long next, long total, PageRequest req) {
        String nextKey =
                next == null ? null : encode(new JsonObject().put(field, next).encode());
        return of(null, nextKey, total, req);
    }

    /** For keyset endpoints with a composite cursor object. */
    public static JsonObject cursor(JsonObject next, long total, PageRequest req) {
        return of(null, next == null ? null : encode(next.encode()), total, req);
    }

    /** For offset endpoints. */
    public static JsonObject offset(PageRequest req, boolean hasMore, long total) {
        String next = hasMore ? encode(Long.toString(req.offset() + req.limit())) : null;
        String prev = req.offset() >= req.limit() && req.offset() > 0
                ? encode(Long.toString(req.offset() - req.limit()))
                : null;
        return of(prev, next, total, req);
    }

    /** An empty page. */
    public static JsonObject empty() {
        return new JsonObject().putNull("previous_key").putNull("next_key").put("total", "0");
    }

    private static JsonObject of(String prev, String next, long total, PageRequest req) {
        JsonObject o = new JsonObject();
        if (prev == null) o.putNull("previous_key");
        else o.put("previous_key", prev);
        if (next == null) o.putNull("next_key");
        else o.put("next_key", next);
        o.put("total", Long.toString(req.countTotal() ? total : 0));
        return o;
    }

    public static String encode(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
