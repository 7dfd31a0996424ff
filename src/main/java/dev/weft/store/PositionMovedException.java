package dev.weft.store;

/**
 * A commit found its pipeline's cursor or counters elsewhere than the writer expected (another writer, a restart): the
 * writer re-reads its position and goes on from there.
 */
public final class PositionMovedException extends RuntimeException {
    public PositionMovedException(String message) {
        super(message, null, false, false);
    }
}
