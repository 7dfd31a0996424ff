package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.devnet.DevnetEndpoints;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Weft indexes the devnet's Move rollup weft-move-1 from its generated history: a node whose single chain is
 * weft-move-1 ({@code chain.vm=move}, URLs at the devnet's ports) lists the chain's txs, its NFT collections and minted
 * tokens (from real {@code 0x1::collection} / {@code 0x1::object} events and the {@code Nft} resources), and the
 * holders of its fee denom from the fungible-asset movements.
 */
class MoveDevnetTrafficIngestTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String MOVE = "weft-move-1";
    static final int BLOCKS = 30;
    static final LocalHttp http = new LocalHttp();

    @Test
    @DisplayName("the Move rollup's generated NFTs, fungible transfers and txs are indexed through the HTTP API")
    void moveTrafficIsIndexed() {
        WeftNode devnet = weft.start(weft.config()
                .roles("devnet")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2026-01-01T00:00:00Z"));
        try {
            DevnetEndpoints.Chain ports =
                    DevnetEndpoints.of(devnet.context().info()).chain(MOVE).orElseThrow();
            // what the chain holds, from its own RPC
            int txs = 0, collections = 0, mints = 0;
            for (int h = 1; h <= BLOCKS; h++) {
                JsonObject r = new JsonObject(http.get(ports.rpcPort(), "/block_results?height=" + h)
                                .body())
                        .getJsonObject("result");
                JsonArray results = r.getJsonArray("txs_results");
                if (results == null) continue;
                txs += results.size();
                for (Object t : results)
                    for (Object e : ((JsonObject) t).getJsonArray("events")) {
                        JsonObject ev = (JsonObject) e;
                        if (!ev.getString("type").equals("move")) continue;
                        String tag =
                                ev.getJsonArray("attributes").getJsonObject(0).getString("value");
                        if (tag.equals("0x1::collection::CreateCollectionEvent")) collections++;
                        if (tag.equals("0x1::collection::MintEvent")) mints++;
                    }
            }
            assertTrue(txs > 0 && collections > 0 && mints > 0, txs + " " + collections + " " + mints);

            String db = TestDatabase.freshUrl();
            WeftNode indexer = weft.start(weft.config()
                    .roles("ingest", "richlist", "api")
                    .set("database.url", db)
                    .set("chain.chain_id", MOVE)
                    .set("chain.vm", "move")
                    .set("chain.rpc", new JsonArray().add("http://127.0.0.1:" + ports.rpcPort()))
                    .set("chain.rest", new JsonArray().add("http://127.0.0.1:" + ports.restPort()))
                    .set("ingest.poll_interval", "50ms")
                    .set("richlist.poll_interval", "50ms"));
            try {
                Await.cursor(db, "ingest", BLOCKS, 90);
                Await.cursor(db, "richlist", BLOCKS, 90);
                int port = TestNodes.httpPort(indexer);
                JsonObject count = get(port, "/indexer/tx/v1/txs/count");
                assertEquals(Integer.toString(txs), count.getString("count"));
                JsonObject page = get(port, "/indexer/tx/v1/txs?pagination.limit=5");
                assertEquals(5, page.getJsonArray("txs").size(), page.encode());

                JsonObject colls = get(port, "/indexer/nft/v1/collections?pagination.limit=100");
                assertEquals(collections, colls.getJsonArray("collections").size(), colls.encode());
                int tokens = 0;
                for (Object c : colls.getJsonArray("collections")) {
                    JsonObject coll = (JsonObject) c;
                    String addr = addressOf(coll);
                    JsonObject list =
                            get(port, "/indexer/nft/v1/tokens/by_collection/" + addr + "?pagination.limit=100");
                    tokens += list.getJsonArray("tokens").size();
                }
                assertEquals(mints, tokens, colls.encode());

                String fee = "l2/2588fd87a8e081f6a557f43ff14f05dddf5e34cb27afcefd6eaf81f1daea30d0";
                JsonObject holders =
                        get(port, "/indexer/richlist/v1/" + URLEncoder.encode(fee, StandardCharsets.UTF_8));
                assertFalse(holders.getJsonArray("holders").isEmpty(), holders.encode());
            } finally {
                weft.stop(indexer);
            }
        } finally {
            weft.stop(devnet);
        }
    }

    /** The collection's object address in the collection list's item (rollytics: {@code collection.id} or similar). */
    static String addressOf(JsonObject item) {
        for (String k : new String[] {"object_addr", "collection_addr", "id", "address"}) {
            Object v = item.getValue(k);
            if (v instanceof String s) return s;
        }
        JsonObject inner = item.getJsonObject("collection");
        if (inner != null) return addressOf(inner);
        throw new AssertionError("no address in " + item.encode());
    }

    static JsonObject get(int port, String path) {
        var res = http.get(port, path);
        assertEquals(200, res.statusCode(), path + " " + res.body());
        return new JsonObject(res.body());
    }
}
