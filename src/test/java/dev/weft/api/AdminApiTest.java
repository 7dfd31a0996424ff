package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.Shapes.assertFields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class AdminApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String TOKEN = "admin-test-token-0123456789";
    static Vertx vertx;
    static WeftNode node;
    static WebClient client;
    static int port;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        node = weft.start(weft.config()
                .roles("api")
                .set("node.name", "admin-test")
                .set("admin.token", TOKEN)
                .set("bridge.tcp_port", 0)
                .set("http.drain", "1s"));
        port = TestNodes.httpPort(node);
        client = WebClient.create(vertx);
    }

    /** An admin request bearing the token. */
    static io.vertx.ext.web.client.HttpResponse<io.vertx.core.buffer.Buffer> admin(
            HttpMethod method, String uri, JsonObject body) {
        var req = client.request(method, port, "127.0.0.1", uri).putHeader("authorization", "Bearer " + TOKEN);
        return TestNodes.await(body == null ? req.send() : req.sendJsonObject(body));
    }

    private static JsonObject scale(String kind, Object instances) {
        return admin(
                        HttpMethod.POST,
                        "/admin/scale",
                        new JsonObject().put("kind", kind).put("instances", instances))
                .bodyAsJsonObject();
    }

    @Test
    @DisplayName("/admin/nodes describes what the node runs")
    void nodes() {
        JsonObject body = admin(HttpMethod.GET, "/admin/nodes", null).bodyAsJsonObject();
        JsonArray nodes = body.getJsonArray("nodes");
        assertEquals(1, nodes.size());
        JsonObject n = nodes.getJsonObject(0);
        assertFields(n, "node_id", "node_name", "roles", "clustered", "kinds");
        assertEquals("admin-test", n.getString("node_id"));
        assertEquals(new JsonArray().add("api"), n.getJsonArray("roles"));
        JsonObject api = n.getJsonObject("kinds").getJsonObject("api");
        assertFields(api, "instances", "single_writer", "requests_served");
        assertEquals(1, api.getInteger("instances"));
        assertEquals(false, api.getBoolean("single_writer"));
    }

    @Test
    @DisplayName("API instances scale up and take requests, and scale down with no failed request")
    void hotScaleApi() throws Exception {
        JsonObject scaled = scale("api", 4);
        assertEquals(
                4,
                scaled.getJsonObject("kinds", new JsonObject())
                        .getJsonObject("api", new JsonObject())
                        .getInteger("instances"),
                scaled.encode());
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger ok = new AtomicInteger();
        // the clients count answers down on the latch of the current phase (400 answers with 4 instances, then 400 with
        // 1)
        AtomicReference<CountDownLatch> phase = new AtomicReference<>(new CountDownLatch(400));
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> clients = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread client = new Thread(() -> {
                // one keep-alive HTTP/1.1 connection per client, as typical API clients use
                java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
                        .version(java.net.http.HttpClient.Version.HTTP_1_1)
                        .build();
                while (running.get()) {
                    try {
                        var r = http.send(
                                java.net.http.HttpRequest.newBuilder(
                                                java.net.URI.create("http://127.0.0.1:" + port + "/health"))
                                        .build(),
                                java.net.http.HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() == 200) {
                            ok.incrementAndGet();
                            phase.get().countDown();
                        } else {
                            failures.add("status " + r.statusCode());
                        }
                    } catch (Exception e) {
                        failures.add(e.toString());
                    }
                }
            });
            clients.add(client);
            client.start();
        }
        try {
            assertTrue(
                    phase.get().await(30, TimeUnit.SECONDS),
                    "400 answers with 4 instances; got " + ok.get() + ", failures " + failures);
            JsonArray served = admin(HttpMethod.GET, "/admin/nodes", null)
                    .bodyAsJsonObject()
                    .getJsonArray("nodes")
                    .getJsonObject(0)
                    .getJsonObject("kinds")
                    .getJsonObject("api")
                    .getJsonArray("requests_served");
            assertEquals(4, served.size());
            long busy =
                    served.stream().filter(n -> ((Number) n).longValue() > 0).count();
            assertTrue(busy >= 2, "new instances took no requests: " + served);
            assertEquals(
                    1,
                    scale("api", 1).getJsonObject("kinds").getJsonObject("api").getInteger("instances"));
            phase.set(new CountDownLatch(400));
            assertTrue(
                    phase.get().await(30, TimeUnit.SECONDS),
                    "400 answers after scaling down; got " + ok.get() + ", failures " + failures);
        } finally {
            running.set(false);
            for (Thread t : clients) t.join();
        }
        assertEquals(List.of(), failures);
        assertTrue(ok.get() >= 800, "requests answered: " + ok.get());
    }

    @Test
    @DisplayName("bad scale requests are 400/404 JSON errors")
    void badRequests() {
        var unknownKind = admin(
                HttpMethod.POST,
                "/admin/scale",
                new JsonObject().put("kind", "miner").put("instances", 1));
        assertEquals(400, unknownKind.statusCode());
        assertError(unknownKind.bodyAsJsonObject(), 3);
        var tooMany = admin(
                HttpMethod.POST,
                "/admin/scale",
                new JsonObject().put("kind", "api").put("instances", 65));
        assertEquals(400, tooMany.statusCode());
        var notInt = admin(
                HttpMethod.POST,
                "/admin/scale",
                new JsonObject().put("kind", "api").put("instances", "two"));
        assertEquals(400, notInt.statusCode());
        var unknownNode = admin(
                HttpMethod.POST,
                "/admin/scale",
                new JsonObject().put("node_id", "elsewhere").put("kind", "api").put("instances", 1));
        assertEquals(404, unknownNode.statusCode());
        assertError(unknownNode.bodyAsJsonObject(), 5);
        var notJson = client.post(port, "127.0.0.1", "/admin/scale")
                .putHeader("content-type", "application/json")
                .putHeader("authorization", "Bearer " + TOKEN)
                .sendBuffer(io.vertx.core.buffer.Buffer.buffer("{oops"));
        var r = TestNodes.await(notJson);
        assertEquals(400, r.statusCode());
        assertError(r.bodyAsJsonObject(), 3);
    }

    @Test
    @DisplayName(
            "DELETE /admin/chains/{id} drops a removed chain's schema and says what it held; 409 for a configured chain or a schema Weft did not migrate, 404 for none, 400 for a bad id")
    void dropRemovedChain() throws Exception {
        String url = node.context().config().database().url();
        // what a chains entry left behind once removed from the configuration: its migrated schema with its rows
        try (java.sql.Connection c = dev.weft.testsupport.TestDatabase.jdbc(url);
                java.sql.Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA chain_old_rollup_1;"
                    + " CREATE TABLE chain_old_rollup_1.weft_migration (version text PRIMARY KEY);"
                    + " CREATE TABLE chain_old_rollup_1.pipeline_cursor (name text PRIMARY KEY, height bigint NOT NULL);"
                    + " INSERT INTO chain_old_rollup_1.pipeline_cursor VALUES ('ingest', 42), ('evm', 40);"
                    + " CREATE TABLE chain_old_rollup_1.block (height bigint PRIMARY KEY);"
                    + " CREATE SCHEMA chain_someone_else; CREATE TABLE chain_someone_else.t (x int);");
        }
        var dropped = admin(HttpMethod.DELETE, "/admin/chains/old-rollup-1", null);
        assertEquals(200, dropped.statusCode(), dropped.bodyAsString());
        assertEquals(
                new JsonObject()
                        .put("chain_id", "old-rollup-1")
                        .put("schema", "chain_old_rollup_1")
                        .put("tables", 3)
                        .put("height", 42),
                dropped.bodyAsJsonObject());
        assertEquals(0, schemas(url, "chain_old_rollup_1"));
        // dropped once: there is nothing left to drop
        var again = admin(HttpMethod.DELETE, "/admin/chains/old-rollup-1", null);
        assertEquals(404, again.statusCode());
        assertError(again.bodyAsJsonObject(), 5);

        String configured = node.context().config().chains().defaultChainId();
        var live = admin(HttpMethod.DELETE, "/admin/chains/" + configured, null);
        assertEquals(409, live.statusCode());
        assertError(live.bodyAsJsonObject(), 6);
        assertTrue(live.bodyAsJsonObject().getString("message").contains("is configured"), live.bodyAsString());

        var foreign = admin(HttpMethod.DELETE, "/admin/chains/someone_else", null);
        assertEquals(409, foreign.statusCode());
        assertEquals(1, schemas(url, "chain_someone_else"), "a schema Weft did not migrate is kept");

        var bad = admin(HttpMethod.DELETE, "/admin/chains/" + "x".repeat(65), null);
        assertEquals(400, bad.statusCode());
        assertError(bad.bodyAsJsonObject(), 3);
        var noToken = TestNodes.await(
                client.delete(port, "127.0.0.1", "/admin/chains/someone_else").send());
        assertEquals(401, noToken.statusCode());
        assertEquals(1, schemas(url, "chain_someone_else"));
        assertEquals(1, schemas(url, "public"));
    }

    private static int schemas(String url, String name) throws Exception {
        try (java.sql.Connection c = dev.weft.testsupport.TestDatabase.jdbc(url);
                java.sql.PreparedStatement st =
                        c.prepareStatement("SELECT count(*) FROM pg_namespace WHERE nspname = ?")) {
            st.setString(1, name);
            try (java.sql.ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
