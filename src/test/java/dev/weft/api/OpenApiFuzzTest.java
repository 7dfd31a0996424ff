package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Fuzz over every operation of {@code /openapi.json}: a small seeded random one (malformed path and query values, odd
 * bodies and content types), and a deterministic one giving every parameter, cursor field and body field each hostile
 * value of {@link HostileRequests} (issue 58). The server must never answer 5xx, and every 4xx must carry the JSON
 * error body.
 */
class OpenApiFuzzTest {
    private static final long SEED = 20261125L;
    private static final int REQUESTS = 400;
    private static final String[] BAD_VALUES = {
        "",
        "-1",
        "0",
        "1e308",
        "+5",
        "1.5",
        "9999999999999999999999",
        "0x" + "a".repeat(39),
        "0x" + "b".repeat(41),
        "0x" + "c".repeat(40),
        "f".repeat(64),
        "g".repeat(64),
        "null",
        "[]",
        "{}",
        "'\"<>",
        "%00",
        "..%2F..",
        "\u00e9\u00df",
        "\ud83d\ude00",
        "a".repeat(500),
        "true",
        "TRUE",
        "init1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq",
        " ",
        "\t1"
    };

    static Vertx vertx;
    static WeftNode node;
    static int port;

    @BeforeAll
    static void start() {
        vertx = TestNodes.newVertx();
        node = TestNodes.start(
                vertx,
                TestConfig.defaults()
                        .roles("api", "route", "track")
                        .set("node.name", "fuzz")
                        .build());
        port = TestNodes.httpPort(node);
    }

    @AfterAll
    static void stop() {
        TestNodes.await(node.stop());
        TestNodes.await(vertx.close());
    }

    private record Operation(String method, String path, List<String> queryParams, JsonObject bodySchema) {}

