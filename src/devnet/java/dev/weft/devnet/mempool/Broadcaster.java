package dev.weft.devnet.mempool;

import io.vertx.core.Future;

/** Where a node's broadcast endpoints hand a submitted tx: CheckTx, then the mempool. */
public interface Broadcaster {

    /**
     * The CheckTx result of a tx: its hash, ABCI code (0 = accepted), codespace, log and gas, and, when accepted, the
     * future of the block that includes it.
     */
    record Submission(
            String hash,
            int code,
            String codespace,
            String log,
            long gasWanted,
            long gasUsed,
            Future<Mempool.Included> included) {}

    /** Checks and queues a tx; throws {@link Mempool.Refused} when the mempool will not take it (duplicate, full). */
    Submission submit(byte[] raw);

    /**
     * The gas a tx would use ({@code cosmos.tx.v1beta1.Service/Simulate}), without executing it; throws
     * {@link UnsupportedOperationException} when the node simulates nothing. A tx that cannot be decoded throws
     * {@link dev.weft.devnet.tx.DecodedTx.Rejected}.
     */
    default long simulate(byte[] raw) {
        throw new UnsupportedOperationException("simulate");
    }

    /** The txs waiting for a block (count and bytes), what {@code num_unconfirmed_txs} reports. */
    default long[] pending() {
        return new long[] {0, 0};
    }
}
