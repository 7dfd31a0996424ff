package dev.weft.route;

import static dev.weft.route.RouteFixtures.INIT_ADDR;
import static dev.weft.route.RouteFixtures.INIT_DEVNET;
import static dev.weft.route.RouteFixtures.INIT_DEVNET_ON_L1;
import static dev.weft.route.RouteFixtures.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.BusError;
import dev.weft.route.graph.RouteCost;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Weft's {@code /v2/fungible/routes}: the k best routes (the first is {@code /route}'s), none better than it under the
 * cost model, each accepted by {@code /msgs} as it is, and the paths not offered with their binding reasons.
 */
class RoutesTest {
    private final RouteService s = RouteFixtures.service();

    private static BigInteger value(JsonObject route) {
        return RouteCost.DEFAULT.value(
                new BigInteger(route.getString("amount_out")),
                route.getInteger("txs_required"),
                false,
                route.getInteger("estimated_route_duration_seconds"));
    }

    /** Every offered route through /msgs with an init address per chain (the devnet's Cosmos chains). */
    private void throughMsgs(JsonObject req, JsonArray routes) {
        for (Object o : routes) {
            JsonObject r = ((JsonObject) o).getJsonObject("route");
            JsonArray addresses = new JsonArray();
            for (Object c : r.getJsonArray("required_chain_addresses")) addresses.add(INIT_ADDR);
            JsonObject msgs = s.msgs(req.copy()
                    .put("amount_out", r.getString("amount_out"))
                    .put("address_list", addresses)
                    .put("operations", r.getJsonArray("operations")));
            assertEquals(r.getInteger("txs_required"), msgs.getJsonArray("txs").size(), r.encode());
        }
    }

    @Test
    @DisplayName(
            "5 INIT weft-devnet-1 → weft-l1-1: BEST is /route's; none offered beats it under the model; each goes through /msgs; the withdrawal is rejected with its reason")
    void fastAndAlternatives() {
        JsonObject req = request("5000000", "weft-devnet-1", INIT_DEVNET, "weft-l1-1", "uinit");
        JsonObject answer = s.routes(req.copy().put("limit", 10));
        JsonArray routes = answer.getJsonArray("routes");
        assertFalse(routes.isEmpty());
        JsonObject first = routes.getJsonObject(0);
        assertTrue(first.getJsonArray("tags").contains("BEST"), first.encode());
        assertEquals(s.route(req), first.getJsonObject("route"));
        Set<JsonArray> distinct = new HashSet<>();
        for (Object o : routes) {
            JsonObject r = ((JsonObject) o).getJsonObject("route");
            assertTrue(value(r).compareTo(value(first.getJsonObject("route"))) <= 0, r.encode());
            assertTrue(distinct.add(r.getJsonArray("operations")), "distinct: " + r.encode());
        }
        throughMsgs(req, routes);
        JsonArray rejected = answer.getJsonArray("rejected");
        assertTrue(
                rejected.stream()
                        .map(o -> (JsonObject) o)
                        .anyMatch(r -> r.getString("reason").equals("OP_WITHDRAW_AVOIDED")
                                && r.getJsonArray("operations").equals(new JsonArray().add("op_init_transfer"))),
                rejected.encode());
    }

    @Test
    @DisplayName(
            "the voucher without swaps: no route (the only path visits weft-l1-1 twice): 404 as /route; with swaps the swap, the detour rejected CHAIN_VISITED_TWICE")
    void chainTwiceIsRejected() {
        JsonObject req = request("1000000", "weft-l1-1", INIT_DEVNET_ON_L1, "weft-l1-1", "uinit");
        JsonObject answer = s.routes(req);
        JsonArray routes = answer.getJsonArray("routes");
        assertEquals(
                new JsonArray().add("BEST").add("MOST_OUTPUT").add("FEWEST_TXS").add("FASTEST"),
                routes.getJsonObject(0).getJsonArray("tags"));
        assertTrue(
                answer.getJsonArray("rejected").stream()
                        .map(o -> (JsonObject) o)
                        .anyMatch(r -> r.getString("reason").equals("CHAIN_VISITED_TWICE")
                                && r.getString("message").equals("visits weft-l1-1 twice")
                                && r.getJsonArray("chain_ids")
                                        .equals(new JsonArray(List.of("weft-l1-1", "weft-devnet-1", "weft-l1-1")))),
                answer.encode());
        throughMsgs(req, routes);
        BusError none = assertThrows(BusError.class, () -> s.routes(req.copy().put("allow_swaps", false)));
        assertEquals(404, none.httpStatus());
    }

    @Test
    @DisplayName("limit: default 3, 1 gives only BEST (with every tag it holds), outside 1–10 a 400")
    void limit() {
        JsonObject req = request("5000000", "weft-devnet-1", INIT_DEVNET, "weft-l1-1", "uinit");
        assertTrue(s.routes(req).getJsonArray("routes").size() <= 3);
        JsonArray one = s.routes(req.copy().put("limit", 1)).getJsonArray("routes");
        assertEquals(1, one.size());
        assertTrue(one.getJsonObject(0).getJsonArray("tags").contains("BEST"));
        for (Object bad : List.of(0, 11, "3", 2.5)) {
            BusError e = assertThrows(BusError.class, () -> s.routes(req.copy().put("limit", bad)));
            assertEquals(400, e.httpStatus(), String.valueOf(bad));
            assertTrue(e.getMessage().startsWith("limit must be an integer from 1 to 10"), e.getMessage());
        }
    }

    @Test
    @DisplayName("restrictions name their reason: bridges IBC leaves the OP deposit out (EXCLUDED_BY_BRIDGES)")
    void restrictionReasons() {
        JsonObject req = request("1000000", "weft-l1-1", "uinit", "weft-devnet-1", INIT_DEVNET)
                .put("bridges", new JsonArray().add("IBC"));
        JsonObject answer = s.routes(req);
        assertTrue(
                answer.getJsonArray("rejected").stream()
                        .map(o -> (JsonObject) o)
                        .anyMatch(r -> r.getString("reason").equals("EXCLUDED_BY_BRIDGES")
                                && r.getJsonArray("operations").equals(new JsonArray().add("op_init_transfer"))),
                answer.encode());
        throughMsgs(req, answer.getJsonArray("routes"));
    }
}
