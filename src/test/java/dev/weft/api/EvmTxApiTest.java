package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.Shapes.assertFields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.AccountAddress;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code /indexer/tx/v1/evm-txs*}: receipts by height, account and hash; 404 on chains without an EVM. */
class EvmTxApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long HEIGHT = 20;
    static IndexedChain ic;

    @BeforeAll
    static void start() {
        ic = new IndexedChain(weft, HEIGHT);
    }

    static List<String> hashes(BiPredicate<Long, Integer> p) {
        List<String> out = new ArrayList<>();
        for (long h = 1; h <= HEIGHT; h++) {
            for (int i = 0; i < FixtureChain.txCount(h); i++) {
                if (FixtureChain.hasReceipt(h, i) && p.test(h, i))
                    out.add(ic.chain.receipt(h, i).getString("transactionHash"));
            }
        }
        return out;
    }

    static void assertWalks(String uri, List<String> chainOrder) {
        List<String> desc = new ArrayList<>(chainOrder);
        Collections.reverse(desc);
        for (int limit : new int[] {2, 100}) {
            assertEquals(desc, IndexedChain.map(ic.walk(uri, "txs", limit), t -> t.getString("transactionHash")), uri);
            assertEquals(
                    chainOrder,
                    IndexedChain.map(
                            ic.walk(uri + (uri.contains("?") ? "&" : "?") + "pagination.reverse=false", "txs", limit),
                            t -> t.getString("transactionHash")),
                    uri);
        }
        assertEquals(
                Integer.toString(chainOrder.size()),
                ic.get(uri).getJsonObject("pagination").getString("total"),
                uri);
    }

    @Test
    @DisplayName("by_height: the receipt fields rollytics keeps, in its order, and the block's EVM txs only")
    void byHeight() {
        long h = 2; // block 2: txs 0 (send) and 1 (call) → one receipt
        JsonObject page = ic.get("/indexer/tx/v1/evm-txs/by_height/" + h);
        assertFields(page, "txs", "pagination");
        JsonArray txs = page.getJsonArray("txs");
        assertEquals(hashes((x, i) -> x == h).size(), txs.size());
        JsonObject r = txs.getJsonObject(0);
        assertFields(
                r,
                "blockHash",
                "blockNumber",
                "contractAddress",
                "cumulativeGasUsed",
                "effectiveGasPrice",
                "from",
                "gasUsed",
                "logs",
                "logsBloom",
                "status",
                "to",
                "transactionHash",
                "transactionIndex",
                "type");
        assertFields(
                r.getJsonArray("logs").getJsonObject(0),
                "address",
                "topics",
                "data",
                "blockNumber",
                "transactionHash",
                "transactionIndex",
                "blockHash",
                "logIndex",
                "removed");
        JsonObject node = ic.chain.receipt(h, 1);
        for (String f : r.fieldNames()) if (!f.equals("logs")) assertEquals(node.getValue(f), r.getValue(f), f);
        for (long x = 1; x <= HEIGHT; x++) {
            long fx = x;
            assertWalks("/indexer/tx/v1/evm-txs/by_height/" + x, hashes((y, i) -> y == fx));
        }
        IndexedChain.Response bad = ic.call("/indexer/tx/v1/evm-txs/by_height/zero");
        assertEquals(400, bad.status());
        assertError(bad.body(), 3);
    }

    @Test
    @DisplayName("from_height/to_height on the EVM lists: the receipts of the range, exact totals")
    void heightRange() {
        AccountAddress a = FixtureChain.signer(1, 0);
        assertWalks("/indexer/tx/v1/evm-txs?from_height=4&to_height=9", hashes((h, i) -> h >= 4 && h <= 9));
        assertWalks("/indexer/tx/v1/evm-txs?to_height=2", hashes((h, i) -> h <= 2));
        assertWalks(
                "/indexer/tx/v1/evm-txs/by_account/" + a.hex() + "?from_height=3&to_height=20",
                hashes((h, i) -> h >= 3 && h <= 20 && FixtureChain.signer(h, i).equals(a)));
        assertEquals(
                400, ic.call("/indexer/tx/v1/evm-txs?from_height=5&to_height=4").status());
    }

    @Test
    @DisplayName("all, by account (from is the signer) and by hash")
    void others() {
        assertWalks("/indexer/tx/v1/evm-txs", hashes((h, i) -> true));
        AccountAddress a = FixtureChain.signer(1, 0);
        List<String> ofA = hashes((h, i) -> FixtureChain.signer(h, i).equals(a));
        assertTrue(!ofA.isEmpty());
        assertWalks("/indexer/tx/v1/evm-txs/by_account/" + a.hex(), ofA);
        assertWalks(
                "/indexer/tx/v1/evm-txs/by_account/0x" + "00".repeat(12)
                        + a.hex().substring(2) + "?is_signer=true",
                ofA);
        assertWalks("/indexer/tx/v1/evm-txs/by_account/" + a.bech32("init") + "?is_signer=true", ofA);
        // the ERC-20 contract of the receipts' logs is involved in every EVM tx, and signs none
        String token =
                ic.chain.receipt(2, 1).getJsonArray("logs").getJsonObject(0).getString("address");
        assertWalks("/indexer/tx/v1/evm-txs/by_account/" + token, hashes((h, i) -> true));
        assertEquals(
                "0",
                ic.get("/indexer/tx/v1/evm-txs/by_account/" + token + "?is_signer=true")
                        .getJsonObject("pagination")
                        .getString("total"));

        String hash = hashes((h, i) -> true).get(0);
        JsonObject one = ic.get("/indexer/tx/v1/evm-txs/" + hash.toUpperCase().replace("0X", "0x"));
        assertFields(one, "tx");
        assertEquals(hash, one.getJsonObject("tx").getString("transactionHash"));
        IndexedChain.Response missing = ic.call("/indexer/tx/v1/evm-txs/0x" + "00".repeat(32));
        assertEquals(404, missing.status());
        assertError(missing.body(), 5);
        assertEquals("tx not found", missing.body().getString("message"));
        IndexedChain.Response bad = ic.call("/indexer/tx/v1/evm-txs/0x12");
        assertEquals(400, bad.status());
        assertError(bad.body(), 3);
    }

    @Test
    @DisplayName(
            "on a chain without an EVM, every evm-txs and evm-internal-txs route answers 404 evm routes are not available on this chain")
    void notEvm() {
        Vertx vertx = weft.newVertx(); // apart from the indexed chain's node and its event bus
        WeftNode node = weft.start(vertx, weft.config().roles("api").set("chain.vm", "move"));
        WebClient client = WebClient.create(vertx);
        for (String path : List.of(
                "/indexer/tx/v1/evm-txs",
                "/indexer/tx/v1/evm-txs/by_height/1",
                "/indexer/tx/v1/evm-txs/by_account/init17xpfvakm2amg962yls6f84z3kell8c5l70rnql",
                "/indexer/tx/v1/evm-txs/0x" + "00".repeat(32),
                "/indexer/tx/v1/evm-internal-txs",
                "/indexer/tx/v1/evm-internal-txs/by_height/1",
                "/indexer/tx/v1/evm-internal-txs/by_account/0x" + "11".repeat(20),
                "/indexer/tx/v1/evm-internal-txs/0x" + "00".repeat(32))) {
            var r = TestNodes.get(client, TestNodes.httpPort(node), path);
            assertEquals(404, r.statusCode(), path);
            assertError(r.bodyAsJsonObject(), 5);
            assertEquals(
                    "evm routes are not available on this chain",
                    r.bodyAsJsonObject().getString("message"));
        }
    }
}
