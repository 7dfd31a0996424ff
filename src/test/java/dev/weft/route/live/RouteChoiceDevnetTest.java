package dev.weft.route.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.chain.Hex;
import dev.weft.node.WeftNode;
import dev.weft.route.RouteFixtures;
import dev.weft.route.registry.Denoms;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 55 on the devnet: with default options, 1,000,000 uinit → uusdc on weft-l1-1 is the one-tx swap on the L1's
 * InitiaDEX (the chain's own simulation of it to the unit), not the OPinit deposit, IBC back and swap of the voucher
 * that visits the L1 twice. History mode: no block moves the pools between the quote and the simulation.
 */
class RouteChoiceDevnetTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final LocalHttp http = new LocalHttp();
    static Vertx vertx;
    static WeftNode node;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        node = weft.start(weft.config()
                .roles("devnet", "route")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", 10)
                .set("route.registries", new JsonArray().add("conf/registry/devnet.json"))
                .set("route.pool_refresh", "200ms"));
    }

    @Test
    void sameChainSwapIsTheOneTxSwap() {
        JsonObject req = RouteFixtures.request("1000000", "weft-l1-1", "uinit", "weft-l1-1", "uusdc");
        JsonObject r = Await.value(
                "a swap quote on the devnet's pools",
                30,
                () -> TestNodes.await(vertx.eventBus().<JsonObject>request(Addresses.ROUTE_COMPUTE, req))
                        .body());
        List<String> ops = new ArrayList<>();
        for (Object o : r.getJsonArray("operations"))
            ops.add(((JsonObject) o).fieldNames().iterator().next());
        assertEquals(List.of("swap"), ops);
        assertEquals(1, r.getInteger("txs_required"));
        assertEquals(new JsonArray().add("weft-l1-1"), r.getJsonArray("chain_ids"));
        JsonObject op = r.getJsonArray("operations")
                .getJsonObject(0)
                .getJsonObject("swap")
                .getJsonObject("swap_in")
                .getJsonArray("swap_operations")
                .getJsonObject(0);
        assertEquals("uinit", op.getString("denom_in"));
        assertEquals("uusdc", op.getString("denom_out"));
        assertEquals(simulated(op.getString("pool"), "uinit", "uusdc", "1000000"), r.getString("amount_out"));
        // the detour exists on the devnet (a pool of the rollup's INIT voucher): /routes names why it is not
        // taken
        JsonArray rejected = bus(Addresses.ROUTE_ROUTES, req).getJsonArray("rejected");
        org.junit.jupiter.api.Assertions.assertTrue(
                rejected.stream()
                        .map(o -> (JsonObject) o)
                        .anyMatch(x -> x.getString("reason").equals("CHAIN_VISITED_TWICE")
                                && x.getJsonArray("operations")
                                        .equals(new JsonArray(List.of("op_init_transfer", "transfer", "swap")))),
                rejected.encode());
    }

    static JsonObject bus(String address, JsonObject body) {
        return TestNodes.await(vertx.eventBus().<JsonObject>request(address, body))
                .body();
    }

    @Test
    void exactOutIsTheSmallestInputTheChainAgrees() {
        // weighted INIT/USDC both ways, and the INIT/ibc-INIT stableswap pool
        String[][] pairs = {
            {"uinit", "uusdc", "498499"},
            {"uusdc", "uinit", "1234567"},
            {"uinit", RouteFixtures.INIT_DEVNET_ON_L1, "777777"}
        };
        for (String[] p : pairs) {
            JsonObject req = RouteFixtures.request("1", "weft-l1-1", p[0], "weft-l1-1", p[1]);
            req.remove("amount_in");
            req.put("amount_out", p[2]);
            JsonObject r = Await.value(
                    "an exact-out quote " + p[0] + " → " + p[1], 30, () -> bus(Addresses.ROUTE_COMPUTE, req));
            JsonObject op = r.getJsonArray("operations")
                    .getJsonObject(0)
                    .getJsonObject("swap")
                    .getJsonObject("swap_in")
                    .getJsonArray("swap_operations")
                    .getJsonObject(0);
            BigInteger in = new BigInteger(r.getString("amount_in"));
            BigInteger target = new BigInteger(p[2]);
            String what = p[0] + " → " + p[1] + " " + r.encode();
            BigInteger atIn = new BigInteger(simulated(op.getString("pool"), p[0], p[1], in.toString()));
            BigInteger below = new BigInteger(simulated(
                    op.getString("pool"),
                    p[0],
                    p[1],
                    in.subtract(BigInteger.ONE).toString()));
            assertTrue(atIn.compareTo(target) >= 0, what);
            assertTrue(below.compareTo(target) < 0, what);
            assertEquals(atIn.toString(), r.getString("amount_out"), what);
            // /msgs builds it: the route's amounts and operations, as @skip-go/client sends them
            JsonObject msgs = bus(
                    Addresses.ROUTE_MSGS,
                    new JsonObject()
                            .put("amount_in", r.getString("amount_in"))
                            .put("amount_out", r.getString("amount_out"))
                            .put("source_asset_chain_id", "weft-l1-1")
                            .put("source_asset_denom", p[0])
                            .put("dest_asset_chain_id", "weft-l1-1")
                            .put("dest_asset_denom", p[1])
                            .put("address_list", new JsonArray().add(RouteFixtures.INIT_ADDR))
                            .put("operations", r.getJsonArray("operations"))
                            .put("slippage_tolerance_percent", "1"));
            assertEquals(1, msgs.getJsonArray("txs").size(), what);
        }
    }

    /** The L1's own {@code get_swap_simulation} of a pool (dex, else stableswap). */
    static String simulated(String pool, String denomIn, String denomOut, String amount) {
        String offer = Json.encode("0x" + Hex.lower(Denoms.moveMetadata(denomIn)));
        String ret = Json.encode("0x" + Hex.lower(Denoms.moveMetadata(denomOut)));
        JsonObject req = new JsonObject()
                .put("address", "0x1")
                .put("module_name", "dex")
                .put("function_name", "get_swap_simulation")
                .put("type_args", new JsonArray())
                .put(
                        "args",
                        new JsonArray()
                                .add(Json.encode("0x" + pool.substring(5)))
                                .add(offer)
                                .add(Json.encode(amount)));
        int port = dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .chain("weft-l1-1")
                .orElseThrow()
                .restPort();
        var res = http.post(port, "/initia/move/v1/view/json", req.encode());
        if (res.statusCode() != 200) {
            req.put("module_name", "stableswap")
                    .put(
                            "args",
                            new JsonArray()
                                    .add(Json.encode("0x" + pool.substring(5)))
                                    .add(offer)
                                    .add(ret)
                                    .add(Json.encode(amount)));
            res = http.post(port, "/initia/move/v1/view/json", req.encode());
        }
        assertEquals(200, res.statusCode(), res.body());
        return (String) Json.decodeValue(new JsonObject(res.body()).getString("data"));
    }
}
