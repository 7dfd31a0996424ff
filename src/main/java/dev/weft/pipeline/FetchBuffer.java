package dev.weft.pipeline;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * What an {@link OrderedCommitPipeline} holds between its source and its commits: the planned targets in height order,
 * the heights being fetched, and the fetched items waiting for their commit (by height, with their bytes). No I/O of its
 * own; confined to the pipeline's event loop.
 */
final class FetchBuffer<S, T> {
    /** The consecutive ready items at the head of the plan that the next run would commit. */
    record Run<T>(List<T> items, long weight, long first, long last) {}

    private final ToLongFunction<S> targetHeight;
    private final ToLongFunction<T> bytes;
    private final ToLongFunction<T> weight;
    /** Planned targets not committed yet, in order; the first {@link #batched} of them are in a prepared or running run. */
    private final ArrayDeque<S> order = new ArrayDeque<>();

    private int batched;
    /** The highest height planned (or committed). */
    private long planned;

    private final TreeMap<Long, T> ready = new TreeMap<>();
    private long readyBytes;
    private final Set<Long> fetching = new HashSet<>();

    FetchBuffer(Measures<S, T, ?, ?> measures) {
        this.targetHeight = measures.targetHeight();
        this.bytes = measures.bytes();
        this.weight = measures.weight();
    }

    /** Drops the plan (fetched items stay, for the plan to reach them again) and plans anew after {@code after}. */
    void replanAfter(long after) {
        order.clear();
        batched = 0;
        planned = after;
    }

    long planned() {
        return planned;
    }

    /** Targets planned and not committed yet. */
    int plannedCount() {
        return order.size();
    }

    /**
     * Adds a target to the plan unless its height is planned already; true when it still needs a fetch (neither
     * fetched nor being fetched).
     */
    boolean plan(S target) {
        long h = targetHeight.applyAsLong(target);
        if (h <= planned) return false;
        order.add(target);
        planned = h;
        return !ready.containsKey(h) && !fetching.contains(h);
    }

    void fetchStarted(long height) {
        fetching.add(height);
    }

    void fetchEnded(long height) {
        fetching.remove(height);
    }

    void fetched(long height, T item) {
        T old = ready.put(height, item);
        readyBytes += bytes.applyAsLong(item) - (old == null ? 0 : bytes.applyAsLong(old));
    }

    /** Drops the held items up to a height (committed). */
    void release(long upTo) {
        var done = ready.headMap(upTo + 1);
        for (T item : done.values()) readyBytes -= bytes.applyAsLong(item);
        done.clear();
    }

    /** The ready items that follow the runs prepared or running, up to where {@code policy} closes a run. */
    Run<T> nextRun(PipelinePolicy policy, int windowLimit) {
        List<T> run = new ArrayList<>();
        long total = 0;
        long first = 0;
        long last = 0;
        int skip = batched;
        for (S t : order) {
            if (skip-- > 0) continue;
            long h = targetHeight.applyAsLong(t);
            T item = ready.get(h);
            if (item == null) break;
            long w = weight.applyAsLong(item);
            if (policy.runCloses(run.size(), total, w, windowLimit)) break;
            if (run.isEmpty()) first = h;
            last = h;
            run.add(item);
            total += w;
        }
        return new Run<>(run, total, first, last);
    }

    /** Whether more targets are planned after a run of {@code items} (their fetches still under way, or not yet ready). */
    boolean moreAfter(int items) {
        return order.size() > batched + items;
    }

    /** A run of {@code items} has been prepared. */
    void batched(int items) {
        batched += items;
    }

    /** A run of {@code items} has been committed: they leave the plan. */
    void committed(int items) {
        for (int i = 0; i < items; i++) order.removeFirst();
        batched -= items;
    }

    /** The height the commits wait for: the first planned one, or the one after {@code committedHeight}. */
    long nextHeight(long committedHeight) {
        return order.isEmpty() ? committedHeight + 1 : targetHeight.applyAsLong(order.peekFirst());
    }

    boolean nothingPlanned() {
        return order.isEmpty();
    }

    int inFlight() {
        return fetching.size();
    }

    int readyCount() {
        return ready.size();
    }

    long readyBytes() {
        return readyBytes;
    }
}
