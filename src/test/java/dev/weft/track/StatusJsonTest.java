package dev.weft.track;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.model.track.ChainTx;
import dev.weft.model.track.Transfer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Skip's status shape for txs that start no transfer: one entry in {@code transfers}, which clients read. */
class StatusJsonTest {
    private static final String L1 = "weft-l1-1";
    private static final String HASH = "AB".repeat(32);

    private static JsonObject entry(String state, JsonObject error) {
        return new JsonObject()
                .put("state", state)
                .put("transfer_sequence", new JsonArray())
                .putNull("next_blocking_transfer")
                .putNull("transfer_asset_release")
                .put("error", error);
    }

    private static JsonObject status(String state, JsonObject error, String legacy) {
        return new JsonObject()
                .put("state", state)
                .put("transfers", new JsonArray().add(entry(state, error)))
                .put("transfer_sequence", new JsonArray())
                .putNull("next_blocking_transfer")
                .putNull("transfer_asset_release")
                .put("error", error)
                .put("status", legacy);
    }

    private static JsonObject of(Transfer t) {
        return StatusJson.of(t, (chain, hash) -> "https://x/" + chain + "/" + hash);
    }

    @Test
    @DisplayName(
            "a successful tx that started no transfer (a single-chain swap) is COMPLETED_SUCCESS with one empty entry")
    void noTransfer() {
        Transfer t = new Transfer(1, L1, HASH);
        t.seen(new ChainTx(L1, HASH, 5, 1_000), 0, "");
        assertEquals(status("STATE_COMPLETED_SUCCESS", null, "STATE_COMPLETED"), of(t));
    }

    @Test
    @DisplayName(
            "a tx that failed on chain is COMPLETED_ERROR with a TRANSACTION_EXECUTION error carrying the chain's code and log")
    void failedOnChain() {
        Transfer t = new Transfer(1, L1, HASH);
        t.seen(new ChainTx(L1, HASH, 5, 1_000), 5, "insufficient funds");
        JsonObject error = new JsonObject()
                .put("type", "STATUS_ERROR_TRANSACTION_EXECUTION")
                .put("message", "insufficient funds")
                .put("details", new JsonObject().put("code", 5).put("message", "insufficient funds"));
        assertEquals(status("STATE_COMPLETED_ERROR", error, "STATE_COMPLETED"), of(t));
    }

    @Test
    @DisplayName("a tx not seen yet is SUBMITTED in its one entry, and ABANDONED once given up")
    void unseen() {
        Transfer t = new Transfer(1, L1, HASH);
        assertEquals(status("STATE_SUBMITTED", null, "STATE_SUBMITTED"), of(t));
        t.abandon();
        assertEquals(status("STATE_ABANDONED", null, "STATE_COMPLETED"), of(t));
    }
}
