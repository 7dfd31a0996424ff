package dev.weft.route.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.client.NodeHttp;
import dev.weft.config.NodeClientOptions;
import dev.weft.node.WeftNode;
import dev.weft.route.graph.PoolMath;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.RegistryLoader;
import dev.weft.route.registry.SwapVenue;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The route's pool math against the devnet's own InitiaDEX module: the pools as the route's reader discovers and
 * reads them, then for every pool, both directions and 1,000 random amounts each (from 1 unit to a third of the
 * pool), PoolMath's out-amount equals {@code get_swap_simulation} at the same height to the unit. The devnet runs
 * in history mode, so no block moves the state (or the LBP pair's weights) between the read and the simulations.
 */
class DexQuotesDevnetTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final int AMOUNTS = 1000;
    static Vertx vertx;
    static WeftNode node;
    static NodeHttp rest;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        node = weft.start(weft.config()
                .roles("devnet")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", 20)
                .set("devnet.genesis_time", "2026-01-01T00:00:00Z"));
        // block 20 of a 1 s chain is 19 s into the LBP pair's 30 days: its weights are between their two ends
        int port = dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .chain("weft-l1-1")
                .orElseThrow()
                .restPort();
        rest = new NodeHttp(
                vertx,
                "test",
                List.of("http://127.0.0.1:" + port),
                NodeClientOptions.defaults().withAttempts(1));
    }

    @Test
    void everyPoolEveryDirectionThousandAmounts() throws Exception {
        Registry registry = RegistryLoader.load(List.of("conf/registry/devnet.json"), Map.of());
        SwapVenue venue = registry.venues().get(0);
        InitiaDexReader reader = new InitiaDexReader(rest, venue, registry, Clock.systemUTC());
        InitiaDexReader.Discovery d =
                TestNodes.await(vertx.executeBlocking(() -> null).compose(x -> reader.discover()));
        assertEquals(4, d.pairs().size());
        assertEquals(1, d.stablePools().size());
        VenueState state = TestNodes.await(reader.refresh(d));
        assertEquals(20, state.height());
        assertEquals(5, state.pools().size());
        Random random = new Random(15);
        int compared = 0;
        for (SwapVenue.Pool p : state.pools()) {
            for (boolean aToB : new boolean[] {true, false}) {
                String in = aToB ? p.denomA() : p.denomB();
                String out = aToB ? p.denomB() : p.denomA();
                long max = p.reserveOf(in).longValue() / 3;
                List<Long> amounts = new ArrayList<>();
                for (int i = 0; i < AMOUNTS; i++) {
                    // log-uniform from 1 unit to a third of the pool, so small and large trades both appear
                    amounts.add(Math.max(1, (long) Math.exp(random.nextDouble() * Math.log(max))));
                }
                List<String> chain = simulate(p, in, out, amounts);
                for (int i = 0; i < AMOUNTS; i++) {
                    BigInteger mine = PoolMath.quote(p, in, BigInteger.valueOf(amounts.get(i)))
                            .amountOut();
                    assertEquals(
                            chain.get(i),
                            mine.toString(),
                            p.pool() + " " + in + " → " + out + " amount " + amounts.get(i));
                    compared++;
                }
            }
        }
        assertEquals(10 * AMOUNTS, compared);
        assertTrue(
                state.pools().stream()
                        .anyMatch(p -> p.weightA().compareTo(new java.math.BigDecimal("0.2")) > 0
                                && p.weightA().compareTo(new java.math.BigDecimal("0.5")) < 0),
                "the LBP pair's weights are between their ends");
    }

    /** get_swap_simulation for each amount, in batches of 100 (the amounts stay where the module does not abort). */
    static List<String> simulate(SwapVenue.Pool p, String in, String out, List<Long> amounts) {
        List<String> results = new ArrayList<>();
        String pool = q("0x" + p.pool().substring(5));
        for (int from = 0; from < amounts.size(); from += 100) {
            JsonArray batch = new JsonArray();
            for (long amount : amounts.subList(from, Math.min(amounts.size(), from + 100))) {
                JsonArray args = new JsonArray().add(pool).add(q(metadata(in)));
                if (p.type() == SwapVenue.PoolType.STABLESWAP) args.add(q(metadata(out)));
                args.add(q(Long.toString(amount)));
                batch.add(new JsonObject()
                        .put("address", "0x1")
                        .put("module_name", p.type() == SwapVenue.PoolType.STABLESWAP ? "stableswap" : "dex")
                        .put("function_name", "get_swap_simulation")
                        .put("type_args", new JsonArray())
                        .put("args", args));
            }
            JsonObject res = TestNodes.await(rest.post(
                    "/initia/move/v1/view/json/batch",
                    Buffer.buffer(new JsonObject().put("requests", batch).encode()),
                    Buffer::toJsonObject));
            for (Object r : res.getJsonArray("responses"))
                results.add((String) Json.decodeValue(((JsonObject) r).getString("data")));
        }
        return results;
    }

    static String metadata(String denom) {
        return "0x" + dev.weft.chain.Hex.lower(dev.weft.route.registry.Denoms.moveMetadata(denom));
    }

    static String q(String s) {
        return Json.encode(s);
    }
}
