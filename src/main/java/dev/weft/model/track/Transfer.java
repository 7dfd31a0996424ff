package dev.weft.model.track;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A tracked tx: where it was submitted, whether and where it was seen on chain (and with what result), the hops of the
 * transfers it started, grouped by flow ({@code transfers[i]}), and whether the tracker gave up on it.
 */
public final class Transfer {
    public final long id;
    public final String chainId;
    public final String txHash;
    private ChainTx tx;
    private int txCode;
    private String txLog = "";
    private boolean abandoned;
    private final List<Hop> hops = new ArrayList<>();

    public Transfer(long id, String chainId, String txHash) {
        this.id = id;
        this.chainId = chainId;
        this.txHash = txHash;
    }

    /** The tracked tx was found on its chain with this ABCI result. */
    public boolean seen(ChainTx tx, int code, String log) {
        if (this.tx != null) return false;
        this.tx = tx;
        this.txCode = code;
        this.txLog = log == null ? "" : log;
        return true;
    }

    public void addHop(Hop h) {
        hops.add(h);
        hops.sort(Comparator.<Hop>comparingInt(x -> x.flow).thenComparingInt(x -> x.index));
    }

    public boolean abandon() {
        if (abandoned) return false;
        abandoned = true;
        return true;
    }

    public ChainTx tx() {
        return tx;
    }

    public int txCode() {
        return txCode;
    }

    public String txLog() {
        return txLog;
    }

    public boolean abandoned() {
        return abandoned;
    }

    /**
     * An OP withdrawal (or a failed deposit's refund) has been initiated and waits for an output proposal and the
     * bridge's finalization period (days on real chains): no progress is expected meanwhile, so the stall timeout does
     * not apply.
     */
    public boolean waitingForFinalization() {
        for (Hop h : hops) {
            if (h.awaitingOutput()) return true;
        }
        return false;
    }

    public List<Hop> hops() {
        return hops;
    }

    /** The hop of a flow at an index, or null. */
    public Hop hop(int flow, int index) {
        for (Hop h : hops) if (h.flow == flow && h.index == index) return h;
        return null;
    }

    public int flowCount() {
        return hops.stream().mapToInt(h -> h.flow + 1).max().orElse(0);
    }

    public List<Hop> flow(int flow) {
        return hops.stream().filter(h -> h.flow == flow).toList();
    }

    public List<FlowStatus> flows() {
        List<FlowStatus> out = new ArrayList<>();
        for (int f = 0; f < flowCount(); f++) out.add(FlowStatus.of(flow(f), abandoned));
        return out;
    }

    /**
     * The state of the tracked tx: SUBMITTED until seen (ABANDONED when given up), COMPLETED_ERROR when it failed on
     * chain, COMPLETED_SUCCESS when it started no transfer; else the aggregate of its transfers (any abandoned →
     * ABANDONED, any pending error → PENDING_ERROR, any pending → PENDING, all successful → COMPLETED_SUCCESS, else
     * COMPLETED_ERROR).
     */
    public TransferState state() {
        if (tx == null) return abandoned ? TransferState.STATE_ABANDONED : TransferState.STATE_SUBMITTED;
        if (txCode != 0) return TransferState.STATE_COMPLETED_ERROR;
        List<FlowStatus> flows = flows();
        if (flows.isEmpty()) return TransferState.STATE_COMPLETED_SUCCESS;
        boolean pending = false, pendingError = false, abandonedFlow = false, error = false;
        for (FlowStatus f : flows) {
            switch (f.state()) {
                case STATE_ABANDONED -> abandonedFlow = true;
                case STATE_PENDING_ERROR -> pendingError = true;
                case STATE_PENDING, STATE_SUBMITTED -> pending = true;
                case STATE_COMPLETED_ERROR -> error = true;
                default -> {}
            }
        }
        if (abandonedFlow) return TransferState.STATE_ABANDONED;
        if (pendingError) return TransferState.STATE_PENDING_ERROR;
        if (pending) return TransferState.STATE_PENDING;
        return error ? TransferState.STATE_COMPLETED_ERROR : TransferState.STATE_COMPLETED_SUCCESS;
    }

    /**
     * Whether a finished transfer still misses a tx it can be given: a packet acknowledged on its source whose receipt
     * was not seen yet (a catch-up search will find it). Such a transfer stays followed a little longer.
     */
    public boolean missingReceipt() {
        for (Hop h : hops) if (h.kind == HopKind.IBC && h.ackTx() != null && h.receiveTx() == null) return true;
        return false;
    }

    /** What is persisted of the tx itself: where it was seen and its result. */
    public JsonObject txJson() {
        if (tx == null) return null;
        return tx.toJson().put("code", txCode).put("log", txLog);
    }

    public void restoreTx(JsonObject o) {
        if (o == null) return;
        seen(ChainTx.fromJson(o), o.getInteger("code", 0), o.getString("log", ""));
    }
}
