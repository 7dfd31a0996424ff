package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.config.RateLimitConfig;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Per-client rate limits (429 + Retry-After, X-Forwarded-For only from trusted proxies) and strict input parsing. */
class RateLimitAndParsingTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WeftNode behindProxy; // 127.0.0.1 is a trusted proxy: X-Forwarded-For names the client
    static WeftNode direct; // no trusted proxy: X-Forwarded-For is ignored
    static WebClient client;
    static final AtomicInteger nextClient = new AtomicInteger(1);

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        behindProxy = weft.start(limited()
                .set("node.name", "proxied")
                .set("http.trusted_proxies", new io.vertx.core.json.JsonArray().add("127.0.0.1/32")));
        direct = weft.start(limited().set("node.name", "direct"));
        client = WebClient.create(vertx);
    }

    private static TestConfig limited() {
        return weft.config()
                .roles("api")
                .set("rate_limit.enabled", true)
                .set("rate_limit.rate", 0.01)
                .set("rate_limit.burst", 3)
                .set("rate_limit.post_rate", 0.01)
                .set("rate_limit.post_burst", 1);
    }

    private static HttpResponse<Buffer> call(
            WeftNode node, HttpMethod method, String uri, String forwardedFor, String json) {
        var req = client.request(method, TestNodes.httpPort(node), "127.0.0.1", uri);
        if (forwardedFor != null) req.putHeader("x-forwarded-for", forwardedFor);
        if (json != null) req.putHeader("content-type", "application/json");
        return TestNodes.await(json == null ? req.send() : req.sendBuffer(Buffer.buffer(json)));
    }

    /** A fresh client address (its own full bucket) behind the trusted proxy. */
    private static String freshClient() {
        int n = nextClient.incrementAndGet();
        return "10.9." + (n >> 8) + "." + (n & 0xff);
    }

    @Test
    @DisplayName(
            "a client over its burst gets 429 JSON with Retry-After; another client (by X-Forwarded-For from the trusted proxy) is not affected")
    void tokenBucket() {
        String a = freshClient();
        for (int i = 0; i < 3; i++)
            assertEquals(
                    200, call(behindProxy, HttpMethod.GET, "/health", a, null).statusCode());
        var limited = call(behindProxy, HttpMethod.GET, "/health", a, null);
        assertEquals(429, limited.statusCode());
        assertError(limited.bodyAsJsonObject(), 8);
        assertTrue(Long.parseLong(limited.getHeader("retry-after")) >= 1, limited.getHeader("retry-after"));
        assertEquals(
                200,
                call(behindProxy, HttpMethod.GET, "/health", freshClient(), null)
                        .statusCode());
        // a spoofed left-most entry does not give a client a new bucket: the right-most untrusted hop counts
        assertEquals(
                429,
                call(behindProxy, HttpMethod.GET, "/health", "1.2.3.4, " + a, null)
                        .statusCode());
    }

    @Test
    @DisplayName("CSV exports (format=csv, Accept: text/csv) have the stricter bucket; the JSON page does not")
    void csvExports() {
        String a = freshClient();
        String account = "0x" + "ab".repeat(20);
        var first =
                call(behindProxy, HttpMethod.GET, "/indexer/tx/v1/txs/by_account/" + account + "?format=csv", a, null);
        assertEquals(200, first.statusCode(), first.bodyAsString());
        assertEquals("text/csv; charset=utf-8", first.getHeader("content-type"));
        var second =
                call(behindProxy, HttpMethod.GET, "/indexer/account/v1/" + account + "/transfers?format=csv", a, null);
        assertEquals(429, second.statusCode());
        assertError(second.bodyAsJsonObject(), 8);
        assertEquals(
                200,
                call(behindProxy, HttpMethod.GET, "/indexer/tx/v1/txs/by_account/" + account, a, null)
                        .statusCode());
    }

    @Test
    @DisplayName("POST route/msgs/track and GET /metrics have the stricter bucket")
    void costlyPosts() {
        String a = freshClient();
        var first = call(behindProxy, HttpMethod.POST, "/v2/fungible/route", a, "{}");
        assertTrue(first.statusCode() != 429, first.bodyAsString());
        var second = call(behindProxy, HttpMethod.POST, "/v2/tx/track", a, "{}");
        assertEquals(429, second.statusCode());
        assertError(second.bodyAsJsonObject(), 8);
        assertEquals(200, call(behindProxy, HttpMethod.GET, "/health", a, null).statusCode());
        String b = freshClient();
        assertEquals(200, call(behindProxy, HttpMethod.GET, "/metrics", b, null).statusCode());
        var scrapeAgain = call(behindProxy, HttpMethod.GET, "/metrics", b, null);
        assertEquals(429, scrapeAgain.statusCode());
        assertError(scrapeAgain.bodyAsJsonObject(), 8);
    }

    @Test
    @DisplayName("X-Forwarded-For from a peer that is not a trusted proxy is ignored")
    void untrustedForwardedFor() {
        int limitedAt = -1;
        for (int i = 0; i < 6 && limitedAt < 0; i++) {
            if (call(direct, HttpMethod.GET, "/health", "10.0.0." + i, null).statusCode() == 429) limitedAt = i;
        }
        assertEquals(3, limitedAt);
    }

    @Test
    @DisplayName("the bucket map is bounded by rate_limit.max_clients")
    void boundedBuckets() {
        ClientLimits limits = ClientLimits.of(vertx, "bounded-test", new RateLimitConfig(true, 1, 5, 1, 1, 100));
        for (int i = 0; i < 5000; i++) limits.take("client-" + i, i % 2 == 0);
        assertTrue(limits.size() <= 100, "buckets kept: " + limits.size());
    }

    @Test
    @DisplayName(
            "strict parsing: hex addresses of exactly 40/64 digits, integers as plain digits, duplicate JSON keys rejected")
    void strictParsing() {
        String hex39 = "0x" + "a".repeat(39);
        String hex41 = "0x" + "a".repeat(41);
        for (String uri : new String[] {
            "/indexer/tx/v1/txs/by_account/" + hex39,
            "/indexer/tx/v1/txs/by_account/" + hex41,
            "/indexer/nft/v1/collections/" + hex39,
            "/indexer/block/v1/blocks/1e308",
            "/indexer/block/v1/blocks/+5",
            "/indexer/block/v1/blocks/1.0",
            "/indexer/block/v1/blocks?pagination.limit=1e2",
            "/indexer/block/v1/blocks?pagination.offset=%2B3",
            "/indexer/block/v1/blocks?pagination.limit=10.0"
        }) {
            var r = call(behindProxy, HttpMethod.GET, uri, freshClient(), null);
            assertEquals(400, r.statusCode(), uri + " → " + r.bodyAsString());
            assertError(r.bodyAsJsonObject(), 3);
        }
        var dup = call(
                behindProxy,
                HttpMethod.POST,
                "/v2/fungible/route",
                freshClient(),
                "{\"amount_in\":\"1\",\"amount_in\":\"2\",\"source_asset_denom\":\"uinit\"}");
        assertEquals(400, dup.statusCode(), dup.bodyAsString());
        assertError(dup.bodyAsJsonObject(), 3);
        assertTrue(
                dup.bodyAsJsonObject().getString("message").contains("duplicate key \"amount_in\""),
                dup.bodyAsString());
        var nested = call(
                behindProxy,
                HttpMethod.POST,
                "/v2/fungible/route",
                freshClient(),
                "{\"amount_in\":\"1\",\"swap_venues\":[{\"name\":\"a\",\"chain_id\":\"c\",\"name\":\"b\"}]}");
        assertEquals(400, nested.statusCode(), nested.bodyAsString());
        assertTrue(
                nested.bodyAsJsonObject().getString("message").contains("duplicate key \"name\""),
                nested.bodyAsString());
        // every endpoint that takes a body words malformed JSON and other values the same way (the body is parsed once)
        for (String path : new String[] {"/v2/tx/track", "/v2/info/balances", "/v2/fungible/msgs"}) {
            var malformed = call(behindProxy, HttpMethod.POST, path, freshClient(), "{\"tx_hash\":");
            assertEquals(400, malformed.statusCode(), path + " → " + malformed.bodyAsString());
            assertEquals(
                    "request body is not valid JSON",
                    malformed.bodyAsJsonObject().getString("message"),
                    path);
            var array = call(behindProxy, HttpMethod.POST, path, freshClient(), "[1]");
            assertEquals(400, array.statusCode(), path + " → " + array.bodyAsString());
            assertEquals(
                    "request body must be a JSON object",
                    array.bodyAsJsonObject().getString("message"),
                    path);
        }
    }
}
