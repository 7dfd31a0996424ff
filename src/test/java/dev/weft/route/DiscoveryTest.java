package dev.weft.route;

import static dev.weft.route.RouteFixtures.INIT_DEVNET;
import static dev.weft.route.RouteFixtures.INIT_IBC_ROLLUP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.BusError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Skip's discovery endpoints over the shipped registries: their shapes, and every pair they list has a route. */
class DiscoveryTest {
    private final RouteService s = RouteFixtures.service();

    private JsonObject route(String amount, JsonObject from, JsonObject to) {
        return s.route(RouteFixtures.request(
                amount,
                from.getString("chain_id"),
                from.getString("denom"),
                to.getString("chain_id"),
                to.getString("denom")));
    }

    private static JsonObject source(String chain, String denom) {
        return new JsonObject().put("source_asset_chain_id", chain).put("source_asset_denom", denom);
    }

    private static List<String> denoms(JsonObject destAssets, String chain) {
        List<String> out = new ArrayList<>();
        for (Object o : destAssets.getJsonObject(chain).getJsonArray("assets"))
            out.add(((JsonObject) o).getString("denom"));
        return out;
    }

    @Test
    @DisplayName(
            "assets_from_source uinit on weft-l1-1, single tx without swaps: the OP and IBC forms on both rollups, each with a /route of its txs")
    void fromSource() {
        JsonObject answer = Discovery.assetsFromSource(s, source("weft-l1-1", "uinit"));
        JsonObject dest = answer.getJsonObject("dest_assets");
        assertEquals(List.of("weft-devnet-1", "weft-move-1"), new ArrayList<>(dest.fieldNames()), answer.encode());
        assertTrue(denoms(dest, "weft-devnet-1").containsAll(List.of(INIT_DEVNET, INIT_IBC_ROLLUP)), answer.encode());
        JsonObject first =
                dest.getJsonObject("weft-devnet-1").getJsonArray("assets").getJsonObject(0);
        // Skip's Asset
        assertEquals(
                new java.util.TreeSet<>(List.of(
                        "denom",
                        "chain_id",
                        "origin_denom",
                        "origin_chain_id",
                        "trace",
                        "is_cw20",
                        "is_evm",
                        "is_svm",
                        "symbol",
                        "name",
                        "logo_uri",
                        "decimals",
                        "token_contract",
                        "description",
                        "coingecko_id",
                        "recommended_symbol")),
                new java.util.TreeSet<>(first.fieldNames()));
        JsonObject from = new JsonObject().put("chain_id", "weft-l1-1").put("denom", "uinit");
        for (String chain : dest.fieldNames()) {
            for (Object o : dest.getJsonObject(chain).getJsonArray("assets")) {
                JsonObject r = route("1000000", from, (JsonObject) o);
                assertEquals(1, r.getInteger("txs_required"), r.encode());
                assertFalse(r.getBoolean("does_swap"), r.encode());
            }
        }
    }

    @Test
    @DisplayName(
            "assets_from_source with allow_multi_tx and include_swaps: more assets (uusdc on the L1 by the swap), each with a /route for 1 and for 1000 units")
    void fromSourceWithSwaps() {
        JsonObject dest = Discovery.assetsFromSource(
                        s,
                        source("weft-l1-1", "uinit").put("allow_multi_tx", true).put("include_swaps", true))
                .getJsonObject("dest_assets");
        assertTrue(denoms(dest, "weft-l1-1").contains("uusdc"), dest.encode());
        JsonObject from = new JsonObject().put("chain_id", "weft-l1-1").put("denom", "uinit");
        int pairs = 0;
        for (String chain : dest.fieldNames()) {
            for (Object o : dest.getJsonObject(chain).getJsonArray("assets")) {
                for (String amount : new String[] {"1000000", "1000000000"}) {
                    JsonObject r = route(amount, from, (JsonObject) o);
                    assertEquals(((JsonObject) o).getString("denom"), r.getString("dest_asset_denom"));
                }
                pairs++;
            }
        }
        assertTrue(pairs >= 10, "pairs: " + pairs);
    }

