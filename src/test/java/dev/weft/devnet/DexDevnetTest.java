package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Hex;
import dev.weft.route.msgs.Bcs;
import dev.weft.route.registry.Denoms;
import dev.weft.testsupport.DevnetAccounts;
import dev.weft.testsupport.DevnetWallet;
import dev.weft.testsupport.RelayedTxs;
import dev.weft.testsupport.RouteTxs;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The devnet L1's InitiaDEX and Connect oracle over HTTP: the view functions in movevm's JSON shapes, swap txs that
 * move the pool or abort on {@code min_return} with the module's code, and oracle prices that move with the blocks.
 */
class DexDevnetTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1";
    static final String INIT_USDC = "0x" + Hex.lower(Denoms.moveMetadata("weft-l1-1/initia-dex/INIT-USDC"));
    static final String STABLE = "0x" + Hex.lower(Denoms.moveMetadata("weft-l1-1/initia-dex/INIT-ibcINIT"));
    static final String IBC_INIT = "ibc/82EB1C694C571F954E68BFD68CFCFCD6123B0EBB69AAA8BAB7A082939B45E802";
    static DevnetHarness d;
    static DevnetWallet wallet;

    @BeforeAll
    static void start() {
        d = DevnetHarness.start(
                weft,
                weft.config()
                        .roles("devnet")
                        .set("devnet.mode", "live")
                        .set("devnet.history_blocks", 10)
                        .set("devnet.block_interval", "100ms")
                        .set("devnet.txs_per_block", 2));
        wallet = d.wallet;
    }

    static String q(String s) {
        return "\"" + s + "\"";
    }

    static JsonObject view(String module, String function, String... args) {
        JsonObject req = new JsonObject()
                .put("address", "0x1")
                .put("module_name", module)
                .put("function_name", function)
                .put("type_args", new JsonArray())
                .put("args", new JsonArray(List.of((Object[]) args)));
        var res = d.post(d.restPort(L1), "/initia/move/v1/view/json", req.encode());
        assertEquals(200, res.statusCode(), res.body());
        return new JsonObject(res.body());
    }

    static Object data(String module, String function, String... args) {
        return io.vertx.core.json.Json.decodeValue(view(module, function, args).getString("data"));
    }

    static String metadata(String denom) {
        return "0x" + Hex.lower(Denoms.moveMetadata(denom));
    }

    static String literal(String address) {
        return "0x" + address.substring(2).replaceFirst("^0+", "");
    }

    @Test
    void viewShapes() {
        JsonObject res = view("dex", "get_pool_info", q(INIT_USDC));
        assertEquals(List.of("data", "events", "gas_used"), List.copyOf(res.fieldNames()));
        JsonObject info = new JsonObject(res.getString("data"));
        assertEquals(List.of("coin_a_amount", "coin_b_amount", "total_share"), List.copyOf(info.fieldNames()));
        JsonObject config = (JsonObject) data("dex", "get_config", q(INIT_USDC));
        assertEquals(
                new JsonObject(
                        "{\"weights\":{\"weights_before\":{\"coin_a_weight\":\"0.5\",\"coin_b_weight\":\"0.5\",\"timestamp\":\"0\"},"
                                + "\"weights_after\":{\"coin_a_weight\":\"0.5\",\"coin_b_weight\":\"0.5\",\"timestamp\":\"0\"}},\"swap_fee_rate\":\"0.003\"}"),
                config);

        JsonArray pairs = (JsonArray) data("dex", "get_all_pairs_by_denom", "null", "null", "null", "30");
        assertEquals(4, pairs.size());
        JsonObject initUsdc = pairs.stream()
                .map(JsonObject.class::cast)
                .filter(p -> p.getString("liquidity_token").equals("move/" + INIT_USDC.substring(2)))
                .findFirst()
                .orElseThrow();
        assertEquals("uinit", initUsdc.getString("coin_a"));
        assertEquals("uusdc", initUsdc.getString("coin_b"));
        assertEquals(
                List.of("coin_a", "coin_b", "liquidity_token", "weights", "swap_fee_rate"),
                List.copyOf(initUsdc.fieldNames()));

        // by address, paged with start_after = the last key of the first page
        JsonArray first = (JsonArray) data("dex", "get_all_pairs", "null", "null", "null", "2");
        assertEquals(2, first.size());
        JsonObject last = first.getJsonObject(1);
        assertTrue(
                last.getString("coin_a").startsWith("0x")
                        && !last.getString("coin_a").startsWith("0x0"),
                last.encode());
        JsonArray rest = (JsonArray) data(
                "dex",
                "get_all_pairs",
                q(last.getString("coin_a")),
                q(last.getString("coin_b")),
                q(last.getString("liquidity_token")),
                "30");
        assertEquals(2, rest.size());

        JsonArray pools = (JsonArray) data("stableswap", "get_all_pools", "null", "30");
        assertEquals(1, pools.size());
        assertEquals(
                new JsonObject()
                        .put(
                                "coin_metadata",
                                new JsonArray().add(literal(metadata("uinit"))).add(literal(metadata(IBC_INIT))))
                        .put("coin_denoms", new JsonArray().add("uinit").add(IBC_INIT))
                        .put(
                                "coin_balances",
                                new JsonArray().add("200000000000").add("200000000000"))
                        .put("current_ann", "40000")
                        .put("swap_fee_rate", "0.001"),
                pools.getJsonObject(0));

        long height = Long.parseLong((String) data("block", "get_current_block_height"));
        assertTrue(height >= 10, "height " + height);

        var unknown = d.post(
                d.restPort(L1),
                "/initia/move/v1/view/json",
                new JsonObject()
                        .put("address", "0x1")
                        .put("module_name", "dex")
                        .put("function_name", "nope")
                        .put("type_args", new JsonArray())
                        .put("args", new JsonArray())
                        .encode());
        assertEquals(404, unknown.statusCode());
        assertEquals(5, new JsonObject(unknown.body()).getInteger("code"));

        JsonObject batch = new JsonObject(d.post(
                        d.restPort(L1),
                        "/initia/move/v1/view/json/batch",
                        new JsonObject()
                                .put(
                                        "requests",
                                        new JsonArray()
                                                .add(new JsonObject()
                                                        .put("address", "0x1")
                                                        .put("module_name", "block")
                                                        .put("function_name", "get_current_block_timestamp")
                                                        .put("type_args", new JsonArray())
                                                        .put("args", new JsonArray()))
                                                .add(new JsonObject()
                                                        .put("address", "0x1")
                                                        .put("module_name", "stableswap")
                                                        .put("function_name", "get_pool")
                                                        .put("type_args", new JsonArray())
                                                        .put("args", new JsonArray().add(q(STABLE)))))
                                .encode())
                .body());
        assertEquals(2, batch.getJsonArray("responses").size());
        assertEquals(
                pools.getJsonObject(0),
                new JsonObject(batch.getJsonArray("responses").getJsonObject(1).getString("data")));
    }

    static String padded(String literal) {
        String hex = literal.substring(2);
        return "0".repeat(64 - hex.length()) + hex;
    }

    static JsonObject swapMsg(
            String module, String pool, String offerDenom, String returnDenom, long amount, Long min) {
        JsonArray args = new JsonArray()
                .add(Bcs.address(Hex.decode(pool.substring(2))))
                .add(Bcs.address(Denoms.moveMetadata(offerDenom)));
        if (module.equals("stableswap")) args.add(Bcs.address(Denoms.moveMetadata(returnDenom)));
        args.add(Bcs.u64(BigInteger.valueOf(amount))).add(min == null ? "AA==" : Bcs.someU64(BigInteger.valueOf(min)));
        return new JsonObject()
                .put("sender", DevnetAccounts.ALICE)
                .put("module_address", "0x1")
                .put("module_name", module)
                .put("function_name", "swap_script")
                .put("type_args", new JsonArray())
                .put("args", args);
    }

    static synchronized JsonObject commit(JsonObject msg) {
        byte[] raw = wallet.sign(
                L1, DevnetAccounts.ALICE, List.of(RouteTxs.any("/initia.move.v1.MsgExecute", msg)), "uinit");
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 7)
                .put("method", "broadcast_tx_commit")
                .put("params", new JsonObject().put("tx", RouteTxs.base64(raw)));
        JsonObject res = new JsonObject(d.post(d.rpcPort(L1), req.encode()).body()).getJsonObject("result");
        assertEquals(0, res.getJsonObject("check_tx").getInteger("code"), res.encode());
        return res.getJsonObject("tx_result");
    }

    @Test
    synchronized void swapsMoveThePoolAndMinReturnAborts() {
        // a weighted pair
        JsonObject before = (JsonObject) data("dex", "get_pool_info", q(INIT_USDC));
        long amount = 5_000_000_000L;
        long simulated = Long.parseLong((String)
                data("dex", "get_swap_simulation", q(INIT_USDC), q(metadata("uinit")), q(Long.toString(amount))));
        JsonObject failed = commit(swapMsg("dex", INIT_USDC, "uinit", "uusdc", amount, simulated + 1_000_000));
        assertEquals(2, failed.getInteger("code"));
        assertEquals("move", failed.getString("codespace"));
        assertTrue(
                failed.getString("log").endsWith("VM aborted: location=" + "0".repeat(63) + "1::dex, code=196611"),
                failed.getString("log"));
        assertEquals(before, data("dex", "get_pool_info", q(INIT_USDC)));

        JsonObject ok = commit(swapMsg("dex", INIT_USDC, "uinit", "uusdc", amount, simulated));
        assertEquals(0, ok.getInteger("code"), ok.encode());
        // the fee's fungible-asset events come first (the ante handler), then the swap's
        JsonObject event = RelayedTxs.attributes(ok, "move").stream()
                .filter(e -> !e.getString("type_tag").startsWith("0x1::fungible_asset::")
                        && !e.getString("type_tag").startsWith("0x1::primary_fungible_store::")
                        && !e.getString("type_tag").startsWith("0x1::object::"))
                .findFirst()
                .orElseThrow();
        assertEquals("0x1::dex::SwapEvent", event.getString("type_tag"));
        JsonObject swap = new JsonObject(event.getString("data"));
        assertEquals(Long.toString(simulated), swap.getString("return_amount"));
        assertEquals("15000000", swap.getString("fee_amount"));
        JsonObject after = (JsonObject) data("dex", "get_pool_info", q(INIT_USDC));
        assertEquals(
                Long.parseLong(before.getString("coin_a_amount")) + amount,
                Long.parseLong(after.getString("coin_a_amount")));
        assertEquals(
                Long.parseLong(before.getString("coin_b_amount")) - simulated,
                Long.parseLong(after.getString("coin_b_amount")));

        // the stableswap pool
        long offered = 1_000_000_000L;
        long stableOut = Long.parseLong((String) data(
                "stableswap",
                "get_swap_simulation",
                q(STABLE),
                q(metadata(IBC_INIT)),
                q(metadata("uinit")),
                q(Long.toString(offered))));
        JsonObject tooMuch = commit(swapMsg("stableswap", STABLE, IBC_INIT, "uinit", offered, stableOut + 1));
        assertTrue(tooMuch.getString("log").endsWith("1::stableswap, code=196611"), tooMuch.getString("log"));
        assertEquals(
                0,
                commit(swapMsg("stableswap", STABLE, IBC_INIT, "uinit", offered, stableOut))
                        .getInteger("code"));
        JsonObject pool = (JsonObject) data("stableswap", "get_pool", q(STABLE));
        assertEquals(
                new JsonArray()
                        .add(Long.toString(200_000_000_000L - stableOut))
                        .add(Long.toString(200_000_000_000L + offered)),
                pool.getJsonArray("coin_balances"));
    }

    @Test
    void oraclePricesMoveWithTheBlocks() {
        JsonObject price = new JsonObject(d.get(d.restPort(L1), "/connect/oracle/v2/get_price?currency_pair=INIT/USD")
                .body());
        assertEquals(List.of("price", "nonce", "decimals", "id"), List.copyOf(price.fieldNames()));
        assertEquals(
                List.of("price", "block_timestamp", "block_height"),
                List.copyOf(price.getJsonObject("price").fieldNames()));
        assertEquals("8", price.getString("decimals"));
        long h = Long.parseLong(price.getJsonObject("price").getString("block_height"));
        String p = price.getJsonObject("price").getString("price");
        JsonObject later = dev.weft.testsupport.Await.value("a later oracle update", 30, () -> {
            JsonObject x = new JsonObject(d.get(
                            d.restPort(L1),
                            "/connect/oracle/v2/get_prices?currency_pair_ids=INIT/USD&currency_pair_ids=USDC/USD")
                    .body());
            JsonObject init = x.getJsonArray("prices").getJsonObject(0);
            return Long.parseLong(init.getJsonObject("price").getString("block_height")) > h + 2 ? x : null;
        });
        assertEquals(2, later.getJsonArray("prices").size());
        assertNotEquals(
                p,
                later.getJsonArray("prices")
                        .getJsonObject(0)
                        .getJsonObject("price")
                        .getString("price"));
        assertEquals(
                404,
                d.get(d.restPort(L1), "/connect/oracle/v2/get_price?currency_pair=FOO/USD")
                        .statusCode());
        JsonObject tickers = new JsonObject(
                d.get(d.restPort(L1), "/connect/oracle/v2/get_all_tickers").body());
        assertEquals(
                new JsonArray()
                        .add(new JsonObject().put("Base", "INIT").put("Quote", "USD"))
                        .add(new JsonObject().put("Base", "USDC").put("Quote", "USD"))
                        .add(new JsonObject().put("Base", "ETH").put("Quote", "USD")),
                tickers.getJsonArray("currency_pairs"));
        JsonObject map = new JsonObject(
                d.get(d.restPort(L1), "/connect/marketmap/v2/marketmap").body());
        assertEquals(
                "8",
                map.getJsonObject("market_map")
                        .getJsonObject("markets")
                        .getJsonObject("INIT/USD")
                        .getJsonObject("ticker")
                        .getString("decimals"));
    }
}
