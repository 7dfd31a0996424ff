package dev.weft.track;

import static dev.weft.testsupport.DevnetAccounts.ALICE;
import static dev.weft.testsupport.DevnetAccounts.BOB;
import static dev.weft.track.TrackingE2ETest.hashOf;
import static dev.weft.track.TrackingE2ETest.ibc;
import static dev.weft.track.TrackingE2ETest.packetError;
import static dev.weft.track.TrackingE2ETest.release;
import static dev.weft.track.TrackingE2ETest.seq;
import static dev.weft.track.TrackingE2ETest.status;
import static dev.weft.track.TrackingE2ETest.tx;
import static dev.weft.track.TrackingHarness.normalized;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.devnet.exec.IbcAddresses;
import dev.weft.route.msgs.CosmosMsgs;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.SwapVenue;
import dev.weft.testsupport.RelayedTxs;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Swaps on the devnet, tracked end to end. A route swapping on the L1 broadcast with its {@code min_amount_out} (1 %
 * slippage) after the pool moved more than that fails on chain with the module's abort, and the status says so.
 * Transfer then swap in one tx: USDC on weft-devnet-1 → INIT on weft-l1-1 is one {@code MsgTransfer}
 * whose memo calls Skip's Move entry point through the L1's ibc-hooks. On arrival the coins go to the hook's
 * intermediate account, the swap runs against the current reserves and the output goes to the user; when the pool
 * moved more than the slippage since the quote, the call aborts, the ack is the hook's error and the source refunds,
 * and the tracker reports it. USDC → ETH, which has no pair, goes through INIT: two pools in one swap operation, quoted
 * as the chain's chained simulations and executed by one call of the entry point.
 */
