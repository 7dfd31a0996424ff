package dev.weft.bench;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Webhook deliveries per second to a local receiver: a node (roles devnet in history mode, ingest, api; embedded
 * PostgreSQL) indexes {@code bench.blocks} blocks first, then {@code bench.webhooks} webhooks with no filter are
 * created from sequence 0, and the time until the receiver (a Vert.x server in this JVM answering 200 at once) has
 * every event of the log once per webhook is measured. Each webhook delivers one event at a time (in order, its
 * cursor written after each 2xx), so the rate of one is its round-trip and cursor write; several run in parallel
 * within {@code webhooks.max_concurrent}.
 */
public final class WebhookBench {
    private WebhookBench() {}

    public static void main(String[] args) throws Exception {
        long blocks = Long.getLong("bench.blocks", 200);
        int txsPerBlock = Integer.getInteger("bench.txs_per_block", 4);
        int hooks = Integer.getInteger("bench.webhooks", 4);
        String token = "webhook-bench-admin-token";
        Vertx vertx = TestNodes.newVertx();
        AtomicLong received = new AtomicLong();
        HttpServer server = vertx.createHttpServer()
                .requestHandler(req -> req.body().onSuccess(b -> {
                    received.incrementAndGet();
                    req.response().setStatusCode(200).end();
                }));
        int receiver = TestNodes.await(server.listen(0, "127.0.0.1")).actualPort();
        TestConfig c = TestConfig.defaults()
                .roles("devnet", "ingest", "api")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", blocks)
                .set("devnet.txs_per_block", txsPerBlock)
                .set("ingest.poll_interval", "50ms")
                .set("admin.token", token)
                .set("webhooks.allow_private_targets", true)
                .set("webhooks.max_webhooks", Math.max(hooks, 1));
        String url = (String) c.get("database.url");
        WeftNode node = TestNodes.start(vertx, c.build());
        try {
            int port = TestNodes.httpPort(node);
            Await.cursor(url, "ingest", blocks, 600);
            long events = count(url, "SELECT count(*) FROM event_log");
            System.out.printf(
                    Locale.ROOT,
                    "weft webhook bench: %d blocks indexed, %d events in the log, %d webhook(s), %d cores%n",
                    blocks,
                    events,
                    hooks,
                    Runtime.getRuntime().availableProcessors());
            WebClient client = WebClient.create(vertx);
            long t0 = System.nanoTime();
            for (int i = 0; i < hooks; i++) {
                var r = TestNodes.await(client.request(HttpMethod.POST, port, "127.0.0.1", "/v1/webhooks")
                        .putHeader("authorization", "Bearer " + token)
                        .sendJsonObject(new JsonObject()
                                .put("url", "http://127.0.0.1:" + receiver + "/hook")
                                .put("secret", "webhook-bench-secret")
                                .put("after", 0)));
                if (r.statusCode() != 201) throw new IllegalStateException(r.bodyAsString());
            }
            long expected = events * hooks;
            Await.until("every event delivered to every webhook", 1800, () -> received.get() >= expected);
            double secs = (System.nanoTime() - t0) / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    "delivered  %d deliveries in %.1f s: %.0f deliveries/s (%.0f/s per webhook)%n",
                    received.get(),
                    secs,
                    received.get() / secs,
                    received.get() / secs / hooks);
        } finally {
            TestNodes.await(node.stop());
            TestNodes.await(vertx.close());
        }
        System.exit(0);
    }

    static long count(String url, String sql) throws Exception {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
