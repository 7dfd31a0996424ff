package dev.weft.track;

import static dev.weft.testsupport.DevnetAccounts.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.DevnetAccounts;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Gas in the quote, on the devnet: {@code /route} quotes each Cosmos tx's gas from the per-message table,
 * {@code /msgs} simulates the tx on the chain's node (the signer's sequence, no key) and puts the limit in the tx's
 * {@code fee}; the tx signed and broadcast uses within 10 % of the quoted gas. {@code enable_gas_warnings} warns for a
 * signer without the fee asset and not for a funded one.
 */
class GasQuoteE2ETest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1";
    static TrackingHarness h;

    @BeforeAll
    static void start() {
        h = TrackingHarness.start(weft, TrackingHarness.config());
    }

    static JsonObject gasEntry(JsonObject answer, int tx) {
        for (Object o : answer.getJsonArray("estimated_fees")) {
            JsonObject f = (JsonObject) o;
            if ("GAS".equals(f.getString("fee_type")) && f.getInteger("tx_index") == tx) return f;
        }
        throw new AssertionError("no GAS entry for tx " + tx + " in " + answer.encode());
    }

    static JsonObject swapRequest() {
        return new JsonObject()
                .put("amount_in", "1000000")
                .put("source_asset_chain_id", L1)
                .put("source_asset_denom", "uinit")
                .put("dest_asset_chain_id", L1)
                .put("dest_asset_denom", "uusdc");
    }

    static JsonObject msgsFor(JsonObject route, String signer) {
        var r = h.post(
                h.api,
                "/v2/fungible/msgs",
                swapRequest()
                        .put("address_list", new JsonArray(List.of(signer)))
                        .put("operations", route.getJsonArray("operations"))
                        .put("enable_gas_warnings", true));
        assertEquals(200, r.statusCode(), r.body());
        return new JsonObject(r.body());
    }

    @Test
    @DisplayName(
            "same-chain swap: /route's GAS estimate, /msgs' simulation and the broadcast tx's gas_used agree within 10 %; no warning for a funded signer")
    void quotedAgainstUsed() {
        var rr = h.post(h.api, "/v2/fungible/route", swapRequest());
        assertEquals(200, rr.statusCode(), rr.body());
        JsonObject route = new JsonObject(rr.body());
        JsonObject quoted = gasEntry(route, 0);
        assertEquals("ESTIMATE", quoted.getString("gas_source"));
        assertEquals(L1, quoted.getString("chain_id"));
        assertEquals("uinit", quoted.getJsonObject("origin_asset").getString("denom"));
        assertEquals("FEE_BEHAVIOR_ADDITIONAL", quoted.getString("fee_behavior"));

        JsonObject msgs = msgsFor(route, ALICE);
        assertNull(msgs.getValue("warning"), msgs.encode());
        JsonObject simulated = gasEntry(msgs, 0);
        assertEquals("SIMULATION", simulated.getString("gas_source"), simulated.encode());
        long gas = Long.parseLong(simulated.getString("estimated_gas"));
        long limit = Long.parseLong(simulated.getString("gas_limit"));
        assertEquals((long) Math.ceil(gas * 1.5), limit);
        // the tx's fee is the entry's: limit × the registry's average gas price, in the fee asset
        JsonObject fee = msgs.getJsonArray("txs")
                .getJsonObject(0)
                .getJsonObject("cosmos_tx")
                .getJsonObject("fee");
        assertEquals(
                new JsonObject()
                        .put(
                                "amount",
                                new JsonArray()
                                        .add(new JsonObject()
                                                .put("denom", "uinit")
                                                .put("amount", simulated.getString("amount"))))
                        .put("gas", Long.toString(limit)),
                fee);
        assertEquals(
                new java.math.BigDecimal(limit)
                        .multiply(new java.math.BigDecimal(simulated.getString("gas_price")))
                        .setScale(0, java.math.RoundingMode.CEILING)
                        .toString(),
                simulated.getString("amount"));

        JsonObject commit = h.broadcast(msgs, "uinit");
        long used = Long.parseLong(commit.getJsonObject("tx_result").getString("gas_used"));
        long estimated = Long.parseLong(quoted.getString("estimated_gas"));
        assertTrue(Math.abs(estimated - used) <= used / 10, "quoted " + estimated + " against used " + used);
        assertTrue(Math.abs(gas - used) <= used / 10, "simulated " + gas + " against used " + used);
    }

    @Test
    @DisplayName(
            "an unfunded signer: the simulation fails (no account), the estimate stays, INSUFFICIENT_GAS_AT_SOURCE")
    void unfundedSigner() {
        var rr = h.post(h.api, "/v2/fungible/route", swapRequest());
        JsonObject route = new JsonObject(rr.body());
        String nobody = DevnetAccounts.addr(0x6a);
        JsonObject msgs = msgsFor(route, nobody);
        JsonObject entry = gasEntry(msgs, 0);
        assertEquals("ESTIMATE", entry.getString("gas_source"));
        assertEquals(gasEntry(route, 0).getString("estimated_gas"), entry.getString("estimated_gas"));
        JsonObject warning = msgs.getJsonObject("warning");
        assertNotNull(warning, msgs.encode());
        assertEquals("INSUFFICIENT_GAS_AT_SOURCE", warning.getString("type"));
        BigIntegerCheck.needs(warning.getString("message"), nobody, entry.getString("amount"));
        // without the flag, no warning
        var plain = h.post(
                h.api,
                "/v2/fungible/msgs",
                swapRequest()
                        .put("address_list", new JsonArray(List.of(nobody)))
                        .put("operations", route.getJsonArray("operations")));
        assertEquals(200, plain.statusCode(), plain.body());
        assertNull(new JsonObject(plain.body()).getValue("warning"));
        var bad = h.post(
                h.api,
                "/v2/fungible/msgs",
                swapRequest()
                        .put("address_list", new JsonArray(List.of(nobody)))
                        .put("operations", route.getJsonArray("operations"))
                        .put("enable_gas_warnings", "yes"));
        assertEquals(400, bad.statusCode(), bad.body());
        assertEquals("enable_gas_warnings must be a boolean", new JsonObject(bad.body()).getString("message"));
    }

    /** The warning's message names the signer and what the tx needs: the amount in and the fee (1000000 + fee). */
    static final class BigIntegerCheck {
        static void needs(String message, String signer, String fee) {
            String need = new java.math.BigInteger("1000000").add(new java.math.BigInteger(fee)) + "uinit";
            assertEquals(
                    signer + " on " + L1 + " holds 0uinit, its tx 0 needs " + need + " (the amount in and the gas)"
                            + tail(message),
                    message);
        }

        private static String tail(String message) {
            int i = message.indexOf("; the gas is ~$");
            return i < 0 ? "" : message.substring(i);
        }
    }
}
