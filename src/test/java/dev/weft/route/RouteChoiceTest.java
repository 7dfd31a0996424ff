package dev.weft.route;

import static dev.weft.route.RouteFixtures.INIT_DEVNET;
import static dev.weft.route.RouteFixtures.INIT_IBC_ROLLUP;
import static dev.weft.route.RouteFixtures.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.BusError;
import dev.weft.config.ConfigSource;
import dev.weft.config.RouteConfig;
import dev.weft.route.graph.Edge;
import dev.weft.route.graph.RouteCost;
import dev.weft.route.graph.RouteLimits;
import dev.weft.route.graph.RouteSearch;
import dev.weft.route.registry.Asset;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Route choice under the cost model ({@link RouteCost}, docs/routing-api.md "The cost model"): the worked cases of the
 * docs with their numbers, the configured penalties changing the choice, and a seeded property test over random asset
 * pairs and amounts that no chosen route visits a chain twice.
 */
class RouteChoiceTest {
    private final RouteService s = RouteFixtures.service();

    private static List<String> keys(JsonArray ops) {
        List<String> out = new ArrayList<>();
        for (Object o : ops) out.add(((JsonObject) o).fieldNames().iterator().next());
        return out;
    }

    @Test
    @DisplayName(
            "the model's numbers: weights in 1/600 000, a penalty per extra tx (an OP withdrawal's claim is one) and per minute, floored at 0")
    void weights() {
        RouteCost c = RouteCost.DEFAULT;
        assertEquals(new RouteCost(10, 1), c);
        assertEquals(600_000, c.weight(1, false, 0));
        // two txs, 90 s: 10 bps + 1.5 bps
        assertEquals(600_000 - 600 - 90, c.weight(2, false, 90));
        // a withdrawal is one tx to send and one to claim
        assertEquals(600_000 - 600 - 60, c.weight(1, true, 60));
        // seven days of finalization is more than the whole amount: weight 0
        assertEquals(0, c.weight(1, true, 7 * 24 * 3600));
        assertEquals(BigInteger.valueOf(498_499L * 600_000), c.value(BigInteger.valueOf(498_499), 1, false, 0));
    }

    @Test
    @DisplayName(
            "worked case 1, the same-chain swap: uinit → uusdc on weft-l1-1 is the one-tx swap, not the deposit, IBC back and swap of the voucher")
    void sameChainSwap() {
        JsonObject r = s.route(request("1000000", "weft-l1-1", "uinit", "weft-l1-1", "uusdc"));
        assertEquals(List.of("swap"), keys(r.getJsonArray("operations")));
        assertEquals(1, r.getInteger("txs_required"));
        assertEquals(new JsonArray().add("weft-l1-1"), r.getJsonArray("chain_ids"));
        assertEquals("498499", r.getString("amount_out"));
        // had the detour (498,624 in 2 txs, ~90 s) been allowed, the model would still not choose it
        RouteCost c = RouteCost.DEFAULT;
        assertTrue(c.value(BigInteger.valueOf(498_624), 2, false, 90)
                        .compareTo(c.value(BigInteger.valueOf(498_499), 1, false, 0))
                < 0);
        // and no candidate the search weighs comes back to the L1
        Asset from = s.registry().resolve("weft-l1-1", "uinit");
        Asset to = s.registry().resolve("weft-l1-1", "uusdc");
        for (RouteSearch.Candidate cand :
                RouteSearch.candidates(s.graph(), from, to, BigInteger.valueOf(1_000_000), 6, RouteLimits.NONE, c)) {
            assertTrue(
                    cand.edges().stream().allMatch(Edge::isSwap), cand.edges().toString());
        }
    }

