package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTTP server's own limits, driven over raw sockets: slow requests get a 408 and are closed, idle connections are
 * closed, one address holds a bounded number of connections, and every error the server itself produces (before any
 * handler runs) carries the JSON error body.
 */
class HttpLimitsTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static WeftNode node;
    static int port;

    @BeforeAll
    static void start() {
        node = weft.start(weft.config()
                .roles("api")
                .set("http.request_timeout", "700ms")
                .set("http.idle_timeout", "2s")
                .set("http.max_connections_per_client", 4)
                .set("http.body_limit_bytes", 1024)
                .set("http.max_initial_line_bytes", 1024)
                .set("http.max_header_bytes", 2048));
        port = TestNodes.httpPort(node);
    }

    private static void assertJsonError(RawHttp.Response r, int status, int grpcCode) {
        assertNotNull(r, "no response");
        assertEquals(status, r.status(), r.body());
        assertTrue(
                r.headers().getOrDefault("content-type", "").startsWith("application/json"),
                r.headers().toString());
        assertError(r.json(), grpcCode);
    }

    @Test
    @DisplayName("half a request line: 408 with the JSON body, then the connection closes")
    void slowRequestLine() throws Exception {
        try (RawHttp c = new RawHttp(port)) {
            c.write("GET /hea");
            assertJsonError(c.read(), 408, 4);
            assertTrue(c.closedByServer());
        }
    }

    @Test
    @DisplayName("headers that never end: 408 and close")
    void slowHeaders() throws Exception {
        try (RawHttp c = new RawHttp(port)) {
            c.write("GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n");
            assertJsonError(c.read(), 408, 4);
            assertTrue(c.closedByServer());
        }
    }

    @Test
    @DisplayName("a body that stops halfway: 408 and close")
    void slowBody() throws Exception {
        try (RawHttp c = new RawHttp(port)) {
            c.write(
                    "POST /v2/fungible/route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"amount_in\":");
            assertJsonError(c.read(), 408, 4);
            assertTrue(c.closedByServer());
        }
    }

    @Test
    @DisplayName("keep-alive: a complete request is answered, and the next slow one still times out")
    void keepAliveThenSlow() throws Exception {
        try (RawHttp c = new RawHttp(port)) {
            c.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response ok = c.read();
            assertEquals(200, ok.status());
            c.write("GET /sta");
            assertJsonError(c.read(), 408, 4);
        }
    }

    @Test
    @DisplayName("an idle connection is closed after http.idle_timeout")
    void idleConnection() {
        // connections an earlier test closed count against this client until the server has seen their close: until
        // then a
        // new one is answered 429 at once (connectionCap); an idle connection gets no answer, only the close
        dev.weft.testsupport.Await.until("an idle connection closed by the server without an answer", 30, () -> {
            try (RawHttp c = new RawHttp(port)) {
                RawHttp.Response r;
                try {
                    r = c.read();
                } catch (java.net.SocketTimeoutException e) {
                    throw new AssertionError("idle connection still open");
                } catch (java.io.IOException e) {
                    return true; // closed by a reset
                }
                if (r == null) return true;
                assertEquals(429, r.status(), "an idle connection was answered: " + r.body());
                return false;
            }
        });
    }

    @Test
    @DisplayName("URI too long: 414 JSON; headers too large: 431 JSON; malformed request: 400 JSON")
    void decoderErrors() throws Exception {
        try (RawHttp c = new RawHttp(port)) {
            c.write("GET /status?x=" + "a".repeat(2000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
            assertJsonError(c.read(), 414, 3);
        }
        try (RawHttp c = new RawHttp(port)) {
            c.write("GET /status HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(4000) + "\r\n\r\n");
            assertJsonError(c.read(), 431, 3);
        }
        try (RawHttp c = new RawHttp(port)) {
            c.write("GET /status HTTP/1.1\r\nHost: x\r\nContent-Length: nine\r\n\r\n");
            assertJsonError(c.read(), 400, 3);
        }
        try (RawHttp c = new RawHttp(port)) {
            c.write("GET /indexer/tx/v1/txs/%zz HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response r = c.read();
            assertJsonError(r, 400, 3);
            assertEquals(
                    "malformed percent-encoding in the request URI (a '%' must be followed by two hex digits)",
                    r.json().getString("message"));
        }
    }

    @Test
    @DisplayName(
            "a request line of another HTTP version (the HTTP/2 prior-knowledge preface, HTTP/1.2): 505 JSON, then the connection closes; HTTP/1.0 is served")
    void otherHttpVersions() throws Exception {
        try (RawHttp c = new RawHttp(port)) {
            assertEquals(
                    "HTTP/2.0 is not supported: this server speaks HTTP/1.1",
                    refusedThenClosed(c, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
                            .json()
                            .getString("message"));
        }
        try (RawHttp c = new RawHttp(port)) {
            // a second request pipelined behind the refused one is not answered
            assertEquals(
                    "HTTP/1.2 is not supported: this server speaks HTTP/1.1",
                    refusedThenClosed(
                                    c, "GET /status HTTP/1.2\r\nHost: x\r\n\r\nGET /status HTTP/1.1\r\nHost: x\r\n\r\n")
                            .json()
                            .getString("message"));
        }
        try (RawHttp c = new RawHttp(port)) {
            c.write("GET /health HTTP/1.0\r\n\r\n");
            assertEquals(200, c.read().status());
        }
    }

    /** Sends {@code request}, expects the JSON 505 and the server closing the connection; returns the answer. */
    private static RawHttp.Response refusedThenClosed(RawHttp c, String request) throws Exception {
        c.write(request);
        RawHttp.Response r = c.read();
        assertJsonError(r, 505, 12);
        assertTrue(c.closedByServer(), "the connection stays open");
        return r;
    }

    @Test
    @DisplayName("405 names the allowed methods; 404 and 413 carry the JSON body")
    void routerErrors() throws Exception {
        try (RawHttp c = new RawHttp(port)) {
            c.write("DELETE /status HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response r = c.read();
            assertJsonError(r, 405, 12);
            assertEquals("GET, HEAD", r.headers().get("allow"));
            c.write("GET /v2/fungible/route HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response post = c.read();
            assertJsonError(post, 405, 12);
            assertEquals("POST", post.headers().get("allow"));
            c.write("GET /no/such/thing HTTP/1.1\r\nHost: x\r\n\r\n");
            assertJsonError(c.read(), 404, 5);
            String big = "{\"x\":\"" + "y".repeat(2000) + "\"}";
            c.write("POST /v2/fungible/route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + big.length() + "\r\n\r\n" + big);
            assertJsonError(c.read(), 413, 3);
        }
    }

    @Test
    @DisplayName(
            "HEAD answers what GET would, without the body: status, content-type, content-length, the query's checks")
    void headIsGetWithoutBody() throws Exception {
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        for (String path :
                List.of("/health", "/indexer/tx/v1/txs?pagination.limit=1", "/indexer/tx/v1/txs?pagination.limit=0")) {
            java.net.http.HttpResponse<String> get = client.send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            java.net.http.HttpResponse<String> head = client.send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
                            .method("HEAD", java.net.http.HttpRequest.BodyPublishers.noBody())
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(get.statusCode(), head.statusCode(), path);
            assertEquals("", head.body(), path);
            assertEquals(
                    get.headers().firstValue("content-type"), head.headers().firstValue("content-type"), path);
            assertEquals(
                    String.valueOf(get.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length),
                    head.headers().firstValue("content-length").orElse(null),
                    path);
        }
        java.net.http.HttpResponse<String> post = client.send(
                java.net.http.HttpRequest.newBuilder(
                                java.net.URI.create("http://127.0.0.1:" + port + "/v2/fungible/route"))
                        .method("HEAD", java.net.http.HttpRequest.BodyPublishers.noBody())
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals("POST", post.headers().firstValue("allow").orElse(null));
    }

    @Test
    @DisplayName("bodies must be JSON: text/plain and a 2 KB form are 415 (never decoded), the API keeps answering")
    void jsonOnly() throws Exception {
        try (RawHttp c = new RawHttp(port)) {
            String text = "{\"kind\":\"api\",\"instances\":0}";
            c.write(
                    "POST /v2/fungible/route HTTP/1.1\r\nHost: x\r\nOrigin: http://evil.example\r\nContent-Type: text/plain\r\nContent-Length: "
                            + text.length() + "\r\n\r\n" + text);
            assertJsonError(c.read(), 415, 3);
            String form = "a=" + "b".repeat(900);
            c.write(
                    "POST /v2/tx/track HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                            + form.length() + "\r\n\r\n" + form);
            assertJsonError(c.read(), 415, 3);
            c.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, c.read().status());
        }
    }

    @Test
    @DisplayName(
            "one address holds at most http.max_connections_per_client connections; the next gets 429 JSON and is closed")
    void connectionCap() throws Exception {
        List<RawHttp> open = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                RawHttp c = new RawHttp(port);
                open.add(c);
                c.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, c.read().status());
            }
            try (RawHttp extra = new RawHttp(port)) {
                extra.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
                assertJsonError(extra.read(), 429, 8);
                assertTrue(extra.closedByServer());
            }
            open.remove(0).close();
            // the freed slot is counted back once the server has seen the close: a new connection then gets in
            RawHttp again = null;
            for (int attempt = 0; attempt < 50 && again == null; attempt++) {
                RawHttp c = new RawHttp(port);
                c.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
                RawHttp.Response r = c.read();
                if (r != null && r.status() == 200) again = c;
                else c.close();
            }
            assertNotNull(again, "a closed connection's slot was never freed");
            open.add(again);
        } finally {
            for (RawHttp c : open) c.close();
        }
    }
}
