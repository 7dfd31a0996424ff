package dev.weft.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delivery cursor is durable: the node delivering a webhook (a child JVM running the real launcher, roles api) is
 * killed with SIGKILL while deliveries are pending, then started again on the same database; every event the log holds
 * reaches the receiver, and only a delivery in flight at the kill is repeated.
 */
class WebhookKillTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String TOKEN = "webhook-kill-test-admin-token";
    static final long BLOCKS = 30;

    static Process launch(Path dir, String name, TestConfig c) throws Exception {
        Path cfg = dir.resolve(name + ".json");
        Files.writeString(cfg, c.json().encodePrettily());
        return new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.weft.Main",
                        "--config",
                        cfg.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile())
                .start();
    }

    static int status(HttpClient client, HttpRequest r) {
        try {
            return client.send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    static long count(String url, String sql) throws Exception {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    @DisplayName("kill -9 of the delivering node mid-way, restart: distinct delivered ids = events produced, none lost")
    void killAndRestart(@TempDir Path dir) throws Exception {
        Vertx vertx = weft.vertx();
        List<String> ids = new CopyOnWriteArrayList<>();
        Set<String> distinct = ConcurrentHashMap.newKeySet();
        // a receiver that takes a while to answer, so deliveries are still pending when the node dies
        HttpServer server = vertx.createHttpServer()
                .requestHandler(req -> req.body().onSuccess(b -> {
                    String id = new JsonObject(b).getString("id");
                    vertx.setTimer(15, t -> {
                        ids.add(id);
                        distinct.add(id);
                        req.response().setStatusCode(200).end();
                    });
                }));
        int receiver = TestNodes.await(server.listen(0, "127.0.0.1")).actualPort();

        TestConfig producer = weft.config()
                .roles("devnet", "ingest")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.txs_per_block", 3)
                .set("ingest.poll_interval", "50ms");
        String url = (String) producer.get("database.url");
        WeftNode devnet = weft.start(producer);
        int http = Ports.free();
        TestConfig deliverer = TestConfig.of(producer.json())
                .roles("api")
                .set("http.port", http)
                .set("bridge.tcp_enabled", false)
                .set("admin.token", TOKEN)
                .set("webhooks.allow_private_targets", true)
                .set("webhooks.poll_interval", "100ms")
                .set("webhooks.backoff_base", "20ms")
                .set("webhooks.backoff_max", "200ms")
                .set("log.level", "info");
        var chain = devnet.context().config().chain();
        deliverer
                .set("chain.rpc", new io.vertx.core.json.JsonArray(chain.rpcUrls()))
                .set("chain.rest", new io.vertx.core.json.JsonArray(chain.restUrls()))
                .set("chain.json_rpc", new io.vertx.core.json.JsonArray(chain.jsonRpcUrls()));
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String api = "http://127.0.0.1:" + http;
        HttpRequest health = HttpRequest.newBuilder(URI.create(api + "/health")).build();
        Process node = launch(dir, "first", deliverer);
        try {
            Await.until("the delivering node answers", 90, () -> status(client, health) == 200);
            HttpResponse<String> created = client.send(
                    HttpRequest.newBuilder(URI.create(api + "/v1/webhooks"))
                            .header("authorization", "Bearer " + TOKEN)
                            .header("content-type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(new JsonObject()
                                    .put("url", "http://127.0.0.1:" + receiver + "/hook")
                                    .put("secret", "kill-test-secret-0123")
                                    .put("after", 0)
                                    .encode()))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, created.statusCode(), created.body());
            Await.until("40 deliveries", 90, () -> distinct.size() >= 40);
            node.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            int atKill = distinct.size();
            Await.cursor(url, "ingest", BLOCKS, 120);
            long produced = count(url, "SELECT count(*) FROM event_log");
            assertTrue(atKill < produced, "killed with deliveries pending: " + atKill + " of " + produced);

            node = launch(dir, "second", deliverer);
            Await.until("every event delivered", 180, () -> distinct.size() >= produced);
            assertEquals(produced, distinct.size(), "distinct delivered ids = events produced");
            assertTrue(
                    ids.size() - distinct.size() <= 1,
                    "at most the delivery in flight repeated: " + (ids.size() - distinct.size()));
            assertEquals(
                    count(url, "SELECT max(sequence) FROM event_log"),
                    count(url, "SELECT cursor FROM webhooks"),
                    "the cursor at the last event");
        } finally {
            node.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
