package dev.weft.track;

import static dev.weft.testsupport.DevnetAccounts.ALICE;
import static dev.weft.testsupport.DevnetAccounts.BOB;
import static dev.weft.testsupport.DevnetAccounts.CAROL;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code /v2/watch} and {@code /v2/tx/by_address} on an API node: shapes, bad input, the bounds. */
class WatchApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1";
    final LocalHttp http = new LocalHttp();

    int api(int perClient, int total) {
        WeftNode node = weft.start(weft.config()
                .roles("api")
                .set("route.registries", new JsonArray().add("conf/registry/devnet.json"))
                .set("track.watch.max_per_client", perClient)
                .set("track.watch.max_total", total));
        return TestNodes.httpPort(node);
    }

    HttpResponse<String> post(int api, String body) {
        return http.post(api, "/v2/watch", body);
    }

    HttpResponse<String> watch(int api, String chain, String address) {
        return post(
                api,
                new JsonObject().put("chain_id", chain).put("address", address).encode());
    }

    static void assertError(int status, int code, String message, HttpResponse<String> r) {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals(
                new JsonObject().put("code", code).put("message", message).put("details", new JsonArray()),
                new JsonObject(r.body()));
    }

    @Test
    @DisplayName(
            "POST, GET (one or the client's list) and DELETE /v2/watch; bech32 and 0x name one watch; bad input is a JSON 4xx")
    void shapesAndBadInput() {
        int api = api(10, 100);
        HttpResponse<String> created = watch(api, L1, ALICE);
        assertEquals(201, created.statusCode(), created.body());
        JsonObject w = new JsonObject(created.body());
        String hex = AccountAddress.of(Bech32.decode(ALICE).data()).hex();
        assertEquals(
                w,
                new JsonObject(
                        watch(api, L1, hex.toUpperCase().replace("0X", "0x")).body()));
        assertEquals(200, watch(api, L1, hex).statusCode());
        assertEquals(
                w,
                new JsonObject(http.get(api, "/v2/watch?chain_id=" + L1 + "&address=" + hex)
                        .body()));
        assertEquals(201, watch(api, L1, BOB).statusCode());
        JsonArray list = new JsonObject(http.get(api, "/v2/watch").body()).getJsonArray("watches");
        assertEquals(2, list.size());
        assertEquals(w, list.getJsonObject(0));
        assertEquals(BOB, list.getJsonObject(1).getString("address"));

        assertError(404, 5, "chain ID not supported", watch(api, "nope-1", ALICE));
        // an EVM chain: a 0x address of 20 bytes, shown checksummed; 32 bytes or bech32 are no EVM account
        HttpResponse<String> evm = watch(api, "31337", "0x" + "ab".repeat(20));
        assertEquals(201, evm.statusCode(), evm.body());
        String evmShown =
                AccountAddress.of(dev.weft.chain.Hex.decode("ab".repeat(20))).checksumHex();
        assertEquals(evmShown, new JsonObject(evm.body()).getString("address"));
        assertEquals("31337", new JsonObject(evm.body()).getString("chain_id"));
        assertEquals(
                204,
                http.delete(api, "/v2/watch?chain_id=31337&address=" + evmShown).statusCode());
        assertError(
                400,
                3,
                "invalid address 0x" + "ab".repeat(32) + ": expected a 0x address of 20 bytes",
                watch(api, "31337", "0x" + "ab".repeat(32)));
        assertError(
                400, 3, "invalid address " + ALICE + ": expected a 0x address of 20 bytes", watch(api, "31337", ALICE));
        assertError(
                400,
                3,
                "invalid address init1xyz: expected bech32 with prefix init or hex of 20 or 32 bytes",
                watch(api, L1, "init1xyz"));
        String cosmos = Bech32.encode("cosmos", Bech32.decode(ALICE).data());
        assertError(
                400,
                3,
                "invalid address " + cosmos + ": expected bech32 with prefix init or hex of 20 or 32 bytes",
                watch(api, L1, cosmos));
        assertError(400, 3, "address is required", post(api, "{\"chain_id\":\"" + L1 + "\"}"));
        assertError(400, 3, "address must be a string", post(api, "{\"chain_id\":\"" + L1 + "\",\"address\":5}"));
        assertError(
                400,
                3,
                "unknown field memo",
                post(api, "{\"chain_id\":\"" + L1 + "\",\"address\":\"" + ALICE + "\",\"memo\":1}"));
        assertError(400, 3, "address is required", http.get(api, "/v2/watch?chain_id=" + L1));
        assertError(400, 3, "unknown parameter x", http.get(api, "/v2/watch?x=1"));
        assertError(404, 5, "address not watched", http.get(api, "/v2/watch?chain_id=" + L1 + "&address=" + CAROL));

        String base = "/v2/tx/by_address?chain_id=" + L1 + "&address=" + ALICE;
        assertEquals(
                new JsonObject().put("txs", new JsonArray()).putNull("next"),
                new JsonObject(http.get(api, base).body()));
        assertError(400, 3, "limit must be an integer from 1 to 100", http.get(api, base + "&limit=0"));
        assertError(400, 3, "limit must be an integer from 1 to 100", http.get(api, base + "&limit=x"));
        assertError(
                400,
                3,
                "invalid cursor: pass the next of a previous page as it is",
                http.get(api, base + "&cursor=abc"));
        assertError(400, 3, "address is required", http.get(api, "/v2/tx/by_address?chain_id=" + L1));

        assertEquals(
                204,
                http.delete(api, "/v2/watch?chain_id=" + L1 + "&address=" + hex).statusCode());
        assertError(404, 5, "address not watched", http.delete(api, "/v2/watch?chain_id=" + L1 + "&address=" + ALICE));
        assertEquals(
                1,
                new JsonObject(http.get(api, "/v2/watch").body())
                        .getJsonArray("watches")
                        .size());
    }

    @Test
    @DisplayName("track.watch.max_per_client and track.watch.max_total: 429 for a new watch beyond, 200 for one held")
    void bounds() {
        int perClient = api(2, 100);
        assertEquals(201, watch(perClient, L1, ALICE).statusCode());
        assertEquals(201, watch(perClient, L1, BOB).statusCode());
        assertError(429, 8, "too many watched addresses for this client: at most 2", watch(perClient, L1, CAROL));
        assertEquals(200, watch(perClient, L1, ALICE).statusCode(), "a watch held is still answered");
        assertEquals(
                204,
                http.delete(perClient, "/v2/watch?chain_id=" + L1 + "&address=" + BOB)
                        .statusCode());
        assertEquals(201, watch(perClient, L1, CAROL).statusCode(), "room again after a delete");
    }

    @Test
    @DisplayName("track.watch.max_total caps the watches of all clients together")
    void total() {
        int api = api(10, 1);
        assertEquals(201, watch(api, L1, ALICE).statusCode());
        assertError(429, 8, "watch capacity reached: 1 addresses are watched; retry later", watch(api, L1, BOB));
    }
}
