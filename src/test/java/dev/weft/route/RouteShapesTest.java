package dev.weft.route;

import static dev.weft.route.ExpectedJson.assertExact;
import static dev.weft.route.RouteFixtures.INIT_DEVNET;
import static dev.weft.route.RouteFixtures.INIT_DEVNET_ON_L1;
import static dev.weft.route.RouteFixtures.INIT_ECHELON;
import static dev.weft.route.RouteFixtures.INIT_IBC_ROLLUP;
import static dev.weft.route.RouteFixtures.USDC_ECHELON;
import static dev.weft.route.RouteFixtures.USDC_INITIA;
import static dev.weft.route.RouteFixtures.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Route responses with exact JSON for each kind of route, over the shipped registries. */
class RouteShapesTest {
    private final RouteService s = RouteFixtures.service();

    private static List<String> keys(JsonArray ops) {
        return ops.stream()
                .map(o -> ((JsonObject) o).fieldNames().iterator().next())
                .toList();
    }

    private static List<Integer> txIndexes(JsonArray ops) {
        return ops.stream().map(o -> ((JsonObject) o).getInteger("tx_index")).toList();
    }

    @Test
    @DisplayName("direct IBC transfer: noble-1 uusdc → USDC on interwoven-1 over channel-129, one op, 30 s")
    void directIbc() {
        JsonObject r = s.route(request("1000000", "noble-1", "uusdc", "interwoven-1", USDC_INITIA));
        assertExact("route-direct-ibc", r);
    }

    @Test
    @DisplayName(
            "two-hop PFM route: noble-1 → interwoven-1 → echelon-1 in one tx (Initia forwards), USDC lands as ibc/AA4E…")
    void pfmTwoHops() {
        JsonObject r = s.route(request("1000000", "noble-1", "uusdc", "echelon-1", USDC_ECHELON));
        assertExact("route-pfm-two-hops", r);
        assertEquals(List.of(0, 0), txIndexes(r.getJsonArray("operations")));
    }

    @Test
    @DisplayName("OP deposit: INIT on interwoven-1 → l2/23c8… on echelon-1 through bridge 16")
    void opDeposit() {
        assertExact(
                "route-op-deposit", s.route(request("2500000", "interwoven-1", "uinit", "echelon-1", INIT_ECHELON)));
    }

    @Test
    @DisplayName(
            "OP withdrawal with the 7-day notice; without is_op_withdraw it is the same route (nothing else arrives)")
    void opWithdrawal() {
        JsonObject forced = request("2500000", "echelon-1", INIT_ECHELON, "interwoven-1", "uinit")
                .put("is_op_withdraw", true);
        assertExact("route-op-withdrawal", s.route(forced));
        assertExact(
                "route-op-withdrawal", s.route(request("2500000", "echelon-1", INIT_ECHELON, "interwoven-1", "uinit")));
    }

    @Test
    @DisplayName(
            "swap + transfer: 400k USDC → INIT on InitiaDEX then IBC to echelon-1 in one tx, 7.6647% impact, BAD_PRICE_WARNING, swap fee")
    void swapAndTransfer() {
        JsonObject r = s.route(request("400000000000", "interwoven-1", USDC_INITIA, "echelon-1", INIT_IBC_ROLLUP));
        assertExact("route-swap-transfer", r);
        JsonObject small = s.route(request("1000000", "interwoven-1", USDC_INITIA, "echelon-1", INIT_IBC_ROLLUP));
        assertNull(small.getValue("warning"));
        assertEquals("0.3001", small.getString("swap_price_impact_percent")); // (1 − 1993999/2000000)·100 = 0.30005
        assertEquals("1993999", small.getString("amount_out")); // floor(1e13·997000/(5e12+997000))
    }

    @Test
    @DisplayName(
            "answers share the registry's assets and venues, built once, unchangeable, and encoded to the same bytes")
    void sharedRegistryParts() {
        JsonObject a = s.route(request("1000000", "interwoven-1", USDC_INITIA, "echelon-1", INIT_IBC_ROLLUP));
        JsonObject b = s.route(request("2000000", "interwoven-1", USDC_INITIA, "echelon-1", INIT_IBC_ROLLUP));
        JsonObject feeAsset = a.getJsonArray("estimated_fees").getJsonObject(0).getJsonObject("origin_asset");
        assertSame(
                feeAsset.getMap(),
                b.getJsonArray("estimated_fees")
                        .getJsonObject(0)
                        .getJsonObject("origin_asset")
                        .getMap());
        assertSame(
                a.getJsonObject("swap_venue").getMap(),
                b.getJsonObject("swap_venue").getMap());
        assertSame(
                a.getJsonObject("swap_venue").getMap(),
                a.getJsonArray("swap_venues").getJsonObject(0).getMap());
        assertThrows(UnsupportedOperationException.class, () -> feeAsset.put("symbol", "changed"));
        assertThrows(
                UnsupportedOperationException.class,
                () -> a.getJsonObject("swap_venue").remove("logo_uri"));
        assertEquals("USDC", feeAsset.getString("symbol"));
        assertEquals(a.toBuffer(), dev.weft.runtime.JsonBytes.encode(a));
        JsonObject lz = s.route(
                request("5000000", "31337", RouteFixtures.USDC_EXT, "weft-devnet-1", RouteFixtures.USDC_LZ_DEVNET));
        assertEquals(lz.toBuffer(), dev.weft.runtime.JsonBytes.encode(lz));
    }

    @Test
    @DisplayName("LayerZero lane: USDC on 31337 → the OFT USDC on weft-devnet-1, messaging fee charged in addition")
    void layerZero() {
        assertExact(
                "route-layer-zero",
                s.route(request(
                        "5000000", "31337", RouteFixtures.USDC_EXT, "weft-devnet-1", RouteFixtures.USDC_LZ_DEVNET)));
    }