    @Test
    @DisplayName(
            "assets_between_chains weft-l1-1 → weft-devnet-1: uinit by OPINIT and by IBC, one tx each, and /route agrees on txs and bridges")
    void betweenChains() {
        JsonArray list = Discovery.assetsBetweenChains(
                        s, new JsonObject().put("source_chain_id", "weft-l1-1").put("dest_chain_id", "weft-devnet-1"))
                .getJsonArray("assets_between_chains");
        JsonObject op = null;
        for (Object o : list) {
            JsonObject e = (JsonObject) o;
            assertEquals(
                    List.of("asset_on_source", "asset_on_dest", "txs_required", "bridges"),
                    new ArrayList<>(e.fieldNames()));
            JsonObject r = route("1000000", e.getJsonObject("asset_on_source"), e.getJsonObject("asset_on_dest"));
            assertEquals(e.getInteger("txs_required"), r.getInteger("txs_required"), r.encode());
            assertEquals(
                    e.getJsonObject("asset_on_source").getString("origin_denom"),
                    e.getJsonObject("asset_on_dest").getString("origin_denom"));
            if (e.getJsonObject("asset_on_source").getString("denom").equals("uinit")
                    && e.getJsonObject("asset_on_dest").getString("denom").equals(INIT_DEVNET)) op = e;
        }
        assertTrue(op != null, list.encode());
        assertEquals(1, op.getInteger("txs_required"));
        assertEquals(new JsonArray().add("OPINIT"), op.getJsonArray("bridges"));
    }

    @Test
    @DisplayName(
            "recommend_assets: DIRECT for uinit on weft-devnet-1, BASE_TOKEN back on its origin, an error entry for a reason that does not hold")
    void recommend() {
        JsonArray requests = new JsonArray()
                .add(source("weft-l1-1", "uinit").put("dest_chain_id", "weft-devnet-1"))
                .add(source("weft-devnet-1", INIT_DEVNET).put("dest_chain_id", "weft-l1-1"))
                .add(source("weft-l1-1", "uinit")
                        .put("dest_chain_id", "weft-devnet-1")
                        .put("reason", "BASE_TOKEN"));
        JsonArray entries = Discovery.recommendAssets(s, new JsonObject().put("requests", requests))
                .getJsonArray("recommendation_entries");
        assertEquals(3, entries.size());
        JsonObject direct =
                entries.getJsonObject(0).getJsonArray("recommendations").getJsonObject(0);
        assertEquals("DIRECT", direct.getString("reason"));
        assertEquals(INIT_DEVNET, direct.getJsonObject("asset").getString("denom"));
        assertEquals(null, entries.getJsonObject(0).getValue("error"));
        JsonObject base =
                entries.getJsonObject(1).getJsonArray("recommendations").getJsonObject(0);
        assertEquals("BASE_TOKEN", base.getString("reason"));
        assertEquals("uinit", base.getJsonObject("asset").getString("denom"));
        assertEquals(
                new JsonObject()
                        .put("recommendations", new JsonArray())
                        .put("error", new JsonObject().put("message", "no recommendation found")),
                entries.getJsonObject(2));
        route(
                "1000000",
                new JsonObject().put("chain_id", "weft-l1-1").put("denom", "uinit"),
                direct.getJsonObject("asset"));
    }

    @Test
    @DisplayName(
            "ibc_origin_assets: the OP-bridged INIT's origin is uinit on weft-l1-1; an unknown denom is asset null, asset_found false")
    void origins() {
        JsonArray assets = new JsonArray()
                .add(new JsonObject().put("chain_id", "weft-devnet-1").put("denom", INIT_DEVNET))
                .add(new JsonObject().put("chain_id", "weft-l1-1").put("denom", "nope"));
        JsonArray out = Discovery.ibcOriginAssets(s, new JsonObject().put("assets", assets))
                .getJsonArray("origin_assets");
        assertEquals(true, out.getJsonObject(0).getBoolean("asset_found"));
        assertEquals("uinit", out.getJsonObject(0).getJsonObject("asset").getString("denom"));
        assertEquals("weft-l1-1", out.getJsonObject(0).getJsonObject("asset").getString("chain_id"));
        assertEquals(new JsonObject().putNull("asset").put("asset_found", false), out.getJsonObject(1));
    }

    @Test
    @DisplayName("bad input: missing fields and wrong types are 400s, unknown chains 404, too many entries 400")
    void errors() {
        assertEquals(
                400,
                assertThrows(BusError.class, () -> Discovery.assetsFromSource(s, new JsonObject()))
                        .httpStatus());
        assertEquals(
                400,
                assertThrows(
                                BusError.class,
                                () -> Discovery.assetsFromSource(
                                        s, source("weft-l1-1", "uinit").put("allow_multi_tx", "yes")))
                        .httpStatus());
        assertEquals(
                404,
                assertThrows(BusError.class, () -> Discovery.assetsFromSource(s, source("nope-1", "uinit")))
                        .httpStatus());
        assertEquals(
                400,
                assertThrows(BusError.class, () -> Discovery.recommendAssets(s, new JsonObject().put("requests", "x")))
                        .httpStatus());
        JsonArray many = new JsonArray();
        for (int i = 0; i <= Discovery.MAX_ENTRIES; i++)
            many.add(new JsonObject().put("chain_id", "weft-l1-1").put("denom", "uinit"));
        assertEquals(
                400,
                assertThrows(BusError.class, () -> Discovery.ibcOriginAssets(s, new JsonObject().put("assets", many)))
                        .httpStatus());
    }
}
