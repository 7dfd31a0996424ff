package dev.weft.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.devnet.DevnetEndpoints;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three writer nodes over one database and three chains: the ingest leases spread one per node as the nodes join, and
 * a node that stops hands its chain to the others, which resume from its cursor with no gap (blocks total = height).
 */
class ChainWritersTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String TOKEN = "chain-writers-test-token-0123456789";
    static final List<String> CHAINS = List.of("weft-devnet-1", "weft-l1-1", "weft-move-1");
    WebClient client;
    int port;

    @Test
    @DisplayName("ingest leases spread one per node; a stopped node's chain moves to another with no gap")
    void leasesSpreadAndMove() throws Exception {
        JsonObject chains = new JsonObject(java.nio.file.Files.readString(java.nio.file.Path.of("conf/weft.json")))
                .getJsonObject("chains");
        TestConfig first = weft.config()
                .roles("devnet", "api", "ingest")
                .set("node.name", "node-a")
                .set("admin.token", TOKEN)
                .set("cluster.standby_poll", "100ms")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 20)
                .set("devnet.block_interval", "200ms")
                .set("devnet.txs_per_block", 2)
                .set("chains", chains);
        WeftNode a = weft.start(first);
        port = TestNodes.httpPort(a);
        client = WebClient.create(weft.vertx());
        Await.until(
                "node-a holds every chain's ingest",
                120,
                () -> writers().values().stream().allMatch("node-a"::equals));

        DevnetEndpoints devnet = DevnetEndpoints.of(a.context().info());
        WeftNode b = weft.start(writerOnly(first, "node-b", devnet));
        WeftNode c = weft.start(writerOnly(first, "node-c", devnet));
        Await.until(
                "one chain per node",
                120,
                () -> new java.util.HashSet<>(writers().values())
                        .equals(java.util.Set.of("node-a", "node-b", "node-c")));

        Map<String, String> before = writers();
        String moved = before.entrySet().stream()
                .filter(e -> e.getValue().equals("node-c"))
                .findFirst()
                .orElseThrow()
                .getKey();
        long heightAtStop = status(moved).getLong("height");
        weft.stop(c);
        Await.until(moved + " written by node-a or node-b", 120, () -> {
            String w = writers().get(moved);
            return "node-a".equals(w) || "node-b".equals(w);
        });
        Await.until(
                moved + " indexed past the hand-off", 120, () -> status(moved).getLong("height") > heightAtStop + 5);
        for (String chain : CHAINS) {
            // a writer's start no longer waits for its first blocks: a chain not moved may still be at its first ones
            Await.until(chain + " indexed", 120, () -> status(chain).getLong("height") > 0);
            long height = status(chain).getLong("height");
            JsonObject blocks =
                    get("/chains/" + chain + "/indexer/block/v1/blocks?pagination.limit=1&pagination.reverse=true");
            long total = Long.parseLong(blocks.getJsonObject("pagination").getString("total"));
            // the page and the status are read one after the other: the total may be one commit ahead, never behind
            assertEquals(true, total >= height, chain + ": total " + total + " height " + height);
            assertEquals(
                    total,
                    Long.parseLong(get("/chains/" + chain + "/indexer/block/v1/blocks?pagination.limit=1")
                            .getJsonArray("blocks")
                            .getJsonObject(0)
                            .getString("height")),
                    chain + ": the newest block's height equals the number of blocks (no gap)");
        }
        // the operator moves a chain node-b writes to node-a: node-a takes it although it then holds two more
        String fromB = writers().entrySet().stream()
                .filter(e -> e.getValue().equals("node-b"))
                .findFirst()
                .orElseThrow()
                .getKey();
        var moved202 = TestNodes.await(client.post(port, "127.0.0.1", "/admin/chains/" + fromB + "/writer")
                .putHeader("authorization", "Bearer " + TOKEN)
                .sendJsonObject(new JsonObject().put("node_id", "node-a")));
        assertEquals(202, moved202.statusCode(), moved202.bodyAsString());
        assertEquals(new JsonObject().put("chain_id", fromB).put("node_id", "node-a"), moved202.bodyAsJsonObject());
        Await.until(
                fromB + " moved to node-a", 120, () -> "node-a".equals(writers().get(fromB)));
        var unknown = TestNodes.await(client.post(port, "127.0.0.1", "/admin/chains/nope-1/writer")
                .putHeader("authorization", "Bearer " + TOKEN)
                .sendJsonObject(new JsonObject().put("node_id", "node-a")));
        assertEquals(404, unknown.statusCode());
        var noToken = TestNodes.await(client.post(port, "127.0.0.1", "/admin/chains/" + fromB + "/writer")
                .sendJsonObject(new JsonObject().put("node_id", "node-a")));
        assertEquals(401, noToken.statusCode());
        var cleared = TestNodes.await(client.delete(port, "127.0.0.1", "/admin/chains/" + fromB + "/writer")
                .putHeader("authorization", "Bearer " + TOKEN)
                .send());
        assertEquals(204, cleared.statusCode());
        // without the preference the balance alone decides again: every chain keeps a writer
        Await.until("every chain written", 120, () -> !writers().containsValue("none"));
        weft.stop(b);
    }

    /** A node running only the ingest role, on the same database, reading the first node's devnet. */
    static TestConfig writerOnly(TestConfig first, String name, DevnetEndpoints devnet) {
        TestConfig c = TestConfig.of(first.json()).roles("ingest").set("node.name", name);
        for (DevnetEndpoints.Chain chain : devnet.chains()) {
            String key = chain.chainId().equals("weft-devnet-1") ? "chain." : "chains." + chain.chainId() + ".";
            c.set(key + "rpc", new JsonArray().add(devnet.url(chain.rpcPort())));
            c.set(key + "rest", new JsonArray().add(devnet.url(chain.restPort())));
            if (chain.jsonRpcPort() > 0) c.set(key + "json_rpc", new JsonArray().add(devnet.url(chain.jsonRpcPort())));
        }
        return c;
    }

    Map<String, String> writers() {
        Map<String, String> out = new TreeMap<>();
        for (Object o : get("/chains").getJsonArray("chains")) {
            JsonObject ch = (JsonObject) o;
            String w = ch.getJsonObject("writers").getString("ingest");
            out.put(ch.getString("chain_id"), w == null ? "none" : w);
        }
        return out;
    }

    JsonObject status(String chain) {
        return get("/chains/" + chain + "/status");
    }

    JsonObject get(String uri) {
        var r = TestNodes.get(client, port, uri);
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }
}