    @Test
    @DisplayName("OP deposit into the 18-decimal wrapped INIT: amount scaled by 10^12, required_op_hook true")
    void opHookDeposit() {
        assertExact(
                "route-op-hook-deposit",
                s.route(request("5000000", "weft-l1-1", "uinit", "weft-devnet-1", RouteFixtures.WINIT_DEVNET)));
    }

    @Test
    @DisplayName(
            "devnet → move for an L1-native asset: two IBC hops through weft-l1-1 in one tx (PFM), no direct rollup channel")
    void rollupToRollup() {
        JsonObject r = s.route(request("5000000", "weft-devnet-1", INIT_IBC_ROLLUP, "weft-move-1", INIT_IBC_ROLLUP));
        JsonArray ops = r.getJsonArray("operations");
        assertEquals(List.of("transfer", "transfer"), keys(ops));
        assertEquals(List.of(0, 0), txIndexes(ops));
        assertEquals("uinit", ops.getJsonObject(0).getJsonObject("transfer").getString("denom_out"));
        assertEquals("channel-1", ops.getJsonObject(1).getJsonObject("transfer").getString("channel"));
        assertEquals(
                new JsonArray(List.of("weft-devnet-1", "weft-l1-1", "weft-move-1")),
                r.getJsonArray("required_chain_addresses"));
        assertEquals(60, r.getInteger("estimated_route_duration_seconds"));
    }

    @Test
    @DisplayName(
            "fast vs lossless on the devnet: by default IBC + stableswap on arrival (1 tx through the L1's ibc-hooks, less out), is_op_withdraw the OP withdrawal (1 minute)")
    void fastVersusLossless() {
        JsonObject fast = s.route(request("5000000", "weft-devnet-1", INIT_DEVNET, "weft-l1-1", "uinit"));
        assertEquals(List.of("transfer", "swap"), keys(fast.getJsonArray("operations")));
        assertEquals(List.of(0, 0), txIndexes(fast.getJsonArray("operations")));
        assertEquals(1, fast.getInteger("txs_required"));
        assertEquals(
                "0x5c1f",
                fast.getJsonArray("operations")
                        .getJsonObject(0)
                        .getJsonObject("transfer")
                        .getString("to_chain_entry_contract_address"));
        assertEquals("4994999", fast.getString("amount_out"));
        assertEquals(
                INIT_DEVNET_ON_L1,
                fast.getJsonArray("operations")
                        .getJsonObject(0)
                        .getJsonObject("transfer")
                        .getString("denom_out"));
        assertEquals("0.1", fast.getString("swap_price_impact_percent"));

        JsonObject lossless = s.route(request("5000000", "weft-devnet-1", INIT_DEVNET, "weft-l1-1", "uinit")
                .put("is_op_withdraw", true));
        assertEquals(List.of("op_init_transfer"), keys(lossless.getJsonArray("operations")));
        assertEquals("5000000", lossless.getString("amount_out"));
        assertEquals(60, lossless.getInteger("estimated_route_duration_seconds"));
        assertEquals(
                new JsonArray()
                        .add(
                                "Withdrawals from weft-devnet-1 through OPinit bridge 1 are claimable on weft-l1-1 after ~1 minute"
                                        + " (the bridge's finalization period) and must be claimed there."),
                lossless.getJsonArray("extra_warnings"));
    }

    @Test
    @DisplayName("OP withdrawal then IBC is two txs: the second starts on the L1 once the withdrawal is claimed")
    void withdrawalThenIbc() {
        String initOnOsmosis = dev.weft.route.registry.Denoms.ibc("transfer/channel-102129/uinit");
        JsonObject r = s.route(request("2500000", "echelon-1", INIT_ECHELON, "osmosis-1", initOnOsmosis));
        JsonArray ops = r.getJsonArray("operations");
        assertEquals(List.of("op_init_transfer", "transfer"), keys(ops));
        assertEquals(List.of(0, 1), txIndexes(ops));
        assertEquals(2, r.getInteger("txs_required"));
        assertEquals(604830, r.getInteger("estimated_route_duration_seconds"));
        assertEquals(new JsonArray(List.of("echelon-1", "interwoven-1", "osmosis-1")), r.getJsonArray("chain_ids"));
        assertEquals(
                "channel-71", ops.getJsonObject(1).getJsonObject("transfer").getString("channel"));
    }

    @Test
    @DisplayName(
            "an EVM-signed source (the ERC-20 of l2/ USDC on weft-devnet-1) routes like its denom and echoes the request")
    void erc20Source() {
        JsonObject r =
                s.route(request("1000000", "weft-devnet-1", RouteFixtures.USDC_DEVNET_ERC20, "weft-l1-1", "uusdc"));
        assertEquals(RouteFixtures.USDC_DEVNET_ERC20, r.getString("source_asset_denom"));
        JsonObject op = r.getJsonArray("operations").getJsonObject(0).getJsonObject("op_init_transfer");
        assertEquals(RouteFixtures.USDC_DEVNET, op.getString("denom_in"));
        assertEquals("uusdc", op.getString("denom_out"));
    }

    @Test
    @DisplayName("go_fast is accepted and changes nothing (no fast-bridge lane is modelled)")
    void goFast() {
        JsonObject plain = s.route(request("1000000", "noble-1", "uusdc", "echelon-1", USDC_ECHELON));
        JsonObject fast = s.route(request("1000000", "noble-1", "uusdc", "echelon-1", USDC_ECHELON)
                .put("go_fast", true));
        assertExact(plain, fast);
    }
}
