package dev.weft.route;

import static dev.weft.route.RouteFixtures.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.config.ConfigException;
import dev.weft.config.ConfigSource;
import dev.weft.config.RouteConfig;
import dev.weft.config.RouteGasConfig;
import dev.weft.route.graph.Edge;
import dev.weft.route.graph.RouteCost;
import dev.weft.route.graph.TxPlan;
import dev.weft.route.registry.RegistryLoader;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The per-tx message plan, the GAS estimates and the cost model's gas term, over the shipped registries. */
class GasQuoteTest {
    private final RouteService s = RouteFixtures.service();

    @Test
    @DisplayName("PFM over two hops is one tx of one MsgTransfer: 135,000 gas, limit 202,500, × noble's 0.1 uusdc")
    void pfmIsOneTransfer() {
        ComputedRoute r = s.compute(
                RouteRequest.parse(request("1000000", "noble-1", "uusdc", "echelon-1", RouteFixtures.USDC_ECHELON)));
        List<TxPlan.Tx> txs = TxPlan.of(s.graph(), r.path().edges());
        assertEquals(List.of(new TxPlan.Tx(0, "noble-1", 0, List.of(TxPlan.Kind.TRANSFER))), txs);
        JsonObject gas = r.json().getJsonArray("estimated_fees").getJsonObject(0);
        assertEquals("GAS", gas.getString("fee_type"));
        assertEquals("135000", gas.getString("estimated_gas"));
        assertEquals("202500", gas.getString("gas_limit"));
        assertEquals("20250", gas.getString("amount"));
    }

    @Test
    @DisplayName("the cost model subtracts the gas term from the amount out before the weight (floored at 0)")
    void gasTermInTheValue() {
        RouteCost cost = new RouteCost(10, 1).withGas((g, edges, hops) -> BigInteger.valueOf(100));
        assertEquals(
                BigInteger.valueOf(900L * 600_000),
                cost.value(s.graph(), new Edge[0], 0, BigInteger.valueOf(1000), 1, false, 0));
        assertEquals(BigInteger.ZERO, cost.value(s.graph(), new Edge[0], 0, BigInteger.valueOf(50), 1, false, 0));
        // without a term (no price) the value is the amount's
        assertEquals(
                BigInteger.valueOf(1000L * 600_000),
                new RouteCost(10, 1).value(s.graph(), new Edge[0], 0, BigInteger.valueOf(1000), 1, false, 0));
    }

    @Test
    @DisplayName("the gas term of a priced route: its txs' fees in USD over the destination's price, rounded up")
    void termInDestinationUnits() {
        ComputedRoute r = s.compute(
                RouteRequest.parse(request("1000000", "noble-1", "uusdc", "echelon-1", RouteFixtures.USDC_ECHELON)));
        RouteCost.GasTerm term = s.gas().term(r.dest(), false);
        Edge[] edges = r.path().edges().toArray(new Edge[0]);
        // 20,250 uusdc of gas on noble, delivered as USDC on echelon at the same price
        assertEquals(BigInteger.valueOf(20_250), term.inDestUnits(s.graph(), edges, edges.length));
        assertTrue(new BigInteger(r.json().getString("amount_out")).signum() > 0);
    }

