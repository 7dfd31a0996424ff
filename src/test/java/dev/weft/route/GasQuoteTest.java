package dev.weft.route;

import static dev.weft.route.RouteFixtures.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.config.ConfigException;
import dev.weft.config.ConfigSource;
import dev.weft.config.RouteGasConfig;
import dev.weft.route.graph.Edge;
import dev.weft.route.graph.RouteCost;
import dev.weft.route.graph.TxPlan;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
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
}
