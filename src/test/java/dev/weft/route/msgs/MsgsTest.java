package dev.weft.route.msgs;

import static dev.weft.route.ExpectedJson.assertExact;
import static dev.weft.route.RouteFixtures.HEX;
import static dev.weft.route.RouteFixtures.INIT_ADDR;
import static dev.weft.route.RouteFixtures.NOBLE_ADDR;
import static dev.weft.route.RouteFixtures.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.BusError;
import dev.weft.chain.Hex;
import dev.weft.route.RouteFixtures;
import dev.weft.route.RouteService;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.SwapVenue;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** /v2/fungible/msgs: exact JSON of each message variant, the encodings inside, and rejected requests. */
class MsgsTest {
    private static final String HOOK_SIGNER = "init17w0adeg64ky0daxwd2ugyuneellmjgnxdtmpqz";
    private final RouteService s = RouteFixtures.service();

    /** The msgs request a client makes from a route: the route's operations verbatim. */
    private JsonObject msgsRequest(JsonObject routeRequest, String... addresses) {
        JsonObject route = s.route(routeRequest);
        return routeRequest
                .copy()
                .put("amount_out", route.getString("amount_out"))
                .put("address_list", new JsonArray(Arrays.asList((Object[]) addresses)))
                .put("operations", route.getJsonArray("operations"))
                .put("slippage_tolerance_percent", "1");
    }

    private static JsonObject firstMsg(JsonObject response, int tx, int msg) {
        JsonObject m = response.getJsonArray("txs")
                .getJsonObject(tx)
                .getJsonObject("cosmos_tx")
                .getJsonArray("msgs")
                .getJsonObject(msg);
        return new JsonObject(m.getString("msg"));
    }

    private static String badRequest(Runnable r) {
        BusError e = assertThrows(BusError.class, r::run);
        assertEquals(400, e.httpStatus());
        return e.getMessage();
    }

    @Test
    @DisplayName(
            "MsgTransfer: one cosmos_tx on noble-1, amino JSON string, timeout now+5m in ns, legacy multi_chain_msg, min_amount_out 1%")
    void transfer() {
        JsonObject out = s.msgs(msgsRequest(
                request("1000000", "noble-1", "uusdc", "interwoven-1", RouteFixtures.USDC_INITIA),
                NOBLE_ADDR,
                INIT_ADDR));
        assertExact("msgs-transfer", out);
        assertEquals(RouteFixtures.TIMEOUT_NANOS, firstMsg(out, 0, 0).getLong("timeout_timestamp"));
    }

    @Test
    @DisplayName(
            "PFM: one MsgTransfer to the intermediate address whose memo forwards over channel-35 to the destination")
    void pfmMemo() {
        JsonObject out = s.msgs(msgsRequest(
                request("1000000", "noble-1", "uusdc", "echelon-1", RouteFixtures.USDC_ECHELON),
                NOBLE_ADDR,
                INIT_ADDR,
                INIT_ADDR));
        assertExact("msgs-pfm", out);
        JsonObject memo = new JsonObject(firstMsg(out, 0, 0).getString("memo"));
        assertEquals(
                new JsonObject()
                        .put(
                                "forward",
                                new JsonObject()
                                        .put("receiver", INIT_ADDR)
                                        .put("port", "transfer")
                                        .put("channel", "channel-35")
                                        .put("timeout", "5m")
                                        .put("retries", 2)),
                memo);
    }

    @Test
    @DisplayName("MsgInitiateTokenDeposit and MsgInitiateTokenWithdrawal through bridge 16")
    void depositAndWithdrawal() {
        assertExact(
                "msgs-deposit",
                s.msgs(msgsRequest(
                        request("2500000", "interwoven-1", "uinit", "echelon-1", RouteFixtures.INIT_ECHELON),
                        INIT_ADDR,
                        INIT_ADDR)));
        assertExact(
                "msgs-withdrawal",
                s.msgs(msgsRequest(
                        request("2500000", "echelon-1", RouteFixtures.INIT_ECHELON, "interwoven-1", "uinit"),
                        INIT_ADDR,
                        INIT_ADDR)));
    }

