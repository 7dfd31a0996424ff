package dev.weft.richlist;

import static dev.weft.testsupport.Shapes.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.chain.model.AbciEvent;
import dev.weft.chain.model.FungibleTransfer;
import dev.weft.ingest.FungibleTransfers;
import dev.weft.node.WeftNode;
import dev.weft.route.registry.Denoms;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The rich list of Move and Wasm chains: the events of their txs (in the shapes Initia's chains emit: a
 * {@code 0x1::fungible_asset} DepositEvent/WithdrawEvent followed by its owner event, as recorded in
 * initia-labs/celatone-frontend's tx fixtures; cw20-base's {@code wasm} events) are read by ingestion's parser into
 * transfer rows, stored as ingestion stores them, and the rich-list role applies them; the endpoint answers by metadata
 * address, by coin denom or by CW20 contract in the EVM chains' shape.
 */
class MoveWasmRichListTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WebClient client;

    /** Accounts of the recorded Move txs (20-byte Initia accounts, shown by movevm as 0x + 40 hex). */
    static final String ALICE = "0xf1829676db577682e944fc3493d451b67ff3e29f";

    static final String BOB = "0x" + "2b".repeat(20);
    static final String STORE_A = "0x66a8cb0bfb991610dcffb8a6543ac0887c7c5405b8f985ebed6d628fe50c4686";
    static final String STORE_B = "0x5c8edb2aff315409e899a3cbabeaa8741eb8044448d2c28a37a8d0d6e5d96528";
    static final String UINIT = Hex.prefixed(Denoms.moveMetadata("uinit"));

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        client = WebClient.create(vertx);
    }

    static AbciEvent event(String type, String... kv) {
        List<AbciEvent.Attribute> attrs = new ArrayList<>();
        for (int i = 0; i < kv.length; i += 2) attrs.add(new AbciEvent.Attribute(kv[i], kv[i + 1], true));
        return new AbciEvent(type, attrs);
    }

    static AbciEvent move(String typeTag, JsonObject data) {
        return event("move", "type_tag", typeTag, "data", data.encode());
    }

    static List<AbciEvent> faMovement(boolean deposit, String store, String owner, String metadata, long amount) {
        String kind = deposit ? "Deposit" : "Withdraw";
        return List.of(
                move(
                        "0x1::fungible_asset::" + kind + "Event",
                        new JsonObject()
                                .put("store_addr", store)
                                .put("metadata_addr", metadata)
                                .put("amount", Long.toString(amount))),
                move("0x1::fungible_asset::" + kind + "OwnerEvent", new JsonObject().put("owner", owner)));
    }

    static AbciEvent cw20(String contract, String... kv) {
        String[] all = new String[kv.length + 2];
        all[0] = "_contract_address";
        all[1] = contract;
        System.arraycopy(kv, 0, all, 2, kv.length);
        return event("wasm", all);
    }

    /** Stores height {@code h} with one tx whose events are {@code events}, as ingestion does (block row, transfer rows, cursor). */
    static void index(Connection c, long h, List<AbciEvent> events) throws Exception {
        List<FungibleTransfer> rows = new ArrayList<>();
        FungibleTransfers.read(events, "init", rows, new LinkedHashSet<>());
        try (Statement st = c.createStatement()) {
            st.execute(
                    "INSERT INTO block (height, hash, time, time_ns, block_time_ms, proposer_address, proposer_moniker, proposer_operator, "
                            + "gas_used, gas_wanted, tx_count, evm_tx_count, total_fee, json) VALUES (" + h
                            + ", '\\x00', now(), 0, 0, '\\x00', '', '', 0, 0, 1, 0, '[]', '\\x7b7d')");
        }
        try (PreparedStatement p = c.prepareStatement(
                "INSERT INTO fungible_transfer (height, sequence, transfer_index, kind, token, from_address, "
                        + "to_address, amount) VALUES (?, ?, ?, ?, ?, ?, ?, ?::numeric)")) {
            for (int i = 0; i < rows.size(); i++) {
                FungibleTransfer f = rows.get(i);
                p.setLong(1, h);
                p.setLong(2, h);
                p.setInt(3, i);
                p.setShort(4, (short) f.kind().code());
                p.setBytes(5, f.token().bytes());
                p.setBytes(6, f.from().bytes());
                p.setBytes(7, f.to().bytes());
                p.setString(8, f.amount().toString());
                p.executeUpdate();
            }
        }
        try (Statement st = c.createStatement()) {
            st.execute("UPDATE pipeline_cursor SET height = " + h + " WHERE name = 'ingest'");
        }
    }

    static WeftNode node(String url, String vm) {
        return weft.start(weft.config()
                .roles("api", "richlist")
                .set("database.url", url)
                .set("chain.vm", vm)
                .set("chain.rpc", new JsonArray().add("http://127.0.0.1:9"))
                .set("chain.rest", new JsonArray().add("http://127.0.0.1:9"))
                .set("richlist.poll_interval", "50ms"));
    }

    static JsonObject holders(int port, String denom) {
        var r = TestNodes.get(client, port, "/indexer/richlist/v1/" + denom);
        assertEquals(200, r.statusCode(), denom + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    static JsonObject page(JsonObject... holders) {
        JsonArray items = new JsonArray();
        for (JsonObject h : holders) items.add(h);
        return new JsonObject()
                .put("holders", items)
                .put(
                        "pagination",
                        new JsonObject()
                                .putNull("previous_key")
                                .putNull("next_key")
                                .put("total", Integer.toString(holders.length)));
    }

    static JsonObject holder(String account, String amount) {
        return new JsonObject().put("account", account).put("amount", amount);
    }

    @Test
    @DisplayName(
            "Move: deposits/withdrawals with their owner events make the balances; by metadata address, denom and move/<hex>")
    void move() throws Exception {
        String url = TestDatabase.freshUrl();
        WeftNode node = node(url, "move");
        try (Connection c = TestDatabase.jdbc(url)) {
            List<AbciEvent> mint = new ArrayList<>(faMovement(true, STORE_A, ALICE, UINIT, 1000));
            mint.addAll(faMovement(true, STORE_B, "0x000000000000000000000000" + BOB.substring(2), UINIT, 500));
            index(c, 1, mint);
            List<AbciEvent> send = new ArrayList<>(faMovement(false, STORE_A, ALICE, UINIT, 300));
            send.addAll(faMovement(true, STORE_B, BOB, UINIT, 300));
            // a secondary store's deposit (no owner event after it) is not counted
            send.add(move(
                    "0x1::fungible_asset::DepositEvent",
                    new JsonObject()
                            .put("store_addr", "0x" + "77".repeat(32))
                            .put("metadata_addr", UINIT)
                            .put("amount", "9")));
            index(c, 2, send);
            Await.cursor(url, "richlist", 2, 30);
            int port = TestNodes.httpPort(node);
            JsonObject expected = page(holder(BOB, "800"), holder(ALICE, "700"));
            assertEquals(expected, holders(port, UINIT));
            assertEquals(expected, holders(port, "uinit"));
            assertEquals(expected, holders(port, "move/" + UINIT.substring(2).toUpperCase(java.util.Locale.ROOT)));
            assertEquals(
                    2L,
                    TestNodes.get(client, port, "/status").bodyAsJsonObject().getLong("rich_list_height"));
            assertEquals(page(), holders(port, "0x1"));
            var bad = TestNodes.get(client, port, "/indexer/richlist/v1/0xzz");
            assertEquals(400, bad.statusCode());
            assertError(bad.bodyAsJsonObject(), 3);
        }
    }

    @Test
    @DisplayName(
            "Wasm: cw20 mint, transfer, send, burn and burn_from make the balances; by the contract's bech32 address")
    void wasm() throws Exception {
        String url = TestDatabase.freshUrl();
        WeftNode node = node(url, "wasm");
        byte[] tokenBytes = new byte[32];
        tokenBytes[0] = 7;
        String token = AccountAddress.of(tokenBytes).bech32("init");
        String alice = AccountAddress.parse(ALICE, "init").bech32("init");
        String bob = AccountAddress.parse(BOB, "init").bech32("init");
        try (Connection c = TestDatabase.jdbc(url)) {
            index(c, 1, List.of(cw20(token, "action", "mint", "to", alice, "amount", "1000")));
            index(
                    c,
                    2,
                    List.of(
                            cw20(token, "action", "transfer", "from", alice, "to", bob, "amount", "250"),
                            cw20(token, "action", "send", "from", alice, "to", bob, "amount", "50"),
                            cw20(token, "action", "burn", "from", alice, "amount", "100"),
                            cw20(token, "action", "burn_from", "from", bob, "by", alice, "amount", "20"),
                            // not a cw20 movement
                            cw20(
                                    token,
                                    "action",
                                    "increase_allowance",
                                    "owner",
                                    alice,
                                    "spender",
                                    bob,
                                    "amount",
                                    "5")));
            Await.cursor(url, "richlist", 2, 30);
            int port = TestNodes.httpPort(node);
            assertEquals(page(holder(ALICE, "600"), holder(BOB, "280")), holders(port, token));
            assertEquals(page(holder(ALICE, "600"), holder(BOB, "280")), holders(port, Hex.prefixed(tokenBytes)));
            var bad = TestNodes.get(client, port, "/indexer/richlist/v1/" + alice);
            assertEquals(400, bad.statusCode(), "a 20-byte account is not a cw20 contract");
            assertError(bad.bodyAsJsonObject(), 3);
        }
    }
}
