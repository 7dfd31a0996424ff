package dev.weft.devnet.gen;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Where every tx of the chain sits, as a pure function: block 1 holds the {@link #GENESIS_TXS} deployments; from height
 * 2 on, heights come in windows of {@link #WINDOW} blocks, each with the same number of empty blocks (at seeded
 * positions) and the same total of txs (spread unevenly over its non-empty blocks). So the global index of the first tx
 * of any height, and the height of any global tx index, take O(window) to compute, whatever the height.
 */
public final class Layout {
    public static final int GENESIS_TXS = 10;
    static final int WINDOW = 64;
    private static final long TAG_EMPTY = 11, TAG_COUNTS = 12;

    private final long seed;
    private final boolean generated;
    private final int txsPerBlock;
    private final int emptyPerWindow;
    private final long txsPerWindow;
    private final ConcurrentHashMap<Long, long[]> windows = new ConcurrentHashMap<>();

    public Layout(ChainSpec spec) {
        this.seed = spec.seed();
        this.generated = spec.generated();
        this.txsPerBlock = spec.txsPerBlock();
        int e = (int) Math.round(spec.emptyBlockShare() * WINDOW);
        this.emptyPerWindow = Math.min(e, WINDOW - 1);
        this.txsPerWindow = (long) txsPerBlock * (WINDOW - emptyPerWindow);
    }

    /** Global index of the first tx of height h (h ≥ 1). */
    public long firstTx(long h) {
        if (h <= 1 || !generated) return 0;
        long w = (h - 2) / WINDOW;
        int pos = (int) ((h - 2) % WINDOW);
        return GENESIS_TXS + w * txsPerWindow + window(w)[pos];
    }

    /** Number of txs at height h. */
    public int txCount(long h) {
        if (!generated) return 0;
        if (h == 1) return GENESIS_TXS;
        return (int) (firstTx(h + 1) - firstTx(h));
    }

    /** The height holding global tx g; -1 when the chain has no regular txs at all. */
    public long heightOf(long g) {
        if (!generated) return -1;
        if (g < GENESIS_TXS) return 1;
        if (txsPerWindow == 0) return -1;
        long u = g - GENESIS_TXS;
        long w = u / txsPerWindow;
        long in = u % txsPerWindow;
        long[] starts = window(w);
        int lo = 0, hi = WINDOW - 1;
        while (lo < hi) { // last position whose start <= in
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= in) lo = mid;
            else hi = mid - 1;
        }
        return 2 + w * WINDOW + lo;
    }

    /** Offsets (within the window) of the first tx of each of its blocks, plus the window total at index WINDOW. */
    private long[] window(long w) {
        long[] cached = windows.get(w);
        if (cached != null) return cached;
        boolean[] empty = new boolean[WINDOW];
        Mix.Rng rng = new Mix.Rng(Mix.hash(seed, TAG_EMPTY, w));
        int[] order = new int[WINDOW];
        for (int i = 0; i < WINDOW; i++) order[i] = i;
        for (int i = WINDOW - 1; i > 0; i--) {
            int j = rng.below(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < emptyPerWindow; i++) empty[order[i]] = true;
        int[] counts = new int[WINDOW];
        int[] busy = new int[WINDOW - emptyPerWindow];
        for (int i = emptyPerWindow, k = 0; i < WINDOW; i++, k++) busy[k] = order[i];
        Mix.Rng vary = new Mix.Rng(Mix.hash(seed, TAG_COUNTS, w));
        for (int k = 0; k < busy.length; k++) counts[busy[k]] = txsPerBlock;
        for (int k = 0; k + 1 < busy.length; k += 2) { // pairs keep the window total fixed
            int d = vary.below(txsPerBlock / 2 + 1);
            counts[busy[k]] += d;
            counts[busy[k + 1]] -= d;
        }
        long[] starts = new long[WINDOW + 1];
        for (int i = 0; i < WINDOW; i++) starts[i + 1] = starts[i] + (empty[i] ? 0 : counts[i]);
        if (windows.size() > 4096) windows.clear();
        windows.putIfAbsent(w, starts);
        return starts;
    }
}
