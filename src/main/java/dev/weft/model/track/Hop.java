package dev.weft.model.track;

import io.vertx.core.json.JsonObject;

/**
 * One hop of a transfer and its state machine (the per-hop states of Skip Go's /v2/tx/status, skip-mev/skip-go):
 * <ul>
 *   <li>IBC: {@code TRANSFER_PENDING} (sent) → {@code TRANSFER_RECEIVED} (recv on the destination; a PFM chain may
 *   still fail it) → {@code TRANSFER_SUCCESS} (success ack on the source) or {@code TRANSFER_FAILURE} (error ack or
 *   timeout on the source: refunded there). The destination's acknowledgement is remembered when written (in the
 *   recv tx, or later by PFM), and a packet the destination can no longer receive carries a timeout error while its
 *   refund is on the way;</li>
 *   <li>OPinit deposit: {@code OPINIT_TRANSFER_SENT} → {@code OPINIT_TRANSFER_RECEIVED} (finalized on the rollup,
 *   possibly with {@code success=false}: then its refund withdrawal is followed until claimable on the L1);</li>
 *   <li>OPinit withdrawal: {@code OPINIT_TRANSFER_SENT} → {@code OPINIT_TRANSFER_RECEIVED} once claimable on the L1:
 *   an output covering its L2 height was proposed and the bridge's finalization period has passed since;</li>
 *   <li>LayerZero: {@code LAYER_ZERO_TRANSFER_SENT} → {@code LAYER_ZERO_TRANSFER_RECEIVED} when the destination OFT's
 *   {@code OFTReceived} of the message's guid is seen.</li>
 * </ul>
 * Every transition returns whether it changed anything (events seen twice change nothing).
 */
public final class Hop {
    public static final String TRANSFER_PENDING = "TRANSFER_PENDING";
    public static final String TRANSFER_RECEIVED = "TRANSFER_RECEIVED";
    public static final String TRANSFER_SUCCESS = "TRANSFER_SUCCESS";
    public static final String TRANSFER_FAILURE = "TRANSFER_FAILURE";
    public static final String OPINIT_SENT = "OPINIT_TRANSFER_SENT";
    public static final String OPINIT_RECEIVED = "OPINIT_TRANSFER_RECEIVED";
    public static final String LAYER_ZERO_SENT = "LAYER_ZERO_TRANSFER_SENT";
    public static final String LAYER_ZERO_RECEIVED = "LAYER_ZERO_TRANSFER_RECEIVED";
    public static final String PACKET_ERROR_ACKNOWLEDGEMENT = "PACKET_ERROR_ACKNOWLEDGEMENT";
    public static final String PACKET_ERROR_TIMEOUT = "PACKET_ERROR_TIMEOUT";

    public final int flow;
    public final int index;
    public final HopKind kind;
    public final String fromChain;
    public final String toChain;
    /** The sending and receiving ends of an IBC packet, its sequence and timeout (ns, 0 = none). */
    public final String srcPort, srcChannel, dstPort, dstChannel;

    public final long sequence;
    public final long timeoutTimestamp;
    /** OPinit: the bridge, the L1 sequence of a deposit or L2 sequence of a withdrawal, the withdrawal's L2 height. */
    public final long bridgeId, opSequence, l2Height;
    /** The token on the sending chain, what arrives on the receiving chain, and the amount. */
    public final String denom, destDenom, amount;
    /** IBC: how many further hops the packet's memo asks the packet-forward middleware for (0: it ends here). */
    private int forwards;
    /** LayerZero: the message's guid ({@code 0x} + lower-case hex), by which its delivery is found on the destination. */
    private String guid = "";
    /**
     * IBC with a swap on arrival (ibc-hooks): the swap's output the recipient got, denom and amount (null without one);
     * what the transfer released is that, not the voucher that arrived.
     */
    private String releasedDenom, releasedAmount;

