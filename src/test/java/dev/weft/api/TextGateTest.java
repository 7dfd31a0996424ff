package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The text gate (issue 58): NUL, unpaired surrogates, invalid UTF-8 and overlong values in the path, the query, a JSON
 * body and the fields of a decoded cursor are a 400 with the JSON error body naming the parameter, before any store
 * sees them.
 */
class TextGateTest {
    private static final String COLLECTION = "0x" + "ab".repeat(20);
    private static final String ACCOUNT = "0x" + "cd".repeat(20);

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
                        .set("node.name", "textgate")
                        .build());
        port = TestNodes.httpPort(node);
    }

    @AfterAll
    static void stop() {
        TestNodes.await(node.stop());
        TestNodes.await(vertx.close());
    }

    /** Sends {@code head} (a request line and headers, bytes as ISO-8859-1) and {@code body} bytes as they are. */
    private static RawHttp.Response send(String method, String target, byte[] body) throws IOException {
        String head = method + " " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                + (body == null
                        ? "\r\n"
                        : "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n");
        try (RawHttp c = new RawHttp(port)) {
            c.socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) c.socket.getOutputStream().write(body);
            return c.read();
        }
    }

    private static void assertRefused(String expectedMessage, RawHttp.Response r) {
        assertEquals(400, r.status(), r.body());
        JsonObject e = r.json();
        assertEquals(3, e.getInteger("code"), r.body());
        assertEquals(expectedMessage, e.getString("message"));
        assertEquals(0, e.getJsonArray("details").size());
    }

    private static void assertGet(String expectedMessage, String target) throws IOException {
        assertRefused(expectedMessage, send("GET", target, null));
    }

    private static String invalid(String name, String reason) {
        return "[INVALID_VALUE] invalid value for " + name + " (" + reason + ")";
    }

    private static String key(String cursorJson) {
        return URLEncoder.encode(
                Base64.getEncoder().encodeToString(cursorJson.getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("the three requests of issue 58 answer 400 with the JSON error body, naming the parameter")
    void reportedRequests() throws IOException {
        assertGet(invalid("msgs", "contains a NUL character"), "/indexer/tx/v1/txs?msgs=abc%00def");
        assertGet(
                invalid("token_id", "contains a NUL character"),
                "/indexer/nft/v1/tokens/by_collection/" + COLLECTION + "?token_id=a%00b");
        assertGet(
                invalid("pagination.key token_id", "contains a NUL character"),
                "/indexer/nft/v1/tokens/by_account/" + ACCOUNT + "?pagination.key="
                        + key(new JsonObject()
                                .put("height", 5)
                                .put("token_id", "\u0000".repeat(700))
                                .encode()));
    }

    @Test
    @DisplayName("query values: NUL, invalid UTF-8 in the raw bytes, encoded surrogates, over-long values")
    void query() throws IOException {
        String tokens = "/indexer/nft/v1/tokens/by_collection/" + COLLECTION;
        assertGet(invalid("msgs", "not valid UTF-8"), "/indexer/tx/v1/txs?msgs=%C0%80");
        assertGet(invalid("msgs", "not valid UTF-8"), "/indexer/tx/v1/txs?msgs=%FF");
        assertGet(invalid("token_id", "not valid UTF-8"), tokens + "?token_id=%ED%A0%80"); // U+D800 as UTF-8
        assertGet(invalid("token_id", "not valid UTF-8"), tokens + "?token_id=a\u00ffb"); // a raw 0xFF byte
        assertGet(invalid("token_id", "longer than 1024 characters: 1025"), tokens + "?token_id=" + "t".repeat(1025));
        assertGet(invalid("order_by", "longer than 512 characters: 513"), tokens + "?order_by=" + "o".repeat(513));
        assertGet(
                invalid("chain_id", "contains a NUL character"),
                "/v2/tx/status?tx_hash=" + "a".repeat(64) + "&chain_id=x%00");
        assertGet(invalid("a query parameter name", "not valid UTF-8"), "/indexer/tx/v1/txs?%C0%80=1");
        // the bound holds for the value as handlers read it: an encoded ';' is part of it, a raw one ends it
        assertGet(
                invalid("token_id", "longer than 1024 characters: 1025"),
                tokens + "?token_id=" + "t".repeat(1000) + "%3Bx%3D" + "u".repeat(22));
        assertEquals(
                200,
                send("GET", tokens + "?token_id=" + "t".repeat(1000) + ";x=" + "u".repeat(22), null)
                        .status());
        // within bounds and clean: the endpoint's own answer
        assertEquals(
                200, send("GET", tokens + "?token_id=" + "t".repeat(1024), null).status());
        assertEquals(
                200,
                send("GET", "/indexer/tx/v1/txs?msgs=%E2%82%AC%F0%9F%98%80", null)
                        .status());
    }

    @Test
    @DisplayName("path parameters: named by the OpenAPI template, checked after percent-decoding")
    void path() throws IOException {
        assertGet(invalid("token_id", "contains a NUL character"), "/indexer/nft/v1/txs/" + COLLECTION + "/a%00b");
        assertGet(invalid("name", "not valid UTF-8"), "/indexer/nft/v1/collections/by_name/%C0%80");
        assertGet(invalid("account", "not valid UTF-8"), "/indexer/tx/v1/txs/by_account/%FF");
        assertGet(invalid("denom", "contains a NUL character"), "/indexer/richlist/v1/ibc%2F%00");
        assertGet(invalid("denom", "contains a NUL character"), "/indexer/richlist/v1/ibc/%00");
        assertGet(
                invalid("collection_addr", "longer than 512 characters: 513"),
                "/indexer/nft/v1/collections/" + "c".repeat(513));
        assertGet(invalid("path", "contains a NUL character"), "/no/such%00/route");
        // a request target in absolute form (as sent to a proxy) names its parameters the same way
        assertGet(
                invalid("token_id", "contains a NUL character"),
                "http://x/indexer/nft/v1/txs/" + COLLECTION + "/a%00b");
    }

    @Test
    @DisplayName("JSON bodies: every key and string, at any depth, and the raw bytes")
    void body() throws IOException {
        assertRefused(
                invalid("tx_hash", "contains a NUL character"),
                send(
                        "POST",
                        "/v2/tx/track",
                        "{\"tx_hash\":\"a\\u0000b\",\"chain_id\":\"x\"}".getBytes(StandardCharsets.UTF_8)));
        assertRefused(
                invalid("chain_id", "contains an unpaired surrogate"),
                send(
                        "POST",
                        "/v2/tx/track",
                        "{\"tx_hash\":\"ab\",\"chain_id\":\"\\ud800\"}".getBytes(StandardCharsets.UTF_8)));
        assertRefused(
                invalid("chains.weft-1.address_list[1]", "contains a NUL character"),
                send(
                        "POST",
                        "/v2/info/balances",
                        "{\"chains\":{\"weft-1\":{\"address_list\":[\"a\",\"\\u0000\"]}}}"
                                .getBytes(StandardCharsets.UTF_8)));
        assertRefused(
                invalid("a key of chains", "contains a NUL character"),
                send("POST", "/v2/info/balances", "{\"chains\":{\"\\u0000\":{}}}".getBytes(StandardCharsets.UTF_8)));
        assertRefused(
                invalid("source_asset_denom", "longer than 8192 characters: 8193"),
                send(
                        "POST",
                        "/v2/fungible/route",
                        new JsonObject()
                                .put("source_asset_denom", "d".repeat(8193))
                                .encode()
                                .getBytes(StandardCharsets.UTF_8)));
        // C0 80 (an overlong NUL) and ED A0 80 (an encoded surrogate) inside a JSON string: raw bytes no decoder may
        // take
        for (byte[] bad :
                new byte[][] {{(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xFF}}) {
            byte[] body = new byte[16 + bad.length];
            byte[] start = "{\"tx_hash\":\"".getBytes(StandardCharsets.UTF_8);
            System.arraycopy(start, 0, body, 0, start.length);
            System.arraycopy(bad, 0, body, start.length, bad.length);
            byte[] end = "\"}".getBytes(StandardCharsets.UTF_8);
            System.arraycopy(end, 0, body, start.length + bad.length, end.length);
            body = java.util.Arrays.copyOf(body, start.length + bad.length + end.length);
            assertRefused("request body is not valid UTF-8", send("POST", "/v2/tx/track", body));
        }
    }

    @Test
    @DisplayName("cursor keys: every decoded field checked for type, range and text before a store sees it")
    void cursor() throws IOException {
        String tokens = "/indexer/nft/v1/tokens/by_account/" + ACCOUNT + "?pagination.key=";
        String txs = "/indexer/tx/v1/txs?pagination.key=";
        assertGet(
                invalid("pagination.key token_id", "contains an unpaired surrogate"),
                tokens + key("{\"height\":1,\"token_id\":\"\\udc00\"}"));
        assertGet(
                invalid("pagination.key token_id", "longer than 1024 characters: 1025"),
                tokens + key("{\"height\":1,\"token_id\":\"" + "t".repeat(1025) + "\"}"));
        assertGet("pagination.key token_id must be a string", tokens + key("{\"height\":1,\"token_id\":[\"x\"]}"));
        assertGet(
                "pagination.key height must be a nonnegative integer",
                tokens + key("{\"height\":-1,\"token_id\":\"x\"}"));
        assertGet(
                "pagination.key sequence must be a nonnegative integer",
                txs + key("{\"sequence\":9223372036854775808}"));
        assertGet("pagination.key sequence must be a nonnegative integer", txs + key("{\"sequence\":1.5}"));
        assertGet("pagination.key sequence must be a nonnegative integer", txs + key("{\"sequence\":{\"a\":1}}"));
        assertGet("pagination.key holds an unknown cursor field \"seq\"", txs + key("{\"seq\":1}"));
        assertGet(invalid("pagination.key", "contains a NUL character"), txs + key("{\"\\u0000\":1}"));
        String overlong = URLEncoder.encode(
                Base64.getEncoder().encodeToString(new byte[] {'{', '"', (byte) 0xC0, (byte) 0x80, '"', ':', '1', '}'}),
                StandardCharsets.UTF_8);
        assertGet("pagination.key must be base64 of UTF-8 text", txs + overlong);
        // a well-formed cursor still pages
        assertEquals(
                200,
                send("GET", tokens + key("{\"height\":1,\"token_id\":\"x\"}"), null)
                        .status());
        assertEquals(200, send("GET", txs + key("{\"sequence\":\"5\"}"), null).status());
    }
}
