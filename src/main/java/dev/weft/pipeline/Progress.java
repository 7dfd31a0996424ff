package dev.weft.pipeline;

import java.util.Locale;

/**
 * The catch-up progress line: {@code height 12000/200000 (6.0%) 350.0 blocks/s 9800 txs/s ETA 8m31s}, with rates over
 * the interval since the previous line. Each pipeline names what its second rate counts (the EVM tracer: internal txs).
 */
public final class Progress {
    private final String countUnit;
    private long lastNanos;
    private long lastHeight;
    private long lastTxs;

    Progress(long nowNanos, long height, long txs) {
        this("txs", nowNanos, height, txs);
    }

    /** @param countUnit what the second rate counts, e.g. {@code internal txs} */
    public Progress(String countUnit, long nowNanos, long height, long txs) {
        this.countUnit = countUnit;
        reset(nowNanos, height, txs);
    }

    public void reset(long nowNanos, long height, long txs) {
        lastNanos = nowNanos;
        lastHeight = height;
        lastTxs = txs;
    }

    /** The line for the interval ending now; resets the interval. */
    public String line(long nowNanos, long height, long head, long txs) {
        double secs = Math.max(1e-9, (nowNanos - lastNanos) / 1e9);
        double bps = (height - lastHeight) / secs;
        double tps = (txs - lastTxs) / secs;
        reset(nowNanos, height, txs);
        return format(height, head, bps, tps, countUnit);
    }

    static String format(long height, long head, double blocksPerSec, double txsPerSec) {
        return format(height, head, blocksPerSec, txsPerSec, "txs");
    }

    static String format(long height, long head, double blocksPerSec, double txsPerSec, String countUnit) {
        double pct = head <= 0 ? 100.0 : Math.min(100.0, 100.0 * height / head);
        String eta = blocksPerSec > 0 ? duration((long) Math.ceil((head - height) / blocksPerSec)) : "?";
        return String.format(
                Locale.ROOT,
                "height %d/%d (%.1f%%) %.1f blocks/s %d %s/s ETA %s",
                height,
                head,
                pct,
                blocksPerSec,
                Math.round(txsPerSec),
                countUnit,
                eta);
    }

    static String duration(long seconds) {
        if (seconds < 60) return seconds + "s";
        if (seconds < 3600) return (seconds / 60) + "m" + (seconds % 60) + "s";
        if (seconds < 86_400) return (seconds / 3600) + "h" + (seconds % 3600 / 60) + "m";
        return (seconds / 86_400) + "d" + (seconds % 86_400 / 3600) + "h";
    }
}
