package dev.weft.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every metric the Grafana dashboard ({@code cluster/grafana/weft.json}) and the Prometheus alert rules
 * ({@code cluster/prometheus/alerts.yml}) query is exported by a running node with every role, after it has indexed,
 * traced, aggregated and answered a few requests.
 */
class DashboardMetricsTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static final int BLOCKS = 12;
    private static final Pattern METRIC = Pattern.compile("\\b((?:weft|vertx|jvm|process)_[a-zA-Z0-9_]+)");
    static Vertx vertx;
    static WeftNode node;
    static WebClient client;
    static int port;
    static Set<String> exported;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        client = WebClient.create(vertx);
        TestConfig c = weft.config()
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("ingest.poll_interval", "50ms")
                .set("evm.poll_interval", "50ms")
                .set("richlist.poll_interval", "50ms");
        // the node's own Vert.x, as `java -jar` creates it: the metrics options are part of what is checked
        node = TestNodes.await(WeftNode.start(c.build()));
        weft.closeAfter(() -> TestNodes.await(node.stop())); // closes the node's own Vert.x
        port = TestNodes.httpPort(node);
        Await.until("every pipeline at height " + BLOCKS, 120, () -> {
            JsonObject s = TestNodes.get(client, port, "/status").bodyAsJsonObject();
            return s.getLong("height") >= BLOCKS
                    && s.getLong("internal_tx_height") >= BLOCKS
                    && s.getLong("rich_list_height") >= BLOCKS;
        });
        TestNodes.call(
                client,
                port,
                HttpMethod.POST,
                "/v2/fungible/route",
                new JsonObject()
                        .put("amount_in", "1000000")
                        .put("source_asset_denom", "uinit")
                        .put("source_asset_chain_id", "weft-l1-1")
                        .put("dest_asset_denom", "uinit")
                        .put("dest_asset_chain_id", "weft-l1-1"));
        TestNodes.get(client, port, "/indexer/tx/v1/txs?pagination.limit=1");
        TestNodes.get(client, port, "/no-such-path");
        // the GC pause timer appears with the first pause, which a short run may not have had: make one, and wait for
        // its notification (delivered on the JVM's notification thread) to reach the registry
        System.gc();
        Await.until(
                "a GC pause recorded",
                30,
                () -> TestNodes.get(client, port, "/metrics").bodyAsString().contains("jvm_gc_pause_seconds_sum"));
        String scrape = TestNodes.get(client, port, "/metrics").bodyAsString();
        exported = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) continue;
            int end = line.indexOf('{') >= 0 ? line.indexOf('{') : line.indexOf(' ');
            exported.add(line.substring(0, end));
        }
    }

    @Test
    @DisplayName("every metric of the Grafana dashboard is exported")
    void dashboard() throws IOException {
        JsonNode dash =
                new ObjectMapper().readTree(Path.of("cluster/grafana/weft.json").toFile());
        List<String> exprs = new ArrayList<>();
        dash.path("panels")
                .forEach(p ->
                        p.path("targets").forEach(t -> exprs.add(t.path("expr").asText())));
        assertTrue(exprs.size() >= 20, "dashboard queries: " + exprs.size());
        assertAllExported(exprs);
        // the panels the deployment story promises
        String all = String.join("\n", exprs);
        for (String m : List.of(
                "weft_ingest_height",
                "weft_ingest_head_height",
                "weft_ingest_txs_total",
                "weft_ingest_commit_seconds_sum",
                "vertx_http_server_response_time_seconds_bucket",
                "weft_track_open_transfers",
                "vertx_eventbus_pending",
                "vertx_pool_queue_pending",
                "jvm_memory_used_bytes",
                "jvm_gc_pause_seconds_sum",
                "weft_lease_held")) {
            assertTrue(all.contains(m), "the dashboard charts " + m);
        }
    }

    @Test
    @DisplayName("every metric of the alert rules is exported")
    void alerts() throws IOException {
        JsonNode rules = new ObjectMapper(new YAMLFactory())
                .readTree(Path.of("cluster/prometheus/alerts.yml").toFile());
        List<String> exprs = new ArrayList<>();
        rules.path("groups")
                .forEach(g ->
                        g.path("rules").forEach(r -> exprs.add(r.path("expr").asText())));
        assertTrue(exprs.size() >= 5, "alert rules: " + exprs.size());
        assertAllExported(exprs);
    }

    @Test
    @DisplayName("HTTP latency is a histogram labelled with the route template, so p99 per route can be charted")
    void routeHistogram() {
        String scrape = TestNodes.get(client, port, "/metrics").bodyAsString();
        assertTrue(
                scrape.lines()
                        .anyMatch(l -> l.startsWith("vertx_http_server_response_time_seconds_bucket{")
                                && l.contains("route=\"/v2/fungible/route\"")),
                "no route-labelled latency buckets");
        assertFalse(
                scrape.lines().anyMatch(l -> l.contains("route=\"/no-such-path\"")),
                "unknown paths must not become label values");
    }

    private static void assertAllExported(List<String> exprs) {
        Set<String> missing = new TreeSet<>();
        for (String e : exprs) {
            Matcher m = METRIC.matcher(e);
            while (m.find()) if (!exported.contains(m.group(1))) missing.add(m.group(1));
        }
        assertEquals(Set.of(), missing, "queried but not exported");
    }
}
