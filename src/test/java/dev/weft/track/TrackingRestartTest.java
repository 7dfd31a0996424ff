package dev.weft.track;

import static dev.weft.testsupport.DevnetAccounts.ALICE;
import static dev.weft.testsupport.DevnetAccounts.BOB;
import static dev.weft.testsupport.DevnetAccounts.CAROL;
import static dev.weft.track.TrackingE2ETest.EVM;
import static dev.weft.track.TrackingE2ETest.L1;
import static dev.weft.track.TrackingE2ETest.MOVE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.route.registry.Denoms;
import dev.weft.store.TransferStore;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The tracker stopped and started again (same database), and transfers it gives up on. */
class TrackingRestartTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String INIT_IBC = Denoms.ibc("transfer/channel-0/uinit");

    @Test
    @DisplayName(
            "a tracker undeployed mid-flight and deployed again resumes from its saved cursors: the same final status and events")
    void restartMidFlight() {
        TrackingHarness h = TrackingHarness.start(weft, TrackingHarness.config().set("cluster.standby_poll", "100ms"));
        JsonObject msgs = h.msgs("2500", EVM, INIT_IBC, MOVE, INIT_IBC, List.of(BOB, ALICE, CAROL), null);
        JsonObject commit = h.broadcast(msgs, null);
        String hash = commit.getString("hash");
        assertEquals(200, h.track(hash, EVM).statusCode());
        h.awaitState(hash, EVM, "STATE_PENDING");
        stopTracker(h);
        // while the tracker is down the transfer completes on chain; the API still answers from the database
        String s1 = TrackingE2ETest.seq(commit, "send_packet");
        h.awaitTx(
                EVM,
                "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + s1
                        + "'");
        // (the stopping tracker's last cycle may already have seen the ack, and saved the transfer COMPLETED before
        // a
        // receive it had still to search for: receiptMissingAcrossRestart pins that case)
        assertEquals(200, h.status(hash, EVM).statusCode());
        TestNodes.await(h.node().scale("track", 1));
        h.awaitState(hash, EVM, "STATE_COMPLETED_SUCCESS");
        // a receipt that happened while the tracker was down can be found by a catch-up search a poll after the ack
        JsonObject status = TrackingHarness.await(
                () -> {
                    JsonObject s = new JsonObject(h.status(hash, EVM).body());
                    boolean all = s.getJsonArray("transfer_sequence").stream()
                            .allMatch(o -> ((JsonObject) o)
                                            .getJsonObject("ibc_transfer")
                                            .getJsonObject("packet_txs")
                                            .getValue("receive_tx")
                                    != null);
                    return all ? s : null;
                },
                "every receipt");
        assertEquals("STATE_COMPLETED_SUCCESS", status.getString("state"));
        JsonObject hops = status.getJsonArray("transfers").getJsonObject(0);
        assertEquals(2, hops.getJsonArray("transfer_sequence").size());
        for (Object o : hops.getJsonArray("transfer_sequence")) {
            JsonObject txs = ((JsonObject) o).getJsonObject("ibc_transfer").getJsonObject("packet_txs");
            assertTrue(
                    txs.getJsonObject("send_tx") != null
                            && txs.getJsonObject("receive_tx") != null
                            && txs.getJsonObject("acknowledge_tx") != null,
                    txs.encode());
        }
        assertEquals(
                TrackingE2ETest.release(MOVE, INIT_IBC, "2500", true), status.getJsonObject("transfer_asset_release"));
        // the whole status is the one of a run without restart (pfmTwoHops): every tx of both hops, nothing else
        JsonObject hop1 = h.awaitTx(
                L1, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s1 + "'");
        String s2 = dev.weft.testsupport.RelayedTxs.attributes(hop1.getJsonObject("tx_result"), "send_packet")
                .get(0)
                .getString("packet_sequence");
        String recv2 = TrackingE2ETest.hashOf(h.awaitTx(
                MOVE, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s2 + "'"));
        String ack2 = TrackingE2ETest.hashOf(h.awaitTx(
                L1,
                "acknowledge_packet.packet_src_channel='channel-1' AND acknowledge_packet.packet_sequence='" + s2
                        + "'"));
        String ack1 = TrackingE2ETest.hashOf(h.awaitTx(
                EVM,
                "acknowledge_packet.packet_src_channel='channel-0' AND acknowledge_packet.packet_sequence='" + s1
                        + "'"));
        io.vertx.core.json.JsonArray seqs = new io.vertx.core.json.JsonArray()
                .add(TrackingE2ETest.ibc(
                        EVM,
                        L1,
                        "TRANSFER_SUCCESS",
                        TrackingE2ETest.tx(EVM, hash),
                        TrackingE2ETest.tx(L1, TrackingE2ETest.hashOf(hop1)),
                        TrackingE2ETest.tx(EVM, ack1),
                        null,
                        null))
                .add(TrackingE2ETest.ibc(
                        L1,
                        MOVE,
                        "TRANSFER_SUCCESS",
                        TrackingE2ETest.tx(L1, TrackingE2ETest.hashOf(hop1)),
                        TrackingE2ETest.tx(MOVE, recv2),
                        TrackingE2ETest.tx(L1, ack2),
                        null,
                        null));
        assertEquals(
                TrackingE2ETest.status(
                        "STATE_COMPLETED_SUCCESS",
                        seqs,
                        null,
                        TrackingE2ETest.release(MOVE, INIT_IBC, "2500", true),
                        null),
                TrackingHarness.normalized(status));
        assertEquals(List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"), h.events(EVM, hash));
    }

    @Test
    @DisplayName(
            "a transfer saved COMPLETED without its receive tx when the tracker stops gets it after a restart, more than track.lookback_blocks blocks later")
    void receiptMissingAcrossRestart() {
        int lookback =
                50; // a hash tracked within this many blocks of its commit is found: a few seconds on a loaded machine
        TrackingHarness h = TrackingHarness.start(
                weft,
                TrackingHarness.config().set("cluster.standby_poll", "100ms").set("track.lookback_blocks", lookback));
        JsonObject commit =
                h.broadcast(h.msgs("1000000", L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null), "uinit");
        String hash = commit.getString("hash");
        assertEquals(200, h.track(hash, L1).statusCode());
        JsonObject complete = TrackingHarness.await(
                () -> {
                    JsonObject s = new JsonObject(h.status(hash, L1).body());
                    return s.getString("state").equals("STATE_COMPLETED_SUCCESS") && receiveTx(s) != null ? s : null;
                },
                "the transfer completed with its receive tx");
        stopTracker(h);
        // as saved by a tracker stopped after the ack was found and before the receive was: COMPLETED, no receive
        // tx
        // (a completed transfer leaves the tracker's memory once saved, so no tracker writes this row again)
        TestNodes.await(h.node()
                .context()
                .pool()
                .preparedQuery("UPDATE track_hop SET data = data - 'receive_tx' WHERE transfer_id = "
                        + "(SELECT id FROM track_transfer WHERE chain_id = $1 AND tx_hash = $2)")
                .execute(io.vertx.sqlclient.Tuple.of(L1, hash)));
        assertEquals(null, receiveTx(new JsonObject(h.status(hash, L1).body())));
        String s = TrackingE2ETest.seq(commit, "send_packet");
        JsonObject recv = h.awaitTx(
                EVM, "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='" + s + "'");
        long recvHeight = Long.parseLong(recv.getString("height"));
        // the receive drops out of the blocks a restarted tracker reads back by time: only a search by its packet
        // finds it
        TrackingHarness.await(
                () -> height(h, EVM) > recvHeight + 2L * lookback ? true : null, "blocks past the lookback");
        TestNodes.await(h.node().scale("track", 1));
        JsonObject status = TrackingHarness.await(
                () -> {
                    JsonObject st = new JsonObject(h.status(hash, L1).body());
                    return receiveTx(st) != null ? st : null;
                },
                "the receive tx found after the restart");
        assertEquals(TrackingHarness.normalized(complete), TrackingHarness.normalized(status));
        assertEquals(
                TrackingE2ETest.tx(EVM, TrackingE2ETest.hashOf(recv)), receiveTx(TrackingHarness.normalized(status)));
        assertEquals(List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"), h.events(L1, hash));
    }

    @Test
    @DisplayName(
            "a tracker that fell behind a chain scans it back to back up to its head, not one capped batch per poll interval")
    void behindScansBackToBack() {
        TestConfig config = TrackingHarness.config().set("cluster.standby_poll", "100ms");
        TrackingHarness h = TrackingHarness.start(weft, config);
        // a hash not on chain (yet): the tracker scans L1 for it
        assertEquals(200, h.track("C1".repeat(32), L1).statusCode());
        TrackingHarness.await(() -> cursor(h, L1), "a saved scan cursor of " + L1);
        stopTracker(h);
        long from = cursor(h, L1);
        TrackingHarness.await(() -> height(h, L1) >= from + 40 ? true : null, "40 blocks while no tracker runs");
        long head = height(h, L1);
        // a tracker alone on a second node, same database: 5 blocks per scan and an hour between cycles, so only
        // back-to-back
        // cycles bring its cursor to the head within the wait (at one scan per poll interval it would take 8 hours)
        TestConfig alone = TestConfig.of(config.json())
                .roles("track")
                .set("http.port", 0)
                .set("track.poll_interval", "1h")
                .set("track.max_blocks_per_poll", 5)
                .set("track.nodes", new JsonObject().put(L1, new JsonArray().add("http://127.0.0.1:" + h.rpcPort(L1))));
        WeftNode tracker = weft.start(alone);
        TrackingHarness.await(
                () -> cursor(h, L1) >= head ? true : null, "the scan cursor at the head " + head + " the chain had");
        weft.stop(tracker);
    }

    /** The tracker's saved scan cursor of a chain, or null before its first save. */
    private static Long cursor(TrackingHarness h, String chain) {
        TransferStore.Cursor c = TestNodes.await(
                        new TransferStore(h.node().context().pool()).cursors())
                .get(chain);
        return c == null ? null : c.height();
    }

    private static JsonObject receiveTx(JsonObject status) {
        return status.getJsonArray("transfer_sequence")
                .getJsonObject(0)
                .getJsonObject("ibc_transfer")
                .getJsonObject("packet_txs")
                .getJsonObject("receive_tx");
    }

    private static long height(TrackingHarness h, String chain) {
        return Long.parseLong(new JsonObject(h.get(h.rpcPort(chain), "/status").body())
                .getJsonObject("result")
                .getJsonObject("sync_info")
                .getString("latest_block_height"));
    }

    /** Scales the tracker to 0 and waits until its last cycle is over (scaling down answers before the instance drains). */
    private static void stopTracker(TrackingHarness h) {
        String id = h.node().deployments().get("track").get(0);
        TestNodes.await(h.node().scale("track", 0));
        TrackingHarness.await(
                () -> h.node().context().vertx().deploymentIDs().contains(id) ? null : true, "the tracker undeployed");
    }

    @Test
    @DisplayName(
            "a tracked hash never seen on chain is ABANDONED after track.unknown_ttl; tracking it again re-arms it")
    void abandoned() {
        TrackingHarness h = TrackingHarness.start(weft, TrackingHarness.config().set("track.unknown_ttl", "1s"));
        String hash = "C0".repeat(32);
        assertEquals(200, h.track(hash, L1).statusCode());
        JsonObject status = h.awaitState(hash, L1, "STATE_ABANDONED");
        assertEquals(
                new JsonObject()
                        .put("state", "STATE_ABANDONED")
                        .put(
                                "transfers",
                                new io.vertx.core.json.JsonArray()
                                        .add(new JsonObject()
                                                .put("state", "STATE_ABANDONED")
                                                .put("transfer_sequence", new io.vertx.core.json.JsonArray())
                                                .putNull("next_blocking_transfer")
                                                .putNull("transfer_asset_release")
                                                .putNull("error")))
                        .put("transfer_sequence", new io.vertx.core.json.JsonArray())
                        .putNull("next_blocking_transfer")
                        .putNull("transfer_asset_release")
                        .putNull("error")
                        .put("status", "STATE_COMPLETED"),
                status);
        assertEquals(200, h.track(hash, L1).statusCode());
        assertEquals("STATE_SUBMITTED", new JsonObject(h.status(hash, L1).body()).getString("state"));
        TrackingHarness.await(() -> h.events(L1, hash).size() == 4 ? true : null, "abandoned again");
        assertEquals(
                List.of("STATE_SUBMITTED", "STATE_ABANDONED", "STATE_SUBMITTED", "STATE_ABANDONED"),
                h.events(L1, hash));
    }
}