    @Test
    @DisplayName(
            "swap + transfer: MsgExecute 0x1::dex::swap_script with BCS args and min_return, then MsgTransfer of that minimum")
    void swapAndTransfer() {
        JsonObject out = s.msgs(msgsRequest(
                request(
                        "1000000",
                        "interwoven-1",
                        RouteFixtures.USDC_INITIA,
                        "echelon-1",
                        RouteFixtures.INIT_IBC_ROLLUP),
                INIT_ADDR,
                INIT_ADDR));
        assertExact("msgs-swap-transfer", out);
        JsonArray args = firstMsg(out, 0, 0).getJsonArray("args");
        Base64.Decoder b64 = Base64.getDecoder();
        assertArrayEquals(Denoms.moveMetadata(RouteFixtures.POOL_INIT_USDC), b64.decode(args.getString(0)));
        assertArrayEquals(Denoms.moveMetadata(RouteFixtures.USDC_INITIA), b64.decode(args.getString(1)));
        assertEquals(
                1_000_000L,
                ByteBuffer.wrap(b64.decode(args.getString(2)))
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getLong());
        byte[] min = b64.decode(args.getString(3));
        assertEquals(1, min[0], "Option::Some");
        assertEquals(
                1_974_059L,
                ByteBuffer.wrap(min, 1, 8).order(ByteOrder.LITTLE_ENDIAN).getLong()); // ⌊1993999·0.99⌋
        assertEquals("1974059", firstMsg(out, 0, 1).getJsonObject("token").getString("amount"));
    }

    @Test
    @DisplayName(
            "IBC then a stableswap swap on the L1 (Move ibc-hooks): one MsgTransfer to entry_point::swap_and_action whose memo swaps with min_return and sends the output to the user")
    void hookSwapInTransferMemo() {
        JsonObject out = s.msgs(msgsRequest(
                request("5000000", "weft-devnet-1", RouteFixtures.INIT_DEVNET, "weft-l1-1", "uinit"),
                INIT_ADDR,
                INIT_ADDR));
        assertExact("msgs-hook-swap", out);
    }

    @Test
    @DisplayName("stableswap swap_script: pool, offer and return metadata objects, amount, Some(min_return)")
    void stableswapScript() {
        SwapVenue.Pool pool = SwapVenue.Pool.stable(
                "move/" + "ab".repeat(32), "uinit", "uusdc", BigInteger.ONE, BigInteger.ONE, BigDecimal.ZERO, 100);
        JsonObject msg = CosmosMsgs.swap(
                        INIT_ADDR, pool, "uinit", "uusdc", BigInteger.valueOf(5_000_000), BigInteger.valueOf(4_950_000))
                .value();
        assertEquals("stableswap", msg.getString("module_name"));
        assertEquals(
                new JsonArray()
                        .add(Bcs.address(Hex.decode("ab".repeat(32))))
                        .add(Bcs.address(Denoms.moveMetadata("uinit")))
                        .add(Bcs.address(Denoms.moveMetadata("uusdc")))
                        .add("QEtMAAAAAAA=")
                        .add("AfCHSwAAAAAA"),
                msg.getJsonArray("args"));
    }

