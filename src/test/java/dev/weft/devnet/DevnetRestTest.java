package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.devnet.gen.Actor;
import dev.weft.devnet.gen.BankBalances;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Cosmos REST routes a wallet and a client library read: unregistered routes, bank, auth, tx search, validators. */
class DevnetRestTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    /** grpc-gateway's answer to a path no module registers (an SDK 0.50 node, any unknown route). */
    static final String NOT_IMPLEMENTED = "{\"code\":12,\"message\":\"Not Implemented\",\"details\":[]}";

    private static DevnetHarness devnet;
    private static DevnetChain chain;

    @BeforeAll
    static void start() {
        devnet = DevnetHarness.start(weft, DevnetHarness.history(120));
        chain = devnet.replica();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName(
            "an unregistered route is HTTP 501 code 12 Not Implemented, a served path with another method 501 Method Not Allowed")
    void unregistered() {
        for (String path : List.of(
                "/nope",
                "/cosmos/staking/v1beta1/validators",
                "/initia/mstaking/v1/validators",
                "/cosmos/bank/v1beta1/balances/x/y/z")) {
            HttpResponse<String> r = devnet.get(devnet.restPort, path);
            assertEquals(501, r.statusCode(), path);
            assertEquals(NOT_IMPLEMENTED, r.body(), path);
        }
        HttpResponse<String> post = devnet.post(devnet.restPort, "/cosmos/base/tendermint/v1beta1/node_info", "{}");
        assertEquals(501, post.statusCode());
        assertEquals("{\"code\":12,\"message\":\"Method Not Allowed\",\"details\":[]}", post.body());
        assertEquals(
                NOT_IMPLEMENTED, devnet.post(devnet.restPort, "/nope", "{}").body());
    }

    @Test
    @DisplayName(
            "bank balances: every non-zero denom sorted, the ERC-20 ledger's amounts; pages by limit and next_key; by_denom; errors")
    void balances() {
        Actor a = chain.genesis().actor(0);
        List<BankBalances.Coin> expected = BankBalances.of(chain, a.address(), chain.head());
        assertTrue(expected.size() >= 3, "a busy sender holds several denoms");
        JsonObject all = devnet.rest("/cosmos/bank/v1beta1/balances/" + a.bech32());
        JsonArray coins = new JsonArray();
        for (BankBalances.Coin c : expected)
            coins.add(new JsonObject()
                    .put("denom", c.denom())
                    .put("amount", c.amount().toString()));
        assertEquals(
                new JsonObject()
                        .put("balances", coins)
                        .put(
                                "pagination",
                                new JsonObject().putNull("next_key").put("total", Integer.toString(expected.size()))),
                all);
        // pages of two: limit without count_total answers total "0", as the SDK does
        List<Object> paged = new ArrayList<>();
        String key = null;
        do {
            JsonObject page = devnet.rest("/cosmos/bank/v1beta1/balances/" + a.bech32() + "?pagination.limit=2"
                    + (key == null ? "" : "&pagination.key=" + enc(key)));
            assertEquals("0", page.getJsonObject("pagination").getString("total"));
            page.getJsonArray("balances").forEach(paged::add);
            key = page.getJsonObject("pagination").getString("next_key");
        } while (key != null);
        assertEquals(coins.getList(), new JsonArray(paged).getList());
        BankBalances.Coin first = expected.get(0);
        assertEquals(
                new JsonObject()
                        .put(
                                "balance",
                                new JsonObject()
                                        .put("denom", first.denom())
                                        .put("amount", first.amount().toString())),
                devnet.rest("/cosmos/bank/v1beta1/balances/" + a.bech32() + "/by_denom?denom=" + enc(first.denom())));
        assertEquals(
                new JsonObject()
                        .put("balance", new JsonObject().put("denom", "unone").put("amount", "0")),
                devnet.rest("/cosmos/bank/v1beta1/balances/" + a.bech32() + "/by_denom?denom=unone"));
        String stranger = Bech32.encode("init", new byte[20]);
        assertEquals(
                new JsonObject()
                        .put("balances", new JsonArray())
                        .put("pagination", new JsonObject().putNull("next_key").put("total", "0")),
                devnet.rest("/cosmos/bank/v1beta1/balances/" + stranger));
        HttpResponse<String> bad = devnet.get(devnet.restPort, "/cosmos/bank/v1beta1/balances/cosmos1xyz");
        assertEquals(400, bad.statusCode());
        assertEquals(3, new JsonObject(bad.body()).getInteger("code"));
        assertTrue(new JsonObject(bad.body()).getString("message").startsWith("invalid address: "));
    }

    @Test
    @DisplayName("auth account by address: the BaseAccount the account list shows; an unknown address is 404 code 5")
    void account() {
        Actor a = chain.genesis().actor(3);
        JsonObject expected = new JsonObject()
                .put("@type", "/cosmos.auth.v1beta1.BaseAccount")
                .put("address", a.bech32())
                .putNull("pub_key")
                .put("account_number", Long.toString(a.accountNumber()))
                .put("sequence", "0");
        JsonObject got = devnet.rest("/cosmos/auth/v1beta1/accounts/" + a.bech32());
        assertEquals(new JsonObject().put("account", expected), got);
        assertEquals(
                List.of("@type", "address", "pub_key", "account_number", "sequence"),
                new ArrayList<>(got.getJsonObject("account").fieldNames()));
        String stranger = Bech32.encode("init", new byte[20]);
        HttpResponse<String> missing = devnet.get(devnet.restPort, "/cosmos/auth/v1beta1/accounts/" + stranger);
        assertEquals(404, missing.statusCode());
        assertEquals("{\"code\":5,\"message\":\"account " + stranger + " not found\",\"details\":[]}", missing.body());
    }

    @Test
    @DisplayName(
            "GET /cosmos/tx/v1beta1/txs?query= is GetTxsEvent: {txs, tx_responses, pagination null, total}, the txs tx_search finds, paged")
    void txSearch() {
        long h = 0;
        for (long at = 2; at <= 60 && h == 0; at++) if (chain.txCount(at) >= 4) h = at;
        String query = "tx.height=" + h;
        JsonObject rpc = devnet.rpc("/tx_search?query=" + enc("\"" + query + "\"") + "&per_page=100");
        List<String> hashes = new ArrayList<>();
        for (Object o : rpc.getJsonObject("result").getJsonArray("txs")) hashes.add(((JsonObject) o).getString("hash"));
        JsonObject all = devnet.rest("/cosmos/tx/v1beta1/txs?query=" + enc(query));
        assertEquals(List.of("txs", "tx_responses", "pagination", "total"), new ArrayList<>(all.fieldNames()));
        assertEquals(null, all.getValue("pagination"));
        assertEquals(Integer.toString(hashes.size()), all.getString("total"));
        List<String> viaRest = new ArrayList<>();
        for (Object o : all.getJsonArray("tx_responses")) viaRest.add(((JsonObject) o).getString("txhash"));
        assertEquals(hashes, viaRest);
        JsonObject byHash = devnet.rest("/cosmos/tx/v1beta1/txs/" + hashes.get(1));
        assertEquals(byHash.getJsonObject("tx"), all.getJsonArray("txs").getJsonObject(1));
        assertEquals(
                byHash.getJsonObject("tx_response"),
                all.getJsonArray("tx_responses").getJsonObject(1));
        // page 2 of size 2, newest first; the pre-0.50 events= form
        JsonObject page =
                devnet.rest("/cosmos/tx/v1beta1/txs?query=" + enc(query) + "&page=2&limit=2&order_by=ORDER_BY_DESC");
        List<String> reversed = new ArrayList<>(hashes);
        java.util.Collections.reverse(reversed);
        assertEquals(
                reversed.subList(2, 4),
                List.of(
                        page.getJsonArray("tx_responses").getJsonObject(0).getString("txhash"),
                        page.getJsonArray("tx_responses").getJsonObject(1).getString("txhash")));
        assertEquals(all.getString("total"), page.getString("total"));
        assertEquals(
                all.getString("total"),
                devnet.rest("/cosmos/tx/v1beta1/txs?events=" + enc(query)).getString("total"));
        HttpResponse<String> empty = devnet.get(devnet.restPort, "/cosmos/tx/v1beta1/txs");
        assertEquals(400, empty.statusCode());
        assertEquals("{\"code\":3,\"message\":\"query cannot be empty\",\"details\":[]}", empty.body());
    }

    @Test
    @DisplayName(
            "a plain SDK chain (devnet.chain_kind=plain) registers x/staking: the proposer's validator there, opchild routes 501")
    void plainChain() {
        String valoper = Bech32.encode("initvaloper", chain.proposer(5).address());
        assertEquals(
                NOT_IMPLEMENTED,
                devnet.get(devnet.restPort, "/cosmos/staking/v1beta1/validators/" + valoper)
                        .body());
        DevnetHarness plain =
                DevnetHarness.start(weft, DevnetHarness.history(20).set("devnet.chain_kind", "plain"));
        for (String path : List.of("/opinit/opchild/v1/validator/" + valoper, "/opinit/opchild/v1/validators")) {
            HttpResponse<String> r = plain.get(plain.restPort, path);
            assertEquals(501, r.statusCode(), path);
            assertEquals(NOT_IMPLEMENTED, r.body(), path);
        }
        String proposer = plain.rpc("/block?height=5")
                .getJsonObject("result")
                .getJsonObject("block")
                .getJsonObject("header")
                .getString("proposer_address");
        assertEquals(valoper, Bech32.encode("initvaloper", Hex.decode(proposer)));
        JsonObject v =
                plain.rest("/cosmos/staking/v1beta1/validators/" + valoper).getJsonObject("validator");
        assertEquals(
                List.of(
                        "operator_address",
                        "consensus_pubkey",
                        "jailed",
                        "status",
                        "tokens",
                        "delegator_shares",
                        "description",
                        "unbonding_height",
                        "unbonding_time",
                        "commission",
                        "min_self_delegation",
                        "unbonding_on_hold_ref_count",
                        "unbonding_ids"),
                new ArrayList<>(v.fieldNames()));
        assertEquals(valoper, v.getString("operator_address"));
        assertEquals("BOND_STATUS_BONDED", v.getString("status"));
        assertEquals("weft-devnet-sequencer", v.getJsonObject("description").getString("moniker"));
        assertEquals(
                new JsonObject()
                        .put("@type", "/cosmos.crypto.ed25519.PubKey")
                        .put("key", chain.proposer(5).pubKeyBase64()),
                v.getJsonObject("consensus_pubkey"));
        assertEquals(
                v,
                plain.rest("/cosmos/staking/v1beta1/validators")
                        .getJsonArray("validators")
                        .getJsonObject(0));
        assertEquals(
                404,
                plain.get(
                                plain.restPort,
                                "/cosmos/staking/v1beta1/validators/" + Bech32.encode("initvaloper", new byte[20]))
                        .statusCode());
    }
}
