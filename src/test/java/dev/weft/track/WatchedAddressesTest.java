package dev.weft.track;

import static dev.weft.testsupport.DevnetAccounts.ALICE;
import static dev.weft.testsupport.DevnetAccounts.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import dev.weft.route.registry.Denoms;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watched addresses end to end on the multi-chain devnet: a watched account's transfers are tracked without
 * {@code /v2/tx/track} and listed by {@code /v2/tx/by_address}; a watch survives the tracker's restart.
 */
class WatchedAddressesTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String L1 = "weft-l1-1", EVM = "weft-devnet-1";
    static final String INIT_IBC = Denoms.ibc("transfer/channel-0/uinit");

    static String hex(String bech32) {
        return AccountAddress.of(Bech32.decode(bech32).data()).hex();
    }

    static JsonObject watch(TrackingHarness h, String chain, String address, int status) {
        var r = h.post(
                h.api, "/v2/watch", new JsonObject().put("chain_id", chain).put("address", address));
        assertEquals(status, r.statusCode(), r.body());
        return new JsonObject(r.body());
    }

    static JsonObject byAddress(TrackingHarness h, String chain, String address, String more) {
        var r = h.get(h.api, "/v2/tx/by_address?chain_id=" + chain + "&address=" + address + more);
        assertEquals(200, r.statusCode(), r.body());
        return new JsonObject(r.body());
    }

    /** Waits until the tracker follows the chain (its scan cursor saved). */
    static void awaitFollowed(TrackingHarness h, String chain) {
        TrackingHarness.await(
                () -> TestNodes.await(h.node()
                                                .context()
                                                .pool()
                                                .preparedQuery("SELECT 1 FROM track_cursor WHERE chain_id = $1")
                                                .execute(io.vertx.sqlclient.Tuple.of(chain)))
                                        .size()
                                > 0
                        ? true
                        : null,
                "the tracker follows " + chain);
    }

    /** The by_address listing once it holds exactly these hashes, each in a terminal state (generous deadline). */
    static JsonObject awaitListed(TrackingHarness h, String chain, String address, Set<String> hashes) {
        return TrackingHarness.await(
                () -> {
                    JsonObject page = byAddress(h, chain, address, "");
                    JsonArray txs = page.getJsonArray("txs");
                    if (txs.size() != hashes.size()) return null;
                    for (Object o : txs) {
                        JsonObject t = (JsonObject) o;
                        if (!hashes.contains(t.getString("tx_hash"))
                                || !t.getString("state").startsWith("STATE_COMPLETED")) return null;
                    }
                    return page;
                },
                hashes + " listed for " + address + " and terminal");
    }

    /** A by_address entry is the tx's /v2/tx/status with its hash, chain and explorer link. */
    static void assertStatusOf(TrackingHarness h, JsonObject entry) {
        String hash = entry.getString("tx_hash"), chain = entry.getString("chain_id");
        JsonObject status = new JsonObject(h.status(hash, chain).body());
        JsonObject rest = entry.copy();
        assertEquals("http://scan.weft.localhost/" + chain + "/txs/" + hash, rest.remove("explorer_link"));
        rest.remove("tx_hash");
        rest.remove("chain_id");
        assertEquals(status, rest);
    }

    @Test
    @DisplayName(
            "a watched address's IBC transfer and OP deposit are tracked without /v2/tx/track: listed newest first, terminal, paged")
    void watchedTransfers() {
        TrackingHarness h = TrackingHarness.start(weft, TrackingHarness.config());
        JsonObject created = watch(h, L1, ALICE, 201);
        assertEquals(Set.of("chain_id", "address", "created_at"), created.fieldNames());
        assertEquals(L1, created.getString("chain_id"));
        assertEquals(ALICE, created.getString("address"));
        // the same account in 0x form is the same watch
        assertEquals(created, watch(h, L1, hex(ALICE), 200));
        // broadcast at once: the watch covers every block from the chain's head at the POST on

        String ibc = h.broadcast(h.msgs("1000", L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null), "uinit")
                .getString("hash");
        String deposit = h.broadcast(
                        h.msgs("2500", L1, "uinit", EVM, Denoms.l2(1, "uinit"), List.of(ALICE, BOB), null), "uinit")
                .getString("hash");
        JsonObject page = awaitListed(h, L1, ALICE, Set.of(ibc, deposit));
        JsonArray txs = page.getJsonArray("txs");
        assertNull(page.getValue("next"));
        assertEquals(deposit, txs.getJsonObject(0).getString("tx_hash"), "newest first");
        assertEquals(ibc, txs.getJsonObject(1).getString("tx_hash"));
        for (Object o : txs) {
            JsonObject t = (JsonObject) o;
            assertEquals("STATE_COMPLETED_SUCCESS", t.getString("state"), t.encode());
            assertEquals(L1, t.getString("chain_id"));
            assertStatusOf(h, t);
        }
        assertEquals(
                "ibc_transfer",
                txs.getJsonObject(1)
                        .getJsonArray("transfer_sequence")
                        .getJsonObject(0)
                        .fieldNames()
                        .iterator()
                        .next());
        assertEquals(
                "op_init_transfer",
                txs.getJsonObject(0)
                        .getJsonArray("transfer_sequence")
                        .getJsonObject(0)
                        .fieldNames()
                        .iterator()
                        .next());
        for (String hash : List.of(ibc, deposit))
            assertEquals(
                    List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"),
                    h.events(L1, hash),
                    "registered once, as /v2/tx/track does");
        // keyset pages of one, the same entries in the same order; the 0x form lists the same account
        JsonObject first = byAddress(h, L1, hex(ALICE), "&limit=1");
        assertEquals(1, first.getJsonArray("txs").size());
        assertEquals(deposit, first.getJsonArray("txs").getJsonObject(0).getString("tx_hash"));
        assertNotNull(first.getString("next"));
        JsonObject second = byAddress(h, L1, ALICE, "&limit=1&cursor=" + first.getString("next"));
        assertEquals(ibc, second.getJsonArray("txs").getJsonObject(0).getString("tx_hash"));
        // BOB received but started nothing, and is not watched: nothing listed for him
        assertEquals(0, byAddress(h, L1, BOB, "").getJsonArray("txs").size());
        // a watch deleted: the listing stays, the next transfers are not tracked
        assertEquals(
                204,
                new dev.weft.testsupport.LocalHttp()
                        .delete(h.api, "/v2/watch?chain_id=" + L1 + "&address=" + ALICE)
                        .statusCode());
    }

    @Test
    @DisplayName(
            "a watch survives the tracker's restart: a transfer broadcast while no tracker runs is tracked by the next one")
    void watchSurvivesRestart() {
        TrackingHarness h = TrackingHarness.start(weft, TrackingHarness.config().set("cluster.standby_poll", "100ms"));
        watch(h, L1, ALICE, 201);
        // the first transfer goes once the tracker follows the chain (see awaitFollowed)
        awaitFollowed(h, L1);
        // a first transfer shows the watch is followed (and the chain's scan cursor saved)
        String before = h.broadcast(h.msgs("11", L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null), "uinit")
                .getString("hash");
        awaitListed(h, L1, ALICE, Set.of(before));
        String id = h.node().deployments().get("track").get(0);
        TestNodes.await(h.node().scale("track", 0));
        TrackingHarness.await(
                () -> h.node().context().vertx().deploymentIDs().contains(id) ? null : true, "the tracker undeployed");
        String during = h.broadcast(h.msgs("12", L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null), "uinit")
                .getString("hash");
        TestNodes.await(h.node().scale("track", 1));
        JsonObject page = awaitListed(h, L1, ALICE, Set.of(before, during));
        assertEquals(during, page.getJsonArray("txs").getJsonObject(0).getString("tx_hash"));
        assertEquals(
                "STATE_COMPLETED_SUCCESS",
                page.getJsonArray("txs").getJsonObject(0).getString("state"));
        assertEquals(List.of("STATE_SUBMITTED", "STATE_PENDING", "STATE_COMPLETED_SUCCESS"), h.events(L1, during));
    }

    @Test
    @DisplayName(
            "a watch made before the tracker follows its chain covers the transfer broadcast right after the POST, though the chain's block times lag the clock")
    void watchBeforeTheTrackerFollows() {
        // block times months behind the database clock that stamps created_at: a look back to that time finds nothing
        TrackingHarness h = TrackingHarness.start(
                weft,
                TrackingHarness.config()
                        .set("cluster.standby_poll", "100ms")
                        .set("devnet.genesis_time", "2026-01-01T00:00:00Z"));
        String id = h.node().deployments().get("track").get(0);
        TestNodes.await(h.node().scale("track", 0));
        TrackingHarness.await(
                () -> h.node().context().vertx().deploymentIDs().contains(id) ? null : true, "the tracker undeployed");
        assertEquals(0, cursors(h, L1), "no tracker has followed " + L1);
        watch(h, L1, ALICE, 201);
        // at once, committed in a block before any tracker reads the chain
        String ibc = h.broadcast(h.msgs("13", L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null), "uinit")
                .getString("hash");
        TestNodes.await(h.node().scale("track", 1));
        JsonObject page = awaitListed(h, L1, ALICE, Set.of(ibc));
        assertEquals(ibc, page.getJsonArray("txs").getJsonObject(0).getString("tx_hash"));
    }

    static int cursors(TrackingHarness h, String chain) {
        return TestNodes.await(h.node()
                        .context()
                        .pool()
                        .preparedQuery("SELECT 1 FROM track_cursor WHERE chain_id = $1")
                        .execute(io.vertx.sqlclient.Tuple.of(chain)))
                .size();
    }
}