    @Test
    @DisplayName(
            "LayerZero evm_tx: OFT send calldata (selector c7c7f5b3), messaging fee as value, exact ERC-20 approval to the adapter")
    void layerZero() {
        JsonObject out = s.msgs(msgsRequest(
                request("5000000", "31337", RouteFixtures.USDC_EXT, "weft-devnet-1", RouteFixtures.USDC_LZ_DEVNET),
                HEX,
                INIT_ADDR));
        assertExact("msgs-layer-zero", out);
        byte[] data = Hex.decode(
                out.getJsonArray("txs").getJsonObject(0).getJsonObject("evm_tx").getString("data"));
        assertEquals("c7c7f5b3", Hex.lower(Arrays.copyOf(data, 4)));
        assertEquals(BigInteger.valueOf(128), word(data, 0)); // offset of SendParam (3 head words + fee tuple)
        assertEquals(new BigInteger("100000000000000"), word(data, 1)); // MessagingFee.nativeFee
        assertEquals(new BigInteger(HEX.substring(2), 16), word(data, 3)); // refund address
        assertEquals(BigInteger.valueOf(40397), word(data, 4)); // SendParam.dstEid
        assertEquals(new BigInteger(HEX.substring(2), 16), word(data, 5)); // SendParam.to (bytes32)
        assertEquals(BigInteger.valueOf(5_000_000), word(data, 6)); // amountLD
        assertEquals(BigInteger.valueOf(4_950_000), word(data, 7)); // minAmountLD (1% slippage)
    }

    @Test
    @DisplayName(
            "an operation's USD value is informational: the oracle price moving between /route and /msgs does not refuse the operations; its amounts still must match")
    void pricedFieldsNotCompared() {
        JsonObject req = msgsRequest(
                request("5000000", "31337", RouteFixtures.USDC_EXT, "weft-devnet-1", RouteFixtures.USDC_LZ_DEVNET),
                HEX,
                INIT_ADDR);
        JsonObject lz = req.getJsonArray("operations").getJsonObject(0).getJsonObject("layer_zero_transfer");
        assertTrue(lz.containsKey("messaging_fee_amount_usd"), "the route prices its messaging fee");
        JsonObject moved = req.copy();
        moved.getJsonArray("operations")
                .getJsonObject(0)
                .getJsonObject("layer_zero_transfer")
                .put("messaging_fee_amount_usd", "9.99");
        assertEquals(s.msgs(req), s.msgs(moved));
        JsonObject without = req.copy();
        without.getJsonArray("operations")
                .getJsonObject(0)
                .getJsonObject("layer_zero_transfer")
                .remove("messaging_fee_amount_usd");
        assertEquals(s.msgs(req), s.msgs(without));
        JsonObject fee = req.copy();
        fee.getJsonArray("operations")
                .getJsonObject(0)
                .getJsonObject("layer_zero_transfer")
                .put("messaging_fee_amount", "1");
        assertEquals(
                "operations do not match the route for this request: operations[0].layer_zero_transfer.messaging_fee_amount is \"1\", the route has \""
                        + lz.getString("messaging_fee_amount") + "\"",
                badRequest(() -> s.msgs(fee)));
    }

    /** The swap-and-transfer request as a client holds it after a quote whose swap estimated {@code estimate}. */
    private JsonObject quotedAt(String estimate) {
        JsonObject req = msgsRequest(
                request(
                        "1000000",
                        "interwoven-1",
                        RouteFixtures.USDC_INITIA,
                        "echelon-1",
                        RouteFixtures.INIT_IBC_ROLLUP),
                INIT_ADDR,
                INIT_ADDR);
        JsonArray ops = req.getJsonArray("operations");
        JsonObject swap = ops.getJsonObject(0);
        swap.put("amount_out", estimate)
                .getJsonObject("swap")
                .getJsonObject("swap_in")
                .put("estimated_amount_out", estimate)
                .put("price_impact_percent", "0.42");
        ops.getJsonObject(1).put("amount_in", estimate).put("amount_out", estimate);
        return req.put("amount_out", estimate);
    }

