package dev.weft.route;

import static dev.weft.route.RouteFixtures.USDC_INITIA;
import static dev.weft.route.RouteFixtures.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.bus.BusError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Route errors: exact HTTP status, gRPC code, message and details. */
class RouteErrorsTest {
    private final RouteService s = RouteFixtures.service();

    private JsonObject error(JsonObject body) {
        BusError e = assertThrows(BusError.class, () -> s.route(body));
        BusError api = e;
        return api.toJson().put("http", api.httpStatus());
    }

    private static JsonObject expected(int http, int code, String message) {
        return new JsonObject()
                .put("code", code)
                .put("message", message)
                .put("details", new JsonArray())
                .put("http", http);
    }

    @Test
    @DisplayName("unknown chain or asset: 404 code 5")
    void unknown() {
        assertEquals(
                expected(404, 5, "source chain nowhere-1 is not supported"),
                error(request("1", "nowhere-1", "uinit", "interwoven-1", "uinit")));
        assertEquals(
                expected(404, 5, "destination asset ufoo is not supported on interwoven-1"),
                error(request("1", "noble-1", "uusdc", "interwoven-1", "ufoo")));
    }

    @Test
    @DisplayName("no route: 404 code 5 (disjoint registries; an asset no edge reaches)")
    void noRoute() {
        assertEquals(
                expected(404, 5, "no route found from weft-l1-1 uinit to interwoven-1 uinit"),
                error(request("1000", "weft-l1-1", "uinit", "interwoven-1", "uinit")));
        assertEquals(
                expected(
                        404,
                        5,
                        "no route found from noble-1 uusdc to zaar-mainnet-1 evm/7Fb2A94A13186E3C338f0DA9728B4835D86b1a7B"),
                error(request(
                        "1000", "noble-1", "uusdc", "zaar-mainnet-1", "evm/7Fb2A94A13186E3C338f0DA9728B4835D86b1a7B")));
    }

    @Test
    @DisplayName("amount_in not a positive integer: 400 code 3")
    void amount() {
        for (Object bad : new Object[] {"1.5", "0", "-1", "abc", "", 1.5, "1".repeat(79)}) {
            JsonObject body = request("1", "noble-1", "uusdc", "interwoven-1", USDC_INITIA)
                    .put("amount_in", bad);
            assertEquals(
                    expected(
                            400,
                            3,
                            "amount_in must be a positive integer in base units (got "
                                    + (bad instanceof String ? "\"" + bad + "\"" : bad) + ")"),
                    error(body),
                    String.valueOf(bad));
        }
        // a long value is quoted cut, with its length
        assertEquals(
                expected(
                        400,
                        3,
                        "amount_in must be a positive integer in base units (got \"" + "1".repeat(100)
                                + "…\" (200000 characters))"),
                error(request("1", "noble-1", "uusdc", "interwoven-1", USDC_INITIA)
                        .put("amount_in", "1".repeat(200_000))));
        JsonObject none = request("1", "noble-1", "uusdc", "interwoven-1", USDC_INITIA);
        none.remove("amount_in");
        assertEquals(expected(400, 3, "amount_in is required"), error(none));
        assertEquals(
                expected(400, 3, "amount_out must be a positive integer in base units (got \"0\")"),
                error(none.copy().put("amount_out", "0")));
        assertEquals(
                expected(400, 3, "allow_unsafe must be a boolean"),
                error(request("1", "noble-1", "uusdc", "interwoven-1", USDC_INITIA)
                        .put("allow_unsafe", "yes")));
        assertEquals(
                expected(400, 3, "dest_asset_denom must be a non-empty string"),
                error(request("1", "noble-1", "uusdc", "interwoven-1", USDC_INITIA)
                        .put("dest_asset_denom", 5)));
    }

    @Test
    @DisplayName(
            "cumulative_affiliate_fee_bps out of 0–9999: 400 code 3 (AffiliateFeesTest covers the fees themselves)")
    void affiliateFees() {
        JsonObject req = request("1000000", "noble-1", "uusdc", "interwoven-1", USDC_INITIA);
        assertEquals(
                expected(
                        400,
                        3,
                        "cumulative_affiliate_fee_bps must be an integer from 0 to 9999 basis points (got \"10000\")"),
                error(req.copy().put("cumulative_affiliate_fee_bps", "10000")));
        s.route(req.copy().put("cumulative_affiliate_fee_bps", "75"));
        s.route(req.copy().put("cumulative_affiliate_fee_bps", "0"));
        s.route(req.copy().put("cumulative_affiliate_fee_bps", 0));
    }

    @Test
    @DisplayName("is_op_withdraw on a route that cannot OP-withdraw: 400 code 3")
    void cannotOpWithdraw() {
        assertEquals(
                expected(
                        400,
                        3,
                        "route does not support OP withdraw: no route from noble-1 uusdc to interwoven-1 " + USDC_INITIA
                                + " withdraws through an OPinit bridge"),
                error(request("1000", "noble-1", "uusdc", "interwoven-1", USDC_INITIA)
                        .put("is_op_withdraw", true)));
    }

    @Test
    @DisplayName("allow_unsafe=false above 5% impact: 400 code 3 with a BAD_PRICE_ERROR ErrorInfo detail")
    void badPrice() {
        JsonObject detail = new JsonObject()
                .put("@type", "type.googleapis.com/google.rpc.ErrorInfo")
                .put("reason", "BAD_PRICE_ERROR")
                .put("domain", "weft")
                .put("metadata", new JsonObject().put("price_impact_percent", "7.6647"));
        JsonObject e = error(request("400000000000", "interwoven-1", USDC_INITIA, "interwoven-1", "uinit")
                .put("allow_unsafe", false));
        assertEquals(
                new JsonObject()
                        .put("code", 3)
                        .put("message", "swap price impact of 7.6647% is above 5% and allow_unsafe is false")
                        .put("details", new JsonArray().add(detail))
                        .put("http", 400),
                e);
        // below the threshold the same request passes
        s.route(request("1000000", "interwoven-1", USDC_INITIA, "interwoven-1", "uinit")
                .put("allow_unsafe", false));
    }

    @Test
    @DisplayName("the same asset on both sides: 400")
    void sameAsset() {
        assertEquals(
                expected(400, 3, "the source and destination assets are the same"),
                error(request("1", "interwoven-1", "uinit", "interwoven-1", "uinit")));
    }
}
