package dev.weft.track;

import static dev.weft.testsupport.DevnetAccounts.ALICE;
import static dev.weft.testsupport.DevnetAccounts.BOB;
import static dev.weft.track.TrackingE2ETest.EVM;
import static dev.weft.track.TrackingE2ETest.INIT_IBC;
import static dev.weft.track.TrackingE2ETest.L1;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The indexer follows weft-devnet-1 while transfers reach it: the relayer's and executor's txs (MsgRecvPacket,
 * MsgFinalizeTokenDeposit) and users' transfers appended to live blocks are indexed like the generated ones.
 */
class IndexedTransfersTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    @Test
    @DisplayName(
            "an IBC receipt and an OPinit finalization appended to weft-devnet-1's live blocks are indexed and served")
    void indexed() {
        TrackingHarness h = TrackingHarness.start(
                weft,
                TrackingHarness.config()
                        .roles("devnet", "route", "ingest", "api")
                        .set("ingest.poll_interval", "50ms"));
        JsonObject transfer =
                h.broadcast(h.msgs("1000", L1, "uinit", EVM, INIT_IBC, List.of(ALICE, BOB), null), "uinit");
        JsonObject deposit = h.broadcast(
                h.msgs(
                        "2000",
                        L1,
                        "uinit",
                        EVM,
                        dev.weft.route.registry.Denoms.l2(1, "uinit"),
                        List.of(ALICE, BOB),
                        null),
                "uinit");
        JsonObject recv = h.awaitTx(
                EVM,
                "recv_packet.packet_dst_channel='channel-0' AND recv_packet.packet_sequence='"
                        + TrackingE2ETest.seq(transfer, "send_packet") + "'");
        JsonObject fin = h.awaitTx(
                EVM,
                "finalize_token_deposit.l1_sequence='" + TrackingE2ETest.seq(deposit, "initiate_token_deposit") + "'");
        for (JsonObject tx : List.of(recv, fin)) {
            JsonObject indexed = TrackingHarness.await(
                    () -> {
                        var r = h.get(h.api, "/indexer/tx/v1/txs/" + tx.getString("hash"));
                        return r.statusCode() == 200 ? new JsonObject(r.body()) : null;
                    },
                    "the indexed tx " + tx.getString("hash"));
            JsonObject got = indexed.getJsonObject("tx");
            assertEquals(tx.getString("hash"), got.getString("txhash"), indexed.encode());
            assertEquals(tx.getString("height"), got.getString("height"));
            JsonArray events = got.getJsonArray("events");
            assertEquals(tx.getJsonObject("tx_result").getJsonArray("events").size(), events.size());
        }
    }
}
