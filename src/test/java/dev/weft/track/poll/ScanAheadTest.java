package dev.weft.track.poll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.model.track.ObservedTx;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongToIntFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The tracker's read-ahead against a chain held in memory whose answers the test releases one by one, so what is in
 * flight at each moment is exact: the order and completeness of what scans take, the requests at the head, the cut of
 * busy spans and the page budget, and a failed or inconsistent answer.
 */
class ScanAheadTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The heap a page of 100 of the test's txs holds by {@link SearchPage#bytes}. */
    private static final long PAGE_BYTES =
            100 * SearchPage.bytes(new ObservedTx("c", "000000010000", 1, 0, 0, "", List.of()));

    @Test
    @DisplayName("behind its chain: every block and tx taken once, in order, while later spans load ahead of the scans")
    void readsAheadInOrder() {
        Chain chain = new Chain(1_000, h -> (int) (h % 7));
        ScanAhead ahead = new ScanAhead("c", chain, 20, 100, 50, 64L << 20, 10, 512);
        List<ObservedTx> seen = new ArrayList<>();
        long cursor = 0;
        int takes = 0;
        boolean loadedAhead = false;
        while (cursor < 1_000) {
            Future<ScanAhead.Taken> f = ahead.take(cursor, 200, 50);
            chain.answerUntil(f);
            ScanAhead.Taken t = f.result();
            assertEquals(cursor + 1, t.metas().firstKey(), "a take starts right after the cursor");
            assertEquals(t.to(), t.metas().lastKey());
            assertTrue(t.to() - cursor <= 200, "at most 200 blocks a take");
            seen.addAll(t.txs());
            cursor = t.to();
            assertEquals(cursor < 1_000, t.behind());
            takes++;
            if (cursor < 1_000 && chain.pending() > 0) loadedAhead = true;
        }
        assertTrue(loadedAhead, "requests for the next spans were in flight while the tracker held what it took");
        assertTrue(takes >= 5, "takes " + takes);
        assertEquals(chain.txsUpTo(1_000), seen.size());
        for (int i = 1; i < seen.size(); i++) {
            ObservedTx a = seen.get(i - 1);
            ObservedTx b = seen.get(i);
            assertTrue(
                    a.height() < b.height()
                            || a.height() == b.height() && a.hash().compareTo(b.hash()) < 0,
                    "in order, once");
        }
        assertEquals(Chain.time(seen.get(0).height()), seen.get(0).timeNanos(), "txs carry their block's time");
    }

    @Test
    @DisplayName("requests stay within the client's bound, the front span's first: nothing queues behind later spans")
    void withinTheClientsBound() {
        Chain chain = new Chain(1_000, h -> 30);
        chain.maxInFlight = 5;
        ScanAhead ahead = new ScanAhead("c", chain, 20, 100, 50, 64L << 20, 10, 512);
        long cursor = 0;
        long seen = 0;
        while (cursor < 1_000) {
            Future<ScanAhead.Taken> f = ahead.take(cursor, 200, 50);
            int before = chain.log.size();
            chain.answerUntil(f);
            seen += f.result().txs().size();
            cursor = f.result().to();
            // the front span (the one this take waited for) got its pages before any later span got more than its metas
            String front = "tx_search " + f.result().metas().firstKey() + "-";
            int firstPage = -1;
            for (int i = before; i < chain.log.size() && firstPage < 0; i++)
                if (chain.log.get(i).startsWith(front)) firstPage = i;
            if (firstPage > 0) {
                for (int i = before; i < firstPage; i++)
                    assertFalse(
                            chain.log.get(i).startsWith("tx_search"),
                            chain.log.subList(before, firstPage + 1).toString());
            }
        }
        assertEquals(30_000, seen);
        assertTrue(chain.maxOutstanding <= 5, "requests in flight at most 5: " + chain.maxOutstanding);
        assertEquals(5, chain.maxOutstanding, "and the bound is used");
    }

    @Test
    @DisplayName("at the head: a take asks for the metas from the cursor's own block on and reads nothing ahead")
    void atTheHead() {
        Chain chain = new Chain(50, h -> 1);
        ScanAhead ahead = new ScanAhead("c", chain, 20, 100, 50, 64L << 20, 10, 512);
        Future<ScanAhead.Taken> f = ahead.take(50, 200, 50);
        chain.answerUntil(f);
        assertEquals(50, f.result().to());
        assertFalse(f.result().behind());
        assertEquals(List.of("blockchain 50-70"), chain.log);
        chain.head = 53;
        chain.log.clear();
        f = ahead.take(50, 200, 50);
        chain.answerUntil(f);
        assertEquals(53, f.result().to());
        assertEquals(3, f.result().txs().size());
        assertEquals(List.of("blockchain 50-70", "tx_search 51-53 p1"), chain.log);
        assertEquals(0, chain.pending(), "nothing in flight after a take at the head");
    }

    @Test
    @DisplayName(
            "busy blocks: a span is cut to the blocks whose txs fit in its page cap, and pages loading or held stay within the budget")
    void cutsBusySpansWithinThePageBudget() {
        Chain chain = new Chain(400, h -> 150);
        ScanAhead ahead = new ScanAhead("c", chain, 20, 100, 4, 12 * PAGE_BYTES, 10, 512);
        long cursor = 0;
        int seen = 0;
        while (cursor < 400) {
            Future<ScanAhead.Taken> f = ahead.take(cursor, 200, 4);
            chain.answerUntil(f);
            ScanAhead.Taken t = f.result();
            assertTrue(
                    t.txs().size() <= 400,
                    "a take holds at most its 4 pages: " + t.txs().size());
            seen += t.txs().size();
            cursor = t.to();
            chain.takenTo = cursor;
        }
        assertEquals(400 * 150, seen);
        assertTrue(
                chain.maxPagesOut <= 12,
                "pages loading or held within the budget of 12 pages' bytes: " + chain.maxPagesOut);
        assertTrue(chain.maxPagesOut >= 9, "three spans' pages at once at least: " + chain.maxPagesOut);
        // two blocks (300 txs, 3 pages) fit in 4 pages, three do not: every span of txs was cut to two blocks
        List<String> searched =
                chain.log.stream().filter(l -> l.startsWith("tx_search")).toList();
        for (String l : searched) {
            String[] range = l.substring("tx_search ".length(), l.indexOf(' ', "tx_search ".length()))
                    .split("-");
            assertEquals(1, Long.parseLong(range[1]) - Long.parseLong(range[0]), l);
            assertFalse(l.endsWith(" p4"), l);
        }
    }

    @Test
    @DisplayName(
            "a failed answer or a tx index behind the block store fails the take at that span; the next one reads it again")
    void failedSpansAreReadAgain() {
        Chain chain = new Chain(300, h -> 2);
        ScanAhead ahead = new ScanAhead("c", chain, 20, 100, 50, 64L << 20, 10, 512);
        chain.failSearchFrom = 41; // the span 41–60: its page fails
        List<ObservedTx> seen = new ArrayList<>();
        long cursor = takeUntilFailure(ahead, chain, 0, seen);
        assertEquals(40, cursor, "the spans before the failed one are taken, then the take reaching it fails");
        chain.failSearchFrom = -1;
        chain.lagFrom = 61; // the index counts one tx fewer in the span 61–80
        Future<ScanAhead.Taken> f = ahead.take(cursor, 200, 50);
        chain.answerUntil(f);
        assertEquals(60, f.result().to(), "the failed span read again");
        seen.addAll(f.result().txs());
        cursor = 60;
        f = ahead.take(cursor, 200, 50);
        chain.answerUntil(f);
        assertTrue(f.failed());
        assertTrue(
                f.cause().getMessage().contains("indexes 39 txs in blocks 61–80, their metas count 40"),
                f.cause().getMessage());
        int asked = chain.log.size();
        chain.answerAll(); // the answers still in flight
        chain.log.subList(0, asked).clear();
        assertEquals(List.of(), chain.log, "after a failed take nothing more is asked until the next take");
        chain.lagFrom = -1;
        while (cursor < 300) {
            f = ahead.take(cursor, 200, 50);
            chain.answerUntil(f);
            seen.addAll(f.result().txs());
            cursor = f.result().to();
        }
        assertEquals(600, seen.size());
        assertEquals(600, seen.stream().map(ObservedTx::hash).distinct().count(), "no tx taken twice");
    }

    /** Takes from {@code cursor} on until a take fails: the cursor then. */
    private static long takeUntilFailure(ScanAhead ahead, Chain chain, long cursor, List<ObservedTx> seen) {
        while (true) {
            Future<ScanAhead.Taken> f = ahead.take(cursor, 200, 50);
            chain.answerUntil(f);
            if (f.failed()) return cursor;
            seen.addAll(f.result().txs());
            cursor = f.result().to();
        }
    }

    /** A chain whose node answers only when the test says so, oldest request first. */
    private static final class Chain implements ChainRpc {
        long head;
        final LongToIntFunction txs;
        final List<String> log = new ArrayList<>();
        final ArrayDeque<Runnable> answers = new ArrayDeque<>();
        long failSearchFrom = -1;
        long lagFrom = -1;
        /** The first block of each page of txs asked for: the pages above {@code takenTo} are loading or held. */
        final List<Long> pagesAskedFrom = new ArrayList<>();

        long takenTo;
        int maxPagesOut;
        int maxInFlight = Integer.MAX_VALUE;
        int maxOutstanding;

        @Override
        public int maxInFlight() {
            return maxInFlight;
        }

        Chain(long head, LongToIntFunction txs) {
            this.head = head;
            this.txs = txs;
        }

        static long time(long height) {
            return 1_700_000_000_000_000_000L + height * 1_000_000_000L;
        }

        long txsUpTo(long height) {
            long n = 0;
            for (long h = 1; h <= height; h++) n += txs.applyAsInt(h);
            return n;
        }

        int pending() {
            return answers.size();
        }

        void answerAll() {
            while (!answers.isEmpty()) answers.poll().run();
        }

        void answerUntil(Future<?> f) {
            while (!f.isComplete()) {
                if (answers.isEmpty()) throw new AssertionError("waiting for an answer to no request");
                maxPagesOut = Math.max(maxPagesOut, (int)
                        pagesAskedFrom.stream().filter(from -> from > takenTo).count());
                answers.poll().run();
            }
        }

        @Override
        public Future<JsonNode> blockchain(long minHeight, long maxHeight) {
            log.add("blockchain " + minHeight + "-" + maxHeight);
            Promise<JsonNode> p = Promise.promise();
            maxOutstanding = Math.max(maxOutstanding, answers.size() + 1);
            answers.add(() -> {
                if (minHeight > head) {
                    p.fail("min height " + minHeight + " can't be greater than max height " + head);
                    return;
                }
                ObjectNode r = JSON.createObjectNode().put("last_height", Long.toString(head));
                ArrayNode metas = r.putArray("block_metas");
                for (long h = Math.min(maxHeight, head);
                        h >= Math.max(minHeight, Math.min(maxHeight, head) - 19);
                        h--) {
                    ObjectNode m = metas.addObject();
                    m.putObject("header")
                            .put("height", Long.toString(h))
                            .put("time", Instant.ofEpochSecond(0, time(h)).toString());
                    m.put("num_txs", Integer.toString(txs.applyAsInt(h)));
                }
                p.complete(r);
            });
            return p.future();
        }

        @Override
        public Future<SearchPage> txSearch(String query, int page, int perPage, boolean ascending) {
            String[] range = query.replace("tx.height>=", "")
                    .replace(" AND tx.height<=", " ")
                    .split(" ");
            long from = Long.parseLong(range[0]);
            long to = Long.parseLong(range[1]);
            log.add("tx_search " + from + "-" + to + " p" + page);
            pagesAskedFrom.add(from);
            Promise<SearchPage> p = Promise.promise();
            maxOutstanding = Math.max(maxOutstanding, answers.size() + 1);
            answers.add(() -> {
                if (failSearchFrom == from) {
                    p.fail("node down");
                    return;
                }
                List<ObservedTx> all = new ArrayList<>();
                for (long h = from; h <= Math.min(to, head); h++) {
                    int n = txs.applyAsInt(h) - (h == lagFrom ? 1 : 0);
                    for (int i = 0; i < n; i++) {
                        all.add(new ObservedTx(
                                "c", String.format(Locale.ROOT, "%08d%04d", h, i), h, 0, 0, "", List.of()));
                    }
                }
                int pages = Math.max(1, (all.size() + perPage - 1) / perPage);
                if (page > pages) {
                    p.fail("page should be within [1, " + pages + "] range, given " + page);
                    return;
                }
                List<ObservedTx> txs = all.subList((page - 1) * perPage, Math.min(all.size(), page * perPage));
                p.complete(new SearchPage(
                        all.size(),
                        txs,
                        txs.stream().mapToLong(SearchPage::bytes).sum()));
            });
            return p.future();
        }
    }
}
