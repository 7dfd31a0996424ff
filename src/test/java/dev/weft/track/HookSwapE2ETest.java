package dev.weft.track;

import dev.weft.devnet.exec.IbcAddresses;
import dev.weft.route.msgs.CosmosMsgs;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.SwapVenue;
import dev.weft.testsupport.RelayedTxs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

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

/**
 * Transfer then swap in one tx on the devnet: USDC on weft-devnet-1 → INIT on weft-l1-1 is one {@code MsgTransfer}
 * whose memo calls Skip's Move entry point through the L1's ibc-hooks. On arrival the coins go to the hook's
 * intermediate account, the swap runs against the current reserves and the output goes to the user; when the pool
 * moved more than the slippage since the quote, the call aborts, the ack is the hook's error and the source refunds,
 * and the tracker reports it.
 */
class HookSwapE2ETest {
  static final String L1 = "weft-l1-1", EVM = "weft-devnet-1";
  static final String USDC_IBC = Denoms.ibc("transfer/channel-0/uusdc");
  static final String ENTRY_POINT = "0x5c1f";
  static TrackingHarness h;

  @BeforeAll
  static void start() {
    h = TrackingHarness.start(TrackingHarness.config());
  }

  @AfterAll
  static void stop() {
    if (h != null) h.close();
  }

  static JsonObject route(String amount) {
    var r = h.post(h.api, "/v2/fungible/route", new JsonObject().put("amount_in", amount).put("source_asset_chain_id", EVM)
        .put("source_asset_denom", USDC_IBC).put("dest_asset_chain_id", L1).put("dest_asset_denom", "uinit"));
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
  @DisplayName("IBC then swap is one tx: the transfer's memo swaps on arrival at the L1, the output reaches the user, COMPLETED_SUCCESS")
  void oneTx() {
    JsonObject route = route("1000000");
    assertEquals(1, route.getInteger("txs_required"));
    JsonArray ops = route.getJsonArray("operations");
    assertEquals(0, ops.getJsonObject(0).getInteger("tx_index"));
    assertEquals(0, ops.getJsonObject(1).getInteger("tx_index"));
    assertEquals(ENTRY_POINT, ops.getJsonObject(0).getJsonObject("transfer").getString("to_chain_entry_contract_address"));
    String pool = ops.getJsonObject(1).getJsonObject("swap").getJsonObject("swap_in").getJsonArray("swap_operations")
        .getJsonObject(0).getString("pool");

    JsonObject msgs = h.msgs("1000000", EVM, USDC_IBC, L1, "uinit", List.of(BOB, ALICE), null);
    JsonObject transfer = transferOf(msgs);
    assertEquals(ENTRY_POINT + "::entry_point::swap_and_action", transfer.getString("receiver"));
    BigInteger minOut = new BigInteger(msgs.getString("min_amount_out"));
    JsonObject memo = new JsonObject(transfer.getString("memo"));
    JsonObject expectedMemo = CosmosMsgs.moveHookSwap(ENTRY_POINT, List.of(SwapVenue.Pool.weighted(pool, "uusdc", "uinit",
            BigInteger.ONE, BigInteger.ONE, BigDecimal.ZERO)), List.of("uusdc", "uinit"), new BigInteger("1000000"), minOut, ALICE,
        transfer.getLong("timeout_timestamp"));
    assertEquals(expectedMemo, memo);

    JsonObject commit = h.broadcast(msgs, null);
    String hash = commit.getString("hash");
    h.track(hash, EVM);
    JsonObject status = h.awaitState(hash, EVM, "STATE_COMPLETED_SUCCESS");
    String s = seq(commit, "send_packet");
    JsonObject recv = h.awaitTx(L1, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s + "'");
    String ack = hashOf(h.awaitTx(EVM, "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + s + "'"));
    JsonArray seqs = new JsonArray().add(ibc(EVM, L1, "TRANSFER_SUCCESS", tx(EVM, hash), tx(L1, hashOf(recv)), tx(EVM, ack), null, null));
    assertEquals(status("STATE_COMPLETED_SUCCESS", seqs, null, release(L1, "uusdc", "1000000", true), null), normalized(status));

    // the coins reached the hook's intermediate account, which swapped them and sent the output to the user
    String intermediate = IbcAddresses.moveHookIntermediary("channel-0", BOB, "init");
    List<JsonObject> transfers = RelayedTxs.attributes(recv.getJsonObject("tx_result"), "transfer");
    JsonObject toUser = transfers.get(transfers.size() - 1);
    assertEquals(intermediate, toUser.getString("sender"));
    assertEquals(ALICE, toUser.getString("recipient"));
    String amount = toUser.getString("amount");
    assertTrue(amount.endsWith("uinit"), amount);
    BigInteger out = new BigInteger(amount.substring(0, amount.length() - "uinit".length()));
    assertTrue(out.compareTo(minOut) >= 0 && out.compareTo(new BigInteger(route.getString("amount_out"))) <= 0, out + " vs " + route.encode());
    assertEquals(1, RelayedTxs.attributes(recv.getJsonObject("tx_result"), "move").size());
  }

  @Test
  @DisplayName("the pool moves more than the 1 % slippage before the packet arrives: the hook aborts (196610), error ack, refund on the source, COMPLETED_ERROR")
  void slippageExceeded() {
    JsonObject route = route("2000000");
    String pool = route.getJsonArray("operations").getJsonObject(1).getJsonObject("swap").getJsonObject("swap_in")
        .getJsonArray("swap_operations").getJsonObject(0).getString("pool");
    JsonObject msgs = h.msgs("2000000", EVM, USDC_IBC, L1, "uinit", List.of(BOB, ALICE), null);
    transferOf(msgs);

    // a large swap through the same pool moves its price by several percent first
    CosmosMsgs.Msg big = CosmosMsgs.swap(ALICE, SwapVenue.Pool.weighted(pool, "uusdc", "uinit", BigInteger.ONE, BigInteger.ONE,
        BigDecimal.ZERO), "uusdc", "uinit", new BigInteger("40000000000"), BigInteger.ONE);
    h.broadcast(new JsonObject().put("txs", new JsonArray().add(new JsonObject().put("cosmos_tx", new JsonObject()
        .put("chain_id", L1).put("msgs", new JsonArray().add(big.json()))))), "uinit");

    JsonObject commit = h.broadcast(msgs, null);
    String hash = commit.getString("hash");
    h.track(hash, EVM);
    JsonObject status = h.awaitState(hash, EVM, "STATE_COMPLETED_ERROR");
    String s = seq(commit, "send_packet");
    String recv = hashOf(h.awaitTx(L1, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s + "'"));
    String ack = hashOf(h.awaitTx(EVM, "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + s + "'"));
    String abort = "ibc move hook error: VM aborted: location=" + "0".repeat(60) + "5c1f::initia_dex, code=196610";
    JsonObject packetError = packetError("PACKET_ERROR_ACKNOWLEDGEMENT", abort);
    JsonArray seqs = new JsonArray().add(ibc(EVM, L1, "TRANSFER_FAILURE", tx(EVM, hash), tx(L1, recv), tx(EVM, ack), null, packetError));
    JsonObject expected = status("STATE_COMPLETED_ERROR", seqs, 0, release(EVM, USDC_IBC, "2000000", true),
        new JsonObject().put("type", "STATUS_ERROR_TRANSFER").put("message", abort).putNull("details"));
    assertEquals(expected, normalized(status));
  }
}
