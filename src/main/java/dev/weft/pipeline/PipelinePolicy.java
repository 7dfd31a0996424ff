package dev.weft.pipeline;

import java.time.Duration;

/**
 * How a pipeline sizes its window and its runs and how it retries: the numbers, and the rules that turn them into
 * decisions, apart from the mechanism ({@link OrderedCommitPipeline}) that keeps the commits in order.
 *
 * @param window           heights fetched ahead or held before their commit at least
 * @param windowStart      the window at first (held within {@code window..windowMax}), from which it adapts
 * @param windowMax        the cap of the adaptive window ({@link AdaptiveWindow}): at most this many heights in flight or held
 * @param bufferedBytes    fetched items waiting for their commit stop new fetches beyond this many bytes
 * @param commitItems      most heights in one commit
 * @param commitWeight     most weight (txs, rows) in one commit; a run closes at whichever limit comes first
 * @param retry            the backoff of a failed fetch or commit
 * @param progressInterval interval of the catch-up progress line
 */
public record PipelinePolicy(
        int window,
        int windowStart,
        int windowMax,
        long bufferedBytes,
        int commitItems,
        long commitWeight,
        RetryPolicy retry,
        Duration progressInterval) {

    /** The window at its start, adapting once a second of measured time. */
    AdaptiveWindow adaptiveWindow() {
        return new AdaptiveWindow(window, windowStart, Math.max(window, windowMax), 1_000_000_000L);
    }

    /** Whether fetched items waiting for their commit hold so many bytes that no more are fetched. */
    boolean bufferFull(long readyBytes) {
        return readyBytes >= bufferedBytes;
    }

    /**
     * The most heights in one run: the commit limit, and at most half the window, so the heights of the next run are
     * fetched and prepared while one commits (a run as large as the window would leave nothing to fetch until it has
     * committed, and the database idle while the window refills).
     */
    int runLimit(int windowLimit) {
        return Math.max(1, Math.min(commitItems, windowLimit / 2));
    }

    /** Whether a run of {@code items} of {@code weight} is closed before an item of {@code nextWeight}. */
    boolean runCloses(int items, long weight, long nextWeight, int windowLimit) {
        return items > 0 && (items >= runLimit(windowLimit) || weight + nextWeight > commitWeight);
    }

    /**
     * Whether a short run waits for more ready items: while catching up (more than a full run behind the head) and while
     * the height after it is still being fetched, a run below half its limits waits, since fewer, larger transactions
     * cost the database less per height (each commit's fixed statements and its WAL flush), CPU the fetchers share. At
     * the head every ready height is committed at once.
     */
    boolean holdBack(int items, long weight, long behindHead, boolean moreComing, int windowLimit) {
        boolean catchingUp = behindHead > commitItems;
        return catchingUp && moreComing && items < runLimit(windowLimit) / 2 && weight < commitWeight / 2;
    }
}
