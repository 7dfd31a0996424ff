package dev.weft.track;

import static dev.weft.testsupport.DevnetAccounts.ALICE;
import static dev.weft.testsupport.DevnetAccounts.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.route.registry.Denoms;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On a chain this deployment indexes, a tx tracked long after its block (beyond {@code track.lookback_blocks}, which
 * bounds how far back the tracker reads a chain's blocks for a new hash) is found through the index: its height comes
 * from the chain's own tx table, and the tracker reads that one block.
 */
class TrackOnIndexTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1";
    static final String EVM = "weft-devnet-1";
    static final String INIT_IBC = Denoms.ibc("transfer/channel-0/uinit");
    static final int LOOKBACK = 3;

    @Test
    @DisplayName("a transfer tracked far beyond track.lookback_blocks after its tx, on an indexed chain, completes")
    void oldTxFoundThroughTheIndex() {
        TrackingHarness h = TrackingHarness.start(
                weft,
                TrackingHarness.config()
                        .roles("devnet", "route", "track", "api", "ingest")
                        .set("track.lookback_blocks", LOOKBACK)
                        .set("chains." + L1 + ".vm", "move"));
        JsonObject commit =
                h.broadcast(h.msgs("1000000", L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null), "uinit");
        String hash = commit.getString("hash");
        long txHeight = Long.parseLong(commit.getString("height"));
        // the chain moves well past the lookback, and its ingestion past the tx, before anyone tracks it
        TrackingHarness.await(
                () -> indexedHeight(h) > txHeight + 10L * LOOKBACK ? true : null,
                "weft-l1-1 indexed past the lookback");
        assertEquals(200, h.track(hash, L1).statusCode());
        JsonObject status = TrackingHarness.await(
                () -> {
                    JsonObject s = new JsonObject(h.status(hash, L1).body());
                    return s.getString("state").equals("STATE_COMPLETED_SUCCESS") ? s : null;
                },
                "the old transfer found and completed");
        assertEquals(
                hash,
                status.getJsonArray("transfer_sequence")
                        .getJsonObject(0)
                        .getJsonObject("ibc_transfer")
                        .getJsonObject("packet_txs")
                        .getJsonObject("send_tx")
                        .getString("tx_hash"));
    }

    @Test
    @DisplayName(
            "transfers between indexed chains reach their states with the tracker reading no block of either chain from its node: new blocks come from the index")
    void newBlocksFromTheIndex() {
        TrackingHarness h = indexed();
        java.util.Map<String, Double> before = reads();
        List<String> hashes = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String hash = h.broadcast(
                            h.msgs(String.valueOf(1000 + i), L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null),
                            "uinit")
                    .getString("hash");
            assertEquals(200, h.track(hash, L1).statusCode());
            hashes.add(hash);
        }
        for (String hash : hashes)
            TrackingHarness.await(
                    () -> new JsonObject(h.status(hash, L1).body())
                                    .getString("state")
                                    .equals("STATE_COMPLETED_SUCCESS")
                            ? true
                            : null,
                    hash + " completed");
        java.util.Map<String, Double> after = reads();
        for (String chain : List.of(L1, EVM)) {
            assertEquals(
                    0.0,
                    after.get("node blockchain " + chain) - before.get("node blockchain " + chain),
                    "/blockchain requests the tracker sent to " + chain + "'s node: " + after);
            assertEquals(
                    0.0,
                    after.get("node tx_search " + chain) - before.get("node tx_search " + chain),
                    "tx_search requests the tracker sent to " + chain + "'s node: " + after);
            org.junit.jupiter.api.Assertions.assertTrue(
                    after.get("index blockchain " + chain) > before.get("index blockchain " + chain),
                    chain + "'s blocks read from the index: " + after);
        }
    }

    @Test
    @DisplayName("a watch on an indexed chain takes the chain's head from the index, asking its node nothing")
    void watchHeadFromTheIndex() {
        TrackingHarness h = indexed();
        // no tracker: the node requests counted for the chain are the watch's own
        String id = h.node().deployments().get("track").get(0);
        dev.weft.testsupport.TestNodes.await(h.node().scale("track", 0));
        TrackingHarness.await(
                () -> h.node().context().vertx().deploymentIDs().contains(id) ? null : true, "the tracker undeployed");
        long indexedBefore = indexedHeight(h);
        double nodeReads = count("weft_track_node_requests_total", L1, "blockchain");
        WatchedAddressesTest.watch(h, L1, ALICE, 201);
        long indexedAfter = indexedHeight(h);
        assertEquals(
                0.0,
                count("weft_track_node_requests_total", L1, "blockchain") - nodeReads,
                "/blockchain requests sent to " + L1 + "'s node for the watch's head");
        long from = dev.weft.testsupport.TestNodes.await(h.node()
                        .context()
                        .pool()
                        .preparedQuery("SELECT from_height FROM track_watch WHERE chain_id = $1")
                        .execute(io.vertx.sqlclient.Tuple.of(L1)))
                .iterator()
                .next()
                .getLong(0);
        org.junit.jupiter.api.Assertions.assertTrue(
                from >= indexedBefore && from <= indexedAfter,
                "the watch's head " + from + " is the index's, between " + indexedBefore + " and " + indexedAfter);
    }

    /** A deployment indexing its chains (the tracker too), once it has indexed some of L1. */
    private static TrackingHarness indexed() {
        TrackingHarness h = TrackingHarness.start(
                weft,
                TrackingHarness.config()
                        .roles("devnet", "route", "track", "api", "ingest")
                        .set("chains." + L1 + ".vm", "move"));
        TrackingHarness.await(() -> indexedHeight(h) > 0 ? true : null, L1 + " indexed");
        return h;
    }

    /** The tracker's reads by source ({@code node}, {@code index}), method and chain. */
    private static java.util.Map<String, Double> reads() {
        java.util.Map<String, Double> out = new java.util.TreeMap<>();
        for (String chain : List.of(L1, EVM))
            for (String method : List.of("blockchain", "tx_search")) {
                out.put("node " + method + " " + chain, count("weft_track_node_requests_total", chain, method));
                out.put("index " + method + " " + chain, count("weft_track_index_reads_total", chain, method));
            }
        return out;
    }

    private static double count(String name, String chain, String method) {
        double n = 0;
        for (io.micrometer.core.instrument.Counter c : io.vertx.micrometer.backends.BackendRegistries.getDefaultNow()
                .find(name)
                .tag("chain_id", chain)
                .tag("method", method)
                .counters()) n += c.count();
        return n;
    }

    private static long indexedHeight(TrackingHarness h) {
        return new JsonObject(h.get(h.api, "/chains/" + L1 + "/status").body()).getLong("height");
    }
}
