package dev.weft.devnet.mempool;

import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.tx.DecodedTx;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The txs submitted to one devnet chain and not yet in a block, in arrival order. A tx is checked when it arrives
 * (CheckTx) and queued once: the same bytes again are refused while it waits, as CometBFT's mempool cache does. Each
 * block takes at most {@code maxPerBlock} of them; whoever waits for a tx's block (broadcast_tx_commit) gets it.
 */
public final class Mempool {
    private final int maxPending;
    private final ArrayDeque<Entry> queue = new ArrayDeque<>();
    private final Set<String> hashes = new HashSet<>();
    private long bytes;

    /** An executed tx in the block that holds it. */
    public record Included(Tx tx, long height) {}

    /** A queued tx and who waits for its block. */
    public record Entry(DecodedTx tx, Promise<Included> included) {}

    /** Thrown when the tx is already queued or the mempool is full (CometBFT answers with an RPC error). */
    public static final class Refused extends RuntimeException {
        public Refused(String message) {
            super(message, null, false, false);
        }
    }

    public Mempool(int maxPending) {
        this.maxPending = maxPending;
    }

    /** Queues a checked tx; the future completes when a block includes it. */
    public synchronized Future<Included> add(DecodedTx tx) {
        if (hashes.contains(tx.hash())) throw new Refused("tx already exists in cache");
        if (queue.size() >= maxPending)
            throw new Refused("mempool is full: number of txs " + queue.size() + " (max: " + maxPending + ")");
        Promise<Included> p = Promise.promise();
        queue.add(new Entry(tx, p));
        hashes.add(tx.hash());
        bytes += tx.raw().length;
        return p.future();
    }

    /** Whether a tx of that hash waits here (CometBFT's cache answers before CheckTx runs). */
    public synchronized boolean contains(String hash) {
        return hashes.contains(hash);
    }

    /** The next txs for a block, at most {@code max}, in arrival order. */
    public synchronized List<Entry> take(int max) {
        List<Entry> out = new ArrayList<>(Math.min(max, queue.size()));
        while (out.size() < max && !queue.isEmpty()) {
            Entry e = queue.poll();
            hashes.remove(e.tx().hash());
            bytes -= e.tx().raw().length;
            out.add(e);
        }
        return out;
    }

    public synchronized int size() {
        return queue.size();
    }

    /** Total bytes of the queued txs. */
    public synchronized long bytes() {
        return bytes;
    }
}