    private static List<Operation> operations() throws Exception {
        RawHttp.Response doc;
        try (RawHttp c = new RawHttp(port)) {
            doc = c.write("GET /openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .read();
        }
        JsonObject paths = doc.json().getJsonObject("paths");
        List<Operation> ops = new ArrayList<>();
        for (String path : paths.fieldNames()) {
            if (path.startsWith("/eventbus") || path.equals("/")) continue;
            JsonObject item = paths.getJsonObject(path);
            for (String method : item.fieldNames()) {
                if (!(item.getValue(method) instanceof JsonObject op)) continue;
                List<String> query = new ArrayList<>();
                for (Object p : op.getJsonArray("parameters", new JsonArray())) {
                    if (p instanceof JsonObject param && "query".equals(param.getString("in")))
                        query.add(param.getString("name"));
                }
                JsonObject schema = op.getJsonObject("requestBody", new JsonObject())
                        .getJsonObject("content", new JsonObject())
                        .getJsonObject("application/json", new JsonObject())
                        .getJsonObject("schema", new JsonObject());
                ops.add(new Operation(method.toUpperCase(java.util.Locale.ROOT), path, query, schema));
            }
        }
        return ops;
    }

    private static String value(Random r) {
        return URLEncoder.encode(BAD_VALUES[r.nextInt(BAD_VALUES.length)], StandardCharsets.UTF_8);
    }

    private static Object jsonValue(Random r, int depth) {
        return switch (r.nextInt(depth > 2 ? 6 : 8)) {
            case 0 -> BAD_VALUES[r.nextInt(BAD_VALUES.length)];
            case 1 -> r.nextLong();
            case 2 -> r.nextDouble() * 1e300;
            case 3 -> r.nextBoolean();
            case 4 -> null;
            case 5 -> "1";
            case 6 -> new JsonArray().add(jsonValue(r, depth + 1)).add(jsonValue(r, depth + 1));
            default -> new JsonObject().put("x", jsonValue(r, depth + 1));
        };
    }

    private static String body(Random r, JsonObject schema) {
        List<String> fields = new ArrayList<>(
                schema.getJsonObject("properties", new JsonObject()).fieldNames());
        fields.add("unknown_field");
        switch (r.nextInt(6)) {
            case 0:
                return "[1,2,3]";
            case 1:
                return "\"text\"";
            case 2:
                return "{\"a\":1,";
            case 3: {
                String f = fields.get(r.nextInt(fields.size()));
                return "{\"" + f + "\":1,\"" + f + "\":2}";
            }
            default: {
                JsonObject o = new JsonObject();
                for (String f : fields) if (r.nextBoolean()) o.put(f, jsonValue(r, 0));
                return o.encode();
            }
        }
    }

    @Test
    @DisplayName(
            "every parameter, cursor field and body field of every operation, given NUL, %C0%80, lone surrogates, 2 KB and 64 KB strings, numbers beyond 2^63, negative and fractional numbers and wrong JSON types: 0 × 5xx")
    void everyParameterHostile() throws Exception {
        JsonObject doc;
        try (RawHttp c = new RawHttp(port)) {
            doc = c.write("GET /openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .read()
                    .json();
        }
        // each chain's copies of the indexer paths reach the same handlers as the default chain's, behind the same
        // gate: the hostile chain_id is tried on /chains/{chain_id}/status, the other parameters on the unprefixed
        // paths
        JsonObject paths = doc.getJsonObject("paths");
        for (String p : List.copyOf(paths.fieldNames()))
            if (p.startsWith("/chains/{chain_id}/") && !p.equals("/chains/{chain_id}/status")) paths.remove(p);
        List<HostileRequests.Request> requests = HostileRequests.of(doc);
        // every operation's parameters, the cursor fields of its GETs and its body fields: a few thousand requests
        assertTrue(requests.size() > 3000 && requests.size() < 12000, "requests: " + requests.size());
        assertTrue(
                requests.stream().anyMatch(r -> r.label().equals("body chains.x.denoms.0 = NUL")),
                "nested body fields are reached");
        long started = System.nanoTime();
        assertEquals(List.of(), HostileRequests.failures(port, requests));
        System.out.printf(
                "hostile fuzz: %d requests in %d ms%n", requests.size(), (System.nanoTime() - started) / 1_000_000);
    }

    @Test
    @DisplayName("a seeded fuzz over the OpenAPI operations: 0 × 5xx, and every 4xx has the JSON error body")
    void fuzz() throws Exception {
        List<Operation> ops = operations();
        assertTrue(ops.size() >= 30, "operations found: " + ops.size());
        Random r = new Random(SEED);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            Operation op = ops.get(r.nextInt(ops.size()));
            StringBuilder target = new StringBuilder(op.path().replaceAll("\\{[^}]+}", "@"));
            while (target.indexOf("@") >= 0) {
                int at = target.indexOf("@");
                String v = value(r);
                target.replace(at, at + 1, v.isEmpty() ? "x" : v);
            }
            List<String> params = new ArrayList<>(op.queryParams());
            params.add("pagination.limit");
            params.add("pagination.key");
            char sep = '?';
            for (String p : params) {
                if (r.nextInt(3) != 0) continue;
                target.append(sep)
                        .append(URLEncoder.encode(p, StandardCharsets.UTF_8))
                        .append('=')
                        .append(value(r));
                sep = '&';
            }
            String request = op.method() + " " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
            if (op.method().equals("POST")) {
                String b = body(r, op.bodySchema());
                String type = r.nextInt(8) == 0 ? "text/plain" : "application/json";
                request += "Content-Type: " + type + "\r\nContent-Length: " + b.getBytes(StandardCharsets.UTF_8).length
                        + "\r\n\r\n" + b;
            } else {
                request += "\r\n";
            }
            RawHttp.Response resp;
            try (RawHttp c = new RawHttp(port)) {
                c.socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
                resp = c.read();
            }
            String what = op.method() + " " + target;
            if (resp == null) {
                failures.add(what + " → no response");
                continue;
            }
            if (resp.status() >= 500) failures.add(what + " → " + resp.status() + " " + resp.body());
            if (resp.status() >= 400 && resp.status() < 500) {
                try {
                    JsonObject e = resp.json();
                    if (!(e.getValue("code") instanceof Integer)
                            || e.getString("message") == null
                            || e.getJsonArray("details") == null) {
                        failures.add(what + " → " + resp.status() + " without the error shape: " + resp.body());
                    }
                } catch (RuntimeException notJson) {
                    failures.add(what + " → " + resp.status() + " not JSON: " + resp.body());
                }
            }
        }
        assertEquals(List.of(), failures);
    }
}
