package dev.weft.model.track;

/** Skip's {@code TransactionState}: of one transfer, and (aggregated) of a tracked tx. */
public enum TransferState {
    STATE_SUBMITTED,
    STATE_PENDING,
    STATE_PENDING_ERROR,
    STATE_COMPLETED_SUCCESS,
    STATE_COMPLETED_ERROR,
    STATE_ABANDONED;

    /** Terminal for tracking: nothing more is polled (an abandoned tx can be tracked again). */
    public boolean terminal() {
        return this == STATE_COMPLETED_SUCCESS || this == STATE_COMPLETED_ERROR || this == STATE_ABANDONED;
    }
}
