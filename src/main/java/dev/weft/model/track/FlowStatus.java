package dev.weft.model.track;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The state of one transfer (a {@code transfers[i]}) from its hops, as Skip Go's /v2/tx/status reports it:
 * <ul>
 *   <li>no hop failed: {@code STATE_COMPLETED_SUCCESS} when every hop is done (IBC acknowledged, OPinit received),
 *   with the asset released on the last hop's destination (a LayerZero send: once its destination OFT credited it);
 *   else {@code STATE_PENDING};</li>
 *   <li>a hop failed (error ack, timeout, failed deposit): the funds go back to the origin (PFM refunds along the
 *   path, as ibc-go and the middleware do): {@code STATE_PENDING_ERROR} (release on the origin, not yet released)
 *   until the first hop is settled on the origin, then {@code STATE_COMPLETED_ERROR} (released there); a failed
 *   deposit completes at once with its refund withdrawal pending on the L1;</li>
 *   <li>an abandoned transfer that is not finished: {@code STATE_ABANDONED}.</li>
 * </ul>
 * {@code next_blocking_transfer} is the first hop not yet arrived (else not yet done) while pending, the deepest
 * failed hop on error, null on success.
 */
public record FlowStatus(TransferState state, Integer nextBlocking, JsonObject release, JsonObject error) {

    public static FlowStatus of(List<Hop> hops, boolean abandoned) {
        Hop first = hops.get(0);
        Hop last = hops.get(hops.size() - 1);
        int failedAt = -1;
        for (Hop h : hops) if (h.failed()) failedAt = h.index;
        if (failedAt >= 0) {
            Hop failed = hops.get(failedAt);
            JsonObject error = new JsonObject()
                    .put("type", "STATUS_ERROR_TRANSFER")
                    .put("message", failed.packetErrorMessage())
                    .putNull("details");
            if (failed.kind == HopKind.OP_DEPOSIT) {
                // refunded by a withdrawal to the L1 sender: pending until claimable there (a refund never seen: as it
                // was)
                boolean pending = failed.awaitingOutput();
                TransferState s = !pending
                        ? TransferState.STATE_COMPLETED_ERROR
                        : abandoned ? TransferState.STATE_ABANDONED : TransferState.STATE_PENDING_ERROR;
                return new FlowStatus(
                        s, failedAt, release(first.fromChain, first.denom, first.amount, failed.refunded()), error);
            }
            boolean refunded = first.state().equals(Hop.TRANSFER_FAILURE);
            if (refunded)
                return new FlowStatus(
                        TransferState.STATE_COMPLETED_ERROR,
                        failedAt,
                        release(first.fromChain, first.denom, first.amount, true),
                        error);
            return new FlowStatus(
                    abandoned ? TransferState.STATE_ABANDONED : TransferState.STATE_PENDING_ERROR,
                    failedAt,
                    release(first.fromChain, first.denom, first.amount, false),
                    error);
        }
        // a PFM memo announces hops not seen yet (the intermediate's receipt may be found after the first hop's ack)
        boolean allDone = hops.stream().allMatch(Hop::done) && last.forwards() == 0;
        if (allDone) {
            return new FlowStatus(
                    TransferState.STATE_COMPLETED_SUCCESS,
                    null,
                    release(last.toChain, last.releasedDenom(), last.releasedAmount(), true),
                    null);
        }
        Integer next = null;
        for (Hop h : hops) {
            if (!h.arrived()) {
                next = h.index;
                break;
            }
        }
        if (next == null)
            for (Hop h : hops)
                if (!h.done()) {
                    next = h.index;
                    break;
                }
        if (next == null) next = hops.size(); // the next hop, announced by the memo, not seen yet
        return new FlowStatus(
                abandoned ? TransferState.STATE_ABANDONED : TransferState.STATE_PENDING, next, null, null);
    }

    static JsonObject release(String chainId, String denom, String amount, boolean released) {
        return new JsonObject()
                .put("chain_id", chainId)
                .put("denom", denom)
                .put("amount", amount)
                .put("released", released);
    }
}
