package dev.weft.track;

import dev.weft.route.registry.Denoms;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.weft.testsupport.DevnetAccounts.ALICE;
import static dev.weft.testsupport.DevnetAccounts.BOB;
import static dev.weft.testsupport.DevnetAccounts.CAROL;
import static dev.weft.track.TrackingE2ETest.EVM;
import static dev.weft.track.TrackingE2ETest.L1;
import static dev.weft.track.TrackingE2ETest.MOVE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tracker stopped and started again (same database), and transfers it gives up on. */
class TrackingRestartTest {
  static final String INIT_IBC = Denoms.ibc("transfer/channel-0/uinit");

  @Test
  @DisplayName("a tracker undeployed mid-flight and deployed again resumes from its saved cursors: the same final status and events")
  void restartMidFlight() {
    try (TrackingHarness h = TrackingHarness.start(TrackingHarness.config().set("cluster.standby_poll", "100ms"))) {
      JsonObject msgs = h.msgs("2500", EVM, INIT_IBC, MOVE, INIT_IBC, List.of(BOB, ALICE, CAROL), null);
      JsonObject commit = h.broadcast(msgs, null);
      String hash = commit.getString("hash");
      assertEquals(200, h.track(hash, EVM).statusCode());
      h.awaitState(hash, EVM, "STATE_PENDING");
      TestNodes.await(h.node().scale("track", 0));
      TrackingHarness.await(() -> h.node().deployments().containsKey("track") ? null : true, "the tracker undeployed");
      // while the tracker is down the transfer completes on chain; the API still answers from the database
      String s1 = TrackingE2ETest.seq(commit, "send_packet");
      h.awaitTx(EVM, "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + s1 + "'");
      var meanwhile = h.status(hash, EVM);
      assertEquals(200, meanwhile.statusCode());
      assertFalse(new JsonObject(meanwhile.body()).getString("state").startsWith("STATE_COMPLETED"), meanwhile.body());
      TestNodes.await(h.node().scale("track", 1));
      h.awaitState(hash, EVM, "STATE_COMPLETED_SUCCESS");
      // a receipt that happened while the tracker was down can be found by a catch-up search a poll after the ack
      JsonObject status = TrackingHarness.await(() -> {
        JsonObject s = new JsonObject(h.status(hash, EVM).body());
        boolean all = s.getJsonArray("transfer_sequence").stream().allMatch(o -> ((JsonObject) o).getJsonObject("ibc_transfer")
            .getJsonObject("packet_txs").getValue("receive_tx") != null);
        return all ? s : null;
      }, "every receipt");
      assertEquals("STATE_COMPLETED_SUCCESS", status.getString("state"));
      JsonObject hops = status.getJsonArray("transfers").getJsonObject(0);
      assertEquals(2, hops.getJsonArray("transfer_sequence").size());
      for (Object o : hops.getJsonArray("transfer_sequence")) {
        JsonObject txs = ((JsonObject) o).getJsonObject("ibc_transfer").getJsonObject("packet_txs");
        assertTrue(txs.getJsonObject("send_tx") != null && txs.getJsonObject("receive_tx") != null && txs.getJsonObject("acknowledge_tx") != null, txs.encode());
      }
      assertEquals(TrackingE2ETest.release(MOVE, INIT_IBC, "2500", true), status.getJsonObject("transfer_asset_release"));
      // the whole status is the one of a run without restart (pfmTwoHops): every tx of both hops, nothing else
      JsonObject hop1 = h.awaitTx(L1, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s1 + "'");
      String s2 = dev.weft.testsupport.RelayedTxs.attributes(hop1.getJsonObject("tx_result"), "send_packet").get(0).getString("packet_sequence");
      String recv2 = TrackingE2ETest.hashOf(h.awaitTx(MOVE, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s2 + "'"));
      String ack2 = TrackingE2ETest.hashOf(h.awaitTx(L1, "acknowledge_packet.packet_src_channel='channel-1' AND acknowledge_packet.packet_sequence='" + s2 + "'"));
      String ack1 = TrackingE2ETest.hashOf(h.awaitTx(EVM, "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + s1 + "'"));
      io.vertx.core.json.JsonArray seqs = new io.vertx.core.json.JsonArray()
          .add(TrackingE2ETest.ibc(EVM, L1, "TRANSFER_SUCCESS", TrackingE2ETest.tx(EVM, hash), TrackingE2ETest.tx(L1, TrackingE2ETest.hashOf(hop1)),
              TrackingE2ETest.tx(EVM, ack1), null, null))
          .add(TrackingE2ETest.ibc(L1, MOVE, "TRANSFER_SUCCESS", TrackingE2ETest.tx(L1, TrackingE2ETest.hashOf(hop1)), TrackingE2ETest.tx(MOVE, recv2),
              TrackingE2ETest.tx(L1, ack2), null, null));
      assertEquals(TrackingE2ETest.status("STATE_COMPLETED_SUCCESS", seqs, null, TrackingE2ETest.release(MOVE, INIT_IBC, "2500", true), null),
          TrackingHarness.normalized(status));
      assertEquals(List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"), h.events(EVM, hash));
    }
  }

  @Test
  @DisplayName("a tracked hash never seen on chain is ABANDONED after track.unknown_ttl; tracking it again re-arms it")
  void abandoned() {
    try (TrackingHarness h = TrackingHarness.start(TrackingHarness.config().set("track.unknown_ttl", "1s"))) {
      String hash = "C0".repeat(32);
      assertEquals(200, h.track(hash, L1).statusCode());
      JsonObject status = h.awaitState(hash, L1, "STATE_ABANDONED");
      assertEquals(new JsonObject().put("state", "STATE_ABANDONED").put("transfers", new io.vertx.core.json.JsonArray().add(new JsonObject()
              .put("state", "STATE_ABANDONED").put("transfer_sequence", new io.vertx.core.json.JsonArray()).putNull("next_blocking_transfer")
              .putNull("transfer_asset_release").putNull("error")))
          .put("transfer_sequence", new io.vertx.core.json.JsonArray()).putNull("next_blocking_transfer").putNull("transfer_asset_release")
          .putNull("error").put("status", "STATE_COMPLETED"), status);
      assertEquals(200, h.track(hash, L1).statusCode());
      assertEquals("STATE_SUBMITTED", new JsonObject(h.status(hash, L1).body()).getString("state"));
      TrackingHarness.await(() -> h.events(L1, hash).size() == 4 ? true : null, "abandoned again");
      assertEquals(List.of("STATE_SUBMITTED", "STATE_ABANDONED", "STATE_SUBMITTED", "STATE_ABANDONED"), h.events(L1, hash));
    }
  }
}
