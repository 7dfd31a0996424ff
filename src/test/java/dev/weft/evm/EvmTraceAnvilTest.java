package dev.weft.evm;

import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.Shapes.assertFields;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.bus.Addresses;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.devnet.gen.ContractAddress;
import dev.weft.ingest.IngestDump;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.AnvilNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.math.BigInteger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The tracer against a real Anvil node: our own contracts ({@code Tracing.sol}) make nested calls, value transfers, a
 * CREATE, a CREATE2, a DELEGATECALL, a STATICCALL, a caught revert and a top-level failure, in single-tx blocks, a
 * multi-tx block, an empty block and a block mined after a restart. Anvil has no Cosmos side, so the tracer is given
 * the heights directly ({@link HeightSource#range}) on a node that runs the API on a fresh database; everything else
 * is the production path (JSON-RPC, pairing, flattening, ordered commits, events). Stored rows and the API output are
 * checked frame by frame against what the contracts do.
 */
class EvmTraceAnvilTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String RECIPIENT = "0x1111111111111111111111111111111111111111";
    static final BigInteger VALUE = BigInteger.valueOf(5_000_000_000L);
    static final BigInteger PART = VALUE.divide(BigInteger.valueOf(5));
    static final BigInteger ETH_SENT = BigInteger.valueOf(0x1234);

    static AnvilNode anvil;
    static Vertx vertx;
    static WeftNode node;
    static WebClient client;
    static int port;
    static String dbUrl;
    static final List<JsonObject> events = new CopyOnWriteArrayList<>();
    static long firstRunHeight;

    static String token;
    static String lib;
    static String router;
    static String childCode;
    static String everythingTx;
    static String failedTx;
    /** Every EVM tx in chain order, with the frames it must have produced. */
    static final List<ExpectedTx> txs = new ArrayList<>();
    /** The raw callTracer frame of each tx, as Anvil answers debug_traceTransaction. */
    static final Map<String, JsonObject> rawTraces = new ConcurrentHashMap<>();

    record Frame(String type, int parent, String from, String to, String value, String error, String revertReason) {}

    record ExpectedTx(long height, String hash, String input, JsonObject receipt, List<Frame> frames) {}

    @BeforeAll
    static void start() throws Exception {
        JsonObject contracts = AnvilNode.compileContracts();
        childCode = contracts.getJsonObject("Child").getString("bytecode");
        anvil = AnvilNode.start();
        weft.closeAfter(anvil); // after the node and the tracer reading it
        token = deploy(contracts.getJsonObject("Token").getString("bytecode"), null); // 1
        lib = deploy(contracts.getJsonObject("Lib").getString("bytecode"), null); // 2
        router = deploy(contracts.getJsonObject("Router").getString("bytecode"), word(token) + word(lib)); // 3
        call(
                AnvilNode.ACCOUNT0,
                token,
                "transfer(address,uint256)",
                word(router) + "%064x".formatted(1_000_000),
                null,
                30_000_000); // 4

        // block 5: four txs from different senders, mined together
        anvil.automine(false);
        String a = send(AnvilNode.ACCOUNT1, router, "doEverything(address)", word(RECIPIENT), VALUE, 2_000_000);
        String b = anvil.send(AnvilNode.ACCOUNT2, RECIPIENT, "0x", "0x" + ETH_SENT.toString(16), 100_000);
        String c = send(
                AnvilNode.ACCOUNT0,
                token,
                "transfer(address,uint256)",
                word(RECIPIENT) + "%064x".formatted(777),
                null,
                200_000);
        String d = send(AnvilNode.ACCOUNT3, router, "fail()", "", null, 200_000);
        assertEquals(5, anvil.mineBlock(List.of(a, b, c, d)));
        everythingTx = a;
        failedTx = d;
        anvil.automine(true);
        expectBlock(
                5,
                Map.of(
                        a, doEverything(AnvilNode.ACCOUNT1, 1),
                        b, List.of(new Frame("CALL", -1, AnvilNode.ACCOUNT2, RECIPIENT, hex(ETH_SENT), null, null)),
                        c, List.of(new Frame("CALL", -1, AnvilNode.ACCOUNT0, token, "0x00", null, null)),
                        d,
                                List.of(new Frame(
                                        "CALL",
                                        -1,
                                        AnvilNode.ACCOUNT3,
                                        router,
                                        "0x00",
                                        "execution reverted",
                                        "top-level failure"))));
        assertEquals("0x0", anvil.receipt(d).getString("status"), "fail() reverts the whole tx");

        dbUrl = TestDatabase.freshUrl();
        vertx = weft.vertx();
        node = weft.start(weft.config()
                .roles("api")
                .set("database.url", dbUrl)
                .set("chain.chain_id", "anvil-31337")
                .set("chain.json_rpc", new JsonArray().add(anvil.url()))
                .set("evm.window", 3)
                .set("evm.window_max", 3)
                .set("evm.commit_heights", 2)
                .set("evm.poll_interval", "50ms")
                .set("ingest.retry_base", "5ms")
                .set("ingest.retry_max", "100ms"));
        port = TestNodes.httpPort(node);
        client = WebClient.create(vertx);
        vertx.eventBus().<JsonObject>consumer(Addresses.INTERNAL_TXS_INDEXED, m -> events.add(m.body()));

        // first run: heights 1..5
        String first =
                TestNodes.await(vertx.deployVerticle(new EvmTraceVerticle(node.context(), HeightSource.range(1, 5))));
        Await.cursor(dbUrl, "evm", 5, 60);
        TestNodes.await(vertx.undeploy(first));
        firstRunHeight = Await.cursorHeight(dbUrl, "evm");

        // then an empty block, and a block with another doEverything (another sender: its CREATE2 address differs)
        anvil.rpc("evm_mine", new JsonArray());
        String e = send(AnvilNode.ACCOUNT2, router, "doEverything(address)", word(RECIPIENT), VALUE, 2_000_000);
        anvil.receipt(e);
        assertEquals(7, anvil.blockNumber());
        expectBlock(7, Map.of(e, doEverything(AnvilNode.ACCOUNT2, 3)));

        // second run: the same range from 1, resumed from the database cursor
        TestNodes.await(vertx.deployVerticle(new EvmTraceVerticle(node.context(), HeightSource.range(1, 7))));
        Await.cursor(dbUrl, "evm", 7, 60);
    }

    // ---- the chain ----

    static String word(String address) {
        return "0".repeat(24) + address.substring(2).toLowerCase(Locale.ROOT);
    }

    static String selector(String signature) {
        return Hex.lower(java.util.Arrays.copyOf(Hashes.keccak256(signature), 4));
    }

    static String hex(BigInteger v) {
        String h = v.toString(16);
        return "0x" + (h.length() % 2 == 1 ? "0" : "") + h;
    }

    static String deploy(String bytecode, String args) throws Exception {
        String hash = anvil.send(AnvilNode.ACCOUNT0, null, bytecode + (args == null ? "" : args), null);
        JsonObject receipt = anvil.receipt(hash);
        String address = receipt.getString("contractAddress").toLowerCase(Locale.ROOT);
        expect(receipt, List.of(new Frame("CREATE", -1, AnvilNode.ACCOUNT0, address, "0x00", null, null)));
        return address;
    }

    static String send(String from, String to, String signature, String args, BigInteger value, long gas)
            throws Exception {
        return anvil.send(
                from, to, "0x" + selector(signature) + args, value == null ? null : "0x" + value.toString(16), gas);
    }

    static void call(String from, String to, String signature, String args, BigInteger value, long gas)
            throws Exception {
        String hash = send(from, to, signature, args, value, gas);
        expect(anvil.receipt(hash), List.of(new Frame("CALL", -1, from, to, "0x00", null, null)));
    }

    /** The txs of a mined block in their block order (the node orders a block by fees, not by arrival). */
    static void expectBlock(long height, Map<String, List<Frame>> frames) throws Exception {
        JsonArray receipts =
                (JsonArray) anvil.rpc("eth_getBlockReceipts", new JsonArray().add("0x" + Long.toHexString(height)));
        assertEquals(frames.size(), receipts.size());
        for (Object o : receipts) {
            JsonObject r = (JsonObject) o;
            expect(r, frames.get(r.getString("transactionHash")));
        }
    }

    static void expect(JsonObject receipt, List<Frame> frames) throws Exception {
        String hash = receipt.getString("transactionHash");
        JsonObject tx = (JsonObject) anvil.rpc("eth_getTransactionByHash", new JsonArray().add(hash));
        rawTraces.put(hash, (JsonObject) anvil.rpc(
                "debug_traceTransaction", new JsonArray().add(hash).add(new JsonObject().put("tracer", "callTracer"))));
        txs.add(new ExpectedTx(
                Long.decode(receipt.getString("blockNumber")), hash, tx.getString("input"), receipt, frames));
    }

    /**
     * What {@code Router.doEverything(RECIPIENT)} with VALUE does, in pre-order: CREATE Child (a fifth of the value),
     * ping it (a fifth), transfer a fifth to the recipient (2300 gas stipend), STATICCALL balanceOf, token transfer
     * (CALL, no value), DELEGATECALL Lib.fee (runs with the caller's value: not a transfer), this.boom() caught
     * (a STATICCALL of a pure function, reverted "boom"), CREATE2 Child (salt 42), and a fifth to it.
     */
    static List<Frame> doEverything(String sender, long routerNonce) {
        String child = Hex.prefixed(ContractAddress.create(Hex.decode(router), routerNonce));
        byte[] initHash = Hashes.keccak256(Hex.decode(childCode + word(sender)));
        String salted =
                Hex.prefixed(ContractAddress.create2(Hex.decode(router), Hex.decode("%064x".formatted(42)), initHash));
        return List.of(
                new Frame("CALL", -1, sender, router, hex(VALUE), null, null),
                new Frame("CREATE", 0, router, child, hex(PART), null, null),
                new Frame("CALL", 0, router, child, hex(PART), null, null),
                new Frame("CALL", 0, router, RECIPIENT, hex(PART), null, null),
                new Frame("STATICCALL", 0, router, token, "0x", null, null),
                new Frame("CALL", 0, router, token, "0x00", null, null),
                new Frame("DELEGATECALL", 0, router, lib, "0x", null, null),
                new Frame("STATICCALL", 0, router, router, "0x", "execution reverted", "boom"),
                new Frame("CREATE2", 0, router, salted, "0x00", null, null),
                new Frame("CALL", 0, router, salted, hex(PART), null, null));
    }

    // ---- the expected rows and items ----

    /**
     * The API item of frame i of a tx: the node's own frame written out by {@link ExpectedItems}, after checking that
     * the frame is what the contracts do (type, parent, from, to, value, error).
     */
    static JsonObject item(ExpectedTx tx, int i) {
        List<JsonObject> items = ExpectedItems.of(
                tx.height(), tx.hash(), rawTraces.get(tx.hash()), tx.receipt().getString("gasUsed"));
        assertEquals(tx.frames().size(), items.size(), tx.hash());
        JsonObject o = items.get(i);
        Frame f = tx.frames().get(i);
        String where = tx.hash() + " frame " + i;
        assertEquals(f.type(), o.getString("type"), where);
        assertEquals(f.parent(), o.getInteger("parent_index"), where);
        assertEquals(f.from().toLowerCase(Locale.ROOT), o.getString("from"), where);
        assertEquals(f.to().toLowerCase(Locale.ROOT), o.getString("to"), where);
        assertEquals(f.value(), o.getString("value"), where);
        assertEquals(f.error(), o.getString("error"), where);
        assertEquals(f.revertReason(), o.getString("revertReason"), where);
        return o;
    }

    /** Every expected item in chain order (= sequence order). */
    static List<JsonObject> allItems() {
        List<JsonObject> out = new ArrayList<>();
        for (ExpectedTx tx : txs) for (int i = 0; i < tx.frames().size(); i++) out.add(item(tx, i));
        return out;
    }

    // ---- node helpers ----

    record Response(int status, JsonObject body) {}

    static Response call(String uri) {
        var r = TestNodes.get(client, port, uri);
        return new Response(r.statusCode(), r.bodyAsJsonObject());
    }

    static JsonObject get(String uri) {
        Response r = call(uri);
        assertEquals(200, r.status(), uri + " → " + r.body());
        return r.body();
    }

    static List<JsonObject> items(JsonObject page) {
        List<JsonObject> out = new ArrayList<>();
        page.getJsonArray("internal_txs").forEach(o -> out.add((JsonObject) o));
        return out;
    }

    /** Follows next_key from the first page until it is null. */
    static List<JsonObject> walkPages(String uri, int limit) {
        List<JsonObject> out = new ArrayList<>();
        String sep = uri.contains("?") ? "&" : "?";
        String key = null;
        for (int pages = 0; pages < 1000; pages++) {
            JsonObject page = get(uri + sep + "pagination.limit=" + limit
                    + (key == null ? "" : "&pagination.key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)));
            assertFields(page, "internal_txs", "pagination");
            assertFields(page.getJsonObject("pagination"), "previous_key", "next_key", "total");
            List<JsonObject> rows = items(page);
            out.addAll(rows);
            key = page.getJsonObject("pagination").getString("next_key");
            if (key == null) return out;
            assertEquals(limit, rows.size(), "a page followed by another page is full");
        }
        throw new AssertionError("no end");
    }

    static void assertItems(List<JsonObject> expected, List<JsonObject> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": rows");
        for (int i = 0; i < expected.size(); i++) {
            JsonObject e = expected.get(i);
            JsonObject a = actual.get(i);
            assertEquals(e, a, what + " row " + i);
            assertFields(a, e.fieldNames().toArray(new String[0]));
        }
    }

    // ---- the tests ----

    @Test
    @DisplayName(
            "stored rows: one per frame, gapless sequences in chain order, types, parents, accounts, values, errors, counters")
    void storedRows() throws Exception {
        List<JsonObject> expected = allItems();
        try (Connection c = TestDatabase.jdbc(dbUrl);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("""
             SELECT t.sequence, t.height, encode(t.hash, 'hex'), t.frame_index, t.parent_index, t.type, encode(f.address, 'hex'),
                    encode(a.address, 'hex'), encode(t.value, 'hex'), encode(t.gas_used, 'hex'), encode(t.output, 'hex'),
                    t.error, t.revert_reason, convert_from(t.json, 'UTF8')
             FROM evm_internal_tx t LEFT JOIN account f ON f.id = t.from_id LEFT JOIN account a ON a.id = t.to_id ORDER BY t.sequence""")) {
            int i = 0;
            while (rs.next()) {
                JsonObject e = expected.get(i);
                assertEquals(i + 1, rs.getLong(1), "gapless sequence");
                assertEquals(e.getLong("height"), rs.getLong(2));
                assertEquals(e.getString("hash"), "0x" + rs.getString(3));
                assertEquals(e.getInteger("index"), rs.getInt(4));
                assertEquals(e.getInteger("parent_index"), rs.getInt(5));
                assertEquals(e.getString("type"), rs.getString(6));
                assertEquals(e.getString("from"), "0x" + rs.getString(7));
                assertEquals(e.getString("to"), "0x" + rs.getString(8));
                assertEquals(e.getString("value"), "0x" + rs.getString(9), "row " + i);
                assertEquals(e.getString("gasUsed"), "0x" + rs.getString(10));
                assertEquals(e.getString("output"), "0x" + rs.getString(11));
                assertEquals(e.getString("error"), rs.getString(12));
                assertEquals(e.getString("revertReason"), rs.getString(13));
                assertEquals(e, new JsonObject(rs.getString(14)));
                i++;
            }
            assertEquals(expected.size(), i);
            assertEquals(expected.size(), IngestDump.scalar(st, "SELECT internal_txs FROM evm_internal_totals"));
            // the per-account counters equal the edges, and every frame has an edge to its from and its to
            assertEquals(0, IngestDump.scalar(st, """
          SELECT count(*) FROM account_internal_tx_stats s
          WHERE s.internal_txs <> (SELECT count(*) FROM evm_internal_tx_account x WHERE x.account_id = s.account_id)"""));
            assertEquals(0, IngestDump.scalar(st, """
          SELECT count(*) FROM evm_internal_tx t WHERE NOT EXISTS (SELECT 1 FROM evm_internal_tx_account x WHERE x.sequence = t.sequence AND x.account_id = t.from_id)
             OR NOT EXISTS (SELECT 1 FROM evm_internal_tx_account x WHERE x.sequence = t.sequence AND x.account_id = t.to_id)"""));
            assertEquals(
                    IngestDump.scalar(st, "SELECT count(*) FROM evm_internal_tx_account"),
                    IngestDump.scalar(st, "SELECT sum(internal_txs) FROM account_internal_tx_stats"));
        }
    }

    @Test
    @DisplayName(
            "each tx by hash: every frame as an internal-tx item plus error/revertReason on the failed ones; gas from the receipt")
    void byHash() {
        assertEquals(9, txs.size(), "3 deployments, a token transfer, 4 txs in block 5, 1 in block 7");
        for (ExpectedTx tx : txs) {
            List<JsonObject> expected = new ArrayList<>();
            for (int i = 0; i < tx.frames().size(); i++) expected.add(item(tx, i));
            JsonObject asc = get("/indexer/tx/v1/evm-internal-txs/" + tx.hash() + "?pagination.reverse=false");
            assertItems(expected, items(asc), tx.hash());
            assertEquals(
                    Integer.toString(expected.size()),
                    asc.getJsonObject("pagination").getString("total"));
            assertEquals(null, asc.getJsonObject("pagination").getValue("next_key"));
            // newest first by default: the frames in reverse pre-order; any case, with or without 0x
            List<JsonObject> reversed = new ArrayList<>(expected);
            Collections.reverse(reversed);
            assertItems(
                    reversed,
                    items(get("/indexer/tx/v1/evm-internal-txs/"
                            + tx.hash().substring(2).toUpperCase(Locale.ROOT))),
                    tx.hash());
        }
        ExpectedTx everything = txs.stream()
                .filter(t -> t.hash().equals(everythingTx))
                .findFirst()
                .orElseThrow();
        assertEquals(10, everything.frames().size());
        List<JsonObject> frames =
                items(get("/indexer/tx/v1/evm-internal-txs/" + everything.hash() + "?pagination.reverse=false"));
        assertEquals("0x08fc", frames.get(3).getString("gas"), "the 2300 gas stipend of transfer()");
        assertEquals("boom", frames.get(7).getString("revertReason"));
        assertEquals("0x", frames.get(6).getString("value"), "DELEGATECALL moves nothing");
        JsonObject failed =
                items(get("/indexer/tx/v1/evm-internal-txs/" + failedTx)).get(0);
        assertEquals("execution reverted", failed.getString("error"));
        assertEquals("top-level failure", failed.getString("revertReason"));
        assertEquals(
                everything.receipt().getString("gasUsed"),
                "0x" + Long.toHexString(Long.decode(frames.get(0).getString("gasUsed"))));

        JsonObject paged = get("/indexer/tx/v1/evm-internal-txs/" + everything.hash()
                + "?pagination.limit=4&pagination.count_total=false");
        assertEquals(4, paged.getJsonArray("internal_txs").size());
        assertEquals("0", paged.getJsonObject("pagination").getString("total"));
        assertEquals(
                List.of(9, 8, 7, 6),
                items(paged).stream().map(o -> o.getInteger("index")).toList());
        assertItems(
                items(get("/indexer/tx/v1/evm-internal-txs/" + everything.hash())),
                walkPages("/indexer/tx/v1/evm-internal-txs/" + everything.hash(), 3),
                "walk");

        Response missing = call("/indexer/tx/v1/evm-internal-txs/0x" + "ab".repeat(32));
        assertEquals(404, missing.status());
        assertError(missing.body(), 5);
        assertEquals("transaction not found", missing.body().getString("message"));
        for (String bad : List.of("0x12", "zz" + "00".repeat(31), "0x" + "00".repeat(33))) {
            Response r = call("/indexer/tx/v1/evm-internal-txs/" + bad);
            assertEquals(400, r.status(), bad);
            assertError(r.body(), 3);
            assertEquals("invalid hash format", r.body().getString("message"));
        }
    }

    @Test
    @DisplayName("the list: pagination both ways with sequence cursors, exact total; by height")
    void lists() {
        List<JsonObject> all = allItems();
        List<JsonObject> desc = new ArrayList<>(all);
        Collections.reverse(desc);
        for (int limit : new int[] {4, 7, 100}) {
            assertItems(desc, walkPages("/indexer/tx/v1/evm-internal-txs", limit), "desc by " + limit);
            assertItems(
                    all,
                    walkPages("/indexer/tx/v1/evm-internal-txs?pagination.reverse=false", limit),
                    "asc by " + limit);
        }
        JsonObject first = get("/indexer/tx/v1/evm-internal-txs?pagination.limit=2");
        assertEquals(
                Integer.toString(all.size()), first.getJsonObject("pagination").getString("total"));
        assertEquals(
                "{\"sequence\":" + (all.size() - 1) + "}",
                new String(
                        java.util.Base64.getDecoder()
                                .decode(first.getJsonObject("pagination").getString("next_key")),
                        StandardCharsets.UTF_8));
        assertEquals(
                all.get(all.size() - 3),
                items(get("/indexer/tx/v1/evm-internal-txs?pagination.limit=1&pagination.offset=2"))
                        .get(0));

        for (long h = 1; h <= 7; h++) {
            long fh = h;
            List<JsonObject> ofH =
                    all.stream().filter(o -> o.getLong("height") == fh).toList();
            assertItems(
                    ofH,
                    walkPages("/indexer/tx/v1/evm-internal-txs/by_height/" + h + "?pagination.reverse=false", 3),
                    "height " + h);
            assertEquals(
                    Integer.toString(ofH.size()),
                    get("/indexer/tx/v1/evm-internal-txs/by_height/" + h)
                            .getJsonObject("pagination")
                            .getString("total"));
        }
        assertEquals(
                0, items(get("/indexer/tx/v1/evm-internal-txs/by_height/6")).size(), "the empty block");
        assertEquals(400, call("/indexer/tx/v1/evm-internal-txs/by_height/x").status());
        assertEquals(
                400, call("/indexer/tx/v1/evm-internal-txs?pagination.limit=0").status());
    }

    @Test
    @DisplayName("by account: the frames whose from or to it is, hex or bech32; an unknown account is an empty page")
    void byAccount() {
        List<JsonObject> all = allItems();
        List<JsonObject> toRecipient = all.stream()
                .filter(o -> o.getString("to").equals(RECIPIENT)
                        || o.getString("from").equals(RECIPIENT))
                .toList();
        assertEquals(3, toRecipient.size(), "two transfer() calls and the plain ETH transfer");
        List<JsonObject> desc = new ArrayList<>(toRecipient);
        Collections.reverse(desc);
        assertItems(desc, walkPages("/indexer/tx/v1/evm-internal-txs/by_account/" + RECIPIENT, 2), "recipient");
        String bech32 = AccountAddress.parse(RECIPIENT, "init").bech32("init");
        assertItems(
                toRecipient,
                walkPages("/indexer/tx/v1/evm-internal-txs/by_account/" + bech32 + "?pagination.reverse=false", 100),
                "bech32");
        assertEquals(
                "3",
                get("/indexer/tx/v1/evm-internal-txs/by_account/"
                                + RECIPIENT.toUpperCase(Locale.ROOT).replace("0X", "0x"))
                        .getJsonObject("pagination")
                        .getString("total"));

        List<JsonObject> ofRouter = all.stream()
                .filter(o ->
                        o.getString("to").equals(router) || o.getString("from").equals(router))
                .toList();
        assertItems(
                ofRouter,
                walkPages("/indexer/tx/v1/evm-internal-txs/by_account/" + router + "?pagination.reverse=false", 5),
                "router");
        assertEquals(
                Integer.toString(ofRouter.size()),
                get("/indexer/tx/v1/evm-internal-txs/by_account/" + router)
                        .getJsonObject("pagination")
                        .getString("total"));

        JsonObject unknown = get("/indexer/tx/v1/evm-internal-txs/by_account/0x" + "22".repeat(20));
        assertEquals(0, unknown.getJsonArray("internal_txs").size());
        assertEquals("0", unknown.getJsonObject("pagination").getString("total"));
        assertEquals(null, unknown.getJsonObject("pagination").getValue("next_key"));
        assertEquals(
                400, call("/indexer/tx/v1/evm-internal-txs/by_account/nonsense").status());
    }

    @Test
    @DisplayName(
            "a restart resumes from the cursor: each height committed and announced once, in order; /status follows")
    void resumeAndEvents() {
        assertEquals(5, firstRunHeight);
        List<Long> heights = events.stream().map(e -> e.getLong("height")).toList();
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), heights);
        for (JsonObject e : events) {
            assertFields(e, "chain_id", "height", "count", "sequence");
            assertEquals("anvil-31337", e.getString("chain_id"));
            long n = allItems().stream()
                    .filter(o -> o.getLong("height").equals(e.getLong("height")))
                    .count();
            assertEquals(n, e.getLong("count"), "height " + e.getLong("height"));
        }
        JsonObject status = get("/status");
        assertEquals(7L, status.getLong("internal_tx_height"), "no ingestion: the tracer's own cursor");
        assertEquals(0L, status.getLong("height"));
    }
}
