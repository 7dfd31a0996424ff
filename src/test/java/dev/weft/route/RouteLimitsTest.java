package dev.weft.route;

import static dev.weft.route.RouteFixtures.INIT_ADDR;
import static dev.weft.route.RouteFixtures.INIT_DEVNET;
import static dev.weft.route.RouteFixtures.INIT_DEVNET_ON_L1;
import static dev.weft.route.RouteFixtures.USDC_ECHELON;
import static dev.weft.route.RouteFixtures.USDC_INITIA;
import static dev.weft.route.RouteFixtures.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.bus.BusError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Skip's route restrictions ({@code bridges}, {@code allow_multi_tx}, {@code allow_swaps}, {@code swap_venues}): the
 * best route within them, Skip's "no single-tx routes found" error, 400 on malformed values, and {@code /msgs} for a
 * restricted route (whose request does not repeat the restrictions).
 */
class RouteLimitsTest {
    private final RouteService s = RouteFixtures.service();

    /** Each operation as "variant@tx_index", then amount_out. */
    private static List<String> shape(JsonObject route) {
        List<String> out = new java.util.ArrayList<>();
        for (Object o : route.getJsonArray("operations")) {
            JsonObject op = (JsonObject) o;
            out.add(op.fieldNames().iterator().next() + "@" + op.getValue("tx_index"));
        }
        out.add(route.getString("amount_out"));
        return out;
    }

    private JsonObject error(JsonObject body) {
        BusError e = assertThrows(BusError.class, () -> s.route(body));
        return e.toJson().put("http", e.httpStatus());
    }

    private static JsonObject expected(int http, int code, String message) {
        return new JsonObject()
                .put("code", code)
                .put("message", message)
                .put("details", new JsonArray())
                .put("http", http);
    }

    @Test
    @DisplayName(
            "bridges: only the named bridges (swaps are no bridge); unmodelled bridge types are accepted and find nothing")
    void bridges() {
        JsonObject req = request("1000000", "weft-l1-1", "uinit", "weft-devnet-1", INIT_DEVNET);
        assertEquals(List.of("op_init_transfer@0", "1000000"), shape(s.route(req)));
        assertEquals(
                List.of("op_init_transfer@0", "1000000"),
                shape(s.route(req.copy().put("bridges", new JsonArray()))));
        assertEquals(
                List.of("op_init_transfer@0", "1000000"),
                shape(s.route(
                        req.copy().put("bridges", new JsonArray().add("OPINIT").add("CCTP")))));
        assertEquals(
                List.of("swap@0", "transfer@0", "998999"),
                shape(s.route(req.copy().put("bridges", new JsonArray().add("IBC")))));
        assertEquals(
                expected(404, 5, "no route found from weft-l1-1 uinit to weft-devnet-1 " + INIT_DEVNET),
                error(req.copy()
                        .put("bridges", new JsonArray().add("LAYER_ZERO").add("GO_FAST"))));
        assertEquals(
                expected(404, 5, "no route found from noble-1 uusdc to echelon-1 " + USDC_ECHELON),
                error(request("1000000", "noble-1", "uusdc", "echelon-1", USDC_ECHELON)
                        .put("bridges", new JsonArray().add("OPINIT"))));
    }

    @Test
    @DisplayName("allow_multi_tx false: the best single-tx route, else 404 code 5 \"no single-tx routes found …\"")
    void singleTx() {
        JsonObject req = request("1000000", "weft-l1-1", "uinit", "weft-devnet-1", INIT_DEVNET);
        assertEquals(List.of("op_init_transfer@0", "1000000"), shape(s.route(req)));
        assertEquals(
                List.of("op_init_transfer@0", "1000000"),
                shape(s.route(req.copy().put("allow_multi_tx", false))));
        JsonObject twoTxs = request("1000000", "noble-1", "uusdc", "interwoven-1", "uinit");
        assertEquals(2, s.route(twoTxs).getInteger("txs_required"));
        assertEquals(
                expected(
                        404,
                        5,
                        "no single-tx routes found from noble-1 uusdc to interwoven-1 uinit (the route takes 2 txs): set allow_multi_tx to true"),
                error(twoTxs.copy().put("allow_multi_tx", false)));
    }