    private String state;
    private ChainTx sendTx, receiveTx, ackTx, timeoutTx, outputTx;
    private Boolean ackSuccess;
    private String packetErrorType, packetErrorMessage;
    private boolean depositFailed;
    /** A failed deposit's refund: the rollup height of the withdrawal it started (0: none seen), and whether it is claimable. */
    private long refundHeight;

    private boolean refunded;
    /** Withdrawal, or a failed deposit's refund: the first output covering it and when it becomes claimable on the L1. */
    private long claimableAt;

    private Hop(
            int flow,
            int index,
            HopKind kind,
            String fromChain,
            String toChain,
            String srcPort,
            String srcChannel,
            String dstPort,
            String dstChannel,
            long sequence,
            long timeoutTimestamp,
            long bridgeId,
            long opSequence,
            long l2Height,
            String denom,
            String destDenom,
            String amount,
            String state,
            ChainTx sendTx) {
        this.flow = flow;
        this.index = index;
        this.kind = kind;
        this.fromChain = fromChain;
        this.toChain = toChain;
        this.srcPort = srcPort;
        this.srcChannel = srcChannel;
        this.dstPort = dstPort;
        this.dstChannel = dstChannel;
        this.sequence = sequence;
        this.timeoutTimestamp = timeoutTimestamp;
        this.bridgeId = bridgeId;
        this.opSequence = opSequence;
        this.l2Height = l2Height;
        this.denom = denom;
        this.destDenom = destDenom;
        this.amount = amount;
        this.state = state;
        this.sendTx = sendTx;
    }

    public static Hop ibc(
            int flow,
            int index,
            String fromChain,
            String toChain,
            String srcPort,
            String srcChannel,
            String dstPort,
            String dstChannel,
            long sequence,
            long timeoutTimestamp,
            String denom,
            String destDenom,
            String amount,
            ChainTx sendTx) {
        return new Hop(
                flow,
                index,
                HopKind.IBC,
                fromChain,
                toChain,
                srcPort,
                srcChannel,
                dstPort,
                dstChannel,
                sequence,
                timeoutTimestamp,
                0,
                0,
                0,
                denom,
                destDenom,
                amount,
                TRANSFER_PENDING,
                sendTx);
    }

    public static Hop deposit(
            int flow,
            String l1,
            String l2,
            long bridgeId,
            long l1Sequence,
            String l1Denom,
            String l2Denom,
            String amount,
            ChainTx sendTx) {
        return new Hop(
                flow,
                0,
                HopKind.OP_DEPOSIT,
                l1,
                l2,
                "",
                "",
                "",
                "",
                0,
                0,
                bridgeId,
                l1Sequence,
                0,
                l1Denom,
                l2Denom,
                amount,
                OPINIT_SENT,
                sendTx);
    }

    public static Hop withdrawal(
            int flow,
            String l2,
            String l1,
            long bridgeId,
            long l2Sequence,
            String l2Denom,
            String l1Denom,
            String amount,
            ChainTx sendTx) {
        return new Hop(
                flow,
                0,
                HopKind.OP_WITHDRAWAL,
                l2,
                l1,
                "",
                "",
                "",
                "",
                0,
                0,
                bridgeId,
                l2Sequence,
                sendTx.height(),
                l2Denom,
                l1Denom,
                amount,
                OPINIT_SENT,
                sendTx);
    }

    /**
     * A LayerZero OFT send ({@code OFTSent} in the source tx's receipt): {@code amount} is what the destination credits.
     * It stays {@code LAYER_ZERO_TRANSFER_SENT} until the destination OFT's {@code OFTReceived} with the same
     * {@code guid} is seen.
     */
    public static Hop layerZero(
            int flow,
            String fromChain,
            String toChain,
            String denom,
            String destDenom,
            String amount,
            String guid,
            ChainTx sendTx) {
        Hop h = new Hop(
                flow,
                0,
                HopKind.LAYER_ZERO,
                fromChain,
                toChain,
                "",
                "",
                "",
                "",
                0,
                0,
                0,
                0,
                0,
                denom,
                destDenom,
                amount,
                LAYER_ZERO_SENT,
                sendTx);
        h.guid = guid;
        return h;
    }

