package dev.weft.api;

import dev.weft.bus.BusError;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one check every string of a request passes before a handler reads it: each path segment and query value (from the
 * raw URI, so invalid UTF-8 such as {@code %C0%80} or {@code %FF} is seen before Vert.x replaces it with U+FFFD), the
 * raw bytes of a JSON body and every key and string inside it. A NUL, an unpaired surrogate, invalid UTF-8 or a value
 * longer than its parameter's bound is a 400 naming the parameter; PostgreSQL refuses NUL in {@code text}, so such a
 * value must never reach a store. Cursor fields decoded from {@code pagination.key} go through {@link #text} in
 * {@link PageRequest}.
 */
final class TextGate {
    /** Bounds in characters; a parameter not listed has its family's default. */
    static final int PATH_DEFAULT = 512;

    static final int QUERY_DEFAULT = 512;
    static final int BODY_DEFAULT = 8192;
    /** A token id (path, query or cursor): CW721 ids are free text, ERC-721 ids up to 78 digits. */
    static final int TOKEN_ID = 1024;

    private static final Map<String, Integer> PATH_LIMITS = Map.of("token_id", TOKEN_ID, "name", TOKEN_ID);
    private static final Map<String, Integer> QUERY_LIMITS = Map.of(
            "token_id", TOKEN_ID,
            // lists in one value (comma-separated), and a base64 cursor holding a token id
            "msgs", 8192,
            "chain_ids", 8192,
            "chain_ids[]", 8192,
            "pagination.key", 8192);
    /** Body fields bounded only by {@code http.body_limit_bytes}: signed txs, base64 encoded. */
    private static final Set<String> BODY_UNBOUNDED = Set.of("tx", "signed_op_hook");

    /** The path templates of the OpenAPI document, as segments ({@code {name}} for a parameter). */
    private final List<String[]> templates = new ArrayList<>();

    TextGate(JsonObject openApi) {
        for (String path : openApi.getJsonObject("paths", new JsonObject()).fieldNames()) {
            templates.add(segments(path));
        }
    }

    /** Router handler in front of every module: a flawed string ends the request with a 400. */
    void check(RoutingContext rc) {
        try {
            String uri = originForm(rc.request().uri());
            int q = uri.indexOf('?');
            checkPath(q < 0 ? uri : uri.substring(0, q));
            if (q >= 0) checkQuery(uri.substring(q + 1), rc.queryParams());
            checkBody(rc);
        } catch (BusError e) {
            Responses.error(rc, e);
            return;
        }
        rc.next();
    }

    /** A request target in absolute form ({@code http://host/path?q}, as sent to a proxy) without scheme and authority. */
    private static String originForm(String uri) {
        if (uri.startsWith("/")) return uri;
        int scheme = uri.indexOf("://");
        if (scheme < 0) return uri;
        int path = uri.indexOf('/', scheme + 3);
        int query = uri.indexOf('?', scheme + 3);
        if (path < 0 || (query >= 0 && query < path)) return query < 0 ? "/" : "/" + uri.substring(query);
        return uri.substring(path);
    }

    private void checkPath(String rawPath) {
        String[] raw = segments(rawPath);
        String[] decoded = new String[raw.length];
        BusError[] undecodable = new BusError[raw.length];
        for (int i = 0; i < raw.length; i++) {
            try {
                decoded[i] = decode(raw[i], false, "path");
            } catch (BusError e) {
                undecodable[i] = e; // named below, once the template is known
            }
        }
        // a clean segment within the default bound fits every parameter's bound (none is below it): only a request
        // with a doubtful segment pays for finding its template, to name the parameter and apply its own bound
        if (allWithinDefault(decoded, undecodable)) return;
        String[] template = template(decoded);
        for (int i = 0; i < decoded.length; i++) {
            String name = "path";
            if (template != null) {
                String t = template[Math.min(i, template.length - 1)];
                if (isParam(t)) name = t.substring(1, t.length() - 1);
            }
            if (undecodable[i] != null) decode(raw[i], false, name);
            text(name, decoded[i], PATH_LIMITS.getOrDefault(name, PATH_DEFAULT));
        }
    }

    private static boolean allWithinDefault(String[] decoded, BusError[] undecodable) {
        for (int i = 0; i < decoded.length; i++) {
            if (undecodable[i] != null) return false;
            try {
                text("path", decoded[i], PATH_DEFAULT);
            } catch (BusError e) {
                return false;
            }
        }
        return true;
    }

    /** The template the path matches best (most literal segments), its last parameter taking the rest (a denom's slash). */
    private String[] template(String[] path) {
        String[] best = null;
        int bestLiterals = -1;
        for (String[] t : templates) {
            if (t.length == 0) continue;
            boolean greedy = isParam(t[t.length - 1]) && path.length > t.length;
            if (t.length != path.length && !greedy) continue;
            int literals = 0;
            boolean matches = true;
            for (int i = 0; i < t.length && matches; i++) {
                if (isParam(t[i])) continue;
                matches = t[i].equals(path[i]); // an undecodable segment (null) matches a parameter only
                literals++;
            }
            if (matches && literals > bestLiterals) {
                best = t;
                bestLiterals = literals;
            }
        }
        return best;
    }

    private static boolean isParam(String segment) {
        return segment.startsWith("{") && segment.endsWith("}");
    }

    private static String[] segments(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.isEmpty() ? new String[0] : p.split("/", -1);
    }

    /**
     * The raw bytes first (Vert.x would turn invalid UTF-8 into U+FFFD), split at both separators so every piece is
     * decoded whichever Vert.x uses; then the values exactly as handlers will read them, for NUL, surrogates and length.
     */
    private static void checkQuery(String query, io.vertx.core.MultiMap params) {
        for (String pair : query.split("[&;]")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), true, "a query parameter name");
            text("a query parameter name", name, QUERY_DEFAULT);
            if (eq >= 0) decode(pair.substring(eq + 1), true, name);
        }
        for (Map.Entry<String, String> e : params) {
            text("a query parameter name", e.getKey(), QUERY_DEFAULT);
            text(e.getKey(), e.getValue(), QUERY_LIMITS.getOrDefault(e.getKey(), QUERY_DEFAULT));
        }
    }

    private static void checkBody(RoutingContext rc) {
        if (rc.body() == null) return;
        Buffer body = rc.body().buffer();
        if (body == null || body.length() == 0) return;
        try {
            strictUtf8(body.getBytes());
        } catch (CharacterCodingException e) {
            throw BusError.badRequest("request body is not valid UTF-8");
        }
        walk("", "", StrictJson.parsed(rc));
    }

    /** Every key and string of a parsed body, named by its path ({@code chains[0].address}). */
    private static void walk(String path, String key, Object v) {
        if (v instanceof String s) {
            text(
                    path.isEmpty() ? "request body" : path,
                    s,
                    BODY_UNBOUNDED.contains(key) ? Integer.MAX_VALUE : BODY_DEFAULT);
        } else if (v instanceof JsonObject o) {
            for (Map.Entry<String, Object> e : o) {
                String name = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                text("a key of " + (path.isEmpty() ? "the request body" : path), e.getKey(), BODY_DEFAULT);
                walk(name, e.getKey(), e.getValue());
            }
        } else if (v instanceof JsonArray a) {
            for (int i = 0; i < a.size(); i++) walk(path + "[" + i + "]", key, a.getValue(i));
        }
    }

    /**
     * {@code value} as the request's parameter {@code name}: a 400 for a NUL, an unpaired surrogate, or more than
     * {@code max} characters. Returns the value.
     */
    static String text(String name, String value, int max) {
        if (value == null) return null;
        if (value.length() > max) throw invalid(name, "longer than " + max + " characters: " + value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == 0) throw invalid(name, "contains a NUL character");
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) i++;
                else throw invalid(name, "contains an unpaired surrogate");
            } else if (Character.isLowSurrogate(c)) {
                throw invalid(name, "contains an unpaired surrogate");
            }
        }
        return value;
    }

    /** The client's value is not quoted: it may be what cannot be shown. */
    private static BusError invalid(String name, String reason) {
        return BusError.badRequest("[INVALID_VALUE] invalid value for " + name + " (" + reason + ")");
    }

    /**
     * A raw URI component percent-decoded to bytes and read as strict UTF-8 (no overlong forms, no encoded surrogates);
     * {@code +} is a space in a query.
     */
    private static String decode(String raw, boolean query, String name) {
        if (raw.indexOf('%') < 0 && !(query && raw.indexOf('+') >= 0) && isAscii(raw)) return raw;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = hi >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (lo < 0 && query)
                    throw invalid(name, "malformed percent-encoding: a '%' must be followed by two hex digits");
                // the router's own words for a path it cannot decode
                if (lo < 0)
                    throw BusError.badRequest(
                            "malformed percent-encoding in the request URI (a '%' must be followed by two hex digits)");
                bytes.write(hi << 4 | lo);
                i += 2;
            } else if (query && c == '+') {
                bytes.write(' ');
            } else if (c < 0x100) {
                // the HTTP decoder reads the request line byte by byte: a char here is one raw byte
                bytes.write(c);
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
            }
        }
        try {
            return strictUtf8(bytes.toByteArray());
        } catch (CharacterCodingException e) {
            throw invalid(name, "not valid UTF-8");
        }
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) if (s.charAt(i) >= 0x80) return false;
        return true;
    }

    static String strictUtf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }
}