    @Test
    @DisplayName(
            "pools that moved between /route and /msgs: the client's estimates are accepted while the route still reaches their minimum, and the messages carry that minimum")
    void movedPoolsWithinSlippage() {
        // the route now estimates 1,993,999; a quote of 2,000,000 (the pool has moved against the user since) accepts
        // at least ⌊2,000,000 · 0.99⌋ = 1,980,000, which the pool still gives
        JsonObject out = s.msgs(quotedAt("2000000"));
        byte[] min = Base64.getDecoder()
                .decode(firstMsg(out, 0, 0).getJsonArray("args").getString(3));
        assertEquals(
                1_980_000L,
                ByteBuffer.wrap(min, 1, 8).order(ByteOrder.LITTLE_ENDIAN).getLong());
        assertEquals("1980000", firstMsg(out, 0, 1).getJsonObject("token").getString("amount"));
        assertEquals("1980000", out.getString("min_amount_out"));
        // a quote below today's estimate (the pool moved in the user's favour): its own, lower minimum
        assertEquals("1881000", s.msgs(quotedAt("1900000")).getString("min_amount_out"));
        // beyond the slippage tolerance: refused, naming both amounts
        assertEquals(
                "the pools have moved: the route now gives \"1993999\", below the minimum \"2079000\" of amount_out \"2100000\" at "
                        + "slippage_tolerance_percent 1: ask /route again",
                badRequest(() -> s.msgs(quotedAt("2100000"))));
        assertEquals(
                "1974000",
                s.msgs(quotedAt("2100000").put("slippage_tolerance_percent", "6"))
                        .getString("min_amount_out"));
        // the estimates must add up: the transfer moves what the swap gives, and amount_out is the operations'
        JsonObject gap = quotedAt("2000000");
        gap.getJsonArray("operations")
                .getJsonObject(1)
                .put("amount_in", "1993999")
                .put("amount_out", "1993999");
        assertEquals(
                "operations[1].amount_in is \"1993999\", the operation before gives \"2000000\"",
                badRequest(() -> s.msgs(gap)));
        JsonObject notAmount = quotedAt("2000000");
        notAmount.getJsonArray("operations").getJsonObject(1).put("amount_out", "2.5");
        assertEquals(
                "operations[1].amount_out must be a positive integer in base units (got \"2.5\")",
                badRequest(() -> s.msgs(notAmount)));
        JsonObject noAmount = quotedAt("2000000");
        noAmount.getJsonArray("operations").getJsonObject(1).remove("amount_in");
        assertEquals("operations[1].amount_in is required", badRequest(() -> s.msgs(noAmount)));
        assertEquals(
                "amount_out is \"1990000\", the operations give \"2000000\"",
                badRequest(() -> s.msgs(quotedAt("2000000").put("amount_out", "1990000"))));
        // anything but the estimates still has to be the route's
        JsonObject channel = quotedAt("2000000");
        channel.getJsonArray("operations")
                .getJsonObject(1)
                .getJsonObject("transfer")
                .put("channel", "channel-3");
        assertEquals(
                "operations do not match the route for this request: operations[1].transfer.channel is \"channel-3\", the route has \"channel-35\"",
                badRequest(() -> s.msgs(channel)));
        JsonObject input = quotedAt("2000000");
        input.getJsonArray("operations").getJsonObject(0).put("amount_in", "999999");
        assertEquals(
                "operations[0].amount_in is \"999999\", the route has \"1000000\"", badRequest(() -> s.msgs(input)));
    }

    private static BigInteger word(byte[] calldata, int i) {
        return new BigInteger(1, Arrays.copyOfRange(calldata, 4 + 32 * i, 4 + 32 * (i + 1)));
    }

    @Test
    @DisplayName(
            "EVM-signed minievm source: evm_tx to the Cosmos precompile, execute_cosmos(string,uint64) carrying the withdrawal")
    void evmSignedWithdrawal() {
        JsonObject out = s.msgs(msgsRequest(
                request("1000000", "weft-devnet-1", RouteFixtures.USDC_DEVNET_ERC20, "weft-l1-1", "uusdc"),
                HEX,
                INIT_ADDR));
        assertExact("msgs-evm-withdrawal", out);
        byte[] data = Hex.decode(
                out.getJsonArray("txs").getJsonObject(0).getJsonObject("evm_tx").getString("data"));
        assertEquals("56c657a5", Hex.lower(Arrays.copyOf(data, 4)));
        assertEquals(BigInteger.valueOf(500_000), word(data, 1));
        int len = word(data, 2).intValue();
        JsonObject msg =
                new JsonObject(new String(Arrays.copyOfRange(data, 4 + 96, 4 + 96 + len), StandardCharsets.UTF_8));
        assertEquals(
                new JsonObject()
                        .put("@type", "/opinit.opchild.v1.MsgInitiateTokenWithdrawal")
                        .put("sender", INIT_ADDR)
                        .put("to", INIT_ADDR)
                        .put(
                                "amount",
                                new JsonObject()
                                        .put("denom", RouteFixtures.USDC_DEVNET)
                                        .put("amount", "1000000")),
                msg);
    }

