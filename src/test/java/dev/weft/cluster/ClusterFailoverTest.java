package dev.weft.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.ingest.IngestDump;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three JVMs on one Hazelcast cluster over loopback, as {@code cluster/start.sh} runs them: A (api), B (ingest, evm),
 * C (route, track, and a standby ingest, evm). B is killed (SIGKILL) mid-catch-up; C takes the ingestion lease and
 * finishes; the database equals a single-node run row for row; A answers every request throughout.
 */
class ClusterFailoverTest {
    static final long BLOCKS = 400;

    /** The same seeded chain; {@code delayMs} slows every answer, so the cluster's catch-up lasts long enough to be cut. */
    static TestConfig devnet(TestConfig c, int delayMs) {
        c.set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 7)
                .set("devnet.txs_per_block", 8);
        return delayMs == 0 ? c : c.set("devnet.faults.delay_rate", 1.0).set("devnet.faults.delay", delayMs + "ms");
    }

    static TestConfig indexer(TestConfig c, WeftNode devnet) {
        var chain = devnet.context().config().chain();
        return c.set("chain.rpc", new JsonArray(chain.rpcUrls()))
                .set("chain.rest", new JsonArray(chain.restUrls()))
                .set("chain.json_rpc", new JsonArray(chain.jsonRpcUrls()))
                .set("ingest.poll_interval", "50ms")
                .set("ingest.retry_base", "5ms")
                .set("ingest.retry_max", "200ms")
                .set("ingest.window", 16)
                .set("ingest.commit_blocks", 10)
                .set("bridge.tcp_enabled", false)
                .set("admin.token", ADMIN_TOKEN);
    }

    static final String ADMIN_TOKEN = "failover-test-admin-token";

    /** A child JVM running the real launcher with a configuration file. */
    static Process launch(Path dir, String name, TestConfig c) throws Exception {
        Path cfg = dir.resolve(name + ".json");
        Files.writeString(cfg, c.json().encodePrettily());
        return new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Dhazelcast.logging.type=slf4j",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.weft.Main",
                        "--config",
                        cfg.toString(),
                        "--cluster")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile())
                .start();
    }

    /** cluster/cluster.xml with this test's member ports and its own cluster name. */
    static Path clusterXml(Path dir, String name, List<Integer> ports) throws Exception {
        String xml = Files.readString(Path.of("cluster/cluster.xml"));
        StringBuilder members = new StringBuilder();
        for (int p : ports) members.append("<member>127.0.0.1:").append(p).append("</member>");
        xml = xml.replace("<cluster-name>weft-local</cluster-name>", "<cluster-name>" + name + "</cluster-name>")
                .replaceAll("(?s)<member-list>.*</member-list>", "<member-list>" + members + "</member-list>");
        Path f = dir.resolve("cluster.xml");
        Files.writeString(f, xml);
        return f;
    }

    @Test
    @DisplayName(
            "kill the ingestion node mid-catch-up: a standby takes over; no gap, no duplicate; requests keep being answered")
    void failover(@TempDir Path dir) throws Exception {
        Vertx vertx = TestNodes.newVertx();
        WeftNode devnet = TestNodes.start(
                vertx, devnet(TestConfig.defaults().roles("devnet"), 0).build());
        WeftNode slowDevnet = TestNodes.start(
                vertx, devnet(TestConfig.defaults().roles("devnet"), 50).build());
        List<Process> nodes = new ArrayList<>();
        try {
            // the single-node reference run
            TestConfig ref = indexer(TestConfig.defaults().roles("ingest"), devnet);
            String refUrl = (String) ref.get("database.url");
            WeftNode single = TestNodes.start(vertx, ref.build());
            Await.cursor(refUrl, "ingest", BLOCKS, 120);
            TestNodes.await(single.stop());
            Map<String, List<String>> expected = IngestDump.dump(refUrl);

            // the cluster
            int pa = Ports.free();
            int pb = Ports.free();
            int pc = Ports.free();
            int http = Ports.free();
            Path xml = clusterXml(dir, "weft-failover-" + pa, List.of(pa, pb, pc));
            TestConfig base = indexer(TestConfig.defaults(), slowDevnet)
                    .set("cluster.config", xml.toString())
                    .set("cluster.standby_poll", "200ms")
                    .set("ingest.window", 1)
                    .set("ingest.window_max", 1)
                    .set("log.level", "info");
            String url = (String) base.get("database.url");
            nodes.add(launch(
                    dir,
                    "a",
                    copy(base)
                            .roles("api")
                            .set("node.name", "a")
                            .set("cluster.port", pa)
                            .set("http.port", http)));
            nodes.add(launch(
                    dir,
                    "b",
                    copy(base).roles("ingest", "evm").set("node.name", "b").set("cluster.port", pb)));
            Await.cursor(url, "ingest", 1, 90);
            nodes.add(launch(
                    dir,
                    "c",
                    copy(base)
                            .roles("route", "track", "ingest", "evm")
                            .set("node.name", "c")
                            .set("cluster.port", pc)));

            String api = "http://127.0.0.1:" + http;
            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            Await.until("three nodes, c's route computation reachable from a", 90, () -> {
                JsonObject nodesView = getJson(client, api + "/admin/nodes");
                return nodesView != null && nodesView.getJsonArray("nodes").size() == 3 && routeOk(client, api);
            });
            JsonObject before = getJson(client, api + "/admin/nodes");
            assertEquals("b", activeIngester(before), before.encodePrettily());

            // clients keep calling the API node (indexer reads from the database, routes computed on c)
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger answered = new AtomicInteger();
            List<String> failures = Collections.synchronizedList(new ArrayList<>());
            Thread load = new Thread(() -> {
                while (running.get()) {
                    try {
                        HttpResponse<String> r = client.send(
                                HttpRequest.newBuilder(URI.create(api + "/indexer/block/v1/blocks?pagination.limit=5"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() != 200) failures.add("blocks " + r.statusCode() + " " + r.body());
                        if (!routeOk(client, api)) failures.add("route failed");
                        answered.incrementAndGet();
                    } catch (Exception e) {
                        failures.add(e.toString());
                    }
                }
            });
            load.start();
            try {
                Await.cursor(url, "ingest", BLOCKS / 10, 120);
                nodes.get(1).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                long killedAt = Await.cursorHeight(url, "ingest");
                assertTrue(killedAt < BLOCKS, "b was killed mid-way, at " + killedAt);
                Await.cursor(url, "ingest", BLOCKS, 120);
                Await.until(
                        "c shown as the active ingester",
                        60,
                        () -> "c".equals(activeIngester(getJson(client, api + "/admin/nodes"))));
            } finally {
                running.set(false);
                load.join();
            }
            assertEquals(List.of(), failures);
            assertTrue(answered.get() > 10, "requests answered during the takeover: " + answered.get());
            IngestDump.assertConsistent(url);
            IngestDump.assertSame(expected, IngestDump.dump(url));
        } finally {
            for (Process p : nodes) p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            TestNodes.await(devnet.stop());
            TestNodes.await(slowDevnet.stop());
            TestNodes.await(vertx.close());
        }
    }

    static TestConfig copy(TestConfig c) {
        return TestConfig.of(c.json());
    }

    static JsonObject getJson(HttpClient client, String url) {
        try {
            HttpResponse<String> r = client.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .header("authorization", "Bearer " + ADMIN_TOKEN)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? new JsonObject(r.body()) : null;
        } catch (Exception e) {
            return null;
        }
    }

    static boolean routeOk(HttpClient client, String api) {
        JsonObject body = new JsonObject()
                .put("amount_in", "1000000")
                .put("source_asset_chain_id", "weft-l1-1")
                .put("source_asset_denom", "uusdc")
                .put("dest_asset_chain_id", "weft-devnet-1")
                .put("dest_asset_denom", "ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5");
        try {
            HttpResponse<String> r = client.send(
                    HttpRequest.newBuilder(URI.create(api + "/v2/fungible/route"))
                            .header("content-type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body.encode()))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && new JsonObject(r.body()).containsKey("operations");
        } catch (Exception e) {
            return false;
        }
    }

    /** The name of the node that runs ingestion (holds its lease), from /admin/nodes. */
    static String activeIngester(JsonObject view) {
        if (view == null) return null;
        for (Object o : view.getJsonArray("nodes")) {
            JsonObject n = (JsonObject) o;
            JsonObject ingest = n.getJsonObject("kinds", new JsonObject()).getJsonObject("ingest");
            if (ingest != null && ingest.getBoolean("active", false)) return n.getString("node_name");
        }
        return null;
    }
}