    @Test
    @DisplayName(
            "worked case 2, fast against lossless exit from weft-devnet-1: the fast one (a withdrawal only when nothing else arrives); is_op_withdraw the lossless one")
    void fastAgainstLossless() {
        JsonObject req = request("5000000", "weft-devnet-1", INIT_DEVNET, "weft-l1-1", "uinit");
        JsonObject fast = s.route(req);
        assertEquals(List.of("transfer", "swap"), keys(fast.getJsonArray("operations")));
        assertEquals("4994999", fast.getString("amount_out"));
        RouteCost c = RouteCost.DEFAULT;
        // 4,994,999 × 599,970 = 2,996,849,550,030; the withdrawal weighed would be 5,000,000 × 599,340
        assertEquals(new BigInteger("2996849550030"), c.value(BigInteger.valueOf(4_994_999), 1, false, 30));
        assertEquals(new BigInteger("2996700000000"), c.value(BigInteger.valueOf(5_000_000), 1, true, 60));
        // even where the withdrawal would be worth more (1,000 units: the swap's rounding loses 20 bps; no penalties)
        JsonObject small = withCost(0, 0).route(request("1000", "weft-devnet-1", INIT_DEVNET, "weft-l1-1", "uinit"));
        assertEquals(List.of("transfer", "swap"), keys(small.getJsonArray("operations")));
        JsonObject lossless = s.route(req.copy().put("is_op_withdraw", true));
        assertEquals(List.of("op_init_transfer"), keys(lossless.getJsonArray("operations")));
        assertEquals("5000000", lossless.getString("amount_out"));
    }

    @Test
    @DisplayName(
            "the penalties are configuration: the issue's two candidates (498,624 in 2 txs and 90 s, 498,499 in 1 tx) by default the one-tx one, with route.cost.* 0 the larger amount; the tie-break is deterministic")
    void penaltiesChangeTheChoice() {
        RouteCost def = RouteCost.DEFAULT;
        RouteCost none = withCost(0, 0).cost();
        assertEquals(new RouteCost(0, 0), none);
        assertEquals(new RouteCost(10, 1), s.cost());
        for (RouteCost c : List.of(def, none)) {
            RouteSearch.Candidate detour = candidate(498_624, 2, 90, c);
            RouteSearch.Candidate direct = candidate(498_499, 1, 0, c);
            RouteSearch.Candidate best = RouteSearch.best(List.of(detour, direct), RouteSearch.OpWithdrawPolicy.AVOID);
            assertEquals(c == def ? direct : detour, best);
            // same value, same amount: fewer txs first, then the shorter wait
            RouteSearch.Candidate slow = candidate(1000, 1, 60, none);
            RouteSearch.Candidate quick = candidate(1000, 1, 30, none);
            assertEquals(quick, RouteSearch.best(List.of(slow, quick), RouteSearch.OpWithdrawPolicy.AVOID));
            assertEquals(quick, RouteSearch.best(List.of(quick, slow), RouteSearch.OpWithdrawPolicy.AVOID));
        }
    }

    private static RouteSearch.Candidate candidate(long out, int txs, long seconds, RouteCost c) {
        BigInteger amount = BigInteger.valueOf(out);
        return new RouteSearch.Candidate(
                List.of(),
                BigInteger.valueOf(1_000_000),
                amount,
                txs,
                seconds,
                false,
                c.value(amount, txs, false, seconds));
    }

    @Test
    @DisplayName(
            "exact-out: a plain transfer's amount_in equals amount_out; a swap's is the smallest input delivering it; more than a pool holds: 404")
    void exactOut() {
        JsonObject t = request("1", "weft-l1-1", "uinit", "weft-devnet-1", INIT_DEVNET);
        t.remove("amount_in");
        JsonObject transfer = s.route(t.copy().put("amount_out", "123456"));
        assertEquals("123456", transfer.getString("amount_in"));
        assertEquals("123456", transfer.getString("amount_out"));
        JsonObject sw = request("1", "weft-l1-1", "uinit", "weft-l1-1", "uusdc");
        sw.remove("amount_in");
        JsonObject r = s.route(sw.copy().put("amount_out", "498499"));
        BigInteger in = new BigInteger(r.getString("amount_in"));
        JsonObject at = s.route(request(in.toString(), "weft-l1-1", "uinit", "weft-l1-1", "uusdc"));
        JsonObject below =
                s.route(request(in.subtract(BigInteger.ONE).toString(), "weft-l1-1", "uinit", "weft-l1-1", "uusdc"));
        assertTrue(new BigInteger(at.getString("amount_out")).compareTo(BigInteger.valueOf(498_499)) >= 0);
        assertTrue(new BigInteger(below.getString("amount_out")).compareTo(BigInteger.valueOf(498_499)) < 0);
        assertEquals(at.getString("amount_out"), r.getString("amount_out"));
        assertEquals(at.getJsonArray("operations"), r.getJsonArray("operations"));
        // msgs_direct takes the exact-out request as it is
        JsonObject direct = s.msgsDirect(sw.copy()
                .put("amount_out", "498499")
                .put("chain_ids_to_addresses", new JsonObject().put("weft-l1-1", RouteFixtures.INIT_ADDR)));
        assertEquals(r, direct.getJsonObject("route"));
        assertEquals(1, direct.getJsonArray("txs").size());
        BusError e = org.junit.jupiter.api.Assertions.assertThrows(
                BusError.class, () -> s.route(sw.copy().put("amount_out", "1" + "0".repeat(30))));
        assertEquals(404, e.httpStatus());
    }

