package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.Shapes.assertFields;
import static dev.weft.testsupport.Shapes.assertString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.AccountAddress;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.math.BigInteger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /indexer/account/v1/{address}/*} on a node that indexed, traced and rich-listed the devnet's history: the
 * summary's counts against the totals of the lists they summarise, the balances against the transfer rows, the transfer
 * pages against each other in both directions and under each filter.
 */
class AccountApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long BLOCKS = 60;
    static WebClient client;
    static WeftNode node;
    static int port;
    static String prefix;
    /** The signer of the latest EVM tx, 0x hex. */
    static String account;

    @BeforeAll
    static void start() {
        client = WebClient.create(weft.vertx());
        TestConfig c = weft.config()
                .roles("devnet", "ingest", "evm", "richlist", "api")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 11)
                .set("devnet.txs_per_block", 10)
                .set("ingest.poll_interval", "50ms");
        node = weft.start(c);
        port = TestNodes.httpPort(node);
        prefix = node.context().config().chain().bech32Prefix();
        Await.until("all cursors at " + BLOCKS, 120, () -> {
            JsonObject s = get("/status");
            return s.getLong("height") >= BLOCKS
                    && s.getLong("internal_tx_height") >= BLOCKS
                    && s.getLong("rich_list_height") >= BLOCKS;
        });
        account = get("/indexer/tx/v1/evm-txs?pagination.limit=1")
                .getJsonArray("txs")
                .getJsonObject(0)
                .getString("from");
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

    static String total(String uri) {
        return get(uri).getJsonObject("pagination").getString("total");
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Every row of a keyset list, following next_key. */
    static List<JsonObject> walk(String uri, String listKey, int limit) {
        List<JsonObject> out = new ArrayList<>();
        String sep = uri.contains("?") ? "&" : "?";
        String key = null;
        for (int pages = 0; pages < 10_000; pages++) {
            JsonObject body =
                    get(uri + sep + "pagination.limit=" + limit + (key == null ? "" : "&pagination.key=" + enc(key)));
            body.getJsonArray(listKey).forEach(o -> out.add((JsonObject) o));
            key = body.getJsonObject("pagination").getString("next_key");
            if (key == null) return out;
        }
        throw new AssertionError("no end");
    }

    @Test
    @DisplayName("summary: exact fields and types; every count equals the total of the list it summarises")
    void summary() {
        JsonObject s = get("/indexer/account/v1/" + account + "/summary").getJsonObject("summary");
        assertFields(
                s,
                "address",
                "hex",
                "txs",
                "signer_txs",
                "evm_txs",
                "evm_signer_txs",
                "internal_txs",
                "nfts",
                "tokens",
                "first_height",
                "first_timestamp",
                "last_height",
                "last_timestamp",
                "height",
                "internal_txs_height",
                "tokens_height",
                "categories");
        for (String f : s.fieldNames()) if (!f.equals("categories")) assertString(s, f);
        AccountAddress a = AccountAddress.parse(account, prefix);
        assertEquals(a.bech32(prefix), s.getString("address"));
        assertEquals(account.toLowerCase(), s.getString("hex"));
        assertEquals(total("/indexer/tx/v1/txs/by_account/" + account), s.getString("txs"));
        assertEquals(total("/indexer/tx/v1/txs/by_account/" + account + "?is_signer=true"), s.getString("signer_txs"));
        assertEquals(total("/indexer/tx/v1/evm-txs/by_account/" + account), s.getString("evm_txs"));
        assertEquals(
                total("/indexer/tx/v1/evm-txs/by_account/" + account + "?is_signer=true"),
                s.getString("evm_signer_txs"));
        assertEquals(total("/indexer/tx/v1/evm-internal-txs/by_account/" + account), s.getString("internal_txs"));
        assertEquals(total("/indexer/nft/v1/tokens/by_account/" + account), s.getString("nfts"));
        assertEquals(total("/indexer/account/v1/" + account + "/balances"), s.getString("tokens"));
        assertTrue(Long.parseLong(s.getString("txs")) > 0, "the account has txs");
        assertTrue(Long.parseLong(s.getString("tokens")) > 0, "the account holds tokens");
        assertEquals(Long.toString(BLOCKS), s.getString("height"));
        assertEquals(Long.toString(BLOCKS), s.getString("tokens_height"));
        assertEquals(Long.toString(BLOCKS), s.getString("internal_txs_height"));

        // first and last activity: the oldest and newest of its txs and EVM txs, and their blocks' times
        long first = Long.MAX_VALUE;
        long last = 0;
        for (String list : List.of("txs", "evm-txs", "evm-internal-txs")) {
            String base = "/indexer/tx/v1/" + list + "/by_account/" + account + "?pagination.limit=1";
            var newest = get(base).getJsonArray(list.equals("evm-internal-txs") ? "internal_txs" : "txs");
            var oldest = get(base + "&pagination.reverse=false")
                    .getJsonArray(list.equals("evm-internal-txs") ? "internal_txs" : "txs");
            if (newest.isEmpty()) continue;
            last = Math.max(last, height(newest.getJsonObject(0)));
            first = Math.min(first, height(oldest.getJsonObject(0)));
        }
        assertEquals(Long.toString(first), s.getString("first_height"));
        assertEquals(Long.toString(last), s.getString("last_height"));
        assertEquals(blockSecond(first), second(s.getString("first_timestamp")));
        assertEquals(blockSecond(last), second(s.getString("last_timestamp")));

        // the same account in its other forms
        for (String form : List.of(
                a.bech32(prefix),
                account.toUpperCase().replace("0X", "0x"),
                "0x000000000000000000000000" + account.substring(2)))
            assertEquals(s, get("/indexer/account/v1/" + form + "/summary").getJsonObject("summary"), form);
    }

    static long height(JsonObject row) {
        Object h = row.getValue("height");
        if (h == null) h = row.getValue("blockNumber");
        String t = String.valueOf(h);
        return t.startsWith("0x") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
    }

    /** The block's RFC 3339 time is at second precision, the summary's at nanoseconds: compare on the seconds. */
    static long blockSecond(long height) {
        return second(
                get("/indexer/block/v1/blocks/" + height).getJsonObject("block").getString("timestamp"));
    }

    static long second(String rfc3339) {
        return Math.floorDiv(dev.weft.chain.model.Rfc3339.parseNanos(rfc3339), 1_000_000_000L);
    }

    @Test
    @DisplayName("an account never seen: zeros and nulls, not a 404")
    void unknown() {
        JsonObject s = get("/indexer/account/v1/0x00000000000000000000000000000000deadbeef/summary")
                .getJsonObject("summary");
        for (String f : List.of("txs", "evm_txs", "internal_txs", "nfts", "tokens")) assertEquals("0", s.getString(f));
        for (String f : List.of("first_height", "first_timestamp", "last_height", "last_timestamp"))
            assertTrue(s.containsKey(f) && s.getValue(f) == null, f);
        JsonObject b = get("/indexer/account/v1/0x00000000000000000000000000000000deadbeef/balances");
        assertEquals(0, b.getJsonArray("balances").size());
        assertEquals("0", b.getJsonObject("pagination").getString("total"));
        assertEquals(
                0,
                get("/indexer/account/v1/0x00000000000000000000000000000000deadbeef/transfers")
                        .getJsonArray("transfers")
                        .size());
    }

    @Test
    @DisplayName("balances: exact shape; each amount is the account's transfers in minus out of that token")
    void balances() {
        JsonObject body = get("/indexer/account/v1/" + account + "/balances");
        assertFields(body, "balances", "height", "pagination");
        assertEquals(Long.toString(BLOCKS), body.getString("height"));
        Map<String, BigInteger> net = new HashMap<>();
        for (JsonObject t : walk("/indexer/account/v1/" + account + "/transfers", "transfers", 100)) {
            BigInteger amount = new BigInteger(t.getString("amount"));
            String dir = t.getString("direction");
            BigInteger d = dir.equals("in") ? amount : dir.equals("out") ? amount.negate() : BigInteger.ZERO;
            net.merge(t.getString("token"), d, BigInteger::add);
        }
        net.values().removeIf(v -> v.signum() == 0);
        Map<String, BigInteger> held = new HashMap<>();
        List<String> order = new ArrayList<>();
        for (Object o : body.getJsonArray("balances")) {
            JsonObject b = (JsonObject) o;
            assertFields(b, "token", "denom", "amount");
            held.put(b.getString("token"), new BigInteger(b.getString("amount")));
            order.add(b.getString("token"));
        }
        assertEquals(net, held);
        List<String> sorted = new ArrayList<>(order);
        Collections.sort(sorted);
        assertEquals(sorted, order, "ordered by token");
        assertEquals(
                Integer.toString(held.size()), body.getJsonObject("pagination").getString("total"));
        // and the rich list agrees, holder by holder
        for (var e : held.entrySet()) {
            boolean found = false;
            for (Object o : get("/indexer/richlist/v1/" + e.getKey() + "?pagination.limit=1000")
                    .getJsonArray("holders")) {
                JsonObject h = (JsonObject) o;
                if (h.getString("account").equalsIgnoreCase(account)) {
                    assertEquals(e.getValue().toString(), h.getString("amount"));
                    found = true;
                }
            }
            assertTrue(found, e.getKey());
        }
        // offset pages
        List<String> paged = new ArrayList<>();
        for (int off = 0; off < held.size(); off++) {
            var rows = get("/indexer/account/v1/" + account + "/balances?pagination.limit=1&pagination.offset=" + off)
                    .getJsonArray("balances");
            paged.add(rows.getJsonObject(0).getString("token"));
        }
        assertEquals(order, paged);
    }

    @Test
    @DisplayName("transfers: shape; both directions and page sizes agree; the filters partition the rows")
    void transfers() {
        String base = "/indexer/account/v1/" + account + "/transfers";
        List<JsonObject> all = walk(base, "transfers", 100);
        assertFalse(all.isEmpty());
        JsonObject first = all.get(0);
        assertFields(
                first, "height", "timestamp", "txhash", "index", "kind", "token", "from", "to", "amount", "direction");
        assertEquals("erc20", first.getString("kind"));
        assertEquals(all, walk(base, "transfers", 3), "page size 3");
        List<JsonObject> asc = walk(base + "?pagination.reverse=false", "transfers", 7);
        Collections.reverse(asc);
        assertEquals(all, asc, "ascending, reversed");
        for (JsonObject t : all) {
            boolean out = t.getString("from").equalsIgnoreCase(account);
            boolean in = t.getString("to").equalsIgnoreCase(account);
            assertTrue(in || out, t.encode());
            assertEquals(in && out ? "self" : out ? "out" : "in", t.getString("direction"));
            // the tx is the one the row names, at its height
            JsonObject tx = get("/indexer/tx/v1/txs/" + t.getString("txhash")).getJsonObject("tx");
            assertEquals(t.getString("height"), tx.getString("height"));
        }
        List<JsonObject> in = walk(base + "?direction=in", "transfers", 50);
        List<JsonObject> out = walk(base + "?direction=out", "transfers", 50);
        assertEquals(
                all.stream()
                        .filter(t -> !t.getString("direction").equals("out"))
                        .count(),
                in.size(),
                "in");
        assertEquals(
                all.stream().filter(t -> !t.getString("direction").equals("in")).count(), out.size(), "out");
        for (JsonObject t : in) assertFalse(t.getString("direction").equals("out"));
        // a token, and a height range
        String token = first.getString("token");
        assertEquals(
                all.stream().filter(t -> t.getString("token").equals(token)).toList(),
                walk(base + "?token=" + token, "transfers", 100));
        // ranges inside the history, at its ends and on a single height (a bound between txs, a range without any)
        for (long[] range : new long[][] {{10, 40}, {1, 1}, {1, 12}, {33, 33}, {40, BLOCKS}}) {
            long lo = range[0];
            long hi = range[1];
            assertEquals(
                    all.stream()
                            .filter(t -> Long.parseLong(t.getString("height")) >= lo
                                    && Long.parseLong(t.getString("height")) <= hi)
                            .toList(),
                    walk(base + "?from_height=" + lo + "&to_height=" + hi, "transfers", 3),
                    lo + ".." + hi);
        }
        assertEquals("0", get(base).getJsonObject("pagination").getString("total"));
        assertTrue(all.stream().map(t -> t.getString("token")).anyMatch(Objects::nonNull));
    }

    @Test
    @DisplayName("tokens: shape; holders and supply equal the rich list's; symbol and decimals from the registry")
    void tokens() throws Exception {
        JsonObject body = get("/indexer/token/v1/tokens?pagination.limit=1000");
        assertFields(body, "tokens", "height", "pagination");
        assertEquals(Long.toString(BLOCKS), body.getString("height"));
        // the registry's assets of the devnet rollup, by contract, read here from the file itself
        Map<String, JsonObject> registry = new HashMap<>();
        JsonObject file =
                new JsonObject(java.nio.file.Files.readString(java.nio.file.Path.of("conf/registry/devnet.json")));
        for (Object o : file.getJsonArray("assets")) {
            JsonObject a = (JsonObject) o;
            if (a.getString("chain_id").equals("weft-devnet-1") && a.getString("token_contract") != null)
                registry.put(a.getString("token_contract").toLowerCase(), a);
        }
        List<String> order = new ArrayList<>();
        int named = 0;
        for (Object o : body.getJsonArray("tokens")) {
            JsonObject t = (JsonObject) o;
            assertFields(t, "token", "denom", "kind", "symbol", "decimals", "holders", "supply");
            assertEquals("erc20", t.getString("kind"));
            String token = t.getString("token");
            order.add(token);
            List<JsonObject> holders = new ArrayList<>();
            get("/indexer/richlist/v1/" + token + "?pagination.limit=1000")
                    .getJsonArray("holders")
                    .forEach(h -> holders.add((JsonObject) h));
            assertEquals(Integer.toString(holders.size()), t.getString("holders"), token);
            BigInteger supply = BigInteger.ZERO;
            for (JsonObject h : holders) supply = supply.add(new BigInteger(h.getString("amount")));
            assertEquals(supply.toString(), t.getString("supply"), token);
            JsonObject known = registry.get(token);
            if (known != null) {
                assertEquals(known.getString("symbol"), t.getString("symbol"), token);
                assertEquals(known.getInteger("decimals"), t.getInteger("decimals"), token);
                named++;
            } else {
                assertTrue(t.getValue("symbol") == null && t.getValue("decimals") == null, t.encode());
            }
        }
        assertTrue(named > 0, "the fee token is in the registry");
        assertEquals(
                Integer.toString(order.size()), body.getJsonObject("pagination").getString("total"));
        List<String> sorted = new ArrayList<>(order);
        Collections.sort(sorted);
        assertEquals(sorted, order);
        // every token the account holds is listed
        for (Object o : get("/indexer/account/v1/" + account + "/balances").getJsonArray("balances"))
            assertTrue(order.contains(((JsonObject) o).getString("token")));
    }

    @Test
    @DisplayName("a token's transfers: the account's transfers of that token are among them; by contract and by denom")
    void tokenTransfers() {
        JsonObject first = get("/indexer/account/v1/" + account + "/transfers?pagination.limit=1")
                .getJsonArray("transfers")
                .getJsonObject(0);
        String token = first.getString("token");
        List<JsonObject> all = walk("/indexer/token/v1/" + token + "/transfers", "transfers", 100);
        for (JsonObject t : all) {
            assertEquals(token, t.getString("token"));
            assertFields(t, "height", "timestamp", "txhash", "index", "kind", "token", "from", "to", "amount");
        }
        List<JsonObject> mine = new ArrayList<>();
        for (JsonObject t : walk("/indexer/account/v1/" + account + "/transfers?token=" + token, "transfers", 100)) {
            JsonObject c = t.copy();
            c.remove("direction");
            mine.add(c);
        }
        List<JsonObject> theirs = all.stream()
                .filter(t -> t.getString("from").equals(account.toLowerCase())
                        || t.getString("to").equals(account.toLowerCase()))
                .toList();
        assertEquals(mine, theirs);
        List<JsonObject> asc =
                walk("/indexer/token/v1/" + token + "/transfers?pagination.reverse=false", "transfers", 9);
        Collections.reverse(asc);
        assertEquals(all, asc);
        // the same token by its bank denom, when the chain maps one to it
        String denom = null;
        for (Object o : get("/indexer/token/v1/tokens?pagination.limit=1000").getJsonArray("tokens")) {
            JsonObject t = (JsonObject) o;
            if (t.getString("token").equals(token)) denom = t.getString("denom");
        }
        if (denom != null)
            assertEquals(all, walk("/indexer/token/v1/" + enc(denom) + "/transfers", "transfers", 100), denom);
    }

    @Test
    @DisplayName("from_height/to_height on the internal tx lists: the frames of the range, exact totals")
    void internalTxRange() {
        List<JsonObject> all = walk("/indexer/tx/v1/evm-internal-txs", "internal_txs", 1000);
        List<JsonObject> mine = walk("/indexer/tx/v1/evm-internal-txs/by_account/" + account, "internal_txs", 1000);
        assertFalse(all.isEmpty());
        for (long[] r : new long[][] {{10, 30}, {1, 5}, {BLOCKS, BLOCKS}, {BLOCKS + 1, BLOCKS + 9}}) {
            String q = "from_height=" + r[0] + "&to_height=" + r[1];
            List<JsonObject> expect = all.stream()
                    .filter(t -> height(t) >= r[0] && height(t) <= r[1])
                    .toList();
            assertEquals(expect, walk("/indexer/tx/v1/evm-internal-txs?" + q, "internal_txs", 7), q);
            assertEquals(Integer.toString(expect.size()), total("/indexer/tx/v1/evm-internal-txs?" + q), q + " total");
            List<JsonObject> expectMine = mine.stream()
                    .filter(t -> height(t) >= r[0] && height(t) <= r[1])
                    .toList();
            String u = "/indexer/tx/v1/evm-internal-txs/by_account/" + account + "?" + q;
            assertEquals(expectMine, walk(u, "internal_txs", 3), u);
            assertEquals(Integer.toString(expectMine.size()), total(u), u + " total");
        }
        assertEquals(
                400,
                TestNodes.get(client, port, "/indexer/tx/v1/evm-internal-txs?from_height=4&to_height=2")
                        .statusCode());
    }

    static io.vertx.core.json.JsonArray search(String q) {
        JsonObject body = get("/indexer/search/v1?q=" + enc(q));
        assertFields(body, "results");
        return body.getJsonArray("results");
    }

    @Test
    @DisplayName("search: a height, a tx hash in either form, an account in either form, typed; nothing else found")
    void search() {
        assertEquals(
                new io.vertx.core.json.JsonArray()
                        .add(new JsonObject().put("type", "block").put("height", "5")),
                search("5"));
        assertEquals(0, search(Long.toString(BLOCKS + 100)).size(), "a height not indexed");
        JsonObject tx =
                get("/indexer/tx/v1/txs?pagination.limit=1").getJsonArray("txs").getJsonObject(0);
        JsonObject expectTx = new JsonObject()
                .put("type", "tx")
                .put("hash", tx.getString("txhash"))
                .put("height", tx.getString("height"));
        for (String form :
                List.of(tx.getString("txhash"), tx.getString("txhash").toLowerCase(), "0x" + tx.getString("txhash")))
            assertEquals(new io.vertx.core.json.JsonArray().add(expectTx), search(form), form);
        JsonObject evm = get("/indexer/tx/v1/evm-txs?pagination.limit=1")
                .getJsonArray("txs")
                .getJsonObject(0);
        String evmHash = evm.getString("transactionHash");
        var hits = search(evmHash.toUpperCase().replace("0X", "0x"));
        assertEquals(1, hits.size(), hits.encode());
        JsonObject e = hits.getJsonObject(0);
        assertFields(e, "type", "hash", "height");
        assertEquals("evm_tx", e.getString("type"));
        assertEquals(evmHash.toLowerCase(), e.getString("hash"));
        assertEquals(Long.toString(height(evm)), e.getString("height"));
        JsonObject summary = get("/indexer/account/v1/" + account + "/summary").getJsonObject("summary");
        JsonObject expectAccount = new JsonObject()
                .put("type", "account")
                .put("address", summary.getString("address"))
                .put("hex", summary.getString("hex"));
        for (String form : List.of(
                account, summary.getString("address"), account.toUpperCase().replace("0X", "0x")))
            assertEquals(new io.vertx.core.json.JsonArray().add(expectAccount), search(form), form);
        assertEquals(0, search("0x00000000000000000000000000000000deadbeef").size());
        assertEquals(0, search("hello").size());
        assertEquals(0, search("0x12").size());
        assertError(fail("/indexer/search/v1", 400), 3);
        assertError(fail("/indexer/search/v1?q=%20", 400), 3);
    }

    @Test
    @DisplayName("bad input: JSON 400s naming the parameter")
    void errors() {
        assertError(fail("/indexer/account/v1/nope/summary", 400), 3);
        assertError(fail("/indexer/account/v1/0x1234/balances", 400), 3);
        assertError(fail("/indexer/account/v1/" + account + "/transfers?direction=sideways", 400), 3);
        assertError(fail("/indexer/account/v1/" + account + "/transfers?from_height=9&to_height=3", 400), 3);
        assertError(fail("/indexer/account/v1/" + account + "/transfers?from_height=-1", 400), 3);
        assertError(fail("/indexer/account/v1/" + account + "/transfers?pagination.offset=3", 400), 3);
        assertError(fail("/indexer/account/v1/" + account + "/transfers?token=0x12", 400), 3);
        String cursor = java.util.Base64.getEncoder().encodeToString("{\"height\":3}".getBytes());
        assertError(fail("/indexer/account/v1/" + account + "/transfers?pagination.key=" + cursor, 400), 3);
        assertError(fail("/indexer/account/v1/" + account + "/balances?pagination.key=" + cursor, 400), 3);
        assertError(fail("/indexer/token/v1/tokens?pagination.key=" + cursor, 400), 3);
        assertError(fail("/indexer/token/v1/0x12/transfers", 400), 3);
        assertError(fail("/indexer/token/v1/" + account + "/transfers?to_height=x", 400), 3);
    }
}
