package dev.weft.richlist;

import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.Shapes.assertFields;
import static dev.weft.testsupport.Shapes.assertString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.client.EthCalls;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.chain.model.EvmLog;
import dev.weft.config.NodeClientOptions;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.ChainTransfers;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.math.BigInteger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The rich list of the devnet (ERC-20s whose supply is minted at block 1 with Transfer logs, so balances are exactly
 * the sums of the Transfer logs): every stored balance equals the sum of the chain's Transfer logs up to the rich-list
 * height and {@code eth_call balanceOf} at that height; the mid-chain bootstrap snapshot; the repair of a token whose
 * balances were lost; a restart without gap or duplicate; the endpoint by contract and by bank denom; the events.
 */
class RichListTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WebClient client;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        client = WebClient.create(vertx);
    }

    static TestConfig devnet(long blocks, String... roles) {
        return weft.config()
                .roles(roles)
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", blocks)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 7)
                .set("devnet.txs_per_block", 15)
                .set("ingest.poll_interval", "50ms")
                .set("ingest.window", 32)
                .set("ingest.commit_blocks", 20)
                .set("ingest.retry_base", "10ms")
                .set("ingest.retry_max", "200ms")
                .set("richlist.poll_interval", "50ms")
                .set("richlist.commit_blocks", 37);
    }

    static String url(TestConfig c) {
        return (String) c.get("database.url");
    }

    /** (token hex, account hex) → balance: the positive stored balances; fails on a negative one. */
    static Map<String, BigInteger> stored(String url) throws Exception {
        Map<String, BigInteger> out = new LinkedHashMap<>();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery(
                    "SELECT encode(t.contract,'hex'), encode(r.account,'hex'), r.amount::text FROM rich_list r "
                            + "JOIN rich_list_token t ON t.id = r.token_id ORDER BY 1, 2")) {
                while (rs.next()) {
                    BigInteger v = new BigInteger(rs.getString(3));
                    assertTrue(v.signum() >= 0, "negative balance " + rs.getString(1) + "/" + rs.getString(2));
                    if (v.signum() > 0) out.put("0x" + rs.getString(1) + "/0x" + rs.getString(2), v);
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM rich_list_token t WHERE holders <> "
                    + "(SELECT count(*) FROM rich_list r WHERE r.token_id = t.id AND r.amount > 0)")) {
                rs.next();
                assertEquals(0, rs.getLong(1), "holder counters");
            }
        }
        return out;
    }

    /** The sums of the chain's ERC-20 Transfer logs up to a height, positive balances only. */
    static Map<String, BigInteger> sums(List<ChainTransfers.Transfer> transfers, long upTo) {
        Map<String, BigInteger> all = new LinkedHashMap<>();
        for (ChainTransfers.Transfer t : transfers) {
            if (t.nft() || t.height() > upTo) continue;
            if (!EvmLog.isZero(t.from()))
                all.merge(t.token().hex() + "/" + t.from().hex(), t.value().negate(), BigInteger::add);
            if (!EvmLog.isZero(t.to())) all.merge(t.token().hex() + "/" + t.to().hex(), t.value(), BigInteger::add);
        }
        Map<String, BigInteger> out = new java.util.TreeMap<>();
        all.forEach((k, v) -> {
            assertTrue(v.signum() >= 0, "the chain itself has a negative balance " + k);
            if (v.signum() > 0) out.put(k, v);
        });
        return out;
    }

    /** {@code balanceOf} at a height for each "token/account" key (batched). */
    static Map<String, BigInteger> balanceOf(EvmRpcClient evm, Set<String> keys, long height) {
        List<String> list = new ArrayList<>(keys);
        List<EvmRpcClient.Request> calls = new ArrayList<>();
        for (String k : list) {
            String[] p = k.split("/");
            calls.add(EthCalls.call(
                    AccountAddress.parse(p[0], "init"),
                    EthCalls.balanceOf(AccountAddress.parse(p[1], "init")),
                    height));
        }
        var results = TestNodes.await(EthCalls.batched(evm, calls, 500, 2));
        Map<String, BigInteger> out = new java.util.TreeMap<>();
        for (int i = 0; i < list.size(); i++) {
            BigInteger v = EthCalls.decodeUint(results.get(i).result());
            if (v.signum() > 0) out.put(list.get(i), v);
        }
        return out;
    }

    static EvmRpcClient evm(WeftNode node) {
        return new EvmRpcClient(vertx, node.context().config().chain().jsonRpcUrls(), NodeClientOptions.defaults());
    }

    static JsonObject get(int port, String uri) {
        var r = TestNodes.get(client, port, uri);
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    /** Every holder of a denom, following next_key. */
    static List<JsonObject> holders(int port, String denom) {
        List<JsonObject> out = new ArrayList<>();
        String key = null;
        for (int pages = 0; pages < 10_000; pages++) {
            JsonObject body = get(
                    port,
                    "/indexer/richlist/v1/" + denom + "?pagination.limit=250"
                            + (key == null ? "" : "&pagination.key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)));
            assertFields(body, "holders", "pagination");
            body.getJsonArray("holders").forEach(o -> out.add((JsonObject) o));
            key = body.getJsonObject("pagination").getString("next_key");
            if (key == null) return out;
        }
        throw new AssertionError("no end");
    }

    @Test
    @DisplayName(
            "from genesis: every balance = the sum of Transfer logs = balanceOf at the rich-list height; the endpoint by contract and bank denom; events")
    void invariant() throws Exception {
        long blocks = 400;
        List<JsonObject> events = new CopyOnWriteArrayList<>();
        MessageConsumer<JsonObject> sub =
                vertx.eventBus().consumer(Addresses.RICH_LIST_UPDATED, m -> events.add(m.body()));
        TestConfig c = devnet(blocks, "devnet", "ingest", "richlist", "api");
        WeftNode node = weft.start(c);
        try {
            int port = TestNodes.httpPort(node);
            Await.until(
                    "rich_list_height " + blocks,
                    120,
                    () -> get(port, "/status").getLong("rich_list_height") == blocks);
            var chain = node.context().config().chain();
            List<ChainTransfers.Transfer> transfers =
                    ChainTransfers.read(client, chain.rpcUrls().get(0), 1, blocks);
            Map<String, BigInteger> truth = sums(transfers, blocks);
            assertTrue(truth.size() > 1000, truth.size() + " balances");
            assertEquals(truth, stored(url(c)));
            assertEquals(truth, balanceOf(evm(node), truth.keySet(), blocks));

            // the endpoint: the fee token by contract, in any case, and by its bank denom (slash encoded or not)
            Set<String> tokens = new LinkedHashSet<>();
            truth.keySet().forEach(k -> tokens.add(k.substring(0, k.indexOf('/'))));
            assertEquals(6, tokens.size());
            int checked = 0;
            for (String token : tokens) {
                String denom = TestNodes.await(
                                client.getAbs(chain.restUrls().get(0) + "/minievm/evm/v1/denoms/" + token)
                                        .send())
                        .bodyAsJsonObject()
                        .getString("denom");
                List<Map.Entry<String, BigInteger>> expected = new ArrayList<>();
                truth.forEach((k, v) -> {
                    if (k.startsWith(token + "/")) expected.add(Map.entry(k.substring(k.indexOf('/') + 1), v));
                });
                expected.sort(Map.Entry.<String, BigInteger>comparingByValue()
                        .reversed()
                        .thenComparing(Map.Entry.comparingByKey()));
                List<String> want = expected.stream()
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .toList();
                List<String> byContract = holders(port, token.toUpperCase().replace("0X", "0x")).stream()
                        .map(h -> h.getString("account") + "=" + h.getString("amount"))
                        .toList();
                assertEquals(want, byContract, token);
                assertEquals(
                        want,
                        holders(
                                        port,
                                        URLEncoder.encode(
                                                "evm/" + token.substring(2).toUpperCase(), StandardCharsets.UTF_8))
                                .stream()
                                .map(h -> h.getString("account") + "=" + h.getString("amount"))
                                .toList(),
                        "evm/<contract>, minievm's own denom of an ERC-20");
                assertEquals(
                        want,
                        holders(port, URLEncoder.encode("EVM/" + token.substring(2), StandardCharsets.UTF_8)).stream()
                                .map(h -> h.getString("account") + "=" + h.getString("amount"))
                                .toList(),
                        "EVM/<contract>: rollytics lower-cases the denom first");
                assertEquals(
                        want,
                        holders(port, URLEncoder.encode(denom, StandardCharsets.UTF_8)).stream()
                                .map(h -> h.getString("account") + "=" + h.getString("amount"))
                                .toList(),
                        denom);
                JsonObject first = get(port, "/indexer/richlist/v1/" + denom + "?pagination.limit=2");
                assertEquals(
                        Integer.toString(want.size()),
                        first.getJsonObject("pagination").getString("total"));
                assertFields(first.getJsonArray("holders").getJsonObject(0), "account", "amount");
                assertString(first.getJsonArray("holders").getJsonObject(0), "amount");
                assertString(first.getJsonObject("pagination"), "total");
                if (denom.startsWith("ibc/")) {
                    String lower = "ibc/" + denom.substring(4).toLowerCase();
                    assertEquals(
                            first,
                            get(port, "/indexer/richlist/v1/" + lower + "?pagination.limit=2"),
                            "ibc/ hash in any case");
                }
                JsonObject asc =
                        get(port, "/indexer/richlist/v1/" + token + "?pagination.reverse=false&pagination.limit=1");
                assertEquals(
                        want.get(want.size() - 1),
                        asc.getJsonArray("holders").getJsonObject(0).getString("account") + "="
                                + asc.getJsonArray("holders").getJsonObject(0).getString("amount"));
                checked += want.size();
            }
            assertTrue(checked == truth.size());

            // denoms: unknown → empty; malformed → 400
            JsonObject unknown = get(port, "/indexer/richlist/v1/uunknown");
            assertEquals(0, unknown.getJsonArray("holders").size());
            assertEquals("0", unknown.getJsonObject("pagination").getString("total"));
            assertNull(unknown.getJsonObject("pagination").getString("next_key"));
            assertEquals(
                    0,
                    get(port, "/indexer/richlist/v1/0x000000000000000000000000000000000000dead")
                            .getJsonArray("holders")
                            .size());
            for (String bad : List.of(
                    "0x1234",
                    "0xZZ00000000000000000000000000000000000000",
                    "9lives",
                    "a",
                    "bad%20denom",
                    "x?pagination.limit=0")) {
                var r = TestNodes.get(client, port, "/indexer/richlist/v1/" + bad);
                assertEquals(400, r.statusCode(), bad + " → " + r.bodyAsString());
                assertError(r.bodyAsJsonObject(), 3);
            }

            // rich list updated: heights increase to the head, every token named at least once
            Await.until(
                    "last event",
                    10,
                    () -> !events.isEmpty() && events.get(events.size() - 1).getLong("height") == blocks);
            Set<String> named = new LinkedHashSet<>();
            long prev = 0;
            for (JsonObject e : events) {
                assertFields(e, "chain_id", "height", "denoms", "sequence");
                assertTrue(e.getLong("height") > prev);
                prev = e.getLong("height");
                e.getJsonArray("denoms").forEach(d -> named.add((String) d));
            }
            assertEquals(tokens, named);
        } finally {
            TestNodes.await(sub.unregister());
            weft.stop(node);
        }
    }

    @Test
    @DisplayName(
            "history from a mid-chain start: a balanceOf snapshot at one height of every listed account, then deltas; = balanceOf, every holder")
    void bootstrap() throws Exception {
        long blocks = 260;
        TestConfig c = devnet(blocks, "devnet", "ingest", "richlist").set("ingest.start_height", 120);
        WeftNode node = weft.start(c);
        Await.cursor(url(c), "richlist", blocks, 120);
        Map<String, BigInteger> db = stored(url(c));
        Set<String> keys = new LinkedHashSet<>(db.keySet());
        List<String> tokens = new ArrayList<>();
        List<String> accounts = new ArrayList<>();
        try (Connection conn = TestDatabase.jdbc(url(c));
                Statement st = conn.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT '0x' || encode(contract,'hex') FROM rich_list_token")) {
                while (rs.next()) tokens.add(rs.getString(1));
            }
            try (ResultSet rs =
                    st.executeQuery("SELECT '0x' || encode(address,'hex') FROM account WHERE length(address) = 20")) {
                while (rs.next()) accounts.add(rs.getString(1));
            }
        }
        assertEquals(6, tokens.size());
        for (String t : tokens) for (String a : accounts) keys.add(t + "/" + a);
        assertEquals(balanceOf(evm(node), keys, blocks), db);
        var chain = node.context().config().chain();
        Map<String, BigInteger> fromGenesis =
                sums(ChainTransfers.read(client, chain.rpcUrls().get(0), 1, blocks), blocks);
        db.forEach((k, v) -> assertEquals(fromGenesis.get(k), v, k));
        Map<String, BigInteger> holders = new java.util.TreeMap<>();
        fromGenesis.forEach((k, v) -> {
            if (v.signum() > 0) holders.put(k, v);
        });
        assertEquals(
                holders,
                new java.util.TreeMap<>(db),
                "every holder, those never seen since height 120 too (the snapshot reads every account x/auth lists)");
    }

    @Test
    @DisplayName(
            "a restart continues without gap or duplicate; a token whose balances were lost is repaired at the height it would go negative")
    void repairAndRestart() throws Exception {
        long blocks = 300;
        TestConfig c = devnet(blocks, "devnet", "ingest", "richlist").set("richlist.lag_blocks", 150);
        WeftNode first = weft.start(c);
        try {
            Await.cursor(url(c), "ingest", blocks, 120);
            Await.cursor(url(c), "richlist", 150, 120);
        } finally {
            weft.stop(first);
        }
        assertEquals(150, Await.cursorHeight(url(c), "richlist"), "lag_blocks keeps it 150 below ingestion");
        String fee;
        try (Connection conn = TestDatabase.jdbc(url(c));
                Statement st = conn.createStatement()) {
            // the token with the most holders (the fee token: every signer pays fees) loses every balance
            try (ResultSet rs = st.executeQuery(
                    "SELECT encode(contract,'hex') FROM rich_list_token ORDER BY holders DESC LIMIT 1")) {
                rs.next();
                fee = "0x" + rs.getString(1);
            }
            st.executeUpdate(
                    "UPDATE rich_list SET amount = 0 WHERE token_id = (SELECT id FROM rich_list_token WHERE contract = decode('"
                            + fee.substring(2) + "','hex'))");
            st.executeUpdate(
                    "UPDATE rich_list_token SET holders = 0 WHERE contract = decode('" + fee.substring(2) + "','hex')");
        }
        double repairsBefore = RichListMetrics.forChain("weft-devnet-1").repairs.count();
        TestConfig again = devnet(blocks, "devnet", "ingest", "richlist", "api").set("database.url", url(c));
        WeftNode second = weft.start(again);
        Await.cursor(url(c), "richlist", blocks, 120);
        var chain = second.context().config().chain();
        Map<String, BigInteger> truth =
                sums(ChainTransfers.read(client, chain.rpcUrls().get(0), 1, blocks), blocks);
        assertEquals(truth, stored(url(c)), "no gap, no duplicate, and the lost token healed");
        assertEquals(truth, balanceOf(evm(second), truth.keySet(), blocks));
        assertTrue(RichListMetrics.forChain("weft-devnet-1").repairs.count() > repairsBefore, "a repair ran");
        String metrics =
                TestNodes.get(client, TestNodes.httpPort(second), "/metrics").bodyAsString();
        assertTrue(metrics.contains("weft_richlist_repairs_total{chain_id=\"weft-devnet-1\"}"), "exported");
    }
}