    public String guid() {
        return guid;
    }

    /** The destination OFT credited the message ({@code OFTReceived} of its guid): delivered. */
    public boolean layerZeroReceived(ChainTx tx) {
        if (kind != HopKind.LAYER_ZERO || receiveTx != null) return false;
        receiveTx = tx;
        state = LAYER_ZERO_RECEIVED;
        return true;
    }

    /** Sets how many further hops the packet's memo asks for (a PFM route). */
    public Hop expectingForwards(int n) {
        forwards = n;
        return this;
    }

    public int forwards() {
        return forwards;
    }

    // ---- IBC transitions ----

    /** recv_packet seen on the destination (possibly after the ack, when a catch-up search finds it late). */
    public boolean received(ChainTx tx) {
        if (receiveTx != null) return false;
        receiveTx = tx;
        if (state.equals(TRANSFER_PENDING)) {
            state = TRANSFER_RECEIVED;
            if (PACKET_ERROR_TIMEOUT.equals(packetErrorType)) clearPacketError(); // it arrived in time after all
        }
        return true;
    }

    /** The swap on arrival paid the recipient {@code amount} of {@code denom} (false when already known). */
    public boolean swappedOnArrival(String denom, String amount) {
        if (releasedDenom != null) return false;
        releasedDenom = denom;
        releasedAmount = amount;
        return true;
    }

    /** What the recipient holds when this hop ends the transfer: the swap-on-arrival output, else what arrived. */
    public String releasedDenom() {
        return releasedDenom != null ? releasedDenom : destDenom;
    }

    public String releasedAmount() {
        return releasedAmount != null ? releasedAmount : amount;
    }

    /** The destination wrote its acknowledgement (in the recv tx, or later through PFM). */
    public boolean acknowledgementWritten(boolean success, String error) {
        if (ackSuccess != null) return false;
        ackSuccess = success;
        if (!success) setPacketError(PACKET_ERROR_ACKNOWLEDGEMENT, error == null ? "acknowledgement error" : error);
        return true;
    }

    /**
     * acknowledge_packet seen on the source. The ack's content is the one written on the destination when seen,
     * else {@code successHint} (from the source's own events).
     */
    public boolean acknowledged(ChainTx tx, boolean successHint, String errorHint) {
        if (ackTx != null || timeoutTx != null) return false;
        ackTx = tx;
        if (ackSuccess == null) acknowledgementWritten(successHint, errorHint);
        state = ackSuccess ? TRANSFER_SUCCESS : TRANSFER_FAILURE;
        return true;
    }

    /** timeout_packet seen on the source: refunded there. */
    public boolean timedOut(ChainTx tx) {
        if (ackTx != null || timeoutTx != null) return false;
        timeoutTx = tx;
        state = TRANSFER_FAILURE;
        setPacketError(PACKET_ERROR_TIMEOUT, "packet timed out");
        return true;
    }

    /** The destination's clock passed the packet's timeout while it was not received: its refund is on the way. */
    public boolean timeoutPassed(long destinationTimeNanos) {
        if (!state.equals(TRANSFER_PENDING) || timeoutTimestamp == 0 || packetErrorType != null) return false;
        if (Long.compareUnsigned(destinationTimeNanos, timeoutTimestamp) < 0) return false;
        setPacketError(PACKET_ERROR_TIMEOUT, "packet timed out");
        return true;
    }

    // ---- OPinit transitions ----

    /** finalize_token_deposit seen on the rollup. */
    public boolean finalized(ChainTx tx, boolean success, String reason) {
        if (!state.equals(OPINIT_SENT)) return false;
        state = OPINIT_RECEIVED;
        receiveTx = tx;
        // "hook failed; …": the coins were minted on the rollup, only the hook did not run (OPinit handleBridgeHook)
        boolean delivered = success || reason != null && reason.startsWith("hook failed");
        if (!delivered) {
            depositFailed = true;
            setPacketError("DEPOSIT_FAILED", reason == null || reason.isEmpty() ? "deposit failed" : reason);
        }
        return true;
    }