    @Test
    @DisplayName("deposit into the wrapped INIT carries the signed OP hook (a real initia.js signed tx) as data")
    void hookDeposit() throws IOException {
        String hook = new JsonObject(Files.readString(dev.weft.testsupport.FixtureChain.FIXTURES.resolve(
                        "initia-js-offline/signed_tx_msgsend_msgcall.json")))
                .getString("tx_base64");
        JsonObject req = msgsRequest(
                request("5000000", "weft-l1-1", "uinit", "weft-devnet-1", RouteFixtures.WINIT_DEVNET),
                INIT_ADDR,
                HOOK_SIGNER);
        assertEquals(
                "signed_op_hook is required: the route has required_op_hook true (get the hook from /op-hook and sign it)",
                badRequest(() -> s.msgs(req)));
        assertEquals(
                "signed_op_hook.signer must be the recipient on weft-devnet-1 (" + HOOK_SIGNER + ")",
                badRequest(() -> s.msgs(req.copy()
                        .put(
                                "signed_op_hook",
                                new JsonObject().put("signer", INIT_ADDR).put("hook", hook)))));
        assertEquals(
                "signed_op_hook.hook is not a base64 signed Cosmos tx",
                badRequest(() -> s.msgs(req.copy()
                        .put(
                                "signed_op_hook",
                                new JsonObject().put("signer", HOOK_SIGNER).put("hook", "bm90IGEgdHg=")))));
        JsonObject out = s.msgs(req.copy()
                .put(
                        "signed_op_hook",
                        new JsonObject().put("signer", HOOK_SIGNER).put("hook", hook)));
        assertExact("msgs-hook-deposit", out);
        JsonObject plain = msgsRequest(
                request("2500000", "interwoven-1", "uinit", "echelon-1", RouteFixtures.INIT_ECHELON),
                INIT_ADDR,
                INIT_ADDR);
        assertEquals(
                "signed_op_hook is only accepted when the route has required_op_hook true",
                badRequest(() -> s.msgs(plain.put(
                        "signed_op_hook",
                        new JsonObject().put("signer", INIT_ADDR).put("hook", hook)))));
    }

    @Test
    @DisplayName("operations that are not the route's are rejected, naming the first difference")
    void operationsMustMatch() {
        JsonObject req = msgsRequest(
                request("1000000", "noble-1", "uusdc", "echelon-1", RouteFixtures.USDC_ECHELON),
                NOBLE_ADDR,
                INIT_ADDR,
                INIT_ADDR);
        JsonObject wrongChannel = req.copy();
        wrongChannel
                .getJsonArray("operations")
                .getJsonObject(1)
                .getJsonObject("transfer")
                .put("channel", "channel-3");
        assertEquals(
                "operations do not match the route for this request: operations[1].transfer.channel is \"channel-3\", the route has \"channel-35\"",
                badRequest(() -> s.msgs(wrongChannel)));
        JsonObject dropped = req.copy();
        dropped.getJsonArray("operations").remove(1);
        assertEquals(
                "operations do not match the route for this request: operations has 1 entries, the route has 2",
                badRequest(() -> s.msgs(dropped)));
        JsonObject amount = req.copy();
        amount.getJsonArray("operations").getJsonObject(0).put("amount_out", "999999");
        assertEquals(
                "operations do not match the route for this request: operations[0].amount_out is \"999999\", the route has \"1000000\"",
                badRequest(() -> s.msgs(amount)));
        JsonObject extra = req.copy();
        extra.getJsonArray("operations")
                .getJsonObject(0)
                .getJsonObject("transfer")
                .put("smart_relay_fee_quote", new JsonObject());
        assertEquals(
                "operations do not match the route for this request: operations[0].transfer.smart_relay_fee_quote is not part of the route",
                badRequest(() -> s.msgs(extra)));
        assertEquals(
                "amount_out is \"5\", the route gives \"1000000\"",
                badRequest(() -> s.msgs(req.copy().put("amount_out", "5"))));
        // operations of another request (the OP deposit route) for this request
        JsonObject other = msgsRequest(
                request("1000000", "interwoven-1", "uinit", "echelon-1", RouteFixtures.INIT_ECHELON),
                INIT_ADDR,
                INIT_ADDR);
        assertEquals(
                "operations do not match the route for this request: operations has 1 entries, the route has 2",
                badRequest(() -> s.msgs(req.copy().put("operations", other.getJsonArray("operations")))));
    }

