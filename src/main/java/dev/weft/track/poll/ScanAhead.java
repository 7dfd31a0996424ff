package dev.weft.track.poll;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.model.track.ObservedTx;
import dev.weft.pipeline.AdaptiveWindow;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Reads a chain's blocks ahead of the tracker's scans, in spans of up to 20 blocks: a span's metas ({@code /blockchain}:
 * times, tx counts), then its pages of txs ({@code tx_search} over the span's heights; the metas tell how many). A scan
 * takes the spans read so far from the front, in height order; the spans after them keep loading while the tracker
 * applies what it took, so a tracker behind its chain catches up at the pace of the node's answers, not of one round
 * trip per batch. Requests go out in span order within the node client's bound on requests in flight, so the front
 * span, which the next scan waits for, never queues behind the spans after it.
 *
 * <p>How many spans are loading or held is an {@link AdaptiveWindow} (the ingestion's rule: grown by probes while
 * fetching is the bottleneck and the node's requests do not queue, shrunk toward the bandwidth-delay product when it had
 * room to spare), counted in spans and taken by the scans as commits. The txs loading or held stay within a byte
 * budget (loaded spans count their txs' estimated heap, loading ones their pages at the average page so far), and a
 * span whose metas show more than {@code maxPages} pages is cut at a block boundary. At the head
 * of its chain nothing is read ahead: a scan with no span loaded asks for the metas from the last scanned block on
 * (CometBFT refuses a {@code minHeight} above its head), then the pages of the new blocks' txs.
 */
final class ScanAhead {
    /** Most blocks per span: per {@code /blockchain} request (CometBFT returns at most 20 metas). */
    private static final int SPAN = 20;
    /** The guess of a page's heap before one is loaded: 100 txs with a few events each. */
    private static final int FIRST_PAGE_BYTES = 64 * 1024;

    private final String chainId;
    private final ChainRpc rpc;
    private final int spanBlocks;
    private final int pageSize;
    private final int maxPages;
    private final long budgetBytes;
    private final int maxRequests;
    /** Requests in flight, those of dropped spans included. */
    private int requesting;
    /** The average heap of a loaded page of txs (a moving average; a first guess before any). */
    private double pageBytes = FIRST_PAGE_BYTES;

    private final AdaptiveWindow window;
    /** Spans loading or loaded, in height order, contiguous from the scan cursor on. */
    private final List<Span> spans = new ArrayList<>();
    /** The first height no span covers. */
    private long next;
    /** The highest head a node answer showed. */
    private long head = -1;
    /** The estimated heap of the txs held by loaded spans plus that reserved for the pages loading. */
    private long bytesAhead;

    private long taken;

    /** What a scan took: the blocks after the cursor up to {@code to}, their metas and txs (times attached). */
    record Taken(long to, TreeMap<Long, long[]> metas, List<ObservedTx> txs, boolean behind) {}

    /**
     * @param spanBlocks blocks per span (at most {@link #SPAN})
     * @param maxPages   most pages of txs in one span (a span's blocks beyond are cut off into the next; one block is
     *                   never cut)
     * @param budgetBytes most estimated heap of the txs loading or held (a span's pages always start when nothing else is
     *                    loading or held)
     * @param minSpans   the window's floor, in spans; {@code maxSpans} its cap
     */
    ScanAhead(
            String chainId,
            ChainRpc rpc,
            int spanBlocks,
            int pageSize,
            int maxPages,
            long budgetBytes,
            int minSpans,
            int maxSpans) {
        this.chainId = chainId;
        this.rpc = rpc;
        this.maxRequests = Math.max(1, rpc.maxInFlight());
        this.spanBlocks = Math.max(1, Math.min(SPAN, spanBlocks));
        this.pageSize = pageSize;
        this.maxPages = maxPages;
        this.budgetBytes = budgetBytes;
        this.window = new AdaptiveWindow(minSpans, Math.max(minSpans, maxSpans), 1_000_000_000L);
    }

    /**
     * The loaded spans after {@code cursor}, from the front, up to {@code maxBlocks} blocks and {@code maxTxPages} pages
     * of txs (the first span whatever its size); waits for the first one. A failed span fails the scan and drops every
     * span read ahead: the next scan starts again from its cursor.
     */
    Future<Taken> take(long cursor, int maxBlocks, int maxTxPages) {
        if (spans.isEmpty() || spans.get(0).from != cursor + 1) {
            drop(); // nothing more is read until the probe's answer shows where the head is
            Span probe = new Span(cursor + 1, cursor + spanBlocks);
            probe.probe = true;
            spans.add(probe);
            pump();
        }
        Span first = spans.get(0);
        return first.done.future().transform(ar -> {
            if (ar.failed() || spans.isEmpty() || spans.get(0) != first) {
                drop();
                return Future.failedFuture(
                        ar.failed() ? ar.cause() : new IllegalStateException("scan of " + chainId + " dropped"));
            }
            TreeMap<Long, long[]> metas = new TreeMap<>();
            List<ObservedTx> txs = new ArrayList<>();
            long to = cursor;
            int blocks = 0;
            int pages = 0;
            int n = 0;
            while (n < spans.size()) {
                Span s = spans.get(n);
                if (!s.done.future().succeeded()) break;
                int spanBlocks = (int) (s.to - s.from + 1);
                if (n > 0 && (blocks + spanBlocks > maxBlocks || pages + s.pages > maxTxPages)) break;
                metas.putAll(s.metas);
                txs.addAll(s.txs);
                blocks += spanBlocks;
                pages += s.pages;
                to = Math.max(to, s.to);
                n++;
            }
            for (int i = 0; i < n; i++) bytesAhead -= spans.remove(0).bytes;
            taken += n;
            window.committed(System.nanoTime(), taken);
            pump();
            return Future.succeededFuture(new Taken(to, metas, txs, to < head));
        });
    }

    /** Forgets the spans read ahead (their answers still in flight are ignored); nothing more is read until a take. */
    private void drop() {
        spans.forEach(s -> s.dropped = true);
        spans.clear();
        bytesAhead = 0;
        next = Long.MAX_VALUE;
    }

    /**
     * Adds spans while the window and the byte budget have room, then sends what the spans need, front first, while
     * fewer than the client's bound are in flight: a span's metas, then (once its metas are known and its txs' estimated
     * heap fits the budget) its pages.
     */
    private void pump() {
        while (next <= head && spans.size() < window.limit() && bytesAhead < budgetBytes) {
            Span s = new Span(next, Math.min(head, next + spanBlocks - 1));
            next = s.to + 1;
            spans.add(s);
        }
        boolean waiting = false;
        for (int i = 0; i < spans.size(); i++) {
            Span s = spans.get(i);
            if (requesting >= maxRequests) {
                waiting = true;
                break;
            }
            if (s.done.future().isComplete()) continue;
            if (!s.metasAsked) {
                askMetas(s);
                continue;
            }
            if (s.metas == null) continue;
            if (!s.pagesStarted) {
                cut(s, i);
                if (bytesAhead > 0 && bytesAhead + s.pages * pageBytes > budgetBytes) break;
                s.pagesStarted = true;
                s.results = new SearchPage[s.pages];
                s.bytes = (long) (s.pages * pageBytes);
                bytesAhead += s.bytes;
            }
            while (s.pagesAsked < s.pages && requesting < maxRequests) askPage(s, ++s.pagesAsked);
        }
        if (next <= head) {
            int loading = 0;
            for (Span s : spans) if (!s.done.future().isComplete()) loading++;
            window.full(loading, waiting || rpc.queueing());
        }
    }

    /**
     * A span's metas. The probe (the first span after a scan that had nothing loaded) asks from the cursor's own block
     * on, which the node always has (CometBFT keeps the top 20 of a longer range), and ends at the head its answer shows.
     */
    private void askMetas(Span s) {
        s.metasAsked = true;
        requesting++;
        rpc.blockchain(s.probe ? s.from - 1 : s.from, s.to).onComplete(ar -> {
            requesting--;
            if (!s.dropped) {
                if (ar.failed()) {
                    s.done.tryFail(ar.cause());
                } else {
                    head = Math.max(head, ar.result().path("last_height").asLong());
                    if (s.probe) {
                        s.to = Math.min(s.to, head);
                        next = Math.max(s.from, s.to + 1);
                    }
                    if (s.to < s.from) {
                        s.metas = new TreeMap<>();
                        s.done.tryComplete();
                    } else {
                        metasRead(s, ar.result());
                    }
                }
            }
            pump();
        });
    }

    /** A span's metas: a span without txs is loaded; the others wait for their pages ({@link #pump}). */
    private void metasRead(Span s, JsonNode result) {
        TreeMap<Long, long[]> metas = ChainPoller.metas(result);
        long txs = 0;
        for (long h = s.from; h <= s.to; h++) {
            long[] m = metas.get(h);
            if (m == null) {
                s.done.tryFail(new IllegalStateException(chainId + " has no block meta for height " + h));
                return;
            }
            txs += m[1];
        }
        s.metas = new TreeMap<>(metas.subMap(s.from, true, s.to, true));
        s.txCount = txs;
        s.pages = pagesOf(txs);
        if (txs == 0) loaded(s);
    }

    /** Cuts a span to the blocks whose txs fit in {@code maxPages} pages (one block at least); the rest follows it. */
    private void cut(Span s, int index) {
        if (s.pages <= maxPages || s.from == s.to) return;
        long txs = 0;
        long end = s.from;
        for (long h = s.from; h <= s.to; h++) {
            long n = s.metas.get(h)[1];
            if (h > s.from && txs + n > (long) maxPages * pageSize) break;
            txs += n;
            end = h;
        }
        if (end == s.to) return;
        Span rest = new Span(end + 1, s.to);
        rest.metasAsked = true;
        rest.metas = new TreeMap<>(s.metas.tailMap(end + 1, true));
        rest.txCount = s.txCount - txs;
        rest.pages = pagesOf(rest.txCount);
        s.to = end;
        s.metas = new TreeMap<>(s.metas.headMap(end, true));
        s.txCount = txs;
        s.pages = pagesOf(txs);
        spans.add(index + 1, rest);
        if (rest.txCount == 0) rest.done.tryComplete();
    }

    /** The pages of {@code pageSize} that {@code txs} txs fill. */
    private int pagesOf(long txs) {
        return (int) ((txs + pageSize - 1) / pageSize);
    }

    /** One page of a span's txs; with the last, the span is loaded (every answer must count the txs its metas count). */
    private void askPage(Span s, int page) {
        requesting++;
        rpc.txSearch(ChainPoller.heightRange(s.from, s.to), page, pageSize, true)
                .onComplete(ar -> {
                    requesting--;
                    if (!s.dropped && !s.done.future().isComplete()) {
                        if (ar.failed()) {
                            s.done.tryFail(ar.cause());
                        } else if (ar.result().totalCount() != s.txCount) {
                            // a node whose tx index lags its block store: read the span again next scan rather than
                            // miss a tx
                            s.done.tryFail(new IllegalStateException(
                                    chainId + " indexes " + ar.result().totalCount() + " txs in blocks " + s.from + "–"
                                            + s.to + ", their metas count " + s.txCount));
                        } else {
                            s.results[page - 1] = ar.result();
                            if (++s.pagesDone == s.pages) assemble(s);
                        }
                    }
                    pump();
                });
    }

    /** A span's pages, in order, as its txs with their block times. */
    private void assemble(Span s) {
        List<ObservedTx> txs = new ArrayList<>((int) s.txCount);
        long bytes = 0;
        for (SearchPage page : s.results) {
            bytes += page.bytes();
            pageBytes += 0.1 * (page.bytes() - pageBytes);
            for (ObservedTx tx : page.txs()) {
                long[] m = s.metas.get(tx.height());
                txs.add(new ObservedTx(
                        tx.chainId(), tx.hash(), tx.height(), m == null ? 0 : m[0], tx.code(), tx.log(), tx.events()));
            }
        }
        s.results = null;
        s.txs = txs;
        bytesAhead += bytes - s.bytes;
        s.bytes = bytes;
        loaded(s);
    }

    private void loaded(Span s) {
        window.fetched(System.nanoTime() - s.started);
        s.done.tryComplete();
    }

    private static final class Span {
        final long from;
        long to;
        final long started = System.nanoTime();
        final Promise<Void> done = Promise.promise();
        /** The first span after a scan that had nothing loaded: it finds the head. */
        boolean probe;

        boolean metasAsked;
        TreeMap<Long, long[]> metas;
        long txCount;
        int pages;
        int pagesAsked;
        int pagesDone;
        SearchPage[] results;
        /** The estimated heap of its txs: reserved when its pages start, then counted when they are loaded. */
        long bytes;

        List<ObservedTx> txs = List.of();
        boolean pagesStarted;
        boolean dropped;

        Span(long from, long to) {
            this.from = from;
            this.to = to;
        }
    }
}
