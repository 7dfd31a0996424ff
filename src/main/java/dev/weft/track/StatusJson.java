package dev.weft.track;

import dev.weft.model.track.ChainTx;
import dev.weft.model.track.FlowStatus;
import dev.weft.model.track.Hop;
import dev.weft.model.track.HopKind;
import dev.weft.model.track.Transfer;
import dev.weft.model.track.TransferState;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.function.BiFunction;

/**
 * {@code GET /v2/tx/status} in Skip's {@code StatusTxResponse} shape: {@code state}, {@code transfers} (one per
 * transfer the tx started: state, transfer_sequence, next_blocking_transfer, transfer_asset_release, error; exactly one
 * with an empty sequence when it started none, was not seen yet or failed on chain), the
 * deprecated top-level {@code transfer_sequence} (the first transfer's), the first transfer's
 * {@code next_blocking_transfer}, {@code transfer_asset_release} and {@code error}, and the legacy {@code status}
 * ({@code STATE_COMPLETED} once terminal, {@code STATE_PENDING} for a pending error, else the state). Hops carry both
 * {@code from/to_chain_id} and the deprecated {@code src/dst_chain_id}; txs are ChainTransactions
 * {@code {chain_id, tx_hash, explorer_link, on_chain_at}}.
 */
public final class StatusJson {
    private StatusJson() {}

    /** @param explorer the explorer link of a (chain, hash) */
    public static JsonObject of(Transfer t, BiFunction<String, String, String> explorer) {
        TransferState state = t.state();
        JsonArray transfers = new JsonArray();
        List<FlowStatus> flows = t.tx() == null || t.txCode() != 0 ? List.of() : t.flows();
        for (int f = 0; f < flows.size(); f++) {
            FlowStatus fs = flows.get(f);
            transfers.add(transfer(
                    fs.state(), sequence(t.flow(f), explorer), blocking(fs.nextBlocking()), fs.release(), fs.error()));
        }
        if (transfers.isEmpty()) {
            // Skip answers one entry for every tracked tx: a tx not seen yet, one that started no transfer (a
            // single-chain
            // swap) and one that failed on chain; clients read transfers[0].state
            transfers.add(transfer(state, new JsonArray(), null, null, executionError(t)));
        }
        JsonObject first = transfers.getJsonObject(0);
        return new JsonObject()
                .put("state", state.name())
                .put("transfers", transfers)
                .put(
                        "transfer_sequence",
                        first.getJsonArray("transfer_sequence").copy())
                .put("next_blocking_transfer", copy(first.getJsonObject("next_blocking_transfer")))
                .put("transfer_asset_release", copy(first.getJsonObject("transfer_asset_release")))
                .put("error", copy(first.getJsonObject("error")))
                .put("status", legacyStatus(state));
    }

    private static JsonObject transfer(
            TransferState state, JsonArray sequence, JsonObject blocking, JsonObject release, JsonObject error) {
        return new JsonObject()
                .put("state", state.name())
                .put("transfer_sequence", sequence)
                .put("next_blocking_transfer", blocking)
                .put("transfer_asset_release", release)
                .put("error", error);
    }

    /** Skip's StatusError of a tx that failed on chain: its ABCI code and log; null otherwise. */
    private static JsonObject executionError(Transfer t) {
        if (t.tx() == null || t.txCode() == 0) return null;
        return new JsonObject()
                .put("type", "STATUS_ERROR_TRANSACTION_EXECUTION")
                .put("message", t.txLog())
                .put("details", new JsonObject().put("code", t.txCode()).put("message", t.txLog()));
    }

    static String legacyStatus(TransferState s) {
        if (s.terminal()) return "STATE_COMPLETED";
        return s == TransferState.STATE_PENDING_ERROR ? "STATE_PENDING" : s.name();
    }

    private static JsonObject copy(JsonObject o) {
        return o == null ? null : o.copy();
    }

    private static JsonObject blocking(Integer index) {
        return index == null ? null : new JsonObject().put("transfer_sequence_index", index);
    }

    private static JsonArray sequence(List<Hop> hops, BiFunction<String, String, String> explorer) {
        JsonArray out = new JsonArray();
        for (Hop h : hops) {
            JsonObject body = new JsonObject()
                    .put("from_chain_id", h.fromChain)
                    .put("to_chain_id", h.toChain)
                    .put("src_chain_id", h.fromChain)
                    .put("dst_chain_id", h.toChain)
                    .put("state", h.state());
            if (h.kind == HopKind.IBC) {
                JsonObject err = h.packetErrorType() == null
                        ? null
                        : new JsonObject()
                                .put("type", h.packetErrorType())
                                .put("message", h.packetErrorMessage())
                                .putNull("details");
                body.put(
                        "packet_txs",
                        new JsonObject()
                                .put("send_tx", tx(h.sendTx(), explorer))
                                .put("receive_tx", tx(h.receiveTx(), explorer))
                                .put("acknowledge_tx", tx(h.ackTx(), explorer))
                                .put("timeout_tx", tx(h.timeoutTx(), explorer))
                                .put("error", err));
                out.add(new JsonObject().put("ibc_transfer", body));
            } else if (h.kind == HopKind.LAYER_ZERO) {
                body.put(
                        "txs",
                        new JsonObject()
                                .put("send_tx", tx(h.sendTx(), explorer))
                                .put("receive_tx", tx(h.receiveTx(), explorer))
                                .putNull("compose_tx")
                                .putNull("error_tx"));
                out.add(new JsonObject().put("layer_zero_transfer", body));
            } else {
                body.put(
                        "txs",
                        new JsonObject()
                                .put("send_tx", tx(h.sendTx(), explorer))
                                .put("receive_tx", tx(h.receiveTx(), explorer)));
                out.add(new JsonObject().put("op_init_transfer", body));
            }
        }
        return out;
    }

    static JsonObject tx(ChainTx tx, BiFunction<String, String, String> explorer) {
        if (tx == null) return null;
        return new JsonObject()
                .put("chain_id", tx.chainId())
                .put("tx_hash", tx.hash())
                .put("explorer_link", explorer.apply(tx.chainId(), tx.hash()))
                .put("on_chain_at", Instant.ofEpochSecond(0, tx.timeNanos()).toString());
    }
}
