package dev.weft.devnet;

import static dev.weft.devnet.DevnetHarness.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.config.ChainConfig;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The devnet as a role of a node: chain URLs, byte-identical answers per seed, history and live modes. */
class DevnetNodeTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    @Test
    @DisplayName("the devnet is found on the class path as a plugin role; a role nothing provides names node.roles")
    void foundAsPlugin() {
        assertEquals(
                List.of("devnet"),
                WeftNode.checkPlugins(
                                TestConfig.defaults().roles("api", "devnet").build())
                        .stream()
                        .map(dev.weft.runtime.RolePlugin::role)
                        .toList());
        assertEquals(
                List.of("devnet"),
                WeftNode.checkPlugins(TestConfig.defaults().roles("all").build()).stream()
                        .map(dev.weft.runtime.RolePlugin::role)
                        .toList(),
                "all runs every plugin found");
        assertEquals(
                List.of(),
                WeftNode.checkPlugins(TestConfig.defaults().roles("api").build()));
        dev.weft.config.ConfigException e = assertThrows(
                dev.weft.config.ConfigException.class,
                () -> WeftNode.checkPlugins(
                        TestConfig.defaults().roles("api", "indexer").build()));
        assertEquals(
                "configuration key 'node.roles': unknown role \"indexer\" (known: all, api, ingest, evm, richlist, route,"
                        + " track, db, devnet)",
                e.getMessage());
        dev.weft.config.ConfigException vm = assertThrows(
                dev.weft.config.ConfigException.class,
                () -> WeftNode.checkPlugins(TestConfig.defaults()
                        .roles("devnet")
                        .set("chain.vm", "move")
                        .build()));
        assertTrue(vm.getMessage().startsWith("configuration key 'chain.vm'"), vm.getMessage());
    }

    @Test
    @DisplayName("a node running the devnet points its empty chain URLs at it; configured URLs are kept")
    void chainUrls() {
        DevnetHarness d = DevnetHarness.start(
                weft,
                DevnetHarness.history(5)
                        .set("chain.rest", new io.vertx.core.json.JsonArray().add("http://rest.example:1317")));
        ChainConfig chain = d.node().context().config().chain();
        assertEquals(List.of("http://127.0.0.1:" + d.rpcPort), chain.rpcUrls());
        assertEquals(List.of("http://rest.example:1317"), chain.restUrls());
        assertEquals(List.of("http://127.0.0.1:" + d.evmPort), chain.jsonRpcUrls());
        assertTrue(d.node().banner().stream()
                .anyMatch(l -> l.trim().startsWith("devnet") && l.contains("rpc http://127.0.0.1:" + d.rpcPort)));
    }

    @Test
    @DisplayName("a node that reads a chain but has neither URLs nor the devnet stops with one line naming chain.rpc")
    void missingUrls() {
        RuntimeException e = assertThrows(
                RuntimeException.class, () -> weft.start(weft.config().roles("ingest")));
        assertTrue(
                e.getMessage()
                        .startsWith("configuration key 'chain.rpc': is empty and no role of this node supplies it"),
                e.getMessage());
        assertTrue(!e.getMessage().contains("\n"));
    }

    @Test
    @DisplayName("the same seed gives byte-identical answers on every protocol; another seed other answers")
    void byteIdentical() {
        TestConfig config = DevnetHarness.history(120);
        DevnetHarness a = DevnetHarness.start(weft, config);
        DevnetHarness b = DevnetHarness.start(weft, DevnetHarness.history(120));
        DevnetHarness c = DevnetHarness.start(weft, DevnetHarness.history(120).set("devnet.seed", 43));
        for (long h : new long[] {1, 2, 50, 119}) {
            for (String path : List.of("/block?height=" + h, "/block_results?height=" + h)) {
                assertEquals(
                        a.get(a.rpcPort, path).body(), b.get(b.rpcPort, path).body(), path);
                assertNotEquals(
                        a.get(a.rpcPort, path).body(), c.get(c.rpcPort, path).body(), path);
            }
            String rest = "/cosmos/tx/v1beta1/txs/block/" + h;
            assertEquals(a.get(a.restPort, rest).body(), b.get(b.restPort, rest).body());
            for (String call : List.of(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_getBlockReceipts\",\"params\":[\"" + hex(h)
                            + "\"]}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_getBlockByNumber\",\"params\":[\"" + hex(h)
                            + "\",true]}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"debug_traceBlockByNumber\",\"params\":[\"" + hex(h)
                            + "\",{\"tracer\":\"callTracer\"}]}")) {
                assertEquals(
                        a.post(a.evmPort, call).body(), b.post(b.evmPort, call).body(), call);
            }
        }
    }

    @Test
    @DisplayName(
            "history mode serves height 1,000,000 of a million-block chain at once, consistent across the protocols")
    void millionBlocks() {
        DevnetHarness d =
                DevnetHarness.start(weft, DevnetHarness.history(1_000_000).set("devnet.txs_per_block", 100));
        JsonObject status = d.rpc("/status").getJsonObject("result").getJsonObject("sync_info");
        assertEquals("1000000", status.getString("latest_block_height"));
        JsonObject block = d.rpc("/block?height=1000000").getJsonObject("result");
        int n = block.getJsonObject("block")
                .getJsonObject("data")
                .getJsonArray("txs")
                .size();
        assertTrue(n > 0);
        assertEquals(
                n,
                d.rpc("/block_results?height=1000000")
                        .getJsonObject("result")
                        .getJsonArray("txs_results")
                        .size());
        assertEquals(
                Integer.toString(n),
                d.rest("/cosmos/tx/v1beta1/txs/block/1000000")
                        .getJsonObject("pagination")
                        .getString("total"));
        JsonObject evmBlock = d.eth("eth_getBlockByNumber", "0xf4240", false).getJsonObject("result");
        assertEquals(
                "0x" + block.getJsonObject("block_id").getString("hash").toLowerCase(), evmBlock.getString("hash"));
        assertEquals(
                evmBlock.getJsonArray("transactions").size(),
                d.eth("eth_getBlockReceipts", "0xf4240").getJsonArray("result").size());
        JsonObject old =
                d.rpc("/tx_search?query=%22tx.height=10%22&per_page=100").getJsonObject("result");
        assertEquals(
                Integer.toString(d.replica().txCount(10)),
                old.getString("total_count"),
                "an old height is searched, not only the last window");
    }

    @Test
    @DisplayName("live mode produces blocks every block_interval after the history; every new block is served")
    void live() throws Exception {
        TestConfig config = DevnetHarness.history(5).set("devnet.mode", "live").set("devnet.block_interval", "50ms");
        DevnetHarness d = DevnetHarness.start(weft, config);
        Await.until(
                "height 12",
                60,
                () -> Long.parseLong(d.rpc("/status")
                                .getJsonObject("result")
                                .getJsonObject("sync_info")
                                .getString("latest_block_height"))
                        >= 12);
        long evmHead = Long.decode(d.eth("eth_blockNumber").getString("result"));
        assertTrue(evmHead >= 12);
        JsonObject tip = d.rpc("/block?height=" + evmHead).getJsonObject("result");
        assertEquals(
                Long.toString(evmHead),
                tip.getJsonObject("block").getJsonObject("header").getString("height"));
        WeftNode node = d.node();
        assertTrue(node.banner().stream().anyMatch(l -> l.contains("a block every 50ms")));
    }
}
