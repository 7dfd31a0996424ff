package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.TestNodes.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Swagger UI at /docs: Weft's page over /openapi.json and the pinned webjar's files, served by the node itself. */
class DocsApiTest {
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
    @DisplayName("/docs is Weft's page loading the bundled Swagger UI over /openapi.json")
    void page() {
        for (String path : new String[] {"/docs", "/docs/", "/docs/index.html"}) {
            var r = get(client, port, path);
            assertEquals(200, r.statusCode(), path);
            assertEquals("text/html; charset=utf-8", r.getHeader("content-type"));
            assertTrue(r.bodyAsString().contains("<script src=\"/docs/swagger-ui-bundle.js\"></script>"), path);
        }
        var init = get(client, port, "/docs/weft-docs.js");
        assertEquals(200, init.statusCode());
        assertTrue(init.bodyAsString().contains("url: \"/openapi.json\""));
        var bundle = get(client, port, "/docs/swagger-ui-bundle.js");
        assertEquals(200, bundle.statusCode());
        assertTrue(
                bundle.getHeader("content-type").startsWith("text/javascript")
                        || bundle.getHeader("content-type").startsWith("application/javascript"),
                bundle.getHeader("content-type"));
        assertTrue(bundle.bodyAsString().contains("SwaggerUIBundle"));
        assertEquals(200, get(client, port, "/docs/swagger-ui.css").statusCode());
        assertTrue(get(client, port, "/openapi.json")
                .bodyAsJsonObject()
                .getJsonObject("paths")
                .containsKey("/docs"));
    }

    @Test
    @DisplayName("the webjar's demo initializer and unknown files are JSON 404s")
    void notServed() {
        for (String path : new String[] {"/docs/swagger-initializer.js", "/docs/no-such-file.js"}) {
            var r = get(client, port, path);
            assertEquals(404, r.statusCode(), path);
            assertError(r.bodyAsJsonObject(), 5);
        }
    }

    @Test
    @DisplayName("DocsApi names the webjar version the pom pins")
    void pinnedVersion() throws IOException {
        Matcher m = Pattern.compile("<swagger-ui.version>([^<]+)</swagger-ui.version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(m.find());
        assertEquals("META-INF/resources/webjars/swagger-ui/" + m.group(1), DocsApi.SWAGGER_UI);
        assertTrue(getClass().getClassLoader().getResource(DocsApi.SWAGGER_UI + "/swagger-ui-bundle.js") != null);
    }
}