    @Test
    @DisplayName("route.gas.* keys are validated, naming the key")
    void config() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> RouteGasConfig.from(ConfigSource.fileOnly(new JsonObject()
                        .put("route", new JsonObject().put("gas", new JsonObject().put("multiplier", 0.5))))));
        assertTrue(e.getMessage().contains("route.gas.multiplier"), e.getMessage());
        assertThrows(
                ConfigException.class,
                () -> RouteGasConfig.from(ConfigSource.fileOnly(new JsonObject()
                        .put("route", new JsonObject().put("gas", new JsonObject().put("simulate_timeout", "1h"))))));
        RouteGasConfig d = RouteGasConfig.from(ConfigSource.fileOnly(new JsonObject()));
        assertEquals(427_500, d.limit(285_000));
    }

    /** A service over the shipped registries whose configuration has these {@code route.gas.chains} entries. */
    private static RouteService withGasChains(JsonObject chains) {
        JsonObject json = new JsonObject()
                .put(
                        "route",
                        new JsonObject()
                                .put("registries", new io.vertx.core.json.JsonArray(RouteConfig.DEFAULT_REGISTRIES))
                                .put("gas", new JsonObject().put("chains", chains)));
        RouteConfig config = RouteConfig.from(ConfigSource.fileOnly(json));
        return RouteService.withMarket(
                RegistryLoader.load(config.registries(), config.finalizationPeriods()),
                config,
                Clock.fixed(RouteFixtures.NOW, ZoneOffset.UTC),
                RouteFixtures.market());
    }

    private static JsonObject gasOf(ComputedRoute r) {
        for (Object o : r.json().getJsonArray("estimated_fees")) {
            JsonObject f = (JsonObject) o;
            if ("GAS".equals(f.getString("fee_type"))) return f;
        }
        return null;
    }

    @Test
    @DisplayName(
            "route.gas.chains.<id>.* overrides: noble-1 quotes its own transfer estimate and gas price, echelon-1 keeps the defaults, 31337's LayerZero send gets an entry at its configured price")
    void perChainOverrides() {
        RouteService o = withGasChains(new JsonObject()
                .put("noble-1", new JsonObject().put("transfer", 100_000).put("gas_price", "0.2"))
                .put("31337", new JsonObject().put("layer_zero", 120_000).put("gas_price", 2_000_000_000L)));
        JsonObject noble = gasOf(o.compute(
                RouteRequest.parse(request("1000000", "noble-1", "uusdc", "echelon-1", RouteFixtures.USDC_ECHELON))));
        assertEquals("140000", noble.getString("estimated_gas"));
        assertEquals("210000", noble.getString("gas_limit"));
        assertEquals("0.2", noble.getString("gas_price"));
        assertEquals("42000", noble.getString("amount"));
        // the other direction is signed on echelon-1: no entry of its own, the shared estimates
        JsonObject echelon = gasOf(o.compute(
                RouteRequest.parse(request("1000000", "echelon-1", RouteFixtures.USDC_ECHELON, "noble-1", "uusdc"))));
        JsonObject echelonDefault = gasOf(s.compute(
                RouteRequest.parse(request("1000000", "echelon-1", RouteFixtures.USDC_ECHELON, "noble-1", "uusdc"))));
        assertEquals("echelon-1", echelon.getString("chain_id"));
        assertEquals("135000", echelon.getString("estimated_gas"));
        assertEquals(echelonDefault, echelon);

        JsonObject lz = gasOf(o.compute(RouteRequest.parse(
                request("5000000", "31337", RouteFixtures.USDC_EXT, "weft-devnet-1", RouteFixtures.USDC_LZ_DEVNET))));
        assertEquals("31337", lz.getString("chain_id"));
        assertEquals(0, lz.getInteger("tx_index"));
        assertEquals("weft-ext-evm-native", lz.getJsonObject("origin_asset").getString("denom"));
        assertEquals("120000", lz.getString("estimated_gas"));
        assertEquals("180000", lz.getString("gas_limit"));
        assertEquals("2000000000", lz.getString("gas_price"));
        // an EVM tx pays the gas it uses (the unused limit is refunded): estimate × price
        assertEquals("240000000000000", lz.getString("amount"));
        assertEquals("ESTIMATE", lz.getString("gas_source"));
        // without a price (none in the registry, none configured, no JSON-RPC read) the EVM tx has no entry
        assertEquals(
                null,
                gasOf(s.compute(RouteRequest.parse(request(
                        "5000000", "31337", RouteFixtures.USDC_EXT, "weft-devnet-1", RouteFixtures.USDC_LZ_DEVNET)))));
    }

    @Test
    @DisplayName("route.gas.chains.<id>.* keys are validated, naming the key")
    void perChainConfig() {
        ConfigException price = assertThrows(
                ConfigException.class,
                () -> withGasChains(new JsonObject().put("noble-1", new JsonObject().put("gas_price", "cheap"))));
        assertTrue(price.getMessage().contains("route.gas.chains.noble-1.gas_price"), price.getMessage());
        ConfigException negative = assertThrows(
                ConfigException.class,
                () -> withGasChains(new JsonObject().put("noble-1", new JsonObject().put("gas_price", "-1"))));
        assertTrue(negative.getMessage().contains("route.gas.chains.noble-1.gas_price"), negative.getMessage());
        ConfigException transfer = assertThrows(
                ConfigException.class,
                () -> withGasChains(new JsonObject().put("noble-1", new JsonObject().put("transfer", -5))));
        assertTrue(transfer.getMessage().contains("route.gas.chains.noble-1.transfer"), transfer.getMessage());
        ConfigException url = assertThrows(
                ConfigException.class,
                () -> withGasChains(new JsonObject()
                        .put(
                                "31337",
                                new JsonObject().put("json_rpc", new io.vertx.core.json.JsonArray().add("ftp://x")))));
        assertTrue(url.getMessage().contains("route.gas.chains.31337.json_rpc"), url.getMessage());
        ConfigException notObject =
                assertThrows(ConfigException.class, () -> withGasChains(new JsonObject().put("noble-1", 5)));
        assertTrue(notObject.getMessage().contains("route.gas.chains.noble-1"), notObject.getMessage());
    }
}
