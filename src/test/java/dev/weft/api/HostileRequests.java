package dev.weft.api;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Deterministic hostile input for every parameter of every operation of an OpenAPI document: each path and query
 * parameter ({@code $ref}s resolved), each field of a {@code pagination.key} cursor, and each field of a
 * JSON body (nested objects, arrays and maps included) is given, one at a time, NUL, {@code %C0%80}, lone surrogates,
 * invalid UTF-8 bytes, 2 KB and 64 KB strings, numbers beyond 2^63, negative and fractional numbers and values of the
 * wrong JSON type, the other parameters holding plausible values. {@link #failures} sends them and lists every request
 * answered with a 5xx, not answered, or refused without the JSON error body.
 */
final class HostileRequests {
    private HostileRequests() {}

    /** One request as it goes on the wire; {@code label} names the hostile value in reports. */
    record Request(String method, String target, byte[] body, String label) {
        String describe() {
            String t = target.length() > 300
                    ? target.substring(0, 150) + "…(" + target.length() + " chars)…"
                            + target.substring(target.length() - 60)
                    : target;
            String b = body == null ? "" : " body " + abbreviated(new String(body, StandardCharsets.ISO_8859_1));
            return method + " " + t + b + " [" + label + "]";
        }
    }

    private static String abbreviated(String s) {
        return s.length() > 300 ? s.substring(0, 200) + "…(" + s.length() + " bytes)" : s;
    }

    static final String TWO_KB = "k".repeat(2048);
    static final String SIXTY_FOUR_KB = "s".repeat(65536);

    /** Hostile path and query values, percent-encoded as sent, by label. */
    static final Map<String, String> URI_VALUES = new LinkedHashMap<>();

    static {
        URI_VALUES.put("NUL", "%00");
        URI_VALUES.put("NUL inside", "a%00b");
        URI_VALUES.put("overlong NUL %C0%80", "%C0%80");
        URI_VALUES.put("byte %FF", "%FF");
        URI_VALUES.put("lone high surrogate as UTF-8", "%ED%A0%80");
        URI_VALUES.put("lone low surrogate as UTF-8", "x%ED%B0%80");
        URI_VALUES.put("2 KB", TWO_KB);
        URI_VALUES.put("64 KB", SIXTY_FOUR_KB);
        URI_VALUES.put("2^63", "9223372036854775808");
        URI_VALUES.put("beyond 2^64", "99999999999999999999999");
        URI_VALUES.put("negative", "-1");
        URI_VALUES.put("fractional", "1.5");
        URI_VALUES.put("negative fractional", "-0.5");
        URI_VALUES.put("exponent", "1e400");
        URI_VALUES.put("empty", "");
        URI_VALUES.put("JSON array", "%5B%5D");
        URI_VALUES.put("JSON object", "%7B%7D");
    }

    /** Hostile JSON values (as JSON text: a lone surrogate can only be written escaped), by label. */
    static final Map<String, String> JSON_VALUES = new LinkedHashMap<>();

    static {
        JSON_VALUES.put("NUL", "\"\\u0000\"");
        JSON_VALUES.put("NUL inside", "\"a\\u0000b\"");
        JSON_VALUES.put("700 NULs", "\"" + "\\u0000".repeat(700) + "\"");
        JSON_VALUES.put("lone high surrogate", "\"\\ud800\"");
        JSON_VALUES.put("lone low surrogate", "\"x\\udc00\"");
        JSON_VALUES.put("2 KB", "\"" + TWO_KB + "\"");
        JSON_VALUES.put("64 KB", "\"" + SIXTY_FOUR_KB + "\"");
        JSON_VALUES.put("2^63", "9223372036854775808");
        JSON_VALUES.put("2^63 as text", "\"9223372036854775808\"");
        JSON_VALUES.put("beyond 2^64", "99999999999999999999999");
        JSON_VALUES.put("negative", "-1");
        JSON_VALUES.put("negative as text", "\"-1\"");
        JSON_VALUES.put("fractional", "1.5");
        JSON_VALUES.put("negative fractional", "-0.5");
        JSON_VALUES.put("exponent", "1e400");
        JSON_VALUES.put("array", "[1]");
        JSON_VALUES.put("object", "{\"a\":1}");
        JSON_VALUES.put("boolean", "true");
        JSON_VALUES.put("null", "null");
    }

    /** Raw bytes no UTF-8 decoder may accept, placed inside a JSON string. */
    static final Map<String, byte[]> INVALID_UTF8 = new LinkedHashMap<>();

    static {
        INVALID_UTF8.put("overlong NUL C0 80", new byte[] {(byte) 0xC0, (byte) 0x80});
        INVALID_UTF8.put("byte FF", new byte[] {(byte) 0xFF});
        INVALID_UTF8.put("surrogate ED A0 80", new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80});
    }

    /** The fields of the cursors {@code pagination.key} decodes to. */
    static final List<String> CURSOR_FIELDS = List.of("sequence", "height", "token_id");

    private static final List<String> PAGINATION = List.of(
            "pagination.key", "pagination.offset", "pagination.limit", "pagination.count_total", "pagination.reverse");

    /** Every hostile request for {@code doc}'s operations (the event-bus bridge and the live page left out). */
    static List<Request> of(JsonObject doc) {
        List<Request> out = new ArrayList<>();
        JsonObject paths = doc.getJsonObject("paths", new JsonObject());
        for (String path : paths.fieldNames()) {
            if (path.startsWith("/eventbus") || path.equals("/")) continue;
            JsonObject item = paths.getJsonObject(path);
            for (String m : item.fieldNames()) {
                if (!(item.getValue(m) instanceof JsonObject op)) continue;
                operation(doc, m.toUpperCase(Locale.ROOT), path, op, out);
            }
        }
        return out;
    }

    private static void operation(JsonObject doc, String method, String path, JsonObject op, List<Request> out) {
        List<String> pathParams = new ArrayList<>();
        List<String> query = new ArrayList<>();
        for (Object p : op.getJsonArray("parameters", new JsonArray())) {
            JsonObject param = resolve(doc, (JsonObject) p);
            if ("path".equals(param.getString("in"))) pathParams.add(param.getString("name"));
            if ("query".equals(param.getString("in"))) query.add(param.getString("name"));
        }
        // a list documents its pagination parameters; the cursor fields are tried where pagination.key is one
        boolean paged = query.contains("pagination.key");
        if (paged) for (String p : PAGINATION) if (!query.contains(p)) query.add(p);
        JsonObject schema = resolve(
                doc,
                op.getJsonObject("requestBody", new JsonObject())
                        .getJsonObject("content", new JsonObject())
                        .getJsonObject("application/json", new JsonObject())
                        .getJsonObject("schema", new JsonObject()));
        List<List<String>> bodyFields = new ArrayList<>();
        fields(doc, schema, new ArrayList<>(), bodyFields, 0);
        byte[] plainBody = method.equals("POST") ? "{}".getBytes(StandardCharsets.UTF_8) : null;

        for (String hostile : pathParams) {
            for (Map.Entry<String, String> v : URI_VALUES.entrySet()) {
                out.add(new Request(
                        method,
                        target(path, hostile, v.getValue(), null, null),
                        plainBody,
                        hostile + " = " + v.getKey()));
            }
        }
        for (String q : query) {
            for (Map.Entry<String, String> v : URI_VALUES.entrySet()) {
                out.add(new Request(
                        method, target(path, null, null, q, v.getValue()), plainBody, q + " = " + v.getKey()));
            }
        }
        if (paged) {
            for (String field : CURSOR_FIELDS) {
                for (Map.Entry<String, String> v : JSON_VALUES.entrySet()) {
                    String cursor = cursor(field, v.getValue().getBytes(StandardCharsets.UTF_8));
                    out.add(new Request(
                            method,
                            target(path, null, null, "pagination.key", cursor),
                            null,
                            "pagination.key " + field + " = " + v.getKey()));
                }
                for (Map.Entry<String, byte[]> v : INVALID_UTF8.entrySet()) {
                    out.add(new Request(
                            method,
                            target(path, null, null, "pagination.key", cursor(field, quoted(v.getValue()))),
                            null,
                            "pagination.key " + field + " = " + v.getKey()));
                }
            }
        }
        for (List<String> field : bodyFields) {
            for (Map.Entry<String, String> v : JSON_VALUES.entrySet()) {
                out.add(new Request(
                        method,
                        target(path, null, null, null, null),
                        body(field, v.getValue().getBytes(StandardCharsets.UTF_8)),
                        "body " + String.join(".", field) + " = " + v.getKey()));
            }
            for (Map.Entry<String, byte[]> v : INVALID_UTF8.entrySet()) {
                out.add(new Request(
                        method,
                        target(path, null, null, null, null),
                        body(field, quoted(v.getValue())),
                        "body " + String.join(".", field) + " = " + v.getKey()));
            }
        }
    }

    /** A {@code $ref} followed to what it names. */
    static JsonObject resolve(JsonObject doc, JsonObject o) {
        for (int hops = 0; o.containsKey("$ref") && hops < 10; hops++) {
            Object cur = doc;
            for (String part : o.getString("$ref").substring(2).split("/")) cur = ((JsonObject) cur).getValue(part);
            o = (JsonObject) cur;
        }
        return o;
    }

    /** Every field path of a body schema: properties, array items ({@code 0}) and map values ({@code x}), a few levels deep. */
    private static void fields(JsonObject doc, JsonObject schema, List<String> at, List<List<String>> out, int depth) {
        if (depth > 3) return;
        JsonObject props = schema.getJsonObject("properties", new JsonObject());
        List<String> names = new ArrayList<>(props.fieldNames());
        if (depth == 0) names.add("unknown_field");
        for (String name : names) {
            List<String> p = new ArrayList<>(at);
            p.add(name);
            out.add(p);
            if (props.getValue(name) instanceof JsonObject sub) fields(doc, resolve(doc, sub), p, out, depth + 1);
        }
        if (schema.getValue("items") instanceof JsonObject items) {
            List<String> p = new ArrayList<>(at);
            p.add("0");
            out.add(p);
            fields(doc, resolve(doc, items), p, out, depth + 1);
        }
        if (schema.getValue("additionalProperties") instanceof JsonObject values) {
            List<String> p = new ArrayList<>(at);
            p.add("x");
            out.add(p);
            fields(doc, resolve(doc, values), p, out, depth + 1);
        }
    }

    /** The path with plausible values, one of its parameters or one query parameter set to the hostile value. */
    private static String target(String path, String hostileParam, String hostile, String query, String queryValue) {
        StringBuilder t = new StringBuilder();
        int i = 0;
        while (i < path.length()) {
            int open = path.indexOf('{', i);
            if (open < 0) {
                t.append(path, i, path.length());
                break;
            }
            int close = path.indexOf('}', open);
            String name = path.substring(open + 1, close);
            t.append(path, i, open).append(name.equals(hostileParam) ? hostile : plausible(name));
            i = close + 1;
        }
        if (query != null) t.append('?').append(query).append('=').append(queryValue);
        return t.toString();
    }

    /** A value a path parameter of that name could hold, so the request gets past its first checks. */
    static String plausible(String name) {
        return switch (name) {
            case "height" -> "1";
            case "tx_hash" -> "ab".repeat(32);
            case "account", "collection_addr" -> "0x" + "12".repeat(20);
            case "denom" -> "uinit";
            case "token_id" -> "1";
            default -> "x";
        };
    }

    /** {@code pagination.key}: base64 of a cursor whose {@code field} is the raw JSON value, the others plausible. */
    private static String cursor(String field, byte[] value) {
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        json.writeBytes("{".getBytes(StandardCharsets.UTF_8));
        boolean first = true;
        for (String f : CURSOR_FIELDS) {
            if (f.equals("sequence") && !field.equals("sequence")) continue; // a token cursor has height and token_id
            if (!first) json.write(',');
            first = false;
            json.writeBytes(("\"" + f + "\":").getBytes(StandardCharsets.UTF_8));
            json.writeBytes(
                    f.equals(field) ? value : (f.equals("token_id") ? "\"1\"" : "5").getBytes(StandardCharsets.UTF_8));
        }
        json.write('}');
        return java.net.URLEncoder.encode(
                Base64.getEncoder().encodeToString(json.toByteArray()), StandardCharsets.UTF_8);
    }

    private static byte[] quoted(byte[] raw) {
        byte[] out = new byte[raw.length + 2];
        out[0] = '"';
        System.arraycopy(raw, 0, out, 1, raw.length);
        out[out.length - 1] = '"';
        return out;
    }

    /** A body holding only {@code field} (a path through objects; {@code 0} is an array element) set to the raw value. */
    private static byte[] body(List<String> field, byte[] value) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (String part : field) {
            if (part.equals("0")) b.write('[');
            else b.writeBytes(("{\"" + part + "\":").getBytes(StandardCharsets.UTF_8));
        }
        b.writeBytes(value);
        for (int i = field.size() - 1; i >= 0; i--) b.write(field.get(i).equals("0") ? ']' : '}');
        byte[] out = b.toByteArray();
        // a body must be an object: a field path that starts in an array is wrapped
        return out.length > 0 && out[0] == '['
                ? ("{\"x\":" + new String(out, StandardCharsets.ISO_8859_1) + "}").getBytes(StandardCharsets.ISO_8859_1)
                : out;
    }

    /** Sends every request (one connection each) and lists each 5xx, each unanswered one, and each 4xx without the error body. */
    static List<String> failures(int port, List<Request> requests) throws IOException {
        List<String> failures = new ArrayList<>();
        for (Request r : requests) {
            String head = r.method() + " " + r.target() + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                    + (r.body() == null
                            ? "\r\n"
                            : "Content-Type: application/json\r\nContent-Length: " + r.body().length + "\r\n\r\n");
            RawHttp.Response resp;
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            wire.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
            if (r.body() != null) wire.writeBytes(r.body());
            try (RawHttp c = new RawHttp(port)) {
                c.socket.setTcpNoDelay(true);
                c.socket.getOutputStream().write(wire.toByteArray()); // one write: no Nagle wait between head and body
                resp = c.read();
            } catch (IOException e) {
                failures.add(r.describe() + " → " + e);
                continue;
            }
            if (resp == null) {
                failures.add(r.describe() + " → no response");
            } else if (resp.status() >= 500) {
                failures.add(r.describe() + " → " + resp.status() + " " + abbreviated(resp.body()));
            } else if (resp.status() >= 400 && !hasErrorShape(resp)) {
                failures.add(r.describe() + " → " + resp.status() + " without the JSON error body: "
                        + abbreviated(resp.body()));
            }
        }
        return failures;
    }

    private static boolean hasErrorShape(RawHttp.Response resp) {
        try {
            JsonObject e = resp.json();
            return e.getValue("code") instanceof Integer
                    && e.getString("message") != null
                    && e.getJsonArray("details") != null;
        } catch (RuntimeException notJson) {
            return false;
        }
    }
}
