package dev.weft.route;

import static dev.weft.route.RouteFixtures.INIT_ADDR;
import static dev.weft.route.RouteFixtures.INIT_DEVNET;
import static dev.weft.route.RouteFixtures.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.BusError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Integrator fees: {@code cumulative_affiliate_fee_bps} on the route (taken on the last swap, or on the input of a
 * transfer-only route), {@code chain_ids_to_affiliates} on msgs (bank sends in the fee chain's tx), and their 400s.
 */
class AffiliateFeesTest {
    private final RouteService s = RouteFixtures.service();
    private static final String AFF_A =
            dev.weft.chain.AccountAddress.parse("0x" + "11".repeat(20), "init").bech32("init");
    private static final String AFF_B =
            dev.weft.chain.AccountAddress.parse("0x" + "22".repeat(20), "init").bech32("init");

    private static JsonObject affiliates(String chain, String... addressAndBps) {
        JsonArray list = new JsonArray();
        for (int i = 0; i < addressAndBps.length; i += 2)
            list.add(new JsonObject().put("address", addressAndBps[i]).put("basis_points_fee", addressAndBps[i + 1]));
        return new JsonObject().put(chain, new JsonObject().put("affiliates", list));
    }

    private JsonObject msgs(JsonObject req, JsonObject route, JsonObject byChain) {
        JsonArray addresses = new JsonArray();
        for (Object c : route.getJsonArray("required_chain_addresses")) addresses.add(INIT_ADDR);
        return s.msgs(req.copy()
                .put("amount_out", route.getString("amount_out"))
                .put("address_list", addresses)
                .put("operations", route.getJsonArray("operations"))
                .put("chain_ids_to_affiliates", byChain));
    }

    private static JsonObject msg(JsonObject msgs, int tx, int i) {
        JsonObject m = msgs.getJsonArray("txs")
                .getJsonObject(tx)
                .getJsonObject("cosmos_tx")
                .getJsonArray("msgs")
                .getJsonObject(i);
        return new JsonObject().put("type", m.getString("msg_type_url")).put("msg", new JsonObject(m.getString("msg")));
    }

    @Test
    @DisplayName(
            "1 INIT → USDC on weft-l1-1 with 100 bps: amount_out net of the fee, a SWAP fee entry, and /msgs sends 60 + 40 bps of the minimum after the swap")
    void onTheSwap() {
        JsonObject plain = s.route(request("1000000", "weft-l1-1", "uinit", "weft-l1-1", "uusdc"));
        JsonObject req = request("1000000", "weft-l1-1", "uinit", "weft-l1-1", "uusdc")
                .put("cumulative_affiliate_fee_bps", "100");
        JsonObject route = s.route(req);
        BigInteger gross = new BigInteger(plain.getString("amount_out"));
        BigInteger fee = gross.divide(BigInteger.valueOf(100));
        assertEquals(gross.subtract(fee).toString(), route.getString("amount_out"));
        assertEquals(route.getString("amount_out"), route.getString("estimated_amount_out"));
        JsonObject swap = route.getJsonArray("operations").getJsonObject(0).getJsonObject("swap");
        assertEquals(fee + "uusdc", swap.getString("estimated_affiliate_fee"));
        JsonObject entry = route.getJsonArray("estimated_fees").stream()
                .map(o -> (JsonObject) o)
                .filter(f -> f.getString("amount").equals(fee.toString()))
                .findFirst()
                .orElseThrow();
        assertEquals("SWAP", entry.getString("fee_type"));
        assertEquals("uusdc", entry.getJsonObject("origin_asset").getString("denom"));
        assertEquals(0, entry.getInteger("operation_index"));
        assertEquals("FEE_BEHAVIOR_DEDUCTED", entry.getString("fee_behavior"));

        JsonObject msgs = msgs(req, route, affiliates("weft-l1-1", AFF_A, "60", AFF_B, "40"));
        BigInteger min = new java.math.BigDecimal(gross)
                .multiply(new java.math.BigDecimal("0.99"))
                .toBigInteger();
        BigInteger a = min.multiply(BigInteger.valueOf(60)).divide(BigInteger.valueOf(10_000));
        BigInteger b = min.multiply(BigInteger.valueOf(40)).divide(BigInteger.valueOf(10_000));
        assertEquals(
                3,
                msgs.getJsonArray("txs")
                        .getJsonObject(0)
                        .getJsonObject("cosmos_tx")
                        .getJsonArray("msgs")
                        .size());
        assertEquals("/initia.move.v1.MsgExecute", msg(msgs, 0, 0).getString("type"));
        assertEquals(send(INIT_ADDR, AFF_A, "uusdc", a), msg(msgs, 0, 1));
        assertEquals(send(INIT_ADDR, AFF_B, "uusdc", b), msg(msgs, 0, 2));
        assertEquals(min.subtract(a).subtract(b).toString(), msgs.getString("min_amount_out"));
    }

    private static JsonObject send(String from, String to, String denom, BigInteger amount) {
        return new JsonObject()
                .put("type", "/cosmos.bank.v1beta1.MsgSend")
                .put(
                        "msg",
                        new JsonObject()
                                .put("from_address", from)
                                .put("to_address", to)
                                .put(
                                        "amount",
                                        new JsonArray()
                                                .add(new JsonObject()
                                                        .put("denom", denom)
                                                        .put("amount", amount.toString()))));
    }

    @Test
    @DisplayName(
            "transfer-only (OP deposit of 1 INIT) with 50 bps, beyond Skip: the fee is a bank send first in the source tx, the deposit moves the rest, an AFFILIATE fee entry")
    void onATransfer() {
        JsonObject req = request("1000000", "weft-l1-1", "uinit", "weft-devnet-1", INIT_DEVNET)
                .put("cumulative_affiliate_fee_bps", "50");
        JsonObject route = s.route(req);
        assertEquals("995000", route.getString("amount_out"));
        JsonObject op = route.getJsonArray("operations").getJsonObject(0);
        assertEquals("1000000", route.getString("amount_in"));
        assertEquals("995000", op.getString("amount_in"));
        JsonObject entry = route.getJsonArray("estimated_fees").getJsonObject(0);
        assertEquals("AFFILIATE", entry.getString("fee_type"));
        assertEquals("5000", entry.getString("amount"));
        assertEquals("uinit", entry.getJsonObject("origin_asset").getString("denom"));
        JsonObject msgs = msgs(req, route, affiliates("weft-l1-1", AFF_A, "50"));
        assertEquals(send(INIT_ADDR, AFF_A, "uinit", BigInteger.valueOf(5000)), msg(msgs, 0, 0));
        JsonObject deposit = msg(msgs, 0, 1);
        assertEquals("/opinit.ophost.v1.MsgInitiateTokenDeposit", deposit.getString("type"));
        assertEquals(
                "995000", deposit.getJsonObject("msg").getJsonObject("amount").getString("amount"));
        assertEquals("995000", msgs.getString("min_amount_out"));
    }

    @Test
    @DisplayName(
            "400s: bps out of range or not an integer, exact-out with a fee, affiliates that do not sum to the bps, a bad address, no affiliates on the fee chain")
    void errors() {
        for (Object bad : new Object[] {"10000", "-1", "1.5", "abc", 20000, true}) {
            assertEquals(
                    400,
                    status(() -> s.route(request("1000000", "weft-l1-1", "uinit", "weft-l1-1", "uusdc")
                            .put("cumulative_affiliate_fee_bps", bad))),
                    String.valueOf(bad));
        }
        JsonObject exactOut = request("1000000", "weft-l1-1", "uinit", "weft-l1-1", "uusdc")
                .put("cumulative_affiliate_fee_bps", "10");
        exactOut.remove("amount_in");
        exactOut.put("amount_out", "1000");
        assertEquals(400, status(() -> s.route(exactOut)));
        JsonObject req = request("1000000", "weft-l1-1", "uinit", "weft-l1-1", "uusdc")
                .put("cumulative_affiliate_fee_bps", "100");
        JsonObject route = s.route(req);
        for (JsonObject byChain : List.of(
                affiliates("weft-l1-1", AFF_A, "60"),
                affiliates("weft-l1-1", "init1notanaddress", "100"),
                affiliates("weft-devnet-1", AFF_A, "100"),
                affiliates("weft-l1-1", AFF_A, "x"),
                new JsonObject().put("weft-l1-1", "x"))) {
            assertEquals(400, status(() -> msgs(req, route, byChain)), byChain.encode());
        }
        JsonObject plain = request("1000000", "weft-l1-1", "uinit", "weft-l1-1", "uusdc");
        assertEquals(400, status(() -> msgs(plain, s.route(plain), affiliates("weft-l1-1", AFF_A, "10"))));
        assertTrue(msgs(plain, s.route(plain), new JsonObject())
                        .getJsonArray("txs")
                        .size()
                == 1);
    }

    private static int status(Supplier<JsonObject> call) {
        return assertThrows(BusError.class, call::get).httpStatus();
    }
}