    @Test
    @DisplayName(
            "post_route_handler is refused (400), not silently dropped; affiliates whose bps do not sum to the route's cumulative_affiliate_fee_bps are a 400; an empty affiliates map passes")
    void unsupportedFeatures() {
        JsonObject req = msgsRequest(
                request("1000000", "noble-1", "uusdc", "interwoven-1", RouteFixtures.USDC_INITIA),
                NOBLE_ADDR,
                INIT_ADDR);
        JsonObject handler = new JsonObject()
                .put(
                        "wasm_msg",
                        new JsonObject().put("contract_address", "osmo1x").put("msg", "{}"));
        assertEquals(
                "post_route_handler is not supported: the route ends with the transfer to the last address of address_list",
                badRequest(() -> s.msgs(req.copy().put("post_route_handler", handler))));
        JsonObject affiliates = new JsonObject()
                .put(
                        "noble-1",
                        new JsonObject()
                                .put(
                                        "affiliates",
                                        new JsonArray()
                                                .add(new JsonObject()
                                                        .put("address", NOBLE_ADDR)
                                                        .put("basis_points_fee", "50"))));
        assertEquals(
                "chain_ids_to_affiliates.noble-1: the basis_points_fee sum to 50, cumulative_affiliate_fee_bps is 0",
                badRequest(() -> s.msgs(req.copy().put("chain_ids_to_affiliates", affiliates))));
        s.msgs(req.copy()
                .put(
                        "chain_ids_to_affiliates",
                        new JsonObject().put("noble-1", new JsonObject().put("affiliates", new JsonArray()))));
    }

