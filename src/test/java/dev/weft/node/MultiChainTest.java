package dev.weft.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.devnet.DevnetEndpoints;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One node indexing the devnet's three chains at once, as the run command does: each chain's rows in its own schema,
 * its exact totals equal to the chain's own, served under {@code /chains/<id>/…} in the default chain's shapes, while
 * {@code /indexer/…} and {@code /status} stay the default chain's.
 */
class MultiChainTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final int HISTORY = 40;
    static final List<String> CHAINS = List.of("weft-devnet-1", "weft-l1-1", "weft-move-1");
    static WeftNode node;
    static WebClient client;
    static int port;

    /** The test configuration with the project's chains put back (TestConfig keeps one chain for the other tests). */
    static TestConfig threeChains() {
        TestConfig c = weft.config()
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", HISTORY)
                .set("devnet.txs_per_block", 4);
        JsonObject project =
                TestConfig.of(new JsonObject(read("conf/weft.json"))).json();
        return c.set("chains", project.getJsonObject("chains"));
    }

    static String read(String path) {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of(path));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @BeforeAll
    static void start() {
        node = weft.start(threeChains());
        port = TestNodes.httpPort(node);
        client = WebClient.create(weft.vertx());
        for (String chain : CHAINS) {
            Await.until(
                    chain + " indexed to " + HISTORY,
                    240,
                    () -> get("/chains/" + chain + "/status").getLong("height") >= HISTORY);
        }
    }

    static JsonObject get(String uri) {
        var r = TestNodes.get(client, port, uri);
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    @Test
    @DisplayName("GET /chains: the three chains, default first, each with its heights, prefix and writer node")
    void listsTheChains() {
        JsonArray chains = get("/chains").getJsonArray("chains");
        List<String> ids = new ArrayList<>();
        for (Object o : chains) {
            JsonObject c = (JsonObject) o;
            ids.add(c.getString("chain_id"));
            assertEquals(
                    java.util.Set.of(
                            "chain_id",
                            "vm",
                            "default",
                            "height",
                            "internal_tx_height",
                            "rich_list_height",
                            "node_height",
                            "lag",
                            "path",
                            "writers"),
                    c.fieldNames());
            assertEquals("/chains/" + c.getString("chain_id"), c.getString("path"));
            // history mode: the chains stay at their history, which ingestion has reached
            assertEquals(HISTORY, c.getLong("node_height"), c.encode());
            assertEquals(0L, c.getLong("lag"), c.encode());
            assertEquals(node.context().nodeId(), c.getJsonObject("writers").getString("ingest"));
            assertEquals(c.getString("chain_id").equals("weft-devnet-1"), c.getBoolean("default"));
        }
        assertEquals(CHAINS, ids);
        assertEquals("evm", chains.getJsonObject(0).getString("vm"));
        assertEquals("move", chains.getJsonObject(2).getString("vm"));
    }

    @Test
    @DisplayName("per chain: blocks total = height and txs total = the chain's own tx count, through /chains/<id>")
    void exactTotalsPerChain() {
        DevnetEndpoints devnet = DevnetEndpoints.of(node.context().info());
        for (String chain : CHAINS) {
            String base = "/chains/" + chain;
            JsonObject status = get(base + "/status");
            assertEquals(chain, status.getString("chain_id"));
            long height = status.getLong("height");
            JsonObject blocks = get(base + "/indexer/block/v1/blocks?pagination.limit=1");
            assertEquals(
                    String.valueOf(height), blocks.getJsonObject("pagination").getString("total"), chain);
            long own = 0;
            int rpc = devnet.chains().stream()
                    .filter(c -> c.chainId().equals(chain))
                    .findFirst()
                    .orElseThrow()
                    .rpcPort();
            for (long h = 1; h <= height; h += 20) {
                var r = TestNodes.get(
                        client, rpc, "/blockchain?minHeight=" + h + "&maxHeight=" + Math.min(height, h + 19));
                for (Object m : r.bodyAsJsonObject().getJsonObject("result").getJsonArray("block_metas"))
                    own += Long.parseLong(((JsonObject) m).getString("num_txs"));
            }
            assertEquals(
                    String.valueOf(own), get(base + "/indexer/tx/v1/txs/count").getString("count"), chain + " txs");
        }
    }

    @Test
    @DisplayName("the default chain answers on the unprefixed paths exactly as on its prefixed ones")
    void defaultPathsAreTheDefaultChain() {
        assertEquals("weft-devnet-1", get("/status").getString("chain_id"));
        for (String uri :
                List.of("/indexer/block/v1/blocks?pagination.limit=3", "/indexer/tx/v1/txs?pagination.limit=3")) {
            assertEquals(get(uri), get("/chains/weft-devnet-1" + uri), uri);
        }
        // and another chain's rows are its own
        JsonObject l1 = get("/chains/weft-l1-1/indexer/block/v1/blocks?pagination.limit=1");
        JsonObject dev = get("/indexer/block/v1/blocks?pagination.limit=1");
        assertTrue(!l1.getJsonArray("blocks")
                .getJsonObject(0)
                .getString("hash")
                .equals(dev.getJsonArray("blocks").getJsonObject(0).getString("hash")));
    }

    @Test
    @DisplayName("GET /v1/accounts/{address}/txs: an account's txs of every chain, newest first, in keyset pages")
    void crossChainAccountTxs() {
        // an account with txs on two chains (the devnet's relayer signs on each)
        io.vertx.sqlclient.RowSet<io.vertx.sqlclient.Row> rows = TestNodes.await(node.database()
                .pool()
                .query("SELECT a.address FROM account a JOIN tx_account ta ON ta.account_id = a.id"
                        + " INTERSECT SELECT a.address FROM chain_weft_l1_1.account a"
                        + " JOIN chain_weft_l1_1.tx_account ta ON ta.account_id = a.id LIMIT 1")
                .execute());
        assertTrue(rows.size() > 0, "an account with txs on weft-devnet-1 and weft-l1-1");
        byte[] key = rows.iterator().next().getBuffer(0).getBytes();
        String bech32 = dev.weft.chain.Bech32.encode("init", key);
        long expected = 0;
        for (String chain : CHAINS) {
            var r = TestNodes.get(
                    client,
                    port,
                    "/chains/" + chain + "/indexer/tx/v1/txs/by_account/" + bech32 + "?pagination.limit=1");
            if (r.statusCode() == 200)
                expected += Long.parseLong(
                        r.bodyAsJsonObject().getJsonObject("pagination").getString("total"));
        }
        List<JsonObject> items = new ArrayList<>();
        String cursor = null;
        do {
            JsonObject page =
                    get("/v1/accounts/" + bech32 + "/txs?limit=7" + (cursor == null ? "" : "&cursor=" + cursor));
            assertEquals(java.util.Set.of("txs", "next"), page.fieldNames());
            for (Object o : page.getJsonArray("txs")) items.add((JsonObject) o);
            cursor = page.getString("next");
        } while (cursor != null);
        assertEquals(expected, items.size(), "every chain's txs of the account, once");
        assertEquals(
                items.size(),
                items.stream()
                        .map(i -> i.getString("chain_id") + i.getString("txhash"))
                        .distinct()
                        .count());
        assertTrue(items.stream().map(i -> i.getString("chain_id")).distinct().count() >= 2, "from two chains");
        for (int i = 1; i < items.size(); i++)
            assertTrue(
                    items.get(i - 1)
                                    .getString("timestamp")
                                    .compareTo(items.get(i).getString("timestamp"))
                            >= 0,
                    "newest first at " + i);
        assertEquals(
                java.util.Set.of("chain_id", "height", "txhash", "timestamp", "code", "is_signer"),
                items.get(0).fieldNames());
        // the 0x form names the same key bytes
        assertEquals(
                get("/v1/accounts/" + bech32 + "/txs?limit=5"),
                get("/v1/accounts/0x" + dev.weft.chain.Hex.lower(key) + "/txs?limit=5"));
        for (String bad : List.of(
                "/v1/accounts/nope/txs",
                "/v1/accounts/" + bech32 + "/txs?limit=0",
                "/v1/accounts/" + bech32 + "/txs?cursor=zz",
                "/v1/accounts/" + bech32 + "/txs?foo=1")) {
            var r = TestNodes.get(client, port, bad);
            assertEquals(400, r.statusCode(), bad + " → " + r.bodyAsString());
            assertEquals("application/json", r.getHeader("content-type"), bad);
        }
    }

    @Test
    @DisplayName("an unknown chain is a JSON 404 naming it")
    void unknownChain() {
        for (String uri : List.of("/chains/nope-1/status", "/chains/nope-1/indexer/tx/v1/txs", "/chains/nope-1")) {
            var r = TestNodes.get(client, port, uri);
            assertEquals(404, r.statusCode(), uri);
            assertEquals("application/json", r.getHeader("content-type"), uri);
            assertTrue(r.bodyAsJsonObject().getString("message").contains("unknown chain nope-1"), r.bodyAsString());
        }
    }

    @Test
    @DisplayName("the OpenAPI document lists each indexer path under /chains/{chain_id}")
    void openApiShowsThePrefixedPaths() {
        JsonObject paths = get("/openapi.json").getJsonObject("paths");
        assertTrue(paths.containsKey("/chains"));
        assertTrue(paths.containsKey("/chains/{chain_id}/status"));
        assertTrue(
                paths.containsKey("/chains/{chain_id}/indexer/tx/v1/txs"),
                paths.fieldNames().toString());
        assertEquals(
                "chain_id",
                paths.getJsonObject("/chains/{chain_id}/indexer/tx/v1/txs")
                        .getJsonObject("get")
                        .getJsonArray("parameters")
                        .getJsonObject(0)
                        .getString("name"));
    }
}
