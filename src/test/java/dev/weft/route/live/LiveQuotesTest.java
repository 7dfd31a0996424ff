package dev.weft.route.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.chain.Hex;
import dev.weft.config.RouteConfig;
import dev.weft.node.WeftNode;
import dev.weft.route.RouteFixtures;
import dev.weft.route.RouteService;
import dev.weft.route.msgs.Bcs;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.RegistryLoader;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.DevnetAccounts;
import dev.weft.testsupport.DevnetWallet;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.RouteTxs;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Quotes from the chain: a node with the devnet and route roles quotes InitiaDEX swaps on weft-l1-1 from the pools its
 * market source reads (equal to the module's own simulation, with the height it was read at and USD values from the
 * devnet's Connect oracle), follows a swap tx that moves the pool, and refuses swaps on state older than
 * route.max_state_age (503) while non-swap routes keep working.
 */
class LiveQuotesTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WeftNode node;
    static final LocalHttp http = new LocalHttp();

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        node = weft.start(weft.config()
                .roles("devnet", "route")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 10)
                .set("devnet.block_interval", "200ms")
                .set("devnet.txs_per_block", 2)
                .set("route.registries", new JsonArray().add("conf/registry/devnet.json"))
                .set("route.pool_refresh", "200ms"));
    }

    static JsonObject quote(String amount) {
        JsonObject req = RouteFixtures.request(amount, "weft-l1-1", "uusdc", "weft-l1-1", "uinit");
        return TestNodes.await(vertx.eventBus().<JsonObject>request(Addresses.ROUTE_COMPUTE, req))
                .body();
    }

    static int restPort() {
        return dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .chain("weft-l1-1")
                .orElseThrow()
                .restPort();
    }

    /**
     * The chain's own answer for a route's swap: each pool's {@code get_swap_simulation} (dex, else stableswap) of what
     * the previous one returns.
     */
    static String chained(JsonObject route, String amount) {
        String out = amount;
        for (Object o : route.getJsonArray("operations")
                .getJsonObject(0)
                .getJsonObject("swap")
                .getJsonObject("swap_in")
                .getJsonArray("swap_operations")) {
            JsonObject op = (JsonObject) o;
            String pool = Json.encode("0x" + op.getString("pool").substring(5));
            String offer = Json.encode("0x" + Hex.lower(Denoms.moveMetadata(op.getString("denom_in"))));
            String ret = Json.encode("0x" + Hex.lower(Denoms.moveMetadata(op.getString("denom_out"))));
            JsonObject req = new JsonObject()
                    .put("address", "0x1")
                    .put("module_name", "dex")
                    .put("function_name", "get_swap_simulation")
                    .put("type_args", new JsonArray())
                    .put("args", new JsonArray().add(pool).add(offer).add(Json.encode(out)));
            var r = http.post(restPort(), "/initia/move/v1/view/json", req.encode());
            if (r.statusCode() != 200) {
                req.put("module_name", "stableswap")
                        .put(
                                "args",
                                new JsonArray().add(pool).add(offer).add(ret).add(Json.encode(out)));
                r = http.post(restPort(), "/initia/move/v1/view/json", req.encode());
            }
            out = (String) Json.decodeValue(new JsonObject(r.body()).getString("data"));
        }
        return out;
    }

    static long head() {
        return Long.parseLong(new JsonObject(http.get(restPort(), "/cosmos/base/tendermint/v1beta1/blocks/latest")
                        .body())
                .getJsonObject("block")
                .getJsonObject("header")
                .getString("height"));
    }

    /**
     * A quote passing {@code accept}, with the chain's own simulation of its swap at the same height: the quote's
     * {@code swap_state_height} is the head, unchanged across the simulation (the devnet's views answer at the head, and
     * a bootstrapping pair's weights move with every block's time). {@code [quote, simulated amount]}.
     */
    static Object[] quoteAtOneHeight(String what, java.util.function.Predicate<JsonObject> accept) {
        return Await.value(what, 30, () -> {
            long before = head();
            JsonObject q;
            try {
                q = quote("1000000");
            } catch (RuntimeException e) {
                return null;
            }
            if (!accept.test(q) || Long.parseLong(q.getString("swap_state_height")) != before) return null;
            String simulated = chained(q, "1000000");
            return head() == before ? new Object[] {q, simulated} : null;
        });
    }

    static String pool(JsonObject route) {
        return route.getJsonArray("operations")
                .getJsonObject(0)
                .getJsonObject("swap")
                .getJsonObject("swap_in")
                .getJsonArray("swap_operations")
                .getJsonObject(0)
                .getString("pool");
    }

    @Test
    void quotesFollowTheChain() {
        // pools and oracle prices are read separately: until both are, a quote has no USD values (as a chain without an
        // oracle gives), so the first quote waited for is one priced by the oracle
        Object[] firstPair = quoteAtOneHeight(
                "a quote from the read pools and oracle prices at the chain's head",
                q -> q.getString("usd_amount_in") != null);
        JsonObject first = (JsonObject) firstPair[0];
        String pool = pool(first);
        assertEquals(firstPair[1], first.getString("amount_out"));
        assertTrue(Long.parseLong(first.getString("swap_state_height")) >= 10, first.encode());
        // the devnet oracle's USDC/USD stays within 1 ± 0.11 %, so 1 USDC is 1.00 at two decimals at any height
        assertEquals("1.00", first.getString("usd_amount_in"), first.encode());

        // a large swap on that pair moves it: the next quotes follow
        JsonArray args = new JsonArray()
                .add(Bcs.address(Hex.decode(pool.substring(5))))
                .add(Bcs.address(Denoms.moveMetadata("uusdc")))
                .add(Bcs.u64(BigInteger.valueOf(50_000_000_000L)))
                .add("AA==");
        JsonObject msg = new JsonObject()
                .put("sender", DevnetAccounts.ALICE)
                .put("module_address", "0x1")
                .put("module_name", "dex")
                .put("function_name", "swap_script")
                .put("type_args", new JsonArray())
                .put("args", args);
        var devnet = dev.weft.devnet.DevnetEndpoints.of(node.context().info());
        DevnetWallet wallet = new DevnetWallet(
                c -> devnet.chain(c).orElseThrow().restPort(),
                c -> devnet.chain(c).orElseThrow().rpcPort());
        byte[] raw = wallet.sign(
                "weft-l1-1", DevnetAccounts.ALICE, List.of(RouteTxs.any("/initia.move.v1.MsgExecute", msg)), "uinit");
        JsonObject rpc = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("method", "broadcast_tx_commit")
                .put("params", new JsonObject().put("tx", RouteTxs.base64(raw)));
        JsonObject res = new JsonObject(http.post(
                        node.context()
                                .info()
                                .attachment(dev.weft.devnet.DevnetEndpoints.class)
                                .chain("weft-l1-1")
                                .orElseThrow()
                                .rpcPort(),
                        "/",
                        rpc.encode())
                .body());
        assertEquals(0, res.getJsonObject("result").getJsonObject("tx_result").getInteger("code"), res.encode());
        String moved = chained(first, "1000000");
        assertTrue(Long.parseLong(moved) < Long.parseLong(first.getString("amount_out")), moved);
        // the moved pair, or the other INIT/USDC pair now that this one pays less
        Object[] afterPair = quoteAtOneHeight(
                "a quote on the moved pool at the chain's head",
                q -> !q.getString("amount_out").equals(first.getString("amount_out")));
        JsonObject after = (JsonObject) afterPair[0];
        assertEquals(afterPair[1], after.getString("amount_out"));
        assertTrue(Long.parseLong(after.getString("swap_state_height"))
                > Long.parseLong(first.getString("swap_state_height")));
    }

    @Test
    void staleStateRefusesSwapsOnly() {
        RouteConfig config = RouteConfig.defaults(RouteConfig.DEFAULT_REGISTRIES);
        MarketState market = RouteFixtures.market();
        Clock later = Clock.fixed(RouteFixtures.NOW.plusSeconds(31), ZoneOffset.UTC);
        RouteService s = RouteService.withMarket(
                RegistryLoader.load(config.registries(), config.finalizationPeriods()), config, later, market);
        BusError e = assertThrows(
                BusError.class,
                () -> s.route(RouteFixtures.request("1000000", "weft-l1-1", "uusdc", "weft-l1-1", "uinit")));
        assertEquals(503, e.httpStatus());
        assertEquals(
                "swap quotes on initia-dex (weft-l1-1) are unavailable: its pool state was read at height 100, 31s ago, older than"
                        + " route.max_state_age (30s)",
                e.getMessage());
        JsonObject transfer = s.route(
                RouteFixtures.request("1000000", "noble-1", "uusdc", "interwoven-1", RouteFixtures.USDC_INITIA));
        assertEquals("1000000", transfer.getString("amount_out"));
        assertNull(transfer.getValue("usd_amount_in"), "the oracle's price is 31 s old: no USD value");
        RouteService fresh = RouteService.withMarket(
                RegistryLoader.load(config.registries(), config.finalizationPeriods()),
                config,
                Clock.fixed(RouteFixtures.NOW.plusSeconds(30), ZoneOffset.UTC),
                market);
        assertEquals(
                "1.00",
                fresh.route(RouteFixtures.request(
                                "1000000", "noble-1", "uusdc", "interwoven-1", RouteFixtures.USDC_INITIA))
                        .getString("usd_amount_in"));
    }
}
