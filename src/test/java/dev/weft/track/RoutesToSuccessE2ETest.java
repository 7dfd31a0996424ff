package dev.weft.track;

import static dev.weft.testsupport.DevnetAccounts.ALICE;
import static dev.weft.testsupport.DevnetAccounts.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.route.RouteFixtures;
import dev.weft.route.registry.Denoms;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 55's check: every route {@code /v2/fungible/routes} offers goes through {@code /v2/fungible/msgs} unchanged,
 * and two of them (one-tx routes) are signed, broadcast and tracked to {@code STATE_COMPLETED_SUCCESS}.
 */
class RoutesToSuccessE2ETest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1", EVM = "weft-devnet-1";
    static TrackingHarness h;

    @BeforeAll
    static void start() {
        h = TrackingHarness.start(weft, TrackingHarness.config());
    }

    /** A request, the signer on its source chain and the account used on every other chain. */
    record Pair(JsonObject request, String sender, String receiver) {}

    static JsonObject request(String amount, String srcChain, String srcDenom, String dstChain, String dstDenom) {
        return new JsonObject()
                .put("amount_in", amount)
                .put("source_asset_chain_id", srcChain)
                .put("source_asset_denom", srcDenom)
                .put("dest_asset_chain_id", dstChain)
                .put("dest_asset_denom", dstDenom);
    }

    @Test
    @DisplayName("every /routes route goes through /msgs; two one-tx routes are broadcast and tracked to success")
    void everyRouteThroughMsgs() {
        List<Pair> pairs = List.of(
                new Pair(request("1000000", L1, "uinit", EVM, RouteFixtures.INIT_DEVNET), ALICE, BOB),
                new Pair(request("1000000", EVM, Denoms.ibc("transfer/channel-0/uusdc"), L1, "uinit"), BOB, ALICE),
                new Pair(request("1000000", L1, "uinit", L1, "uusdc"), ALICE, ALICE));
        List<JsonObject[]> oneTx = new ArrayList<>();
        int offered = 0;
        for (Pair p : pairs) {
            var r = h.post(h.api, "/v2/fungible/routes", p.request().copy().put("limit", 10));
            assertEquals(200, r.statusCode(), r.body());
            for (Object o : new JsonObject(r.body()).getJsonArray("routes")) {
                JsonObject route = ((JsonObject) o).getJsonObject("route");
                JsonArray addresses = new JsonArray();
                JsonArray chains = route.getJsonArray("required_chain_addresses");
                for (int i = 0; i < chains.size(); i++) addresses.add(i == 0 ? p.sender() : p.receiver());
                var m = h.post(
                        h.api,
                        "/v2/fungible/msgs",
                        p.request()
                                .copy()
                                .put("address_list", addresses)
                                .put("operations", route.getJsonArray("operations")));
                assertEquals(200, m.statusCode(), route.encode() + " → " + m.body());
                JsonObject msgs = new JsonObject(m.body());
                assertEquals(
                        route.getInteger("txs_required"),
                        msgs.getJsonArray("txs").size(),
                        msgs.encode());
                offered++;
                if (route.getInteger("txs_required") == 1) oneTx.add(new JsonObject[] {route, msgs});
            }
        }
        assertTrue(offered >= 3, offered + " routes offered");
        assertTrue(oneTx.size() >= 2, oneTx.size() + " one-tx routes");
        for (JsonObject[] rm : oneTx.subList(0, 2)) {
            JsonObject cosmos = rm[1].getJsonArray("txs").getJsonObject(0).getJsonObject("cosmos_tx");
            String chain = cosmos.getString("chain_id");
            String feeDenom = cosmos.getJsonObject("fee")
                    .getJsonArray("amount")
                    .getJsonObject(0)
                    .getString("denom");
            JsonObject commit = h.broadcast(rm[1], feeDenom);
            String hash = commit.getString("hash");
            assertEquals(200, h.track(hash, chain).statusCode());
            h.awaitState(hash, chain, "STATE_COMPLETED_SUCCESS");
        }
    }
}