    @Test
    @DisplayName("allow_swaps false and swap_venues: swaps only where allowed")
    void swaps() {
        JsonObject req = request("1000000", "weft-l1-1", INIT_DEVNET_ON_L1, "weft-l1-1", "uinit");
        assertEquals(List.of("swap@0", "998999"), shape(s.route(req)));
        // without a swap the voucher reaches uinit only through the rollup and back, a chain visited twice: no route
        assertEquals(
                expected(404, 5, "no route found from weft-l1-1 " + INIT_DEVNET_ON_L1 + " to weft-l1-1 uinit"),
                error(req.copy().put("allow_swaps", false)));
        String venue = s.route(req).getJsonArray("swap_venues").getJsonObject(0).getString("name");
        assertEquals(
                List.of("swap@0", "998999"),
                shape(s.route(req.copy()
                        .put(
                                "swap_venues",
                                new JsonArray()
                                        .add(new JsonObject().put("name", venue).put("chain_id", "weft-l1-1"))))));
        assertEquals(
                List.of("swap@0", "998999"),
                shape(s.route(req.copy()
                        .put("swap_venues", new JsonArray().add(new JsonObject().put("name", venue))))));
        assertEquals(
                expected(404, 5, "no route found from weft-l1-1 " + INIT_DEVNET_ON_L1 + " to weft-l1-1 uinit"),
                error(req.copy()
                        .put(
                                "swap_venues",
                                new JsonArray()
                                        .add(new JsonObject().put("name", venue).put("chain_id", "interwoven-1")))));
        assertEquals(
                expected(404, 5, "no route found from interwoven-1 " + USDC_INITIA + " to interwoven-1 uinit"),
                error(request("1000000", "interwoven-1", USDC_INITIA, "interwoven-1", "uinit")
                        .put("allow_swaps", false)));
    }

    @Test
    @DisplayName("malformed restrictions: 400 code 3")
    void malformed() {
        JsonObject req = request("1000000", "weft-l1-1", "uinit", "weft-devnet-1", INIT_DEVNET);
        assertEquals(
                expected(400, 3, "bridges must be an array of bridge types"),
                error(req.copy().put("bridges", "IBC")));
        assertEquals(
                expected(
                        400,
                        3,
                        "bridges[1] must be one of IBC, AXELAR, CCTP, HYPERLANE, OPINIT, GO_FAST, STARGATE, LAYER_ZERO, EUREKA (got \"ibc\")"),
                error(req.copy().put("bridges", new JsonArray().add("IBC").add("ibc"))));
        assertEquals(
                expected(400, 3, "allow_multi_tx must be a boolean"),
                error(req.copy().put("allow_multi_tx", "false")));
        assertEquals(
                expected(400, 3, "allow_swaps must be a boolean"),
                error(req.copy().put("allow_swaps", 0)));
        assertEquals(
                expected(400, 3, "swap_venues must be an array of {name, chain_id}"),
                error(req.copy().put("swap_venues", "initia-dex")));
        assertEquals(
                expected(400, 3, "swap_venues[0].name must be a non-empty string"),
                error(req.copy()
                        .put("swap_venues", new JsonArray().add(new JsonObject().put("chain_id", "weft-l1-1")))));
    }

    @Test
    @DisplayName("/msgs of a restricted route, the restrictions not repeated: the txs of that route")
    void msgsOfRestrictedRoute() {
        JsonObject req = request("1000000", "weft-l1-1", "uinit", "weft-devnet-1", INIT_DEVNET);
        JsonObject route = s.route(req.copy().put("bridges", new JsonArray().add("IBC")));
        JsonObject msgs = s.msgs(req.copy()
                .put("amount_out", route.getString("amount_out"))
                .put("operations", route.getJsonArray("operations"))
                .put("address_list", new JsonArray().add(INIT_ADDR).add(INIT_ADDR)));
        JsonArray txs = msgs.getJsonArray("txs");
        assertEquals(1, txs.size());
        assertEquals(new JsonArray().add(0).add(1), txs.getJsonObject(0).getJsonArray("operations_indices"));
        JsonArray cosmosMsgs = txs.getJsonObject(0).getJsonObject("cosmos_tx").getJsonArray("msgs");
        assertEquals(
                List.of("/initia.move.v1.MsgExecute", "/ibc.applications.transfer.v1.MsgTransfer"),
                cosmosMsgs.stream()
                        .map(m -> ((JsonObject) m).getString("msg_type_url"))
                        .toList());
        // operations no restricted route has are still refused
        JsonArray forged = route.getJsonArray("operations").copy();
        forged.getJsonObject(1).getJsonObject("transfer").put("channel", "channel-99");
        BusError e = assertThrows(
                BusError.class,
                () -> s.msgs(req.copy()
                        .put("operations", forged)
                        .put("address_list", new JsonArray().add(INIT_ADDR).add(INIT_ADDR))));
        assertEquals(400, e.httpStatus());
        assertEquals(
                "operations do not match the route for this request: operations has 2 entries, the route has 1",
                e.getMessage());
    }
}
