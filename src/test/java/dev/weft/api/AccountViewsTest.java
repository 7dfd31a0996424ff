package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The account views of issue 57 on a node that indexed and traced the devnet's EVM history: time ranges on the lists,
 * per-category counts and the category filter, EVM logs, the stats overview, CSV exports and NFT activity.
 */
class AccountViewsTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long BLOCKS = 40;
    static WebClient client;
    static WeftNode node;
    static int port;
    /** The signer of the latest EVM tx, 0x hex. */
    static String account;

    @BeforeAll
    static void start() {
        client = WebClient.create(weft.vertx());
        TestConfig c = weft.config()
                .roles("devnet", "ingest", "evm", "api")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 11)
                .set("devnet.txs_per_block", 10)
                .set("ingest.poll_interval", "50ms");
        node = weft.start(c);
        port = TestNodes.httpPort(node);
        Await.until("cursors at " + BLOCKS, 120, () -> {
            JsonObject s = get("/status");
            return s.getLong("height") >= BLOCKS && s.getLong("internal_tx_height") >= BLOCKS;
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

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String total(String uri) {
        return get(uri).getJsonObject("pagination").getString("total");
    }

    /** The hashes of a list's first 1000 rows (every row of these small lists). */
    static List<String> hashes(String uri, String listKey, String field) {
        List<String> out = new ArrayList<>();
        get(uri + (uri.contains("?") ? "&" : "?") + "pagination.limit=1000")
                .getJsonArray(listKey)
                .forEach(o -> out.add(((JsonObject) o).getString(field)));
        return out;
    }

    /** The block time of a height as its txs show it (RFC 3339 with nanoseconds). */
    static String timeOf(long height) {
        return get("/indexer/tx/v1/txs/by_height/" + height + "?pagination.limit=1")
                .getJsonArray("txs")
                .getJsonObject(0)
                .getString("timestamp");
    }

    @Test
    @DisplayName(
            "from_time/to_time: the same rows and totals as the heights of those block times, combined with heights")
    void timeRanges() {
        String t10 = enc(timeOf(10));
        String t20 = enc(timeOf(20));
        for (String list : List.of(
                "/indexer/tx/v1/txs",
                "/indexer/tx/v1/txs/by_account/" + account,
                "/indexer/tx/v1/evm-txs",
                "/indexer/tx/v1/evm-txs/by_account/" + account,
                "/indexer/tx/v1/evm-internal-txs")) {
            String key = list.contains("internal") ? "internal_txs" : "txs";
            String field = list.contains("internal") ? "sequence" : list.contains("evm") ? "transactionHash" : "txhash";
            String byHeight = list + "?from_height=10&to_height=20";
            String byTime = list + "?from_time=" + t10 + "&to_time=" + t20;
            assertEquals(total(byHeight), total(byTime), byTime);
            if (!list.contains("internal")) assertEquals(hashes(byHeight, key, field), hashes(byTime, key, field));
            assertEquals(
                    total(list + "?from_height=10&to_height=15"),
                    total(list + "?from_time=" + t10 + "&to_height=15"),
                    list + " time and height combined");
            assertEquals(
                    total(list + "?from_height=12&to_height=20"),
                    total(list + "?from_height=12&from_time=" + t10 + "&to_time=" + t20),
                    list + " the narrower bound wins");
        }
        assertTrue(Long.parseLong(total("/indexer/tx/v1/txs?from_time=" + t10 + "&to_time=" + t20)) > 0);
        // a time range after the head, and one before genesis: no block in it, an empty page
        assertEquals("0", total("/indexer/tx/v1/txs?from_time=2999-01-01T00:00:00Z"));
        assertEquals("0", total("/indexer/tx/v1/txs?to_time=2000-01-01T00:00:00%2B02:00"));
        assertEquals(
                0,
                get("/indexer/tx/v1/txs?to_time=2000-01-01T00:00:00Z")
                        .getJsonArray("txs")
                        .size());
        // transfers take the range too
        get("/indexer/account/v1/" + account + "/transfers?from_time=" + t10 + "&to_time=" + t20);
    }

    @Test
    @DisplayName("from_time/to_time: a malformed time or an inverted range is a JSON 400 naming the parameter")
    void badTimes() {
        for (String q : List.of("from_time=yesterday", "to_time=2025-06-01", "from_time=2025-13-01T00:00:00Z")) {
            for (String list : List.of(
                    "/indexer/tx/v1/txs",
                    "/indexer/tx/v1/evm-txs",
                    "/indexer/tx/v1/evm-internal-txs",
                    "/indexer/account/v1/" + account + "/transfers")) {
                JsonObject e = fail(list + "?" + q, 400);
                assertError(e, 3);
                String name = q.substring(0, q.indexOf('='));
                assertTrue(e.getString("message").contains("invalid value for " + name), e.encode());
            }
        }
        JsonObject e = fail("/indexer/tx/v1/txs?from_time=2025-06-02T00:00:00Z&to_time=2025-06-01T00:00:00Z", 400);
        assertTrue(e.getString("message").contains("from_time"), e.encode());
    }

    /** The category of a message type, written again here from the documented mapping. */
    static String categoryOf(String typeUrl) {
        String t = typeUrl.startsWith("/") ? typeUrl.substring(1) : typeUrl;
        if (t.startsWith("ibc.")) return "ibc";
        if (t.startsWith("opinit.")) return "opinit";
        return switch (t) {
            case "cosmos.bank.v1beta1.MsgSend", "cosmos.bank.v1beta1.MsgMultiSend" -> "send";
            case "minievm.evm.v1.MsgCall" -> "evm_call";
            case "initia.move.v1.MsgExecute", "initia.move.v1.MsgExecuteJSON" -> "move_execute";
            case "cosmwasm.wasm.v1.MsgExecuteContract" -> "wasm_execute";
            default -> "none";
        };
    }

    @Test
    @DisplayName(
            "categories: the summary's counts and the category filter equal the account's txs classified by message type")
    void categories() {
        // the account's txs, classified from their messages
        java.util.Map<String, List<String>> expected = new java.util.HashMap<>();
        var all = get("/indexer/tx/v1/txs/by_account/" + account + "?pagination.limit=1000")
                .getJsonArray("txs");
        assertEquals(total("/indexer/tx/v1/txs/by_account/" + account), Integer.toString(all.size()));
        for (Object o : all) {
            JsonObject tx = (JsonObject) o;
            java.util.Set<String> cats = new java.util.HashSet<>();
            for (Object m : tx.getJsonObject("tx").getJsonObject("body").getJsonArray("messages"))
                cats.add(categoryOf(((JsonObject) m).getString("@type")));
            for (String c : cats)
                expected.computeIfAbsent(c, k -> new ArrayList<>()).add(tx.getString("txhash"));
        }
        JsonObject counts = get("/indexer/account/v1/" + account + "/summary")
                .getJsonObject("summary")
                .getJsonObject("categories");
        List<String> labels = List.of("send", "ibc", "opinit", "evm_call", "move_execute", "wasm_execute");
        assertEquals(new java.util.HashSet<>(labels), counts.fieldNames());
        long nonZero = 0;
        for (String c : labels) {
            List<String> want = expected.getOrDefault(c, List.of());
            assertEquals(Integer.toString(want.size()), counts.getString(c), c);
            String uri = "/indexer/tx/v1/txs/by_account/" + account + "?category=" + c;
            assertEquals(counts.getString(c), total(uri), uri);
            assertEquals(want, hashes(uri, "txs", "txhash"), uri);
            if (!want.isEmpty()) nonZero++;
            // with is_signer the total counts the category's edges: equal to the rows
            String signer = uri + "&is_signer=true";
            assertEquals(Integer.toString(hashes(signer, "txs", "txhash").size()), total(signer), signer);
        }
        assertTrue(nonZero > 0, "the devnet account has txs in some category: " + counts.encode());
        // any case, and combined with a height range
        assertEquals(
                total("/indexer/tx/v1/txs/by_account/" + account + "?category=evm_call"),
                total("/indexer/tx/v1/txs/by_account/" + account + "?category=EVM_CALL"));
        get("/indexer/tx/v1/txs/by_account/" + account + "?category=send&from_height=5&to_height=30");
        JsonObject e = fail("/indexer/tx/v1/txs/by_account/" + account + "?category=stake", 400);
        assertError(e, 3);
        assertTrue(e.getString("message").contains("invalid value for category"), e.encode());
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
    @DisplayName("EVM logs: every receipt's logs in the range, in chain order, by keyset pages and under each filter")
    void evmLogs() {
        // the receipts' logs of heights 5..30, oldest first
        List<JsonObject> expected = new ArrayList<>();
        for (JsonObject tx :
                walk("/indexer/tx/v1/evm-txs?from_height=5&to_height=30&pagination.reverse=false", "txs", 100))
            tx.getJsonArray("logs").forEach(l -> expected.add((JsonObject) l));
        assertTrue(expected.size() > 3, "the devnet's EVM txs log transfers: " + expected.size());
        String base = "/indexer/evm/v1/logs?from_height=5&to_height=30";
        assertEquals(expected, walk(base + "&pagination.reverse=false", "logs", 3));
        List<JsonObject> newest = new ArrayList<>(expected);
        java.util.Collections.reverse(newest);
        assertEquals(newest, walk(base, "logs", 2));
        JsonObject first = expected.get(0);
        String address = first.getString("address");
        String topic0 = first.getJsonArray("topics").getString(0);
        assertEquals(
                expected.stream()
                        .filter(l -> l.getString("address").equalsIgnoreCase(address))
                        .toList(),
                walk(
                        base + "&pagination.reverse=false&address="
                                + address.toUpperCase().replace("0X", "0x"),
                        "logs",
                        4));
        assertEquals(
                expected.stream()
                        .filter(l -> l.getJsonArray("topics").size() > 0
                                && l.getJsonArray("topics").getString(0).equalsIgnoreCase(topic0))
                        .toList(),
                walk(base + "&pagination.reverse=false&topic0=" + topic0, "logs", 4));
        if (first.getJsonArray("topics").size() > 2) {
            String topic2 = first.getJsonArray("topics").getString(2);
            assertEquals(
                    expected.stream()
                            .filter(l -> l.getJsonArray("topics").size() > 2
                                    && l.getJsonArray("topics").getString(2).equalsIgnoreCase(topic2)
                                    && l.getString("address").equalsIgnoreCase(address))
                            .toList(),
                    walk(base + "&pagination.reverse=false&address=" + address + "&topic2=" + topic2, "logs", 2));
        }
        JsonObject page = get(base + "&pagination.limit=1");
        assertEquals("0", page.getJsonObject("pagination").getString("total"));
        assertEquals(
                0,
                get("/indexer/evm/v1/logs?from_height=5&to_height=30&topic3=0x" + "ab".repeat(32))
                        .getJsonArray("logs")
                        .size());
    }

    @Test
    @DisplayName("EVM logs: a missing or too wide range, bad hex or an offset is a JSON 400 naming the parameter")
    void badLogQueries() {
        for (String[] c : new String[][] {
            {"to_height=10", "from_height"},
            {"from_height=10", "to_height"},
            {"from_height=1&to_height=10001", "to_height"},
            {"from_height=20&to_height=10", "from_height"},
            {"from_height=1&to_height=10&address=0x1234", "address"},
            {"from_height=1&to_height=10&topic1=xyz", "topic1"},
            {"from_height=1&to_height=10&topic0=0x" + "ab".repeat(20), "topic0"},
            {"from_height=1&to_height=10&pagination.offset=5", "pagination.offset"}
        }) {
            JsonObject e = fail("/indexer/evm/v1/logs?" + c[0], 400);
            assertError(e, 3);
            assertTrue(e.getString("message").contains(c[1]), c[0] + " → " + e.encode());
        }
        assertEquals(
                200,
                TestNodes.get(client, port, "/indexer/evm/v1/logs?from_height=1&to_height=10000")
                        .statusCode());
    }

    /** One row of SQL run on the node's database (to check counters against the rows they count). */
    static io.vertx.sqlclient.Row sql(String q) throws Exception {
        return node.context()
                .pool()
                .query(q)
                .execute()
                .toCompletionStage()
                .toCompletableFuture()
                .get(30, java.util.concurrent.TimeUnit.SECONDS)
                .iterator()
                .next();
    }

    @Test
    @DisplayName("stats overview: head, totals and per-day counters equal the lists and the rows they count")
    void statsOverview() throws Exception {
        JsonObject o = get("/indexer/stats/v1/overview?days=3").getJsonObject("overview");
        assertEquals(
                java.util.Set.of(
                        "latest_height",
                        "latest_block_time",
                        "avg_block_time",
                        "avg_block_time_blocks",
                        "txs",
                        "evm_txs",
                        "accounts",
                        "days"),
                o.fieldNames());
        long head = Long.parseLong(o.getString("latest_height"));
        assertTrue(head >= BLOCKS);
        assertEquals(
                timeOf(head).substring(0, 19), o.getString("latest_block_time").substring(0, 19));
        assertEquals(total("/indexer/tx/v1/txs"), o.getString("txs"));
        assertEquals(total("/indexer/tx/v1/evm-txs"), o.getString("evm_txs"));
        assertEquals(
                get("/indexer/block/v1/avg_blocktime")
                        .getValue("avg_block_time")
                        .toString(),
                o.getValue("avg_block_time").toString());
        assertEquals(sql("SELECT count(*) FROM account_tx_stats").getLong(0).toString(), o.getString("accounts"));
        var days = o.getJsonArray("days");
        assertEquals(3, days.size());
        long sum = 0;
        java.time.LocalDate prev = null;
        for (Object d : days) {
            JsonObject day = (JsonObject) d;
            java.time.LocalDate date = java.time.LocalDate.parse(day.getString("date"));
            if (prev != null) assertEquals(prev.minusDays(1), date);
            prev = date;
            sum += Long.parseLong(day.getString("txs"));
            var r = sql("SELECT count(*), count(DISTINCT a.account_id) FROM tx t JOIN block b ON b.height = t.height "
                    + "LEFT JOIN tx_account a ON a.sequence = t.sequence WHERE (b.time AT TIME ZONE 'UTC')::date = date '"
                    + date + "'");
            assertEquals(
                    sql("SELECT count(*) FROM tx t JOIN block b ON b.height = t.height WHERE (b.time AT TIME ZONE 'UTC')::date = date '"
                                    + date + "'")
                            .getLong(0)
                            .toString(),
                    day.getString("txs"),
                    day.encode());
            assertEquals(r.getLong(1).toString(), day.getString("active_accounts"), day.encode());
        }
        // the devnet's history (from 2025-06-01, seconds apart) falls in the latest day
        assertEquals(o.getString("txs"), Long.toString(sum));
        assertTrue(Long.parseLong(days.getJsonObject(0).getString("active_accounts")) > 0);
        assertEquals(
                14,
                get("/indexer/stats/v1/overview")
                        .getJsonObject("overview")
                        .getJsonArray("days")
                        .size());
        for (String bad : List.of("0", "91", "x", "-1", "1.5")) {
            JsonObject e = fail("/indexer/stats/v1/overview?days=" + bad, 400);
            assertError(e, 3);
            assertTrue(e.getString("message").contains("invalid value for days"), e.encode());
        }
    }
}