    @Test
    @DisplayName("worked case 3, PFM: weft-devnet-1 → weft-l1-1 → weft-move-1 in one tx (a PFM memo), not two")
    void pfmInOneTx() {
        JsonObject r = s.route(request("2500", "weft-devnet-1", INIT_IBC_ROLLUP, "weft-move-1", INIT_IBC_ROLLUP));
        assertEquals(List.of("transfer", "transfer"), keys(r.getJsonArray("operations")));
        assertEquals(1, r.getInteger("txs_required"));
        assertEquals(new JsonArray(List.of("weft-devnet-1", "weft-l1-1", "weft-move-1")), r.getJsonArray("chain_ids"));
        RouteCost c = RouteCost.DEFAULT;
        // the same transfers in two txs keep the amount and lose 10 bps to the second signature
        assertTrue(c.value(BigInteger.valueOf(2500), 2, false, 60)
                        .compareTo(c.value(BigInteger.valueOf(2500), 1, false, 60))
                < 0);
    }

    private static RouteService withCost(int extraTxBps, int minuteBps) {
        JsonObject json = new JsonObject()
                .put(
                        "route",
                        new JsonObject()
                                .put("registries", new JsonArray(RouteConfig.DEFAULT_REGISTRIES))
                                .put(
                                        "cost",
                                        new JsonObject()
                                                .put("extra_tx_bps", extraTxBps)
                                                .put("minute_bps", minuteBps)));
        RouteConfig config = RouteConfig.from(ConfigSource.fileOnly(json));
        return RouteService.withMarket(
                dev.weft.route.registry.RegistryLoader.load(config.registries(), config.finalizationPeriods()),
                config,
                java.time.Clock.fixed(RouteFixtures.NOW, java.time.ZoneOffset.UTC),
                RouteFixtures.market());
    }

    @Test
    @DisplayName(
            "property (seed 55, 2,000 draws): no chosen route visits a chain twice, and the same request chooses the same route")
    void noChainTwice() {
        Random random = new Random(55);
        List<Asset> assets = s.registry().assets();
        int routed = 0;
        for (int i = 0; i < 2000; i++) {
            Asset a = assets.get(random.nextInt(assets.size()));
            Asset b = assets.get(random.nextInt(assets.size()));
            if (a == b) continue;
            // log-uniform from 1 unit to 10^15
            long amount = Math.max(1, (long) Math.exp(random.nextDouble() * Math.log(1e15)));
            JsonObject req = request(Long.toString(amount), a.chainId(), a.denom(), b.chainId(), b.denom());
            JsonObject r;
            try {
                r = s.route(req);
            } catch (BusError e) {
                continue;
            }
            routed++;
            JsonArray chains = r.getJsonArray("chain_ids");
            Set<Object> distinct = new HashSet<>(chains.getList());
            assertEquals(chains.size(), distinct.size(), req.encode() + " → " + chains.encode());
            assertEquals(r, s.route(req.copy()), "deterministic: " + req.encode());
        }
        assertTrue(routed > 100, "enough draws found a route: " + routed);
    }
}
