package dev.weft.config;

import java.time.Duration;

/**
 * The rich list ({@code richlist.*}): how far it stays behind ingestion, how much one transaction applies, and how
 * balances are read from the node (bootstrap snapshot, repair).
 *
 * @param lagBlocks          heights left unapplied below the ingest cursor (0: follow it exactly; rollytics uses 5)
 * @param commitBlocks       most heights applied in one transaction
 * @param commitTxs          most txs read for one transaction (a run closes at whichever comes first)
 * @param balanceBatch       {@code balanceOf} calls per JSON-RPC batch
 * @param balanceConcurrency batches in flight at once
 * @param pollInterval       how often the ingest cursor is checked besides the {@code block indexed} events
 * @param reindexAfterRows   balance rows written (since start or the last rebuild) after which the writer, once caught
 *                           up, rebuilds the rank index of the pages online; 0 never rebuilds it
 */
public record RichListConfig(
        long lagBlocks,
        int commitBlocks,
        int commitTxs,
        int balanceBatch,
        int balanceConcurrency,
        Duration pollInterval,
        long reindexAfterRows) {

    public static RichListConfig from(ConfigSource c) {
        return new RichListConfig(
                c.longValue("richlist.lag_blocks", 0, 0, 1_000_000),
                c.intValue("richlist.commit_blocks", 200, 1, 100_000),
                c.intValue("richlist.commit_txs", 10_000, 1, 1_000_000),
                c.intValue("richlist.balance_batch", 500, 1, 10_000),
                c.intValue("richlist.balance_concurrency", 4, 1, 64),
                c.duration("richlist.poll_interval", Duration.ofSeconds(1)),
                c.longValue("richlist.reindex_after_rows", 200_000, 0, 1_000_000_000_000L));
    }
}