class SwapTrackingE2ETest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1", EVM = "weft-devnet-1";
    static final String USDC_IBC = Denoms.ibc("transfer/channel-0/uusdc");
    static final String ENTRY_POINT = "0x5c1f";
    static TrackingHarness h;

    @BeforeAll
    static void start() {
        h = TrackingHarness.start(weft, TrackingHarness.config());
    }

    static JsonObject route(String amount) {
        var r = h.post(
                h.api,
                "/v2/fungible/route",
                new JsonObject()
                        .put("amount_in", amount)
                        .put("source_asset_chain_id", EVM)
                        .put("source_asset_denom", USDC_IBC)
                        .put("dest_asset_chain_id", L1)
                        .put("dest_asset_denom", "uinit"));
        assertEquals(200, r.statusCode(), r.body());
        return new JsonObject(r.body());
    }

    /** The one MsgTransfer of a msgs answer, after checking it is one tx of one message. */
    static JsonObject transferOf(JsonObject msgs) {
        JsonArray txs = msgs.getJsonArray("txs");
        assertEquals(1, txs.size(), msgs.encode());
        assertEquals(new JsonArray().add(0).add(1), txs.getJsonObject(0).getJsonArray("operations_indices"));
        JsonArray list = txs.getJsonObject(0).getJsonObject("cosmos_tx").getJsonArray("msgs");
        assertEquals(1, list.size());
        assertEquals(CosmosMsgs.TRANSFER, list.getJsonObject(0).getString("msg_type_url"));
        return new JsonObject(list.getJsonObject(0).getString("msg"));
    }

    @Test
    @DisplayName(
            "IBC then swap is one tx: the transfer's memo swaps on arrival at the L1, the output reaches the user, COMPLETED_SUCCESS")
    void oneTx() {
        JsonObject route = route("1000000");
        assertEquals(1, route.getInteger("txs_required"));
        JsonArray ops = route.getJsonArray("operations");
        assertEquals(0, ops.getJsonObject(0).getInteger("tx_index"));
        assertEquals(0, ops.getJsonObject(1).getInteger("tx_index"));
        assertEquals(
                ENTRY_POINT,
                ops.getJsonObject(0).getJsonObject("transfer").getString("to_chain_entry_contract_address"));
        String pool = swapPool(route, 1);

        JsonObject msgs = h.msgs("1000000", EVM, USDC_IBC, L1, "uinit", List.of(BOB, ALICE), null);
        JsonObject transfer = transferOf(msgs);
        assertEquals(ENTRY_POINT + "::entry_point::swap_and_action", transfer.getString("receiver"));
        BigInteger minOut = new BigInteger(msgs.getString("min_amount_out"));
        JsonObject memo = new JsonObject(transfer.getString("memo"));
        JsonObject expectedMemo = CosmosMsgs.moveHookSwap(
                ENTRY_POINT,
                List.of(SwapVenue.Pool.weighted(
                        pool, "uusdc", "uinit", BigInteger.ONE, BigInteger.ONE, BigDecimal.ZERO)),
                List.of("uusdc", "uinit"),
                new BigInteger("1000000"),
                minOut,
                ALICE,
                transfer.getLong("timeout_timestamp"));
        assertEquals(expectedMemo, memo);

        JsonObject commit = h.broadcast(msgs, null);
        String hash = commit.getString("hash");
        h.track(hash, EVM);
        JsonObject status = awaitFinal(hash, "STATE_COMPLETED_SUCCESS");
        String s = seq(commit, "send_packet");
        JsonObject recv =
                h.awaitTx(L1, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s + "'");
        String ack = hashOf(h.awaitTx(
                EVM,
                "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + s
                        + "'"));
        // the coins reached the hook's intermediate account, which swapped them and sent the output to the user
        String intermediate = IbcAddresses.moveHookIntermediary("channel-0", BOB, "init");
        List<JsonObject> transfers = RelayedTxs.attributes(recv.getJsonObject("tx_result"), "transfer");
        JsonObject toUser = transfers.get(transfers.size() - 1);
        assertEquals(intermediate, toUser.getString("sender"));
        assertEquals(ALICE, toUser.getString("recipient"));
        String amount = toUser.getString("amount");
        assertTrue(amount.endsWith("uinit"), amount);
        BigInteger out = new BigInteger(amount.substring(0, amount.length() - "uinit".length()));
        // transfer_asset_release names what the recipient's balance gained: the swap's output, not the voucher
        JsonArray seqs = new JsonArray()
                .add(ibc(EVM, L1, "TRANSFER_SUCCESS", tx(EVM, hash), tx(L1, hashOf(recv)), tx(EVM, ack), null, null));
        assertEquals(
                status("STATE_COMPLETED_SUCCESS", seqs, null, release(L1, "uinit", out.toString(), true), null),
                normalized(status));
        assertTrue(
                out.compareTo(minOut) >= 0 && out.compareTo(new BigInteger(route.getString("amount_out"))) <= 0,
                out + " vs " + route.encode());
        assertEquals(1, swapEvents(recv.getJsonObject("tx_result")));
    }

    /** The DEX's {@code SwapEvent}s among a tx's {@code move} events (the Move chains also log every coin movement's). */
    static long swapEvents(JsonObject txResult) {
        return RelayedTxs.attributes(txResult, "move").stream()
                .filter(a -> a.getString("type_tag", "").endsWith("::SwapEvent"))
                .count();
    }

    /**
     * The status once final and its IBC hop's receive tx is known too: the tracker may see the source's ack before the
     * destination's recv tx, and fills the latter when it does.
     */
    static JsonObject awaitFinal(String hash, String state) {
        return TrackingHarness.await(
                () -> {
                    var r = h.status(hash, EVM);
                    if (r.statusCode() != 200) return null;
                    JsonObject st = new JsonObject(r.body());
                    JsonArray seq = st.getJsonArray("transfer_sequence");
                    boolean received = !seq.isEmpty()
                            && seq.getJsonObject(0)
                                            .getJsonObject("ibc_transfer")
                                            .getJsonObject("packet_txs")
                                            .getValue("receive_tx")
                                    != null;
                    return st.getString("state").equals(state) && received ? st : null;
                },
                hash + " reaching " + state + " with its receive tx");
    }

    /** Swaps {@code amount} uusdc for uinit through {@code pool} on the L1 (no minimum): moves the pool's price. */
    static void movePool(String pool, String amount) {
        CosmosMsgs.Msg big = CosmosMsgs.swap(
                ALICE,
                SwapVenue.Pool.weighted(pool, "uusdc", "uinit", BigInteger.ONE, BigInteger.ONE, BigDecimal.ZERO),
                "uusdc",
                "uinit",
                new BigInteger(amount),
                BigInteger.ONE);
        h.broadcast(
                new JsonObject()
                        .put(
                                "txs",
                                new JsonArray()
                                        .add(new JsonObject()
                                                .put(
                                                        "cosmos_tx",
                                                        new JsonObject()
                                                                .put("chain_id", L1)
                                                                .put("signer_address", ALICE)
                                                                .put("msgs", new JsonArray().add(big.json()))))),
                "uinit");
    }

    static String swapPool(JsonObject route, int op) {
        return route.getJsonArray("operations")
                .getJsonObject(op)
                .getJsonObject("swap")
                .getJsonObject("swap_in")
                .getJsonArray("swap_operations")
                .getJsonObject(0)
                .getString("pool");
    }

    /** {@code dex::get_swap_simulation(pair, offer, amount)} on the L1's view endpoint. */
    static BigInteger simulate(String pool, String offerDenom, BigInteger amount) {
        String pair = "0x" + pool.substring("move/".length());
        String offer = "0x" + dev.weft.chain.Hex.lower(Denoms.moveMetadata(offerDenom));
        JsonObject req = new JsonObject()
                .put("address", "0x1")
                .put("module_name", "dex")
                .put("function_name", "get_swap_simulation")
                .put("type_args", new JsonArray())
                .put(
                        "args",
                        new JsonArray()
                                .add("\"" + pair + "\"")
                                .add("\"" + offer + "\"")
                                .add("\"" + amount + "\""));
        int rest = dev.weft.devnet.DevnetEndpoints.of(h.node().context().info())
                .chain(L1)
                .orElseThrow()
                .restPort();
        var r = h.post(rest, "/initia/move/v1/view/json", req);
        assertEquals(200, r.statusCode(), r.body());
        return new BigInteger(new JsonObject(r.body()).getString("data").replace("\"", ""));
    }

    @Test
    @DisplayName(
            "USDC → ETH on the L1 has no pair: the route swaps through INIT (two pools, one swap operation); amount_out equals the pools' chained get_swap_simulation; one MsgExecute of the entry point executes it")
    void multiPool() {
        // the route's pool state and the chain's views agree once the route role has read the latest block
        JsonObject route = TrackingHarness.await(
                () -> {
                    var res = h.post(
                            h.api,
                            "/v2/fungible/route",
                            new JsonObject()
                                    .put("amount_in", "5000000")
                                    .put("source_asset_chain_id", L1)
                                    .put("source_asset_denom", "uusdc")
                                    .put("dest_asset_chain_id", L1)
                                    .put("dest_asset_denom", "ueth"));
                    if (res.statusCode() != 200) return null;
                    JsonObject r = new JsonObject(res.body());
                    JsonArray swapOps = r.getJsonArray("operations")
                            .getJsonObject(0)
                            .getJsonObject("swap")
                            .getJsonObject("swap_in")
                            .getJsonArray("swap_operations");
                    BigInteger amount = new BigInteger("5000000");
                    for (Object o : swapOps)
                        amount = simulate(
                                ((JsonObject) o).getString("pool"), ((JsonObject) o).getString("denom_in"), amount);
                    return amount.toString().equals(r.getString("amount_out")) ? r : null;
                },
                "a USDC → ETH quote equal to the chain's chained simulations");
        JsonArray ops = route.getJsonArray("operations");
        assertEquals(1, ops.size());
        JsonArray swapOps = ops.getJsonObject(0)
                .getJsonObject("swap")
                .getJsonObject("swap_in")
                .getJsonArray("swap_operations");
        assertEquals(
                List.of("uusdc", "uinit"),
                List.of(
                        swapOps.getJsonObject(0).getString("denom_in"),
                        swapOps.getJsonObject(0).getString("denom_out")));
        assertEquals(
                List.of("uinit", "ueth"),
                List.of(
                        swapOps.getJsonObject(1).getString("denom_in"),
                        swapOps.getJsonObject(1).getString("denom_out")));
        assertEquals(1, route.getInteger("txs_required"));
        assertEquals(
                new JsonArray()
                        .add(new JsonObject()
                                .put("name", "initia-dex")
                                .put("chain_id", L1)
                                .putNull("logo_uri")),
                route.getJsonArray("swap_venues"));

        JsonObject msgs = h.msgs("5000000", L1, "uusdc", L1, "ueth", List.of(ALICE), null);
        JsonArray list = msgs.getJsonArray("txs")
                .getJsonObject(0)
                .getJsonObject("cosmos_tx")
                .getJsonArray("msgs");
        assertEquals(1, list.size());
        JsonObject exec = new JsonObject(list.getJsonObject(0).getString("msg"));
        assertEquals(
                List.of(ENTRY_POINT, "entry_point", "swap_and_action"),
                List.of(
                        exec.getString("module_address"),
                        exec.getString("module_name"),
                        exec.getString("function_name")));
        JsonObject commit = h.broadcast(msgs, "uinit");
        JsonObject result = commit.getJsonObject("tx_result");
        assertEquals(2, swapEvents(result));
        List<JsonObject> transfers = RelayedTxs.attributes(result, "transfer");
        JsonObject toUser = transfers.get(transfers.size() - 1);
        assertEquals(ALICE, toUser.getString("recipient"));
        String amount = toUser.getString("amount");
        assertTrue(amount.endsWith("ueth"), amount);
        BigInteger out = new BigInteger(amount.substring(0, amount.length() - "ueth".length()));
        assertTrue(
                out.compareTo(new BigInteger(msgs.getString("min_amount_out"))) >= 0,
                out + " vs " + msgs.getString("min_amount_out"));
    }

    @Test
    @DisplayName(
            "an L1 swap broadcast with min_amount_out (1 %) after the pool moved more than that: the tx fails with EMIN_RETURN (196611), status COMPLETED_ERROR with the execution error")
    void failedSwapTracked() {
        var res = h.post(
                h.api,
                "/v2/fungible/route",
                new JsonObject()
                        .put("amount_in", "3000000")
                        .put("source_asset_chain_id", L1)
                        .put("source_asset_denom", "uusdc")
                        .put("dest_asset_chain_id", L1)
                        .put("dest_asset_denom", "uinit"));
        assertEquals(200, res.statusCode(), res.body());
        JsonArray swapOps = new JsonObject(res.body())
                .getJsonArray("operations")
                .getJsonObject(0)
                .getJsonObject("swap")
                .getJsonObject("swap_in")
                .getJsonArray("swap_operations");
        JsonObject msgs = h.msgs("3000000", L1, "uusdc", L1, "uinit", List.of(ALICE), null);
        JsonObject exec = new JsonObject(msgs.getJsonArray("txs")
                .getJsonObject(0)
                .getJsonObject("cosmos_tx")
                .getJsonArray("msgs")
                .getJsonObject(0)
                .getString("msg"));
        // the pool USDC enters first (a weighted pair: every devnet pool with USDC is one)
        movePool(swapOps.getJsonObject(0).getString("pool"), "40000000000");

        JsonObject commit = h.broadcastResult(msgs, "uinit");
        // one pool: 0x1::dex::swap_script's EMIN_RETURN; two pools: the entry point's adaptor's EMIN_AMOUNT
        String location;
        if (swapOps.size() == 1) {
            location = "0".repeat(63) + "1::" + exec.getString("module_name") + ", code=196611";
        } else {
            byte[] venues = java.util.Base64.getDecoder()
                    .decode(exec.getJsonArray("args").getString(0)); // BCS vector<u8>
            location = "0".repeat(60) + "5c1f::" + (venues[venues.length - 1] == 1 ? "initia_stableswap" : "initia_dex")
                    + ", code=196610";
        }
        assertEquals(swapOps.size() == 1 ? "swap_script" : "swap_and_action", exec.getString("function_name"));
        String log = "failed to execute message; message index: 0: VM aborted: location=" + location;
        assertEquals(2, commit.getJsonObject("tx_result").getInteger("code"));
        assertEquals("move", commit.getJsonObject("tx_result").getString("codespace"));
        assertEquals(log, commit.getJsonObject("tx_result").getString("log"));
        String hash = commit.getString("hash");
        h.track(hash, L1);
        JsonObject status = h.awaitState(hash, L1, "STATE_COMPLETED_ERROR");
        JsonObject error = new JsonObject()
                .put("type", "STATUS_ERROR_TRANSACTION_EXECUTION")
                .put("message", log)
                .put("details", new JsonObject().put("code", 2).put("message", log));
        JsonObject transfer = new JsonObject()
                .put("state", "STATE_COMPLETED_ERROR")
                .put("transfer_sequence", new JsonArray())
                .putNull("next_blocking_transfer")
                .putNull("transfer_asset_release")
                .put("error", error);
        assertEquals(
                new JsonObject()
                        .put("state", "STATE_COMPLETED_ERROR")
                        .put("transfers", new JsonArray().add(transfer))
                        .put("transfer_sequence", new JsonArray())
                        .putNull("next_blocking_transfer")
                        .putNull("transfer_asset_release")
                        .put("error", error.copy())
                        .put("status", "STATE_COMPLETED"),
                status);
    }

    @Test
    @DisplayName(
            "the pool moves more than the 1 % slippage before the packet arrives: the hook aborts (196610), error ack, refund on the source, COMPLETED_ERROR")
    void slippageExceeded() {
        JsonObject route = route("2000000");
        String pool = swapPool(route, 1);
        JsonObject msgs = h.msgs("2000000", EVM, USDC_IBC, L1, "uinit", List.of(BOB, ALICE), null);
        transferOf(msgs);

        // a large swap through the same pool moves its price by several percent first
        movePool(pool, "40000000000");

        JsonObject commit = h.broadcast(msgs, null);
        String hash = commit.getString("hash");
        h.track(hash, EVM);
        JsonObject status = awaitFinal(hash, "STATE_COMPLETED_ERROR");
        String s = seq(commit, "send_packet");
        String recv = hashOf(h.awaitTx(
                L1, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s + "'"));
        String ack = hashOf(h.awaitTx(
                EVM,
                "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + s
                        + "'"));
        String abort = "ibc move hook error: VM aborted: location=" + "0".repeat(60) + "5c1f::initia_dex, code=196610";
        JsonObject packetError = packetError("PACKET_ERROR_ACKNOWLEDGEMENT", abort);
        JsonArray seqs = new JsonArray()
                .add(ibc(EVM, L1, "TRANSFER_FAILURE", tx(EVM, hash), tx(L1, recv), tx(EVM, ack), null, packetError));
        JsonObject expected = status(
                "STATE_COMPLETED_ERROR",
                seqs,
                0,
                release(EVM, USDC_IBC, "2000000", true),
                new JsonObject()
                        .put("type", "STATUS_ERROR_TRANSFER")
                        .put("message", abort)
                        .putNull("details"));
        assertEquals(expected, normalized(status));
    }
}
