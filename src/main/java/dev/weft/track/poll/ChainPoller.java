package dev.weft.track.poll;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.model.track.ObservedTx;
import dev.weft.store.TransferStore;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Polls one chain for the tracker, in batches whatever the number of transfers waiting on it: a scan takes the new
 * blocks' metas ({@code /blockchain}, 20 per request: heights, times, tx counts) and every tx of those blocks in pages
 * ({@code tx_search "tx.height>=a AND tx.height<=b"}, ascending), to be matched locally. They are read ahead of the
 * scans while the chain's head is beyond them ({@link ScanAhead}). A scan takes at most {@code maxBlocks} blocks and
 * {@code maxPages} pages, so a tracker that fell behind catches up over several cycles ({@link Scan#behind} tells the
 * tracker to run them back to back).
 *
 * <p>The poller also knows the times of a contiguous run of recent blocks (those it scanned, and older ones it was
 * asked to learn), so that a search for events since a given time can be one range search over the blocks from
 * then on ({@link #heightSince}) rather than an exact search per hop. One-off searches with exact keys get their
 * block times from {@code /blockchain} too (cached).
 */
public final class ChainPoller {
    private static final int METAS_PER_REQUEST = 20;
    private static final int TIME_CACHE = 8192;
    /** Most tx hashes kept in the index of recent blocks (the oldest blocks go first). */
    private static final int HASH_INDEX_MAX = 200_000;

    private final String chainId;
    private final ChainRpc rpc;
    private final int maxBlocks;
    private final int pageSize;
    private final int maxPages;
    private final ScanAhead ahead;
    private TransferStore.Cursor cursor;
    /** Block times (ns) by height; every height of [knownFrom, cursor] is in it. */
    private final TreeMap<Long, Long> times = new TreeMap<>();

    private long knownFrom = -1;
    /** Hash → height of every tx of the blocks [indexedFrom, cursor] that ranges read (scans and lookbacks). */
    private final Map<String, Long> hashIndex = new java.util.HashMap<>();

    private final TreeMap<Long, List<String>> hashesByHeight = new TreeMap<>();
    private long indexedFrom = -1;
    private final int indexBlocks;

    /**
     * The txs a scan found and the cursor it reached; {@code coveredBefore} = the block time scans had reached before;
     * {@code behind} = the scan stopped below the chain's head (at its block or page cap), so more blocks wait.
     */
    public record Scan(List<ObservedTx> txs, TransferStore.Cursor cursor, Long coveredBefore, boolean behind) {}

    /**
     * @param indexBlocks how many recent blocks the hash index covers ({@code track.lookback_blocks})
     * @param aheadSpans  spans of blocks read ahead of the scans at first and at least ({@code track.scan_window})
     * @param aheadBytes  most estimated heap of the txs read ahead of the scans ({@code track.scan_ahead_mb}); the window
     *                    grows to four times its start at most
     */
    public ChainPoller(
            String chainId,
            ChainRpc rpc,
            TransferStore.Cursor cursor,
            int maxBlocks,
            int pageSize,
            int maxPages,
            int indexBlocks,
            int aheadSpans,
            long aheadBytes) {
        this.chainId = chainId;
        this.ahead = new ScanAhead(chainId, rpc, maxBlocks, pageSize, maxPages, aheadBytes, aheadSpans, 4 * aheadSpans);
        this.indexBlocks = indexBlocks;
        this.rpc = rpc;
        this.cursor = cursor;
        this.maxBlocks = maxBlocks;
        this.pageSize = pageSize;
        this.maxPages = maxPages;
        if (cursor != null) {
            times.put(cursor.height(), cursor.timeNanos());
            knownFrom = cursor.height();
            indexedFrom = cursor.height() + 1;
        }
    }

    public String chainId() {
        return chainId;
    }

    /** Where scans are (null before the first one). */
    public TransferStore.Cursor cursor() {
        return cursor;
    }

    /**
     * Scans the blocks after the cursor. The first scan of a chain starts at its head (nothing before it is read: the
     * tracker catches up on older events with searches).
     */
    public Future<Scan> scan() {
        TransferStore.Cursor before = cursor;
        if (before == null) {
            return rpc.blockchain(0, 0).map(r -> {
                TreeMap<Long, long[]> metas = metas(r);
                long head = r.path("last_height").asLong();
                long[] m = metas.get(head);
                cursor = new TransferStore.Cursor(head, m == null ? 0 : m[0]);
                remember(metas);
                knownFrom = head;
                indexedFrom = head + 1;
                return new Scan(List.of(), cursor, null, false);
            });
        }
        return ahead.take(before.height(), maxBlocks, maxPages).map(t -> {
            if (t.to() <= before.height()) return new Scan(List.of(), before, before.timeNanos(), false);
            remember(t.metas());
            index(t.txs(), before.height() + 1, t.to());
            cursor = new TransferStore.Cursor(t.to(), t.metas().get(t.to())[0]);
            return new Scan(t.txs(), cursor, before.timeNanos(), t.behind());
        });
    }

    /** Every tx of the blocks [from, to] (all pages), with their block times; their hashes join the index. */
    public Future<List<ObservedTx>> range(long from, long to) {
        return search(heightRange(from, to), Integer.MAX_VALUE, Integer.MAX_VALUE)
                .map(txs -> {
                    index(txs, from, to);
                    return txs;
                });
    }

    /** The {@code tx_search} query of every tx in the blocks [from, to]. */
    static String heightRange(long from, long to) {
        return "tx.height>=" + from + " AND tx.height<=" + to;
    }

    /**
     * Records the hashes of a range read in full; the indexed run grows downwards when the range reaches it, and keeps
     * only the last {@code indexBlocks} blocks.
     */
    private void index(List<ObservedTx> txs, long from, long to) {
        if (indexedFrom < 0) return;
        for (ObservedTx tx : txs) {
            if (hashIndex.put(tx.hash(), tx.height()) == null)
                hashesByHeight
                        .computeIfAbsent(tx.height(), h -> new ArrayList<>())
                        .add(tx.hash());
        }
        if (from < indexedFrom && to >= indexedFrom - 1) indexedFrom = from;
        long top = Math.max(to, cursor == null ? to : cursor.height());
        long floor = Math.max(1, top - indexBlocks + 1);
        while (!hashesByHeight.isEmpty() && (hashesByHeight.firstKey() < floor || hashIndex.size() > HASH_INDEX_MAX)) {
            var oldest = hashesByHeight.pollFirstEntry();
            oldest.getValue().forEach(hashIndex::remove);
            indexedFrom = Math.max(indexedFrom, oldest.getKey() + 1);
        }
        indexedFrom = Math.max(indexedFrom, floor);
    }

    /** The height of a tx among the indexed recent blocks, or null. */
    public Long indexedHeight(String hash) {
        return hashIndex.get(hash);
    }

    /** The lowest height from which every tx up to the cursor is in the hash index (above the cursor: none). */
    public long indexedFrom() {
        return indexedFrom < 0 ? (cursor == null ? 0 : cursor.height() + 1) : indexedFrom;
    }

    /**
     * Learns the times of the blocks before the known run, going back (20 per request) until a block older than
     * {@code since} or {@code maxBlocks} blocks before the cursor.
     */
    public Future<Void> learnSince(long since, int maxBlocks) {
        if (cursor == null || knownFrom < 0) return Future.succeededFuture();
        long floor = Math.max(1, cursor.height() - maxBlocks + 1);
        if (knownFrom <= floor || times.get(knownFrom) < since) return Future.succeededFuture();
        long to = knownFrom - 1;
        long from = Math.max(floor, to - METAS_PER_REQUEST + 1);
        return rpc.blockchain(from, to).compose(r -> {
            TreeMap<Long, long[]> metas = metas(r);
            for (long h = from; h <= to; h++)
                if (!metas.containsKey(h)) return Future.<Void>succeededFuture(); // pruned: stop here
            remember(metas);
            knownFrom = from;
            return learnSince(since, maxBlocks);
        });
    }

    /**
     * The first height whose block time is at or after {@code since}, when the known run of blocks reaches back before
     * it (so a range search from there misses nothing); {@code cursor + 1} when no scanned block is that recent; null
     * when the blocks of that time are not known.
     */
    public Long heightSince(long since) {
        if (cursor == null || knownFrom < 0 || times.get(knownFrom) >= since) return null;
        long h = cursor.height();
        while (h >= knownFrom && times.get(h) >= since) h--;
        return h + 1;
    }

    /**
     * The block time just before {@code height} (of the block below it when known, else a nanosecond before it): a
     * batch holding every tx from {@code height} on holds every event after that time.
     */
    public long timeBefore(long height) {
        Long below = times.get(height - 1);
        if (below != null) return below;
        Long at = times.get(height);
        return at != null ? at - 1 : (cursor == null ? 0 : cursor.timeNanos());
    }

    /** The lowest height of the run of blocks whose times are known (up to the cursor); the cursor's height at least. */
    public long knownFrom() {
        return knownFrom < 0 ? (cursor == null ? 0 : cursor.height()) : knownFrom;
    }

    /** The txs a one-off query matches (at most {@code limit}, ascending), with their block times. */
    public Future<List<ObservedTx>> search(String query, int limit) {
        return search(query, limit, maxPages);
    }

    private Future<List<ObservedTx>> search(String query, int limit, int pageLimit) {
        int perPage = Math.min(pageSize, limit);
        return rpc.txSearch(query, 1, perPage, true).compose(first -> {
            long wanted = Math.min(first.totalCount(), limit);
            int pages = (int) Math.min((wanted + perPage - 1) / perPage, pageLimit);
            List<Future<SearchPage>> rest = new ArrayList<>();
            for (int p = 2; p <= pages; p++) rest.add(rpc.txSearch(query, p, perPage, true));
            return Future.all(rest).compose(all -> {
                List<ObservedTx> txs = new ArrayList<>(first.txs());
                for (int i = 0; i < rest.size(); i++)
                    txs.addAll(all.<SearchPage>resultAt(i).txs());
                if (txs.size() > limit) txs = txs.subList(0, limit);
                return withTimes(txs);
            });
        });
    }

    private Future<List<ObservedTx>> withTimes(List<ObservedTx> txs) {
        List<Future<JsonNode>> lookups = new ArrayList<>();
        List<Long> missing = new ArrayList<>();
        for (ObservedTx tx : txs) {
            if (!times.containsKey(tx.height()) && !missing.contains(tx.height())) {
                missing.add(tx.height());
                lookups.add(rpc.blockchain(tx.height(), tx.height()));
            }
        }
        return Future.all(lookups).map(all -> {
            for (int i = 0; i < lookups.size(); i++) remember(metas(all.resultAt(i)));
            List<ObservedTx> out = new ArrayList<>(txs.size());
            for (ObservedTx tx : txs) {
                out.add(new ObservedTx(
                        tx.chainId(),
                        tx.hash(),
                        tx.height(),
                        times.getOrDefault(tx.height(), 0L),
                        tx.code(),
                        tx.log(),
                        tx.events()));
            }
            return out;
        });
    }

    /** Keeps block times (the oldest go first once the cache is full, moving the known run's start). */
    private void remember(Map<Long, long[]> metas) {
        metas.forEach((h, m) -> times.put(h, m[0]));
        while (times.size() > TIME_CACHE) times.pollFirstEntry();
        if (knownFrom >= 0 && !times.isEmpty() && times.firstKey() > knownFrom) knownFrom = times.firstKey();
    }

    /** height → {block time ns, tx count} of a {@code /blockchain} result. */
    static TreeMap<Long, long[]> metas(JsonNode result) {
        TreeMap<Long, long[]> out = new TreeMap<>();
        for (JsonNode m : result.path("block_metas")) {
            JsonNode header = m.path("header");
            out.put(header.path("height").asLong(), new long[] {
                TxJson.timeNanos(header.path("time").asText()),
                m.path("num_txs").asLong()
            });
        }
        return out;
    }
}
