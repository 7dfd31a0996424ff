package dev.weft.richlist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.chain.Hex;
import dev.weft.chain.proto.ProtoWriter;
import dev.weft.node.WeftNode;
import dev.weft.route.registry.Denoms;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.DevnetAccounts;
import dev.weft.testsupport.DevnetWallet;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.RouteTxs;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The devnet's minimove rollup (weft-move-1) emits the Move VM's fungible-asset events for every coin movement (OP
 * deposit mint, bank sends, fees, IBC voucher mint, OP withdrawal burn), and Weft indexing that rollup from its first
 * block lists, for each denom, exactly the positive balances the rollup's own bank module answers: with the owner
 * events of current movevm, and without them (an older movevm: owners from the stores' creation events, and for a
 * store created before the indexed history from the chain's {@code ObjectCore}).
 */
class MoveDevnetRichListTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1";
    static final String MOVE = "weft-move-1";
    /** INIT on weft-move-1: deposited through OP bridge 2 (the rollup's fee denom). */
    static final String L2_INIT = Denoms.l2(2, "uinit");

    static final String IBC_USDC = Denoms.ibc("transfer/channel-0/uusdc");
    static final String PAYER = DevnetAccounts.address(dev.weft.devnet.world.World.TEST_ACCOUNT_KEY);
    static final String BOB = DevnetAccounts.addr(0x77);
    static final String CAROL = DevnetAccounts.addr(0x88);
    static final String DAVE = DevnetAccounts.addr(0x66);
    static final String FEE_COLLECTOR = AccountAddress.of(java.util.Arrays.copyOf(
                    dev.weft.chain.Hashes.sha256("fee_collector".getBytes(StandardCharsets.UTF_8)), 20))
            .bech32("init");

    static WeftNode devnet;
    static final LocalHttp http = new LocalHttp();
    static DevnetWallet wallet;

    static void startDevnet(boolean ownerEvents) {
        devnet = weft.start(weft.config()
                .roles("devnet")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 3)
                .set("devnet.block_interval", "100ms")
                .set("devnet.txs_per_block", 2)
                .set("devnet.move_owner_events", ownerEvents)
                // the rollup's history idle: the expected holders are this test's own txs (the generated history's
                // fees would reach the fee collector before the balances it starts from)
                .set("devnet.chains.weft-move-1.txs_per_block", 0)
                .set("devnet.relayer.delay", "200ms")
                .set("devnet.opinit.delay", "200ms")
                .set("devnet.opinit.output_interval", "500ms"));
        wallet = new DevnetWallet(MoveDevnetRichListTest::rest, MoveDevnetRichListTest::rpc);
    }

    static void stopDevnet() {
        weft.stop(devnet);
    }

    static WeftNode indexer(String db, long startHeight) {
        return weft.start(weft.config()
                .roles("ingest", "richlist", "api")
                .set("database.url", db)
                .set("chain.chain_id", MOVE)
                .set("chain.vm", "move")
                .set("chain.rpc", new JsonArray().add("http://127.0.0.1:" + rpc(MOVE)))
                .set("chain.rest", new JsonArray().add("http://127.0.0.1:" + rest(MOVE)))
                .set("ingest.start_height", startHeight)
                .set("ingest.poll_interval", "50ms")
                .set("ingest.retry_base", "5ms")
                .set("ingest.retry_max", "200ms")
                .set("richlist.poll_interval", "50ms"));
    }

    static String hex(String account) {
        return Hex.prefixed(AccountAddress.parse(account, "init").bytes());
    }

    static JsonArray holders(WeftNode indexer, String denom) {
        String path = "/indexer/richlist/v1/" + URLEncoder.encode(denom, StandardCharsets.UTF_8);
        return new JsonObject(http.get(TestNodes.httpPort(indexer), path).body()).getJsonArray("holders");
    }

    static int rpc(String chain) {
        return dev.weft.devnet.DevnetEndpoints.of(devnet.context().info())
                .chain(chain)
                .orElseThrow()
                .rpcPort();
    }

    static int rest(String chain) {
        return dev.weft.devnet.DevnetEndpoints.of(devnet.context().info())
                .chain(chain)
                .orElseThrow()
                .restPort();
    }

    /** broadcast_tx_commit; the height of the committed tx (code 0). */
    static long commit(String chain, List<CosmosTx.Any> msgs, String feeDenom) {
        byte[] raw = wallet.sign(chain, PAYER, msgs, feeDenom);
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", "broadcast_tx_commit")
                .put("params", new JsonObject().put("tx", RouteTxs.base64(raw)));
        JsonObject res = new JsonObject(http.post(rpc(chain), "/", req.encode()).body());
        assertNull(res.getValue("error"), res.encode());
        JsonObject result = res.getJsonObject("result");
        assertEquals(0, result.getJsonObject("tx_result").getInteger("code"), result.encode());
        return Long.parseLong(result.getString("height"));
    }

    /** {@code cosmos.bank.v1beta1.MsgSend}: from_address=1, to_address=2, amount=3. */
    static CosmosTx.Any send(String from, String to, String denom, long amount) {
        return new CosmosTx.Any(
                "/cosmos.bank.v1beta1.MsgSend",
                new ProtoWriter()
                        .string(1, from)
                        .string(2, to)
                        .message(3, new ProtoWriter().string(1, denom).string(2, Long.toString(amount)))
                        .toByteArray());
    }

    static BigInteger balance(String account, String denom) {
        String q = URLEncoder.encode(denom, StandardCharsets.UTF_8);
        JsonObject r =
                new JsonObject(http.get(rest(MOVE), "/cosmos/bank/v1beta1/balances/" + account + "/by_denom?denom=" + q)
                        .body());
        return new BigInteger(r.getJsonObject("balance").getString("amount"));
    }

    /** The move events of a committed tx, for the shape check. */
    static List<JsonObject> moveEvents(long height) {
        JsonObject r = new JsonObject(
                        http.get(rpc(MOVE), "/block_results?height=" + height).body())
                .getJsonObject("result");
        List<JsonObject> out = new ArrayList<>();
        for (Object t : r.getJsonArray("txs_results")) {
            for (Object e : ((JsonObject) t).getJsonArray("events")) {
                JsonObject ev = (JsonObject) e;
                if (ev.getString("type").equals("move")) out.add(ev);
            }
        }
        return out;
    }

    @Test
    @DisplayName(
            "Weft's rich list of the devnet Move rollup equals the rollup's bank balances (OP deposit, sends, fees, IBC, OP withdrawal)")
    void richListEqualsBankBalances() {
        startDevnet(true);
        try {
            Traffic t = traffic();
            // the Move events of the send: the fee's withdrawal first, with its owner event
            List<JsonObject> events = moveEvents(t.sendHeight);
            JsonObject first = events.get(0).getJsonArray("attributes").getJsonObject(0);
            assertEquals(
                    new JsonObject()
                            .put("key", "type_tag")
                            .put("value", "0x1::fungible_asset::WithdrawEvent")
                            .put("index", true),
                    first);
            String payerHex =
                    "0x" + Hex.lower(dev.weft.chain.Bech32.decode(PAYER).data()).replaceFirst("^0+", "");
            assertEquals(
                    new JsonObject().put("owner", payerHex),
                    new JsonObject(events.get(1)
                            .getJsonArray("attributes")
                            .getJsonObject(1)
                            .getString("value")));
            assertIndexedEqualsBank(t);
        } finally {
            stopDevnet();
        }
    }

    @Test
    @DisplayName(
            "Without owner events (an older movevm), owners come from the stores' creation events, or from the chain's ObjectCore for a store created before the indexed history")
    void withoutOwnerEvents() throws Exception {
        startDevnet(false);
        try {
            Traffic t = traffic();
            for (JsonObject e : moveEvents(t.sendHeight)) {
                assertFalse(e.encode().contains("OwnerEvent"), "no owner event: " + e.encode());
            }
            assertIndexedEqualsBank(t);

            // from the send's height: the fee collector's store was created before it
            String db = TestDatabase.freshUrl();
            WeftNode late = indexer(db, t.sendHeight);
            try {
                Await.cursor(db, "richlist", t.target, 60);
                byte[] collector = AccountAddress.parse(FEE_COLLECTOR, "init").bytes();
                String store =
                        Hex.lower(dev.weft.chain.MoveStores.primaryStore(collector, Denoms.moveMetadata(L2_INIT)));
                try (var c = TestDatabase.jdbc(db);
                        var st = c.createStatement();
                        var rs = st.executeQuery(
                                "SELECT encode(owner, 'hex') FROM move_fa_store WHERE store_addr = decode('" + store
                                        + "', 'hex')")) {
                    assertTrue(rs.next(), "the fee collector's store owner was read from the chain");
                    assertEquals("0".repeat(24) + Hex.lower(collector), rs.getString(1));
                }
                JsonArray l2 = holders(late, L2_INIT);
                assertTrue(
                        l2.stream()
                                .anyMatch(h ->
                                        ((JsonObject) h).getString("account").equals(hex(FEE_COLLECTOR))),
                        l2.encode());
                assertTrue(
                        l2.contains(new JsonObject().put("account", hex(BOB)).put("amount", "1200000")), l2.encode());
            } finally {
                weft.stop(late);
            }
        } finally {
            stopDevnet();
        }
    }

    /**
     * The payer is a devnet test key (the devnet verifies signatures), funded at genesis: a genesis balance has no
     * events, so what the index can know is each balance less the one before the traffic.
     */
    record Traffic(long sendHeight, long target, Map<String, BigInteger> before) {}

    static Map<String, BigInteger> balances() {
        Map<String, BigInteger> m = new HashMap<>();
        for (String denom : List.of(L2_INIT, IBC_USDC)) {
            for (String account : List.of(PAYER, BOB, CAROL, DAVE, FEE_COLLECTOR))
                m.put(account + "/" + denom, balance(account, denom));
        }
        return m;
    }

    /** Deposits INIT and sends uusdc over IBC from the L1, then sends and withdraws on the rollup; the heights. */
    static Traffic traffic() {
        Map<String, BigInteger> before = balances();
        // INIT arrives over OP bridge 2: the executor's finalize tx mints it on the rollup
        JsonObject deposit = new JsonObject()
                .put("sender", PAYER)
                .put("bridge_id", "2")
                .put("to", PAYER)
                .put("amount", new JsonObject().put("denom", "uinit").put("amount", "5000000"))
                .put("data", "");
        commit(L1, List.of(RouteTxs.any("/opinit.ophost.v1.MsgInitiateTokenDeposit", deposit)), "uinit");
        JsonObject ibc = RouteTxs.transferJson(
                "channel-1",
                "uusdc",
                "700000",
                PAYER,
                DAVE,
                System.currentTimeMillis() * 1_000_000L + 60_000_000_000L,
                "");
        commit(L1, List.of(RouteTxs.any("/ibc.applications.transfer.v1.MsgTransfer", ibc)), "uinit");
        Await.until(
                "the OP deposit on " + MOVE,
                30,
                () -> balance(PAYER, L2_INIT).compareTo(before.get(PAYER + "/" + L2_INIT)) > 0);
        Await.until(
                "the IBC voucher on " + MOVE, 30, () -> balance(DAVE, IBC_USDC).signum() > 0);

        long sendHeight = commit(
                MOVE, List.of(send(PAYER, BOB, L2_INIT, 1_200_000), send(PAYER, CAROL, L2_INIT, 300_000)), L2_INIT);
        JsonObject withdrawal = new JsonObject()
                .put("sender", PAYER)
                .put("to", PAYER)
                .put("amount", new JsonObject().put("denom", L2_INIT).put("amount", "250000"));
        long last = commit(
                MOVE, List.of(RouteTxs.any("/opinit.opchild.v1.MsgInitiateTokenWithdrawal", withdrawal)), L2_INIT);
        long target = last + 2;
        Await.until(
                MOVE + " height " + target,
                30,
                () -> Long.parseLong(
                                new JsonObject(http.get(rpc(MOVE), "/status").body())
                                        .getJsonObject("result")
                                        .getJsonObject("sync_info")
                                        .getString("latest_block_height"))
                        >= target);
        assertTrue(
                balance(PAYER, L2_INIT)
                                .subtract(before.get(PAYER + "/" + L2_INIT))
                                .compareTo(BigInteger.valueOf(5_000_000 - 1_500_000 - 250_000))
                        < 0,
                "fees were paid too");
        return new Traffic(sendHeight, target, before);
    }

    static JsonObject api(WeftNode indexer, String path) {
        var r = http.get(TestNodes.httpPort(indexer), path);
        assertEquals(200, r.statusCode(), path + " → " + r.body());
        return new JsonObject(r.body());
    }

    /**
     * Weft's account and token views on a Move chain: Bob only received INIT's 1.2 INIT in the send, as one
     * fungible-asset deposit; the token is INIT's metadata object (the devnet's own derivation), named by the registry.
     */
    static void assertAccountViews(WeftNode indexer, Traffic t) {
        String metadata = Hex.prefixed(dev.weft.devnet.registry.ChainDenoms.moveMetadata(L2_INIT));
        String bob = hex(BOB);
        JsonObject balances = api(indexer, "/indexer/account/v1/" + BOB + "/balances");
        assertEquals(
                new JsonArray()
                        .add(new JsonObject()
                                .put("token", metadata)
                                .putNull("denom")
                                .put("amount", "1200000")),
                balances.getJsonArray("balances"));
        JsonArray transfers =
                api(indexer, "/indexer/account/v1/" + bob + "/transfers").getJsonArray("transfers");
        assertEquals(1, transfers.size(), transfers.encode());
        JsonObject in = transfers.getJsonObject(0);
        assertEquals("move_fa", in.getString("kind"));
        assertEquals(metadata, in.getString("token"));
        assertEquals(bob, in.getString("to"));
        assertEquals("in", in.getString("direction"));
        assertEquals("1200000", in.getString("amount"));
        assertEquals(Long.toString(t.sendHeight()), in.getString("height"));
        // the token by its denom: the metadata object 0x1::coin names after it
        String byDenom =
                "/indexer/account/v1/" + BOB + "/transfers?token=" + URLEncoder.encode(L2_INIT, StandardCharsets.UTF_8);
        assertEquals(transfers, api(indexer, byDenom).getJsonArray("transfers"));
        JsonObject summary =
                api(indexer, "/indexer/account/v1/" + BOB + "/summary").getJsonObject("summary");
        assertEquals("1", summary.getString("tokens"));
        assertEquals("0", summary.getString("evm_txs"));
        assertEquals(
                api(indexer, "/indexer/tx/v1/txs/by_account/" + BOB)
                        .getJsonObject("pagination")
                        .getString("total"),
                summary.getString("txs"));
        assertEquals(Long.toString(t.sendHeight()), summary.getString("first_height"));
        JsonObject init = null;
        for (Object o :
                api(indexer, "/indexer/token/v1/tokens?pagination.limit=1000").getJsonArray("tokens")) {
            JsonObject x = (JsonObject) o;
            if (x.getString("token").equals(metadata)) init = x;
        }
        assertTrue(init != null, "INIT is listed");
        assertEquals("move_fa", init.getString("kind"));
        assertEquals("INIT", init.getString("symbol"));
        assertEquals(6, init.getInteger("decimals"));
        assertEquals(L2_INIT, init.getString("denom"));
        assertEquals(Integer.toString(holders(indexer, L2_INIT).size()), init.getString("holders"));
        String path = "/indexer/token/v1/" + URLEncoder.encode(L2_INIT, StandardCharsets.UTF_8)
                + "/transfers?pagination.limit=1000";
        JsonArray ofToken = api(indexer, path).getJsonArray("transfers");
        for (Object o : ofToken)
            assertFalse(((JsonObject) o).containsKey("direction"), "a token's rows have no direction");
        JsonObject plain = in.copy();
        plain.remove("direction");
        assertTrue(ofToken.contains(plain), "the token's transfers hold Bob's");
    }

    /** Indexes the rollup from its first block; each denom's holders are the accounts' positive bank balances. */
    static void assertIndexedEqualsBank(Traffic t) {
        long target = t.target();
        String db = TestDatabase.freshUrl();
        WeftNode indexer = indexer(db, 0);
        try {
            Await.cursor(db, "richlist", target, 60);
            for (String denom : List.of(L2_INIT, IBC_USDC)) {
                List<JsonObject> expected = new ArrayList<>();
                for (String account : List.of(PAYER, BOB, CAROL, DAVE, FEE_COLLECTOR)) {
                    BigInteger b = balance(account, denom).subtract(t.before().get(account + "/" + denom));
                    if (b.signum() > 0)
                        expected.add(
                                new JsonObject().put("account", hex(account)).put("amount", b.toString()));
                }
                expected.sort(Comparator.<JsonObject, BigInteger>comparing(h -> new BigInteger(h.getString("amount")))
                        .reversed()
                        .thenComparing(h -> h.getString("account")));
                assertFalse(expected.isEmpty(), denom);
                assertEquals(new JsonArray(expected), holders(indexer, denom), denom);
            }
            assertAccountViews(indexer, t);
        } finally {
            weft.stop(indexer);
        }
    }
}
