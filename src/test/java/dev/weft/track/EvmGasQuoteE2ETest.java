package dev.weft.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.testsupport.AnvilNode;
import dev.weft.testsupport.LayerZeroSource;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * EVM gas in the quote, on a real Anvil source (31337, the devnet registry's LayerZero lane): {@code /route} quotes the
 * OFT send from {@code route.gas.layer_zero} at the chain's {@code eth_gasPrice} (read at start and cached, the
 * registry has no price for the chain), {@code /msgs} from {@code eth_estimateGas} of the exact {@code evm_tx} it
 * returns; the send broadcast as returned uses within 10 % of both. {@code enable_gas_warnings} reads the signer's
 * {@code eth_getBalance}.
 */
class EvmGasQuoteE2ETest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String DEVNET = "weft-devnet-1";
    static LayerZeroSource source;
    static TrackingHarness h;

    @BeforeAll
    static void start() throws Exception {
        source = LayerZeroSource.start();
        weft.closeAfter(source);
        source.mint(AnvilNode.ACCOUNT1, 100_000_000);
        source.approve(AnvilNode.ACCOUNT1, 100_000_000);
        h = TrackingHarness.start(
                weft,
                TrackingHarness.config()
                        .set(
                                "route.gas.chains",
                                new JsonObject()
                                        .put(
                                                LayerZeroSource.CHAIN,
                                                new JsonObject().put("json_rpc", new JsonArray().add(source.url())))));
    }

    static JsonObject request() {
        return new JsonObject()
                .put("amount_in", "7000")
                .put("source_asset_chain_id", LayerZeroSource.CHAIN)
                .put("source_asset_denom", LayerZeroSource.TOKEN)
                .put("dest_asset_chain_id", DEVNET)
                .put("dest_asset_denom", LayerZeroSource.DEST_DENOM);
    }

    static JsonObject gas(JsonObject answer) {
        for (Object o : answer.getJsonArray("estimated_fees")) {
            JsonObject f = (JsonObject) o;
            if ("GAS".equals(f.getString("fee_type"))) return f;
        }
        return null;
    }

    /** The route once the chain's price is read (the node reads it at start: polled with a deadline). */
    static JsonObject route() {
        return TrackingHarness.await(
                () -> {
                    var r = h.post(h.api, "/v2/fungible/route", request());
                    assertEquals(200, r.statusCode(), r.body());
                    JsonObject route = new JsonObject(r.body());
                    return gas(route) == null ? null : route;
                },
                "a GAS entry for the OFT send");
    }

    static JsonObject msgs(JsonObject route, String signer, boolean warnings) {
        String recipient = AccountAddress.of(Hex.decode(AnvilNode.ACCOUNT2)).bech32("init");
        JsonObject body = request()
                .put("address_list", new JsonArray(List.of(signer, recipient)))
                .put("operations", route.getJsonArray("operations"));
        if (warnings) body.put("enable_gas_warnings", true);
        var r = h.post(h.api, "/v2/fungible/msgs", body);
        assertEquals(200, r.statusCode(), r.body());
        return new JsonObject(r.body());
    }

    static BigInteger rpcQuantity(String method, JsonArray params) throws Exception {
        return new BigInteger(((String) source.anvil().rpc(method, params)).substring(2), 16);
    }

    @Test
    @DisplayName(
            "the OFT send: /route's ESTIMATE and /msgs' SIMULATION (eth_estimateGas of the evm_tx) against the broadcast receipt's gasUsed within 10 %, priced at eth_gasPrice in the native gas token")
    void quotedAgainstUsed() throws Exception {
        BigInteger price = rpcQuantity("eth_gasPrice", new JsonArray());
        JsonObject route = route();
        JsonObject quoted = gas(route);
        assertEquals("ESTIMATE", quoted.getString("gas_source"));
        assertEquals(LayerZeroSource.CHAIN, quoted.getString("chain_id"));
        assertEquals(0, quoted.getInteger("tx_index"));
        assertEquals(0, quoted.getInteger("operation_index"));
        assertEquals("weft-ext-evm-native", quoted.getJsonObject("origin_asset").getString("denom"));
        assertEquals(18, quoted.getJsonObject("origin_asset").getInteger("decimals"));
        assertEquals("FEE_BEHAVIOR_ADDITIONAL", quoted.getString("fee_behavior"));
        assertEquals(price.toString(), quoted.getString("gas_price"));

        JsonObject msgs = msgs(route, AnvilNode.ACCOUNT1, true);
        assertNull(msgs.getValue("warning"), msgs.encode());
        JsonObject simulated = gas(msgs);
        assertEquals("SIMULATION", simulated.getString("gas_source"), simulated.encode());
        long estimated = Long.parseLong(simulated.getString("estimated_gas"));
        assertEquals((long) Math.ceil(estimated * 1.5), Long.parseLong(simulated.getString("gas_limit")));
        assertEquals(price.toString(), simulated.getString("gas_price"));
        assertEquals(
                new BigDecimal(estimated)
                        .multiply(new BigDecimal(price))
                        .setScale(0, RoundingMode.CEILING)
                        .toString(),
                simulated.getString("amount"));
        // Skip's EvmTx shape has no gas field: the evm_tx is Skip's, the limit is the GAS entry's
        JsonObject evm = msgs.getJsonArray("txs").getJsonObject(0).getJsonObject("evm_tx");
        assertEquals(
                java.util.Set.of("chain_id", "to", "value", "data", "signer_address", "required_erc20_approvals"),
                evm.fieldNames());

        // the tx as returned, with the quoted limit, broadcast: its receipt's gasUsed
        String hash = source.anvil()
                .send(
                        AnvilNode.ACCOUNT1,
                        evm.getString("to"),
                        "0x" + evm.getString("data"),
                        "0x" + new BigInteger(evm.getString("value")).toString(16),
                        Long.parseLong(simulated.getString("gas_limit")));
        JsonObject receipt = source.anvil().receipt(hash);
        assertEquals("0x1", receipt.getString("status"));
        long used = Long.decode(receipt.getString("gasUsed"));
        long table = Long.parseLong(quoted.getString("estimated_gas"));
        System.out.println(
                "EVM gas: route.gas.layer_zero " + table + ", eth_estimateGas " + estimated + ", used " + used);
        assertTrue(Math.abs(estimated - used) <= used / 10, "simulated " + estimated + " against used " + used);
        assertTrue(Math.abs(table - used) <= used / 10, "quoted " + table + " against used " + used);
    }

    @Test
    @DisplayName(
            "a signer without ether: eth_estimateGas fails, the estimate stays, INSUFFICIENT_GAS_AT_SOURCE names the value and the gas")
    void unfundedSigner() throws Exception {
        JsonObject route = route();
        String nobody = "0x00000000000000000000000000000000000a11ce";
        JsonObject msgs = msgs(route, nobody, true);
        JsonObject entry = gas(msgs);
        assertEquals("ESTIMATE", entry.getString("gas_source"), entry.encode());
        assertEquals(gas(route).getString("estimated_gas"), entry.getString("estimated_gas"));
        JsonObject warning = msgs.getJsonObject("warning");
        assertNotNull(warning, msgs.encode());
        assertEquals("INSUFFICIENT_GAS_AT_SOURCE", warning.getString("type"));
        BigInteger need = new BigInteger(entry.getString("amount")).add(LayerZeroSource.FEE);
        String shown = AccountAddress.of(Hex.decode(nobody)).checksumHex();
        assertTrue(
                warning.getString("message")
                        .startsWith(shown + " on 31337 holds 0weft-ext-evm-native, its tx 0 needs " + need
                                + "weft-ext-evm-native (the value and the gas)"),
                warning.getString("message"));
        assertNull(msgs(route, nobody, false).getValue("warning"));
    }
}
