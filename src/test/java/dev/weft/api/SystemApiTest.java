package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.Shapes.assertFields;
import static dev.weft.testsupport.Shapes.assertNumber;
import static dev.weft.testsupport.Shapes.assertString;
import static dev.weft.testsupport.TestNodes.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.ApiModules;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The foundation endpoints on a real node (embedded PostgreSQL, real HTTP). */
class SystemApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WeftNode node;
    static WebClient client;
    static int port;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        node = weft.start(weft.config().roles("api"));
        port = TestNodes.httpPort(node);
        client = WebClient.create(vertx);
    }

    @Test
    @DisplayName("/status: exact fields and types, 200 with zero heights before the first block")
    void status() {
        var r = get(client, port, "/status");
        assertEquals(200, r.statusCode());
        assertEquals("application/json", r.getHeader("content-type"));
        JsonObject s = r.bodyAsJsonObject();
        assertFields(s, "version", "commit_hash", "chain_id", "height", "internal_tx_height", "rich_list_height");
        assertString(s, "version");
        assertString(s, "commit_hash");
        assertEquals("weft-devnet-1", s.getString("chain_id"));
        for (String h : new String[] {"height", "internal_tx_height", "rich_list_height"}) {
            assertNumber(s, h);
            assertEquals(0L, s.getLong(h));
        }
        assertTrue(s.getString("version").startsWith("v"), s.getString("version"));
    }

    @Test
    @DisplayName("/health and /ready answer UP")
    void health() {
        assertEquals(
                new JsonObject().put("status", "UP"),
                get(client, port, "/health").bodyAsJsonObject());
        var ready = get(client, port, "/ready");
        assertEquals(200, ready.statusCode());
        assertEquals(
                new JsonObject().put("status", "UP").put("checks", new JsonObject().put("database", "UP")),
                ready.bodyAsJsonObject());
    }

    @Test
    @DisplayName(
            "/metrics is a Prometheus scrape with Vert.x HTTP server metrics: latency buckets, no byte-size buckets; gzipped for a client that accepts it")
    void metrics() throws Exception {
        get(client, port, "/health");
        var r = get(client, port, "/metrics");
        assertEquals(200, r.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", r.getHeader("content-type"));
        String scrape = r.bodyAsString();
        assertTrue(scrape.contains("vertx_http_server_requests_total"), "no HTTP metrics in the scrape");
        assertTrue(scrape.contains("vertx_http_server_response_time_seconds_bucket{"), "no latency buckets");
        assertTrue(scrape.contains("vertx_http_server_response_bytes_count{"), "response sizes keep their count");
        assertTrue(scrape.lines().noneMatch(l -> l.contains("_bytes_bucket{")), "byte-size histograms");
        var zipped = TestNodes.await(client.get(port, "127.0.0.1", "/metrics")
                .putHeader("accept-encoding", "gzip")
                .send());
        assertEquals(200, zipped.statusCode());
        assertEquals("gzip", zipped.getHeader("content-encoding"));
        try (var in = new java.util.zip.GZIPInputStream(
                new java.io.ByteArrayInputStream(zipped.body().getBytes()))) {
            assertTrue(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .contains("vertx_http_server_requests_total"));
        }
    }

    @Test
    @DisplayName("unknown paths, wrong methods and bad bodies get the JSON error body")
    void errors() {
        var notFound = get(client, port, "/indexer/nope/v1/x");
        assertEquals(404, notFound.statusCode());
        assertError(notFound.bodyAsJsonObject(), 5);
        assertEquals(
                "no route for GET /indexer/nope/v1/x",
                notFound.bodyAsJsonObject().getString("message"));

        var wrongMethod = TestNodes.call(client, port, HttpMethod.POST, "/status", new JsonObject());
        assertEquals(405, wrongMethod.statusCode());
        assertError(wrongMethod.bodyAsJsonObject(), 12);

        var delete = TestNodes.call(client, port, HttpMethod.DELETE, "/health", null);
        assertEquals(405, delete.statusCode());
        assertError(delete.bodyAsJsonObject(), 12);
    }

    @Test
    @DisplayName("/openapi.json documents every GET/POST route the router serves")
    void openApiCoversRoutes() {
        JsonObject doc = get(client, port, "/openapi.json").bodyAsJsonObject();
        assertEquals("3.0.3", doc.getString("openapi"));
        JsonObject paths = doc.getJsonObject("paths");
        io.vertx.ext.web.Router router = io.vertx.ext.web.Router.router(vertx);
        for (ApiModule m : ApiModules.forNode(node.context())) m.mount(router);
        java.util.List<String> checked = new java.util.ArrayList<>();
        for (Route route : router.getRoutes()) {
            if (route.getPath() == null || route.methods() == null) continue;
            String openApiPath = route.getPath().replaceAll(":([a-z_]+)", "{$1}");
            checked.add(openApiPath);
            assertTrue(paths.containsKey(openApiPath), "route " + route.getPath() + " missing from /openapi.json");
            for (HttpMethod m : route.methods()) {
                assertTrue(
                        paths.getJsonObject(openApiPath).containsKey(m.name().toLowerCase()),
                        m + " " + route.getPath() + " missing from /openapi.json");
            }
        }
        assertTrue(
                checked.containsAll(java.util.List.of(
                        "/indexer/block/v1/blocks", "/v2/fungible/route", "/v2/tx/track", "/v2/tx/status")),
                "the routes checked include the indexer, routing and tracking modules: " + checked);
    }

    @Test
    @DisplayName(
            "a client offering an h2c upgrade (the JDK HttpClient's default) gets plain HTTP/1.1 answers, bodies included")
    void noCleartextUpgrade() throws Exception {
        java.net.http.HttpClient jdk = java.net.http.HttpClient.newBuilder()
                .connectTimeout(java.time.Duration.ofSeconds(10))
                .build();
        for (int i = 0; i < 20; i++) {
            var get = jdk.send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/status"))
                            .timeout(java.time.Duration.ofSeconds(20))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, get.statusCode());
            assertEquals(java.net.http.HttpClient.Version.HTTP_1_1, get.version());
            var post = jdk.send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/status"))
                            .timeout(java.time.Duration.ofSeconds(20))
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"x\":" + i + "}"))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode());
            assertEquals(java.net.http.HttpClient.Version.HTTP_1_1, post.version());
            assertTrue(post.body().contains("\"message\""), post.body());
        }
    }
}
