package dev.weft.evm;

import dev.weft.store.InternalTxStore;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;

/**
 * Which heights the tracer visits, in increasing order. In a node it is {@link #ingested}: the heights the ingest
 * cursor has passed whose block has EVM txs, with ingestion's EVM tx count to check the receipts against. For a plain
 * EVM node without the Cosmos side (the Anvil tests), {@link #range} names the heights directly.
 */
@FunctionalInterface
public interface HeightSource {
    /** Up to {@code max} heights above {@code after}, and the highest height the source knows. */
    Future<InternalTxStore.Targets> next(long after, int max);

    static HeightSource ingested(InternalTxStore store) {
        return store::ingestedHeights;
    }

    /** Every height of {@code first..last}, EVM tx counts unknown (an empty block is traced and commits nothing). */
    static HeightSource range(long first, long last) {
        return (after, max) -> {
            List<InternalTxStore.Target> out = new ArrayList<>();
            for (long h = Math.max(first, after + 1); h <= last && out.size() < max; h++)
                out.add(new InternalTxStore.Target(h, -1));
            return Future.succeededFuture(new InternalTxStore.Targets(out, last));
        };
    }
}
