package dev.weft.config;

import java.time.Duration;

/**
 * The partitioned history and its retention ({@code storage.*}, {@code retention.*}; migration V023): the size of a
 * partition in sequences of its stream, how often the writer makes sure one partition's worth of room is ready ahead of
 * each stream, and the retention bounds in blocks behind the ingest height (0 keeps all): {@code keep_blocks} for every
 * stream of the chain, {@code internal_txs_keep_blocks} for the internal txs alone (the smaller non-zero bound wins),
 * applied every {@code retention.interval} by dropping whole partitions.
 */
public record StorageConfig(
        long partitionRows,
        Duration partitionCheckInterval,
        long keepBlocks,
        long internalTxsKeepBlocks,
        Duration retentionInterval) {

    static StorageConfig from(ConfigSource c) {
        return new StorageConfig(
                c.longValue("storage.partition_rows", 1_000_000, 1, 1_000_000_000_000L),
                positive(c, "storage.partition_check_interval", Duration.ofSeconds(10)),
                c.longValue("retention.keep_blocks", 0, 0, Long.MAX_VALUE),
                c.longValue("retention.internal_txs_keep_blocks", 0, 0, Long.MAX_VALUE),
                positive(c, "retention.interval", Duration.ofMinutes(1)));
    }

    /** Whether any retention bound is set. */
    public boolean retains() {
        return keepBlocks > 0 || internalTxsKeepBlocks > 0;
    }

    /** The bound of the internal txs (0: keep all). */
    public long internalTxsBound() {
        if (keepBlocks == 0) return internalTxsKeepBlocks;
        if (internalTxsKeepBlocks == 0) return keepBlocks;
        return Math.min(keepBlocks, internalTxsKeepBlocks);
    }

    private static Duration positive(ConfigSource c, String key, Duration def) {
        Duration d = c.duration(key, def);
        if (d.isNegative() || d.isZero()) throw new ConfigException(key, "must be positive");
        return d;
    }
}