    /**
     * A failed deposit's funds go back: OPinit starts a withdrawal to the L1 sender in the finalize tx, at that rollup
     * height; it is followed like a withdrawal, on this hop.
     */
    public boolean refundStarted(long l2BlockHeight) {
        if (!depositFailed || refundHeight != 0) return false;
        refundHeight = l2BlockHeight;
        return true;
    }

    /** A withdrawal, or a failed deposit's refund, still waiting to become claimable on the L1. */
    public boolean awaitingOutput() {
        return kind == HopKind.OP_WITHDRAWAL ? state.equals(OPINIT_SENT) : refundHeight != 0 && !refunded;
    }

    /** The L1 where the withdrawal (or the refund) is claimed. */
    public String l1Chain() {
        return kind == HopKind.OP_WITHDRAWAL ? toChain : fromChain;
    }

    /** The rollup height an output must cover for the withdrawal (or the refund) to be claimable. */
    public long withdrawalHeight() {
        return kind == HopKind.OP_WITHDRAWAL ? l2Height : refundHeight;
    }

    /** propose_output seen on the L1: the first output covering the withdrawal fixes when it becomes claimable. */
    public boolean outputProposed(ChainTx tx, long l2BlockNumber, long finalizationNanos) {
        if (!awaitingOutput() || outputTx != null || l2BlockNumber < withdrawalHeight()) return false;
        outputTx = tx;
        claimableAt = tx.timeNanos() + finalizationNanos;
        return true;
    }

    /** The L1's clock passed the claimable time: the withdrawal is done for the tracker (a refund: the funds are back). */
    public boolean claimableBy(long l1TimeNanos) {
        if (!awaitingOutput() || outputTx == null || l1TimeNanos < claimableAt) return false;
        if (kind == HopKind.OP_DEPOSIT) {
            refunded = true;
            return true;
        }
        state = OPINIT_RECEIVED;
        receiveTx = outputTx;
        return true;
    }

    private void setPacketError(String type, String message) {
        packetErrorType = type;
        packetErrorMessage = message;
    }

    private void clearPacketError() {
        packetErrorType = null;
        packetErrorMessage = null;
    }

    // ---- reading ----

    public String state() {
        return state;
    }

    /** Received (or beyond) on its destination. */
    public boolean arrived() {
        return !state.equals(TRANSFER_PENDING) && !state.equals(OPINIT_SENT) && !state.equals(LAYER_ZERO_SENT);
    }

    /** Nothing about this hop will change any more. */
    public boolean done() {
        if (kind == HopKind.LAYER_ZERO) return state.equals(LAYER_ZERO_RECEIVED);
        return kind == HopKind.IBC
                ? state.equals(TRANSFER_SUCCESS) || state.equals(TRANSFER_FAILURE)
                : state.equals(OPINIT_RECEIVED);
    }

    /** This hop itself failed (error ack, timeout, failed deposit), even if its refund is still on the way. */
    public boolean failed() {
        return packetErrorType != null || state.equals(TRANSFER_FAILURE) || depositFailed;
    }

    public boolean depositFailed() {
        return depositFailed;
    }

    /** A failed deposit whose refund is claimable on the L1. */
    public boolean refunded() {
        return refunded;
    }

    public Boolean ackSuccess() {
        return ackSuccess;
    }

    public ChainTx sendTx() {
        return sendTx;
    }

    public ChainTx receiveTx() {
        return receiveTx;
    }

    public ChainTx ackTx() {
        return ackTx;
    }

    public ChainTx timeoutTx() {
        return timeoutTx;
    }

    public ChainTx outputTx() {
        return outputTx;
    }

    public long claimableAt() {
        return claimableAt;
    }

