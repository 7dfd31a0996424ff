package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.Shapes.assertFields;
import static dev.weft.testsupport.Shapes.assertNumber;
import static dev.weft.testsupport.Shapes.assertString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.client.EthCalls;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.config.NodeClientOptions;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.ChainTransfers;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.math.BigInteger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * NFTs of the devnet (its ERC-721 lifecycle: mint, two transfers, burn, each by the current owner) indexed at ingest
 * time, against the chain's own events and {@code eth_call}: owners, URIs, counts, the tx history of live and burnt
 * tokens, token order, name search, owner views, shapes and errors.
 */
class NftApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long BLOCKS = 300;
    static Vertx vertx;
    static WebClient client;
    static WeftNode node;
    static int port;
    static String evmUrl;
    static EvmRpcClient evm;
    static String prefix;
    /** (collection, token id) → the chain's ERC-721 Transfers of that token, in chain order. */
    static Map<String, List<ChainTransfers.Transfer>> truth = new LinkedHashMap<>();

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        client = WebClient.create(vertx);
        TestConfig c = weft.config()
                .roles("devnet", "ingest", "api")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 42)
                .set("devnet.txs_per_block", 20)
                .set("ingest.poll_interval", "50ms")
                .set("ingest.window", 32)
                .set("ingest.commit_blocks", 25);
        node = weft.start(c);
        port = TestNodes.httpPort(node);
        var chain = node.context().config().chain();
        prefix = chain.bech32Prefix();
        evmUrl = chain.jsonRpcUrls().get(0);
        evm = new EvmRpcClient(vertx, chain.jsonRpcUrls(), NodeClientOptions.defaults());
        Await.until("indexed height " + BLOCKS, 120, () -> get("/status").getLong("height") >= BLOCKS);
        for (ChainTransfers.Transfer t :
                ChainTransfers.read(client, chain.rpcUrls().get(0), 1, BLOCKS)) {
            if (t.nft())
                truth.computeIfAbsent(key(t.token().hex(), t.value().toString()), k -> new ArrayList<>())
                        .add(t);
        }
    }

    static String key(String collection, String tokenId) {
        return collection + "/" + tokenId;
    }

    static JsonObject get(String uri) {
        var r = TestNodes.get(client, port, uri);
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    static JsonObject fail(String uri, int status) {
        var r = TestNodes.get(client, port, uri);
        assertEquals(status, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    /** Every row of an offset-paginated list, following next_key. */
    static List<JsonObject> walk(String uri, String listKey, int limit) {
        List<JsonObject> out = new ArrayList<>();
        String sep = uri.contains("?") ? "&" : "?";
        String key = null;
        for (int pages = 0; pages < 1000; pages++) {
            JsonObject body = get(uri + sep + "pagination.limit=" + limit
                    + (key == null ? "" : "&pagination.key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)));
            body.getJsonArray(listKey).forEach(o -> out.add((JsonObject) o));
            key = body.getJsonObject("pagination").getString("next_key");
            if (key == null) return out;
        }
        throw new AssertionError("no end");
    }

    /** The live tokens per the chain: the last Transfer of each token does not go to the zero address. */
    static Map<String, ChainTransfers.Transfer> live() {
        Map<String, ChainTransfers.Transfer> out = new LinkedHashMap<>();
        truth.forEach((k, list) -> {
            ChainTransfers.Transfer last = list.get(list.size() - 1);
            if (!isZero(last.to())) out.put(k, last);
        });
        return out;
    }

    static boolean isZero(AccountAddress a) {
        return dev.weft.chain.model.EvmLog.isZero(a);
    }

    static List<JsonObject> collections() {
        return walk("/indexer/nft/v1/collections", "collections", 10);
    }

    @Test
    @DisplayName(
            "collections: the devnet's two ERC-721s with rollytics' shape, their deployer as creator, height of the deploy tx, live counts")
    void collectionsList() {
        List<JsonObject> list = collections();
        assertEquals(2, list.size());
        Map<String, Integer> liveCount = new TreeMap<>();
        live().keySet().forEach(k -> liveCount.merge(k.substring(0, k.indexOf('/')), 1, Integer::sum));
        Set<String> names = new LinkedHashSet<>();
        for (JsonObject c : list) {
            assertFields(c, "object_addr", "collection", "height", "timestamp");
            assertFields(c.getJsonObject("collection"), "creator", "name", "origin_name", "nfts");
            assertFields(c.getJsonObject("collection").getJsonObject("nfts"), "handle", "length");
            assertNumber(c.getJsonObject("collection").getJsonObject("nfts"), "length");
            assertNumber(c, "height");
            for (String f : List.of("creator", "name", "origin_name")) assertString(c.getJsonObject("collection"), f);
            assertEquals("", c.getJsonObject("collection").getJsonObject("nfts").getString("handle"));
            assertEquals("", c.getJsonObject("collection").getString("origin_name"));
            assertEquals(1L, c.getLong("height"), "deployed in block 1");
            long blockNs =
                    dev.weft.chain.model.Rfc3339.parseNanos(get("/indexer/tx/v1/txs/by_height/1?pagination.limit=1")
                            .getJsonArray("txs")
                            .getJsonObject(0)
                            .getString("timestamp"));
            assertEquals(
                    dev.weft.chain.model.Rfc3339.nanos(blockNs / 1000 * 1000),
                    c.getString("timestamp"),
                    "block 1's time, in microseconds");
            assertTrue(c.getString("timestamp").matches("2025-06-01T00:00:00\\.\\d{1,6}Z"), c.getString("timestamp"));
            assertTrue(c.getString("object_addr").matches("0x[0-9a-f]{40}"));
            assertTrue(c.getJsonObject("collection").getString("creator").startsWith(prefix + "1"));
            int n = c.getJsonObject("collection").getJsonObject("nfts").getInteger("length");
            assertEquals(liveCount.get(c.getString("object_addr")), n, c.encode());
            names.add(c.getJsonObject("collection").getString("name"));
            JsonObject one = get("/indexer/nft/v1/collections/"
                    + c.getString("object_addr").toUpperCase().replace("0X", "0x"));
            assertFields(one, "collection");
            assertEquals(c, one.getJsonObject("collection"));
            // bech32 of the contract too
            String bech =
                    AccountAddress.parse(c.getString("object_addr"), prefix).bech32(prefix);
            assertEquals(c, get("/indexer/nft/v1/collections/" + bech).getJsonObject("collection"));
        }
        assertEquals(Set.of("Weft Kittens", "Devnet Punks"), names);
        assertEquals(
                list.get(0).getJsonObject("collection").getString("creator"),
                list.get(1).getJsonObject("collection").getString("creator"));
        JsonObject page = get("/indexer/nft/v1/collections?pagination.limit=1");
        assertEquals("2", page.getJsonObject("pagination").getString("total"));
        assertString(page.getJsonObject("pagination"), "total");
        assertEquals(PageResponse.encode("1"), page.getJsonObject("pagination").getString("next_key"));
        assertNull(page.getJsonObject("pagination").getString("previous_key"));
    }

    @Test
    @DisplayName(
            "tokens of a collection: exactly the live tokens, each with its last owner, its tokenURI and the height of its last move")
    void tokensByCollection() throws Exception {
        Map<String, ChainTransfers.Transfer> live = live();
        long head = BLOCKS;
        int checked = 0;
        for (JsonObject c : collections()) {
            String addr = c.getString("object_addr");
            List<JsonObject> tokens = walk("/indexer/nft/v1/tokens/by_collection/" + addr, "tokens", 37);
            Set<String> expected = new LinkedHashSet<>();
            live.keySet().stream().filter(k -> k.startsWith(addr + "/")).forEach(expected::add);
            Set<String> actual = new LinkedHashSet<>();
            List<EvmRpcClient.Request> uris = new ArrayList<>();
            List<EvmRpcClient.Request> owners = new ArrayList<>();
            for (JsonObject t : tokens) {
                assertFields(
                        t,
                        "collection_addr",
                        "collection_name",
                        "collection_origin_name",
                        "object_addr",
                        "owner",
                        "nft",
                        "height",
                        "timestamp");
                assertFields(t.getJsonObject("nft"), "token_id", "uri");
                for (String f : List.of(
                        "collection_addr",
                        "collection_name",
                        "collection_origin_name",
                        "object_addr",
                        "owner",
                        "timestamp")) assertString(t, f);
                assertString(t.getJsonObject("nft"), "token_id");
                assertString(t.getJsonObject("nft"), "uri");
                assertNumber(t, "height");
                assertEquals(addr, t.getString("collection_addr"));
                assertEquals(c.getJsonObject("collection").getString("name"), t.getString("collection_name"));
                assertEquals("", t.getString("object_addr"));
                String id = t.getJsonObject("nft").getString("token_id");
                actual.add(key(addr, id));
                ChainTransfers.Transfer last = live.get(key(addr, id));
                assertEquals(last.to().bech32(prefix), t.getString("owner"), id);
                assertEquals(last.height(), t.getLong("height"), id);
                AccountAddress contract = AccountAddress.parse(addr, prefix);
                uris.add(EthCalls.call(contract, EthCalls.tokenUri(new BigInteger(id)), head));
                owners.add(EthCalls.call(contract, "0x6352211e" + EthCalls.word(new BigInteger(id)), head));
            }
            assertEquals(expected, actual);
            assertEquals(
                    Integer.toString(expected.size()),
                    get("/indexer/nft/v1/tokens/by_collection/" + addr + "?pagination.limit=1")
                            .getJsonObject("pagination")
                            .getString("total"));
            var uriResults = TestNodes.await(evm.batch(uris));
            var ownerResults = TestNodes.await(evm.batch(owners));
            for (int i = 0; i < tokens.size(); i++) {
                assertEquals(
                        EthCalls.decodeString(uriResults.get(i).result()),
                        tokens.get(i).getJsonObject("nft").getString("uri"));
                String owner = ownerResults.get(i).result().asText();
                assertEquals(
                        AccountAddress.parse("0x" + owner.substring(owner.length() - 40), prefix)
                                .bech32(prefix),
                        tokens.get(i).getString("owner"));
                checked++;
            }
        }
        assertTrue(checked > 50, checked + " tokens checked");
    }

    @Test
    @DisplayName(
            "token order: token_id is lexicographic (\"9\" after \"10\" ascending, before it descending), then height; order_by=height; bad order_by → 400")
    void tokenOrder() {
        String addr = collections().get(0).getString("object_addr");
        List<String> desc = walk("/indexer/nft/v1/tokens/by_collection/" + addr, "tokens", 1000).stream()
                .map(t -> t.getJsonObject("nft").getString("token_id"))
                .toList();
        List<String> lexDesc = new ArrayList<>(desc);
        lexDesc.sort(Comparator.reverseOrder());
        assertEquals(lexDesc, desc);
        List<String> numericDesc = new ArrayList<>(desc);
        numericDesc.sort(Comparator.comparing(BigInteger::new, Comparator.reverseOrder()));
        assertNotEquals(numericDesc, desc, "ids of different lengths are present, so the orders differ");
        List<String> asc = walk(
                        "/indexer/nft/v1/tokens/by_collection/" + addr + "?pagination.reverse=false&order_by=token_id",
                        "tokens",
                        1000)
                .stream()
                .map(t -> t.getJsonObject("nft").getString("token_id"))
                .toList();
        List<String> lexAsc = new ArrayList<>(desc);
        lexAsc.sort(Comparator.naturalOrder());
        assertEquals(lexAsc, asc);
        List<JsonObject> byHeight =
                walk("/indexer/nft/v1/tokens/by_collection/" + addr + "?order_by=height", "tokens", 1000);
        for (int i = 1; i < byHeight.size(); i++) {
            JsonObject a = byHeight.get(i - 1);
            JsonObject b = byHeight.get(i);
            assertTrue(a.getLong("height") > b.getLong("height")
                    || a.getLong("height").equals(b.getLong("height"))
                            && a.getJsonObject("nft")
                                            .getString("token_id")
                                            .compareTo(b.getJsonObject("nft").getString("token_id"))
                                    > 0);
        }
        // a crafted rollytics cursor {"height","token_id"}: the rows after it in (height, token_id) order, no offset
        JsonObject mid = byHeight.get(byHeight.size() / 2);
        String key = java.util.Base64.getEncoder()
                .encodeToString(new JsonObject()
                        .put("height", mid.getLong("height"))
                        .put("token_id", mid.getJsonObject("nft").getString("token_id"))
                        .encode()
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        List<String> fromCursor = get("/indexer/nft/v1/tokens/by_collection/" + addr
                        + "?order_by=height&pagination.limit=1000&pagination.offset=5&pagination.key="
                        + java.net.URLEncoder.encode(key, java.nio.charset.StandardCharsets.UTF_8))
                .getJsonArray("tokens")
                .stream()
                .map(o -> ((JsonObject) o).getJsonObject("nft").getString("token_id"))
                .toList();
        assertEquals(
                byHeight.subList(byHeight.size() / 2 + 1, byHeight.size()).stream()
                        .map(t -> t.getJsonObject("nft").getString("token_id"))
                        .toList(),
                fromCursor);
        assertEquals(
                400,
                TestNodes.get(
                                client,
                                port,
                                "/indexer/nft/v1/tokens/by_collection/" + addr + "?pagination.key="
                                        + java.util.Base64.getEncoder()
                                                .encodeToString("{\"height\":5}"
                                                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                        .statusCode(),
                "a cursor without token_id");
        JsonObject e = fail("/indexer/nft/v1/tokens/by_collection/" + addr + "?order_by=owner", 400);
        assertError(e, 3);
        assertEquals("invalid order_by value 'owner', must be one of: token_id, height", e.getString("message"));
        assertEquals(
                400,
                TestNodes.get(client, port, "/indexer/nft/v1/tokens/by_account/" + addr + "?order_by=TOKEN_ID")
                        .statusCode());
    }

    @Test
    @DisplayName(
            "tx history: every token's mint, transfers and burn in chain order (burnt tokens keep it, but leave the token lists)")
    void history() {
        int burnt = 0;
        int full = 0;
        for (Map.Entry<String, List<ChainTransfers.Transfer>> e : truth.entrySet()) {
            String[] k = e.getKey().split("/");
            List<String> expected = new ArrayList<>();
            for (ChainTransfers.Transfer t : e.getValue()) if (!expected.contains(t.txHash())) expected.add(t.txHash());
            List<JsonObject> txs =
                    walk("/indexer/nft/v1/txs/" + k[0] + "/" + k[1] + "?pagination.reverse=false", "txs", 2);
            assertEquals(expected, txs.stream().map(t -> t.getString("txhash")).toList(), e.getKey());
            JsonObject first = get("/indexer/nft/v1/txs/" + k[0] + "/" + k[1] + "?pagination.limit=1");
            assertEquals(
                    Integer.toString(expected.size()),
                    first.getJsonObject("pagination").getString("total"));
            assertEquals(
                    expected.get(expected.size() - 1),
                    first.getJsonArray("txs").getJsonObject(0).getString("txhash"),
                    "newest first");
            assertFields(first, "txs", "pagination");
            assertFields(first.getJsonObject("pagination"), "previous_key", "next_key", "total");
            assertNull(first.getJsonObject("pagination").getValue("previous_key"));
            JsonObject item = first.getJsonArray("txs").getJsonObject(0);
            assertFields(
                    item,
                    "txhash",
                    "height",
                    "codespace",
                    "code",
                    "data",
                    "raw_log",
                    "logs",
                    "info",
                    "gas_wanted",
                    "gas_used",
                    "tx",
                    "timestamp",
                    "events");
            for (String f : List.of(
                    "txhash", "height", "codespace", "data", "raw_log", "info", "gas_wanted", "gas_used", "timestamp"))
                assertString(item, f);
            ChainTransfers.Transfer last = e.getValue().get(e.getValue().size() - 1);
            if (isZero(last.to())) {
                burnt++;
                assertEquals(
                        0,
                        get("/indexer/nft/v1/tokens/by_collection/" + k[0] + "?token_id=" + k[1])
                                .getJsonArray("tokens")
                                .size());
                if (isZero(e.getValue().get(0).from()) && e.getValue().size() == 4) full++;
            }
        }
        assertTrue(burnt >= 5 && full >= 5, burnt + " burnt tokens, " + full + " with their whole life in the history");
        JsonObject none = get("/indexer/nft/v1/txs/" + collections().get(0).getString("object_addr") + "/999999999");
        assertEquals(0, none.getJsonArray("txs").size());
        assertEquals("0", none.getJsonObject("pagination").getString("total"));
        assertNull(none.getJsonObject("pagination").getString("next_key"));
    }

    @Test
    @DisplayName("an owner's view: its tokens (filters collection_addr, token_id) and the collections it holds one of")
    void byAccount() {
        Map<String, Set<String>> byOwner = new TreeMap<>();
        live().forEach((k, t) -> byOwner.computeIfAbsent(t.to().hex(), o -> new LinkedHashSet<>())
                .add(k));
        String owner = byOwner.entrySet().stream()
                .max(Comparator.comparingInt(x -> x.getValue().size()))
                .orElseThrow()
                .getKey();
        Set<String> expected = byOwner.get(owner);
        String bech = AccountAddress.parse(owner, prefix).bech32(prefix);
        for (String who : List.of(owner, bech, owner.toUpperCase().replace("0X", "0x"))) {
            Set<String> actual = new LinkedHashSet<>();
            for (JsonObject t : walk("/indexer/nft/v1/tokens/by_account/" + who, "tokens", 3)) {
                assertEquals(bech, t.getString("owner"));
                actual.add(key(
                        t.getString("collection_addr"), t.getJsonObject("nft").getString("token_id")));
            }
            assertEquals(expected, actual);
        }
        Set<String> colls = new LinkedHashSet<>();
        expected.forEach(k -> colls.add(k.substring(0, k.indexOf('/'))));
        List<JsonObject> held = walk("/indexer/nft/v1/collections/by_account/" + bech, "collections", 1);
        assertEquals(
                colls,
                new LinkedHashSet<>(
                        held.stream().map(c -> c.getString("object_addr")).toList()));
        assertEquals(
                Integer.toString(colls.size()),
                get("/indexer/nft/v1/collections/by_account/" + bech)
                        .getJsonObject("pagination")
                        .getString("total"));
        String one = expected.iterator().next();
        String c = one.substring(0, one.indexOf('/'));
        String id = one.substring(one.indexOf('/') + 1);
        long inColl = expected.stream().filter(k -> k.startsWith(c + "/")).count();
        JsonObject filtered = get("/indexer/nft/v1/tokens/by_account/" + owner + "?collection_addr=" + c);
        assertEquals(Long.toString(inColl), filtered.getJsonObject("pagination").getString("total"));
        JsonObject exact =
                get("/indexer/nft/v1/tokens/by_account/" + owner + "?collection_addr=" + c + "&token_id=" + id);
        assertEquals(1, exact.getJsonArray("tokens").size());
        assertEquals("1", exact.getJsonObject("pagination").getString("total"));
        JsonObject nobody = get("/indexer/nft/v1/tokens/by_account/0x000000000000000000000000000000000000dead");
        assertEquals(0, nobody.getJsonArray("tokens").size());
        assertEquals("0", nobody.getJsonObject("pagination").getString("total"));
        assertEquals(
                0,
                get("/indexer/nft/v1/collections/by_account/0x000000000000000000000000000000000000dead")
                        .getJsonArray("collections")
                        .size());
    }

    @Test
    @DisplayName(
            "by_name: substring of the lower-case letters and digits of the name (case and punctuation ignored), from the database")
    void byName() {
        assertEquals(List.of("Weft Kittens"), names("kitten"));
        assertEquals(List.of("Weft Kittens"), names("WEFT-kit"));
        assertEquals(List.of("Weft Kittens"), names("t%20k"));
        assertEquals(List.of("Devnet Punks"), names("net.PUNK"));
        assertEquals(List.of(), names("zebra"));
        List<String> both = names("e");
        assertEquals(2, both.size());
        assertEquals(
                "2",
                get("/indexer/nft/v1/collections/by_name/e")
                        .getJsonObject("pagination")
                        .getString("total"));
        JsonObject second = get("/indexer/nft/v1/collections/by_name/e?pagination.limit=1&pagination.offset=1");
        assertEquals(
                both.get(1),
                second.getJsonArray("collections")
                        .getJsonObject(0)
                        .getJsonObject("collection")
                        .getString("name"));
        assertEquals(
                PageResponse.encode("0"), second.getJsonObject("pagination").getString("previous_key"));
    }

    static List<String> names(String q) {
        return walk("/indexer/nft/v1/collections/by_name/" + q, "collections", 10).stream()
                .map(c -> c.getJsonObject("collection").getString("name"))
                .toList();
    }

    @Test
    @DisplayName("bad parameters are 400 JSON errors, an unknown collection is a 404 JSON error")
    void errors() {
        String addr = collections().get(0).getString("object_addr");
        for (String uri : List.of(
                "/indexer/nft/v1/collections/0xnothex",
                "/indexer/nft/v1/collections/cosmos1abc",
                "/indexer/nft/v1/tokens/by_collection/xyz",
                "/indexer/nft/v1/tokens/by_account/init1zzz",
                "/indexer/nft/v1/tokens/by_account/0xzz?order_by=token_id",
                "/indexer/nft/v1/txs/nope/1",
                "/indexer/nft/v1/collections/by_account/bad",
                "/indexer/nft/v1/collections?pagination.limit=0",
                "/indexer/nft/v1/tokens/by_collection/" + addr + "?pagination.offset=-1",
                "/indexer/nft/v1/tokens/by_account/" + addr + "?collection_addr=bad")) {
            JsonObject e = fail(uri, 400);
            assertError(e, 3);
        }
        assertEquals(
                "[INVALID_VALUE] invalid value for collection_addr: 0xnothex (invalid address format)",
                fail("/indexer/nft/v1/collections/0xnothex", 400).getString("message"));
        JsonObject nf = fail("/indexer/nft/v1/collections/0x000000000000000000000000000000000000beef", 404);
        assertError(nf, 5);
        assertEquals("nft collection not found", nf.getString("message"));
        assertFalse(get("/indexer/nft/v1/tokens/by_collection/0x000000000000000000000000000000000000beef")
                .getJsonArray("tokens")
                .iterator()
                .hasNext());
    }
}
