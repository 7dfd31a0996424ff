package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertArray;
import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.Shapes.assertFields;
import static dev.weft.testsupport.Shapes.assertNull;
import static dev.weft.testsupport.Shapes.assertNumber;
import static dev.weft.testsupport.Shapes.assertString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.Rfc3339;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code /indexer/tx/v1/txs*} on a node that indexed the fixture chain. */
class TxApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long HEIGHT = 30;
    static final String FEE_COLLECTOR = "init17xpfvakm2amg962yls6f84z3kell8c5l70rnql";
    static IndexedChain ic;

    @BeforeAll
    static void start() {
        ic = new IndexedChain(weft, HEIGHT);
    }

    /** Hashes of the txs matching {@code p}, in chain order. */
    static List<String> hashes(BiPredicate<Long, Integer> p) {
        List<String> out = new ArrayList<>();
        for (long h = 1; h <= HEIGHT; h++) {
            for (int i = 0; i < FixtureChain.txCount(h); i++) if (p.test(h, i)) out.add(ic.chain.txHash(h, i));
        }
        return out;
    }

    static List<String> reversed(List<String> l) {
        List<String> r = new ArrayList<>(l);
        Collections.reverse(r);
        return r;
    }

    static List<String> walkHashes(String uri, int limit) {
        return IndexedChain.map(ic.walk(uri, "txs", limit), t -> t.getString("txhash"));
    }

    /** Both directions, several page sizes: every matching tx exactly once, in order. */
    static void assertWalks(String uri, List<String> chainOrder) {
        assertWalks(uri, chainOrder, new int[] {4, 100});
    }

    static void assertWalks(String uri, List<String> chainOrder, int[] limits) {
        for (int limit : limits) {
            assertEquals(reversed(chainOrder), walkHashes(uri, limit), uri + " desc, limit " + limit);
            assertEquals(
                    chainOrder,
                    walkHashes(uri + (uri.contains("?") ? "&" : "?") + "pagination.reverse=false", limit),
                    uri + " asc, limit " + limit);
        }
        assertEquals(
                Integer.toString(chainOrder.size()),
                ic.get(uri).getJsonObject("pagination").getString("total"),
                uri + " total");
    }

    @Test
    @DisplayName("a tx: exact fields in order and JSON types; the list wrapper and the single wrapper")
    void shape() {
        String hash = ic.chain.txHash(5, 0);
        JsonObject one = ic.get("/indexer/tx/v1/txs/" + hash);
        assertFields(one, "tx");
        JsonObject t = one.getJsonObject("tx");
        assertFields(
                t,
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
            assertString(t, f);
        assertNumber(t, "code");
        assertArray(t, "logs");
        assertArray(t, "events");
        assertEquals(hash, t.getString("txhash"));
        assertEquals("5", t.getString("height"));
        assertEquals(Rfc3339.nanos(FixtureChain.timeNs(5)), t.getString("timestamp"));
        assertEquals(ic.chain.restTx(5, 0), t.getJsonObject("tx"));
        JsonObject list = ic.get("/indexer/tx/v1/txs/by_height/5");
        assertFields(list, "txs", "pagination");
        assertEquals(
                t,
                list.getJsonArray("txs").getJsonObject(list.getJsonArray("txs").size() - 1));
    }

    @Test
    @DisplayName("by hash: any case, optional 0x; bad → 400 invalid hash format; unknown → 404")
    void byHash() {
        String hash = ic.chain.txHash(6, 1);
        JsonObject t = ic.get("/indexer/tx/v1/txs/" + hash).getJsonObject("tx");
        assertEquals(t, ic.get("/indexer/tx/v1/txs/" + hash.toLowerCase()).getJsonObject("tx"));
        assertEquals(t, ic.get("/indexer/tx/v1/txs/0x" + hash.toLowerCase()).getJsonObject("tx"));
        for (String bad : List.of("xyz", hash.substring(2), hash + "00", "0x" + hash.substring(0, 62) + "zz")) {
            IndexedChain.Response r = ic.call("/indexer/tx/v1/txs/" + bad);
            assertEquals(400, r.status(), bad);
            assertError(r.body(), 3);
            assertEquals("invalid hash format", r.body().getString("message"));
        }
        IndexedChain.Response missing = ic.call("/indexer/tx/v1/txs/" + "AB".repeat(32));
        assertEquals(404, missing.status());
        assertError(missing.body(), 5);
        assertEquals("[NOT_FOUND] transaction not found", missing.body().getString("message"));
    }

    @Test
    @DisplayName("/txs: every tx exactly once forward and backward, sequence cursor, exact total, offset fallback")
    void all() {
        List<String> all = hashes((h, i) -> true);
        assertWalks("/indexer/tx/v1/txs", all, new int[] {1, 7, 100, 1000});
        JsonObject p = ic.get("/indexer/tx/v1/txs?pagination.limit=3").getJsonObject("pagination");
        assertEquals("{\"sequence\":" + (all.size() - 2) + "}", IndexedChain.decodeKey(p.getString("next_key")));
        assertNull(p, "previous_key");
        JsonObject off = ic.get("/indexer/tx/v1/txs?pagination.offset=2&pagination.limit=2&pagination.reverse=false");
        assertEquals(
                all.subList(2, 4),
                IndexedChain.map(BlockApiTest.jsonList(off.getJsonArray("txs")), x -> x.getString("txhash")));
        assertEquals(
                "{\"sequence\":4}",
                IndexedChain.decodeKey(off.getJsonObject("pagination").getString("next_key")));
        assertEquals(
                "0",
                ic.get("/indexer/tx/v1/txs?pagination.count_total=false")
                        .getJsonObject("pagination")
                        .getString("total"));
        // empty parameters are absent ones, as in rollytics (a client's template with no value): the default first page
        JsonObject empties = ic.get(
                "/indexer/tx/v1/txs?pagination.limit=&pagination.offset=&pagination.key=&pagination.reverse=&pagination.count_total=");
        assertEquals(ic.get("/indexer/tx/v1/txs"), empties);
        assertEquals(Math.min(100, all.size()), empties.getJsonArray("txs").size());
        assertEquals(
                Integer.toString(all.size()),
                empties.getJsonObject("pagination").getString("total"));
        // an offset key (base64 of a decimal) is accepted, like rollytics
        JsonObject offKey =
                ic.get("/indexer/tx/v1/txs?pagination.limit=2&pagination.key=Mg%3D%3D&pagination.reverse=false");
        assertEquals(
                all.subList(2, 4),
                IndexedChain.map(BlockApiTest.jsonList(offKey.getJsonArray("txs")), x -> x.getString("txhash")));
    }

    @Test
    @DisplayName(
            "msgs: one type, with or without slash, repeated or comma-separated, OR semantics, unknown → empty with total 0")
    void msgs() {
        List<String> sends = hashes((h, i) -> FixtureChain.msgTypes(h, i).contains(FixtureChain.MSG_SEND));
        List<String> calls = hashes((h, i) -> FixtureChain.msgTypes(h, i).contains(FixtureChain.MSG_CALL));
        List<String> all = hashes((h, i) -> true);
        assertTrue(sends.size() < all.size() && calls.size() < all.size());
        assertWalks("/indexer/tx/v1/txs?msgs=" + FixtureChain.MSG_SEND, sends);
        assertWalks("/indexer/tx/v1/txs?msgs=/" + FixtureChain.MSG_CALL, calls);
        // both types: txs holding both are counted once
        assertWalks("/indexer/tx/v1/txs?msgs=" + FixtureChain.MSG_SEND + "," + "/" + FixtureChain.MSG_CALL, all);
        assertWalks("/indexer/tx/v1/txs?msgs=" + FixtureChain.MSG_SEND + "&msgs=" + FixtureChain.MSG_CALL, all);
        assertWalks("/indexer/tx/v1/txs?msgs=" + FixtureChain.MSG_CALL + "&msgs=not.a.Type", calls);
        JsonObject none = ic.get("/indexer/tx/v1/txs?msgs=not.a.Type");
        assertEquals(new JsonArray(), none.getJsonArray("txs"));
        assertEquals(
                new JsonObject().putNull("previous_key").putNull("next_key").put("total", "0"),
                none.getJsonObject("pagination"));
        // on by_height and by_account too
        assertWalks(
                "/indexer/tx/v1/txs/by_height/6?msgs=" + FixtureChain.MSG_CALL,
                hashes((h, i) -> h == 6 && FixtureChain.msgTypes(h, i).contains(FixtureChain.MSG_CALL)));
        AccountAddress a = FixtureChain.signer(1, 0);
        assertWalks(
                "/indexer/tx/v1/txs/by_account/" + a.bech32("init") + "?msgs=" + FixtureChain.MSG_CALL,
                hashes((h, i) -> FixtureChain.signer(h, i).equals(a)
                        && FixtureChain.msgTypes(h, i).contains(FixtureChain.MSG_CALL)));
        assertWalks(
                "/indexer/tx/v1/txs/by_account/" + a.bech32("init") + "?is_signer=true&msgs=" + FixtureChain.MSG_SEND
                        + "," + FixtureChain.MSG_CALL,
                hashes((h, i) -> FixtureChain.signer(h, i).equals(a)));
    }

    @Test
    @DisplayName("from_height/to_height: the txs of the range on /txs and by_account (with is_signer and msgs), exact"
            + " totals; bad → 400")
    void heightRange() {
        AccountAddress a = FixtureChain.signer(1, 0);
        for (long[] r : new long[][] {{5, 12}, {1, 1}, {30, 30}, {7, 7}}) {
            long lo = r[0];
            long hi = r[1];
            String q = "from_height=" + lo + "&to_height=" + hi;
            assertWalks("/indexer/tx/v1/txs?" + q, hashes((h, i) -> h >= lo && h <= hi));
            assertWalks(
                    "/indexer/tx/v1/txs?" + q + "&msgs=" + FixtureChain.MSG_CALL,
                    hashes((h, i) ->
                            h >= lo && h <= hi && FixtureChain.msgTypes(h, i).contains(FixtureChain.MSG_CALL)));
            assertWalks(
                    "/indexer/tx/v1/txs/by_account/" + a.bech32("init") + "?is_signer=true&" + q,
                    hashes((h, i) ->
                            h >= lo && h <= hi && FixtureChain.signer(h, i).equals(a)));
            assertWalks(
                    "/indexer/tx/v1/txs/by_account/" + FEE_COLLECTOR + "?" + q, hashes((h, i) -> h >= lo && h <= hi));
        }
        // one side only, and a range past the indexed heights
        assertWalks("/indexer/tx/v1/txs?from_height=25", hashes((h, i) -> h >= 25));
        assertWalks("/indexer/tx/v1/txs?to_height=3", hashes((h, i) -> h <= 3));
        assertWalks("/indexer/tx/v1/txs?from_height=31", List.of());
        assertWalks("/indexer/tx/v1/txs/by_account/" + FEE_COLLECTOR + "?from_height=999", List.of());
        // a block's txs are one height: the range does not apply there
        assertWalks("/indexer/tx/v1/txs/by_height/7?from_height=9", hashes((h, i) -> h == 7));
        for (String bad : List.of("from_height=0", "to_height=-1", "from_height=x", "from_height=9&to_height=3")) {
            IndexedChain.Response r = ic.call("/indexer/tx/v1/txs?" + bad);
            assertEquals(400, r.status(), bad);
            assertError(r.body(), 3);
        }
    }

    @Test
    @DisplayName(
            "by_account: bech32 or hex (any case) is the same account; is_signer; unknown → empty with total 0; bad → 400")
    void byAccount() {
        AccountAddress a = FixtureChain.signer(1, 0);
        AccountAddress b = FixtureChain.signer(3, 0);
        List<String> ofA = hashes((h, i) -> FixtureChain.signer(h, i).equals(a));
        List<String> ofB = hashes((h, i) -> FixtureChain.signer(h, i).equals(b));
        assertTrue(!ofA.isEmpty() && !ofB.isEmpty());
        assertWalks("/indexer/tx/v1/txs/by_account/" + a.bech32("init"), ofA);
        assertWalks("/indexer/tx/v1/txs/by_account/" + a.hex(), ofA);
        // the 32-byte form of a 20-byte account (left-padded, as Move writes every address) is the same account
        assertWalks(
                "/indexer/tx/v1/txs/by_account/0x" + "00".repeat(12) + a.hex().substring(2), ofA, new int[] {100});
        assertWalks("/indexer/tx/v1/txs/by_account/" + a.checksumHex() + "?is_signer=true", ofA);
        assertWalks("/indexer/tx/v1/txs/by_account/" + b.hex().substring(2).toUpperCase() + "?is_signer=false", ofB);
        // the fee collector is in every tx's events but signs none
        List<String> all = hashes((h, i) -> true);
        assertWalks("/indexer/tx/v1/txs/by_account/" + FEE_COLLECTOR, all);
        JsonObject signerOnly = ic.get("/indexer/tx/v1/txs/by_account/" + FEE_COLLECTOR + "?is_signer=true");
        assertEquals(new JsonArray(), signerOnly.getJsonArray("txs"));
        assertEquals("0", signerOnly.getJsonObject("pagination").getString("total"));
        JsonObject unknown = ic.get("/indexer/tx/v1/txs/by_account/0x" + "12".repeat(20));
        assertEquals(
                new JsonObject()
                        .put("txs", new JsonArray())
                        .put(
                                "pagination",
                                new JsonObject()
                                        .putNull("previous_key")
                                        .putNull("next_key")
                                        .put("total", "0")),
                unknown);
        for (String bad : List.of(
                "nope", "init1qqqq", "0xZZ", "0x" + "ab".repeat(33), "cosmos1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pqy2ssn3")) {
            IndexedChain.Response r = ic.call("/indexer/tx/v1/txs/by_account/" + bad);
            assertEquals(400, r.status(), bad);
            assertError(r.body(), 3);
            assertEquals(
                    "[INVALID_VALUE] invalid value for account: " + bad + " (invalid address format)",
                    r.body().getString("message"));
        }
        IndexedChain.Response r = ic.call("/indexer/tx/v1/txs/by_account/" + a.hex() + "?is_signer=yes");
        assertEquals(400, r.status());
        assertError(r.body(), 3);
    }

    @Test
    @DisplayName(
            "by_height: the block's txs in both orders with exact total; empty and future heights; bad heights → 400")
    void byHeight() {
        assertWalks("/indexer/tx/v1/txs/by_height/7", hashes((h, i) -> h == 7));
        JsonObject empty = ic.get("/indexer/tx/v1/txs/by_height/8");
        assertEquals(new JsonArray(), empty.getJsonArray("txs"));
        assertEquals("0", empty.getJsonObject("pagination").getString("total"));
        assertEquals(
                "0",
                ic.get("/indexer/tx/v1/txs/by_height/" + (HEIGHT + 50))
                        .getJsonObject("pagination")
                        .getString("total"));
        for (String[] bad : new String[][] {
            {"x", "must be a valid integer"}, {"0", "must be a positive integer"}, {"-1", "must be a positive integer"}
        }) {
            IndexedChain.Response r = ic.call("/indexer/tx/v1/txs/by_height/" + bad[0]);
            assertEquals(400, r.status());
            assertError(r.body(), 3);
            assertEquals(
                    "[INVALID_VALUE] invalid value for height: " + bad[0] + " (" + bad[1] + ")",
                    r.body().getString("message"));
        }
    }

    @Test
    @DisplayName("every bad pagination parameter on tx lists is a 400 JSON error")
    void badPagination() {
        for (String q : List.of(
                "pagination.limit=0",
                "pagination.limit=1001",
                "pagination.limit=ten",
                "pagination.offset=-1",
                "pagination.key=***",
                "pagination.key=eyJoZWlnaHQiOjV9",
                "pagination.reverse=up",
                "pagination.count_total=2x")) {
            for (String path : List.of(
                    "/indexer/tx/v1/txs",
                    "/indexer/tx/v1/txs/by_height/3",
                    "/indexer/tx/v1/txs/by_account/" + FEE_COLLECTOR)) {
                IndexedChain.Response r = ic.call(path + "?" + q);
                assertEquals(400, r.status(), path + "?" + q + " → " + r.body());
                assertError(r.body(), 3);
            }
        }
    }
}
