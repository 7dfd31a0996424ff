package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The admin API an outsider meets: off without a token, a 401 without the right bearer token, JSON-only bodies, no
 * way to stop the last API instance by accident, its own loopback listener when configured, and a readiness check
 * that names a stopped single-writer role.
 */
class AdminSecurityTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String TOKEN = "0123456789abcdef-admin";
    static Vertx vertx;
    static WeftNode open; // no admin.token: admin API off
    static WeftNode guarded; // admin.token set, admin on the API port
    static WeftNode separate; // admin.token set, admin on its own listener
    static WebClient client;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        open = weft.start(weft.config().roles("api").set("node.name", "admin-off"));
        guarded = weft.start(
                weft.config().roles("api", "track").set("node.name", "admin-on").set("admin.token", TOKEN));
        separate = weft.start(weft.config()
                .roles("api")
                .set("node.name", "admin-own")
                .set("admin.token", TOKEN)
                .set("admin.port", 0));
        client = WebClient.create(vertx);
    }

    private static HttpResponse<Buffer> request(
            WeftNode node, HttpMethod method, String uri, String contentType, String body, String auth) {
        var req = client.request(method, TestNodes.httpPort(node), "127.0.0.1", uri);
        if (contentType != null) req.putHeader("content-type", contentType);
        if (auth != null) req.putHeader("authorization", auth);
        return TestNodes.await(body == null ? req.send() : req.sendBuffer(Buffer.buffer(body)));
    }

    private static HttpResponse<Buffer> scale(String body) {
        return request(guarded, HttpMethod.POST, "/admin/scale", "application/json", body, "Bearer " + TOKEN);
    }

    @Test
    @DisplayName("without admin.token the admin API does not exist; a cross-site text/plain scale-to-0 does nothing")
    void offWithoutToken() {
        var nodes = request(open, HttpMethod.GET, "/admin/nodes", null, null, null);
        assertEquals(404, nodes.statusCode());
        assertError(nodes.bodyAsJsonObject(), 5);
        var csrf = request(
                open, HttpMethod.POST, "/admin/scale", "text/plain", "{\"kind\":\"api\",\"instances\":0}", null);
        assertTrue(csrf.statusCode() == 404 || csrf.statusCode() == 415, "status " + csrf.statusCode());
        assertEquals(
                200, request(open, HttpMethod.GET, "/health", null, null, null).statusCode());
    }

    @Test
    @DisplayName("with a token: no or a wrong bearer is 401 JSON; text/plain is 415; the right token works")
    void bearerToken() {
        var none = request(guarded, HttpMethod.GET, "/admin/nodes", null, null, null);
        assertEquals(401, none.statusCode());
        assertError(none.bodyAsJsonObject(), 16);
        assertEquals("Bearer", none.getHeader("www-authenticate"));
        var wrong = request(guarded, HttpMethod.GET, "/admin/nodes", null, null, "Bearer " + TOKEN + "x");
        assertEquals(401, wrong.statusCode());
        var csrf = request(
                guarded, HttpMethod.POST, "/admin/scale", "text/plain", "{\"kind\":\"api\",\"instances\":0}", null);
        assertEquals(415, csrf.statusCode());
        assertError(csrf.bodyAsJsonObject(), 3);
        var noAuthJson = request(
                guarded,
                HttpMethod.POST,
                "/admin/scale",
                "application/json",
                "{\"kind\":\"api\",\"instances\":0}",
                null);
        assertEquals(401, noAuthJson.statusCode());
        var ok = request(guarded, HttpMethod.GET, "/admin/nodes", null, null, "Bearer " + TOKEN);
        assertEquals(200, ok.statusCode());
        assertEquals(
                "admin-on",
                ok.bodyAsJsonObject().getJsonArray("nodes").getJsonObject(0).getString("node_id"));
    }

    @Test
    @DisplayName(
            "scale bodies: arrays, strings, unknown kinds or fields, negative, absurd or fractional counts are 400 JSON")
    void bodyValidation() {
        for (String body : new String[] {
            "[1,2]",
            "\"api\"",
            "42",
            "null",
            "{\"kind\":\"miner\",\"instances\":1}",
            "{\"kind\":\"api\",\"instances\":-1}",
            "{\"kind\":\"api\",\"instances\":100000}",
            "{\"kind\":\"api\",\"instances\":1.5}",
            "{\"kind\":\"api\",\"instances\":1e308}",
            "{\"kind\":\"api\",\"instances\":\"2\"}",
            "{\"kind\":\"api\",\"instances\":1,\"extra\":true}",
            "{\"kind\":\"api\",\"instances\":1,\"force\":\"yes\"}",
            "{\"kind\":\"api\",\"instances\":1,\"kind\":\"ingest\"}"
        }) {
            var r = scale(body);
            assertEquals(400, r.statusCode(), body + " → " + r.bodyAsString());
            assertError(r.bodyAsJsonObject(), 3);
        }
    }

    @Test
    @DisplayName("the last API instance is not scaled to 0 without force; the API keeps answering")
    void lastInstance() {
        var r = scale("{\"kind\":\"api\",\"instances\":0}");
        assertEquals(409, r.statusCode(), r.bodyAsString());
        assertTrue(r.bodyAsJsonObject().getString("message").contains("force"), r.bodyAsString());
        assertEquals(
                200,
                request(guarded, HttpMethod.GET, "/health", null, null, null).statusCode());
    }

    @Test
    @DisplayName("a stopped single-writer role makes /ready 503 and names it; restarting it makes the node ready again")
    void readinessNamesStoppedRole() {
        assertEquals(
                200,
                request(guarded, HttpMethod.GET, "/ready", null, null, null).statusCode());
        assertEquals(200, scale("{\"kind\":\"track\",\"instances\":0}").statusCode());
        var notReady = request(guarded, HttpMethod.GET, "/ready", null, null, null);
        assertEquals(503, notReady.statusCode(), notReady.bodyAsString());
        JsonObject checks = notReady.bodyAsJsonObject().getJsonArray("details").getJsonObject(0);
        assertTrue(checks.getString("track", "").startsWith("DOWN"), checks.encode());
        assertEquals(200, scale("{\"kind\":\"track\",\"instances\":1}").statusCode());
        assertEquals(
                200,
                request(guarded, HttpMethod.GET, "/ready", null, null, null).statusCode());
    }

    @Test
    @DisplayName("admin.port: the admin API answers on its own loopback listener, not on the public port")
    void ownListener() {
        assertEquals(
                404,
                request(separate, HttpMethod.GET, "/admin/nodes", null, null, "Bearer " + TOKEN)
                        .statusCode());
        int adminPort = separate.context().info().adminPort();
        var r = TestNodes.await(client.get(adminPort, "127.0.0.1", "/admin/nodes")
                .putHeader("authorization", "Bearer " + TOKEN)
                .send());
        assertEquals(200, r.statusCode());
        var unauthorized = TestNodes.await(
                client.get(adminPort, "127.0.0.1", "/admin/nodes").send());
        assertEquals(401, unauthorized.statusCode());
        assertEquals(
                404,
                TestNodes.await(client.get(adminPort, "127.0.0.1", "/status").send())
                        .statusCode());
    }
}
