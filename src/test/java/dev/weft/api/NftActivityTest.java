package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.EvmLog;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.ChainTransfers;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The NFT activity views against the devnet's ERC-721 history (mints, transfers, burns), read from the chain's own
 * events: every change of every token in order with its tx, kind and owners; each token's mint; each collection's
 * creation tx; pages, filters and errors. Blocks are committed 25 at a time, so changes folded within one run are
 * covered.
 */
class NftActivityTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long BLOCKS = 150;
    static WebClient client;
    static WeftNode node;
    static int port;
    static String prefix;
    /** collection (0x hex) → its ERC-721 Transfers in chain order. */
    static final Map<String, List<ChainTransfers.Transfer>> truth = new LinkedHashMap<>();

    @BeforeAll
    static void start() {
        client = WebClient.create(weft.vertx());
        TestConfig c = weft.config()
                .roles("devnet", "ingest", "api")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 42)
                .set("devnet.txs_per_block", 20)
                .set("ingest.poll_interval", "50ms")
                .set("ingest.window", 32)
                .set("ingest.commit_blocks", 25)
                .set("rate_limit.enabled", "false");
        node = weft.start(c);
        port = TestNodes.httpPort(node);
        var chain = node.context().config().chain();
        prefix = chain.bech32Prefix();
        Await.until("indexed height " + BLOCKS, 120, () -> get("/status").getLong("height") >= BLOCKS);
        for (ChainTransfers.Transfer t :
                ChainTransfers.read(client, chain.rpcUrls().get(0), 1, BLOCKS))
            if (t.nft())
                truth.computeIfAbsent(t.token().hex(), k -> new ArrayList<>()).add(t);
    }

    static JsonObject get(String uri) {
        var r = TestNodes.get(client, port, uri);
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    static JsonObject fail(String uri, int status) {
        var r = TestNodes.get(client, port, uri);
        assertEquals(status, r.statusCode(), uri + " → " + r.bodyAsString());
        assertEquals("application/json", r.getHeader("content-type"), uri);
        return r.bodyAsJsonObject();
    }

    static List<JsonObject> walk(String uri, int limit) {
        List<JsonObject> out = new ArrayList<>();
        String sep = uri.contains("?") ? "&" : "?";
        String key = null;
        for (int pages = 0; pages < 10_000; pages++) {
            JsonObject body = get(uri + sep + "pagination.limit=" + limit
                    + (key == null ? "" : "&pagination.key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)));
            body.getJsonArray("activities").forEach(o -> out.add((JsonObject) o));
            key = body.getJsonObject("pagination").getString("next_key");
            if (key == null) return out;
        }
        throw new AssertionError("no end");
    }

    String bech32(AccountAddress a) {
        return EvmLog.isZero(a) ? "" : a.bech32(prefix);
    }

    /** What the API should list for a chain Transfer: kind, from, to, token id, tx, height. */
    JsonObject expected(ChainTransfers.Transfer t) {
        String kind = EvmLog.isZero(t.from()) ? "mint" : EvmLog.isZero(t.to()) ? "burn" : "transfer";
        return new JsonObject()
                .put("height", t.height())
                .put("txhash", t.txHash().toUpperCase())
                .put("token_id", t.value().toString())
                .put("kind", kind)
                .put("from", kind.equals("mint") ? "" : bech32(t.from()))
                .put("to", kind.equals("burn") ? "" : bech32(t.to()));
    }

    static JsonObject comparable(JsonObject a) {
        JsonObject o = a.copy();
        o.remove("timestamp");
        o.remove("object_addr");
        o.put("height", a.getLong("height"));
        return o;
    }

    @Test
    @DisplayName(
            "activities: every mint, transfer and burn of the chain, newest first, in pages; both orders; token filter")
    void activities() {
        assertEquals(2, truth.size(), "the devnet's two collections have transfers");
        java.util.Set<String> kinds = new java.util.TreeSet<>();
        for (var e : truth.entrySet()) {
            List<JsonObject> want = new ArrayList<>();
            for (ChainTransfers.Transfer t : e.getValue()) want.add(expected(t));
            String base = "/indexer/nft/v1/collections/" + e.getKey() + "/activities";
            List<JsonObject> oldestFirst = walk(base + "?pagination.reverse=false", 7).stream()
                    .map(NftActivityTest::comparable)
                    .toList();
            assertEquals(want, oldestFirst, e.getKey());
            List<JsonObject> newest = walk(base, 9);
            List<JsonObject> reversed = new ArrayList<>(want);
            java.util.Collections.reverse(reversed);
            assertEquals(
                    reversed, newest.stream().map(NftActivityTest::comparable).toList());
            for (JsonObject a : newest) {
                shape(a);
                if (a.getString("kind").equals("burn")) assertEquals("", a.getString("object_addr"));
            }
            want.forEach(o -> kinds.add(o.getString("kind")));
            // one token's history through the filter
            String token = e.getValue().get(e.getValue().size() - 1).value().toString();
            List<JsonObject> one = walk(base + "?token_id=" + token + "&pagination.reverse=false", 2).stream()
                    .map(NftActivityTest::comparable)
                    .toList();
            assertEquals(
                    want.stream()
                            .filter(o -> o.getString("token_id").equals(token))
                            .toList(),
                    one);
            assertTrue(get(base + "?token_id=no-such-token")
                    .getJsonArray("activities")
                    .isEmpty());
        }
        assertTrue(kinds.containsAll(List.of("mint", "transfer")), "mints and transfers are in the history: " + kinds);
    }

    static void shape(JsonObject a) {
        dev.weft.testsupport.Shapes.assertFields(
                a, "height", "timestamp", "txhash", "token_id", "object_addr", "kind", "from", "to");
        assertTrue(a.getString("timestamp").matches("2025-06-0\\dT[0-9:.]+Z"), a.encode());
    }

    @Test
    @DisplayName("mint: each token's mint tx, height, owner and minter (the tx's signer); 404s")
    void mints() {
        int checked = 0;
        for (var e : truth.entrySet()) {
            Map<String, ChainTransfers.Transfer> latestMint = new LinkedHashMap<>();
            for (ChainTransfers.Transfer t : e.getValue())
                if (EvmLog.isZero(t.from())) latestMint.put(t.value().toString(), t);
            for (var m : latestMint.entrySet()) {
                JsonObject mint = get("/indexer/nft/v1/tokens/" + e.getKey() + "/" + m.getKey() + "/mint")
                        .getJsonObject("mint");
                dev.weft.testsupport.Shapes.assertFields(
                        mint,
                        "collection_addr",
                        "token_id",
                        "object_addr",
                        "height",
                        "timestamp",
                        "txhash",
                        "minter",
                        "owner");
                assertEquals(e.getKey(), mint.getString("collection_addr"));
                assertEquals(m.getKey(), mint.getString("token_id"));
                assertEquals(m.getValue().height(), mint.getLong("height"));
                assertEquals(m.getValue().txHash().toUpperCase(), mint.getString("txhash"));
                assertEquals(bech32(m.getValue().to()), mint.getString("owner"));
                JsonObject tx =
                        get("/indexer/tx/v1/txs/" + mint.getString("txhash")).getJsonObject("tx");
                String sender = tx.getJsonObject("tx")
                        .getJsonObject("body")
                        .getJsonArray("messages")
                        .getJsonObject(0)
                        .getString("sender");
                assertTrue(mint.getString("minter").startsWith(prefix + "1"), mint.encode());
                if (sender != null && sender.startsWith(prefix + "1")) assertEquals(sender, mint.getString("minter"));
                checked++;
            }
        }
        assertTrue(checked > 0);
        String c = truth.keySet().iterator().next();
        fail("/indexer/nft/v1/tokens/" + c + "/no-such-token/mint", 404);
        fail("/indexer/nft/v1/tokens/0x00000000000000000000000000000000deadbeef/1/mint", 404);
        fail("/indexer/nft/v1/tokens/not-an-address/1/mint", 400);
    }

    @Test
    @DisplayName("creator: the collection's creator and height, and the tx that deployed it; 404 and 400")
    void creators() {
        for (String c : truth.keySet()) {
            JsonObject coll = get("/indexer/nft/v1/collections/" + c).getJsonObject("collection");
            JsonObject cr = get("/indexer/nft/v1/collections/" + c + "/creator").getJsonObject("creator");
            dev.weft.testsupport.Shapes.assertFields(cr, "collection_addr", "creator", "height", "timestamp", "txhash");
            assertEquals(c, cr.getString("collection_addr"));
            assertEquals(coll.getJsonObject("collection").getString("creator"), cr.getString("creator"));
            assertEquals(coll.getLong("height"), cr.getLong("height"));
            assertEquals(coll.getString("timestamp"), cr.getString("timestamp"));
            // the earliest indexed tx touching the contract: its deploy
            JsonObject first = get("/indexer/tx/v1/txs/by_account/" + c
                            + "?pagination.reverse=false&pagination.limit=1")
                    .getJsonArray("txs")
                    .getJsonObject(0);
            assertEquals(first.getString("txhash"), cr.getString("txhash"));
            assertEquals(Long.parseLong(first.getString("height")), cr.getLong("height"));
        }
        for (String suffix : List.of("/creator", "/activities")) {
            fail("/indexer/nft/v1/collections/0x00000000000000000000000000000000deadbeef" + suffix, 404);
            fail("/indexer/nft/v1/collections/zz" + suffix, 400);
        }
    }

    @Test
    @DisplayName("activities: bad pagination is a JSON 400; by_name and by_account routes are not taken over")
    void badInput() {
        String c = truth.keySet().iterator().next();
        String base = "/indexer/nft/v1/collections/" + c + "/activities";
        fail(base + "?pagination.offset=5", 400);
        fail(base + "?pagination.limit=0", 400);
        fail(base + "?pagination.key=" + PageResponse.encode("{\"sequence\":\"x\"}"), 400);
        fail(base + "?pagination.key=" + PageResponse.encode("{\"sequence\":5}"), 400);
        JsonObject page = get(base + "?pagination.limit=1");
        assertEquals("0", page.getJsonObject("pagination").getString("total"));
        assertFalse(page.getJsonObject("pagination").getString("next_key").isEmpty());
        // the existing NFT routes still answer as before
        get("/indexer/nft/v1/collections/by_name/creator");
        get("/indexer/nft/v1/collections/by_account/" + c);
    }
}