    public String packetErrorType() {
        return packetErrorType;
    }

    public String packetErrorMessage() {
        return packetErrorMessage;
    }

    /** Source-side identity of an IBC packet ({@code port/channel/sequence} on {@link #fromChain}). */
    public String sourceKey() {
        return srcPort + "/" + srcChannel + "/" + sequence;
    }

    /** Destination-side identity of an IBC packet ({@code port/channel/sequence} on {@link #toChain}). */
    public String destinationKey() {
        return dstPort + "/" + dstChannel + "/" + sequence;
    }

    // ---- persistence ----

    public JsonObject toJson() {
        JsonObject o = new JsonObject()
                .put("src_port", srcPort)
                .put("src_channel", srcChannel)
                .put("dst_port", dstPort)
                .put("dst_channel", dstChannel)
                .put("sequence", sequence)
                .put("timeout_timestamp", Long.toUnsignedString(timeoutTimestamp))
                .put("bridge_id", bridgeId)
                .put("op_sequence", opSequence)
                .put("l2_height", l2Height)
                .put("denom", denom)
                .put("dest_denom", destDenom)
                .put("amount", amount)
                .put("claimable_at", claimableAt)
                .put("deposit_failed", depositFailed)
                .put("forwards", forwards)
                .put("refund_height", refundHeight)
                .put("refunded", refunded)
                .put("guid", guid);
        if (ackSuccess != null) o.put("ack_success", ackSuccess);
        if (releasedDenom != null) o.put("released_denom", releasedDenom).put("released_amount", releasedAmount);
        if (packetErrorType != null)
            o.put("packet_error", new JsonObject().put("type", packetErrorType).put("message", packetErrorMessage));
        putTx(o, "send_tx", sendTx);
        putTx(o, "receive_tx", receiveTx);
        putTx(o, "acknowledge_tx", ackTx);
        putTx(o, "timeout_tx", timeoutTx);
        putTx(o, "output_tx", outputTx);
        return o;
    }

    private static void putTx(JsonObject o, String name, ChainTx tx) {
        if (tx != null) o.put(name, tx.toJson());
    }

    public static Hop fromRow(
            int flow, int index, String kind, String state, String fromChain, String toChain, JsonObject d) {
        Hop h = new Hop(
                flow,
                index,
                HopKind.valueOf(kind),
                fromChain,
                toChain,
                d.getString("src_port"),
                d.getString("src_channel"),
                d.getString("dst_port"),
                d.getString("dst_channel"),
                d.getLong("sequence"),
                Long.parseUnsignedLong(d.getString("timeout_timestamp")),
                d.getLong("bridge_id"),
                d.getLong("op_sequence"),
                d.getLong("l2_height"),
                d.getString("denom"),
                d.getString("dest_denom"),
                d.getString("amount"),
                state,
                ChainTx.fromJson(d.getJsonObject("send_tx")));
        h.receiveTx = ChainTx.fromJson(d.getJsonObject("receive_tx"));
        h.ackTx = ChainTx.fromJson(d.getJsonObject("acknowledge_tx"));
        h.timeoutTx = ChainTx.fromJson(d.getJsonObject("timeout_tx"));
        h.outputTx = ChainTx.fromJson(d.getJsonObject("output_tx"));
        h.ackSuccess = d.getBoolean("ack_success");
        h.claimableAt = d.getLong("claimable_at", 0L);
        h.depositFailed = d.getBoolean("deposit_failed", false);
        h.refundHeight = d.getLong("refund_height", 0L);
        h.refunded = d.getBoolean("refunded", false);
        h.forwards = d.getInteger("forwards", 0);
        h.releasedDenom = d.getString("released_denom");
        h.releasedAmount = d.getString("released_amount");
        h.guid = d.getString("guid", "");
        JsonObject err = d.getJsonObject("packet_error");
        if (err != null) h.setPacketError(err.getString("type"), err.getString("message"));
        return h;
    }
}