    @Test
    @DisplayName("address_list: one per required chain, each in its chain's form (bech32 prefix, or 0x on EVM)")
    void addresses() {
        JsonObject req = msgsRequest(
                request("1000000", "noble-1", "uusdc", "echelon-1", RouteFixtures.USDC_ECHELON),
                NOBLE_ADDR,
                INIT_ADDR,
                INIT_ADDR);
        assertEquals(
                "address_list has 2 addresses, the route needs 3 (one per required_chain_addresses entry: noble-1, interwoven-1, echelon-1)",
                badRequest(() -> s.msgs(req.copy()
                        .put("address_list", new JsonArray().add(NOBLE_ADDR).add(INIT_ADDR)))));
        assertEquals(
                "address_list[0] \"" + INIT_ADDR
                        + "\" is not a valid address for noble-1 (expected bech32 with prefix \"noble\")",
                badRequest(() -> s.msgs(req.copy()
                        .put(
                                "address_list",
                                new JsonArray().add(INIT_ADDR).add(INIT_ADDR).add(INIT_ADDR)))));
        assertEquals(
                "address_list[2] \"" + HEX
                        + "\" is not a valid address for echelon-1 (expected bech32 with prefix \"init\")",
                badRequest(() -> s.msgs(req.copy()
                        .put(
                                "address_list",
                                new JsonArray().add(NOBLE_ADDR).add(INIT_ADDR).add(HEX)))));
        String broken = INIT_ADDR.substring(0, INIT_ADDR.length() - 1) + (INIT_ADDR.endsWith("q") ? "p" : "q");
        assertEquals(
                "address_list[1] \"" + broken
                        + "\" is not a valid address for interwoven-1 (expected bech32 with prefix \"init\")",
                badRequest(() -> s.msgs(req.copy()
                        .put(
                                "address_list",
                                new JsonArray().add(NOBLE_ADDR).add(broken).add(INIT_ADDR)))));
        JsonObject lz = msgsRequest(
                request("5000000", "31337", RouteFixtures.USDC_EXT, "weft-devnet-1", RouteFixtures.USDC_LZ_DEVNET),
                INIT_ADDR,
                INIT_ADDR);
        assertEquals(
                "address_list[0] \"" + INIT_ADDR
                        + "\" is not a valid address for 31337 (expected a 0x address of 20 bytes)",
                badRequest(() -> s.msgs(lz)));
        // a minievm rollup takes the same account as 0x
        s.msgs(lz.copy().put("address_list", new JsonArray().add(HEX).add(HEX)));
    }

    @Test
    @DisplayName(
            "slippage_tolerance_percent: default 1, 0..100, lowers min_amount_out of swap routes only; u64 limit of Move swaps; timeout_seconds overrides the IBC timeout")
    void slippageAndTimeout() {
        JsonObject req = msgsRequest(
                request("1000000", "noble-1", "uusdc", "interwoven-1", RouteFixtures.USDC_INITIA),
                NOBLE_ADDR,
                INIT_ADDR);
        assertEquals(
                "1000000",
                s.msgs(req.copy().put("slippage_tolerance_percent", "0")).getString("min_amount_out"));
        assertEquals(
                "1000000",
                s.msgs(req.copy().put("slippage_tolerance_percent", 2.5)).getString("min_amount_out"),
                "a transfer loses nothing");
        JsonObject noSlippage = req.copy();
        noSlippage.remove("slippage_tolerance_percent");
        assertEquals("1000000", s.msgs(noSlippage).getString("min_amount_out"));
        JsonObject swap = msgsRequest(
                request("1000000", "interwoven-1", RouteFixtures.USDC_INITIA, "interwoven-1", "uinit"), INIT_ADDR);
        String out = s.route(request("1000000", "interwoven-1", RouteFixtures.USDC_INITIA, "interwoven-1", "uinit"))
                .getString("amount_out");
        assertEquals(
                new java.math.BigDecimal(out)
                        .multiply(new java.math.BigDecimal("0.975"))
                        .setScale(0, java.math.RoundingMode.FLOOR)
                        .toString(),
                s.msgs(swap.copy().put("slippage_tolerance_percent", 2.5)).getString("min_amount_out"));
        assertEquals(
                "slippage_tolerance_percent must be a decimal between 0 and 100 (got \"101\")",
                badRequest(() -> s.msgs(req.copy().put("slippage_tolerance_percent", "101"))));
        // InitiaDEX takes a u64 offer amount: there is no swap of more
        BusError tooBig = assertThrows(
                BusError.class,
                () -> msgsRequest(
                        request(
                                "18446744073709551616",
                                "interwoven-1",
                                RouteFixtures.USDC_INITIA,
                                "interwoven-1",
                                "uinit"),
                        INIT_ADDR));
        assertEquals(404, tooBig.httpStatus());
        assertTrue(tooBig.getMessage().startsWith("no route found from interwoven-1"), tooBig.getMessage());
        JsonObject t = s.msgs(req.copy().put("timeout_seconds", 60));
        assertEquals(
                (RouteFixtures.NOW.getEpochSecond() + 60) * 1_000_000_000L,
                firstMsg(t, 0, 0).getLong("timeout_timestamp"));
    }
}
