package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Browsers calling the API from another origin, with the origins listed (a subdomain wildcard among them) and with {@code *}. */
class CorsTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WeftNode listed;
    static WeftNode any;
    static WebClient client;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        listed = weft.start(weft.config()
                .roles("api")
                .set("node.name", "listed")
                .set("http.cors_origins", "https://*.example.com, http://localhost:3000/"));
        any = weft.start(weft.config().roles("api").set("node.name", "any").set("http.cors_origins", "*"));
        client = WebClient.create(vertx);
    }

    static io.vertx.ext.web.client.HttpResponse<io.vertx.core.buffer.Buffer> call(
            WeftNode node, HttpMethod method, String origin, String requestMethod) {
        var req = client.request(method, TestNodes.httpPort(node), "127.0.0.1", "/health")
                .putHeader("origin", origin);
        if (requestMethod != null) req.putHeader("access-control-request-method", requestMethod);
        return TestNodes.await(req.send());
    }

    @Test
    @DisplayName(
            "a listed origin or a subdomain of a wildcard gets its origin back (never credentials); another a 403 JSON; a preflight names the methods")
    void listedOrigins() {
        for (String origin :
                new String[] {"https://app.example.com", "https://a.b.example.com", "http://localhost:3000"}) {
            var r = call(listed, HttpMethod.GET, origin, null);
            assertEquals(200, r.statusCode(), origin);
            assertEquals(origin, r.getHeader("access-control-allow-origin"));
            assertNull(r.getHeader("access-control-allow-credentials"));
        }
        var foreign = call(listed, HttpMethod.GET, "https://example.com.evil.io", null);
        assertEquals(403, foreign.statusCode());
        assertError(foreign.bodyAsJsonObject(), 7);
        assertNull(foreign.getHeader("access-control-allow-origin"));
        var preflight = call(listed, HttpMethod.OPTIONS, "https://app.example.com", "POST");
        assertTrue(
                preflight.statusCode() == 204 || preflight.statusCode() == 200, String.valueOf(preflight.statusCode()));
        assertEquals("https://app.example.com", preflight.getHeader("access-control-allow-origin"));
        assertTrue(
                preflight.getHeader("access-control-allow-methods").contains("POST"),
                preflight.getHeader("access-control-allow-methods"));
    }

    @Test
    @DisplayName("* allows every origin with Access-Control-Allow-Origin: *")
    void star() {
        var r = call(any, HttpMethod.GET, "https://wallet.anywhere.example", null);
        assertEquals(200, r.statusCode());
        assertEquals("*", r.getHeader("access-control-allow-origin"));
        assertNull(r.getHeader("access-control-allow-credentials"));
    }
}
