package dev.weft.track;

import dev.weft.model.track.Hop;
import dev.weft.model.track.HopKind;
import dev.weft.model.track.ObservedTx;
import dev.weft.model.track.Transfer;
import dev.weft.model.track.TransferState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The open transfers the tracker follows (loaded from the database, then kept in memory), what they wait for on each
 * chain, the transfers changed since the last save and the catch-up searches to run. Time-driven transitions happen
 * in {@link #tick}: a packet whose destination clock passed its timeout, a withdrawal that became claimable, a
 * transfer without progress for the stall timeout (ABANDONED). Not thread-safe: the tracker verticle owns it.
 */
final class TransferBook implements TxObserver.Sink {
    private static final int MAX_PASSES = 6;

    private final Map<Long, Transfer> open = new LinkedHashMap<>();
    private final Map<Long, Long> progressAt = new HashMap<>();
    private final Map<Long, TransferState> savedState = new HashMap<>();
    private final Watches watches = new Watches();
    private final TxObserver observer;
    private final TrackChains chains;
    private final Set<Transfer> changed = new LinkedHashSet<>();
    private final Map<String, TxObserver.CatchUp> catchUps = new LinkedHashMap<>();
    private final Map<Long, List<TransferState>> transitions = new HashMap<>();
    private final Map<Transfer, Integer> hashLookups = new LinkedHashMap<>();
    private Map<String, Long> coveredUntil = Map.of();
    private final java.util.function.LongSupplier clock;
    private boolean passChanged;

    /** @param clock wall clock in ms (progress times, the stall timeout) */
    TransferBook(TrackChains chains, java.util.function.LongSupplier clock) {
        this.observer = new TxObserver(chains, watches, this);
        this.chains = chains;
        this.clock = clock;
    }

    /** Adds a transfer (loaded or newly tracked) with its persisted state and last progress time (ms). */
    void add(Transfer t, TransferState saved, long progressAtMillis) {
        open.put(t.id, t);
        savedState.put(t.id, saved);
        progressAt.put(t.id, progressAtMillis);
        watches.index(t);
    }

    boolean contains(long id) {
        return open.containsKey(id);
    }

    int size() {
        return open.size();
    }

    Collection<Transfer> transfers() {
        return open.values();
    }

    Watches watches() {
        return watches;
    }

    /** The chains to poll: those something is waited for on. */
    Set<String> chains() {
        return watches.chains();
    }

    /**
     * Applies a cycle's txs until nothing more changes (a hop created by one tx may match another of the same batch,
     * whatever their order). {@code covered} holds, per chain, the block time up to which scans had looked before this
     * batch (absent: the chain was not scanned before), for deciding catch-up searches.
     */
    void apply(List<ObservedTx> txs, Map<String, Long> covered) {
        this.coveredUntil = covered;
        List<ObservedTx> ordered = new ArrayList<>(txs);
        ordered.sort(java.util.Comparator.comparingLong(ObservedTx::timeNanos));
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            passChanged = false;
            for (ObservedTx tx : ordered) observer.apply(tx);
            if (!passChanged) break;
        }
    }

    /**
     * Time-driven transitions: {@code chainTimes} holds the latest block time seen per chain (timeouts are judged by
     * the destination's clock, claimability by the L1's); the stall timeout is judged by the wall clock, and not applied to a withdrawal (or a refund) waiting for its finalization period.
     */
    void tick(Map<String, Long> chainTimes, long stallMillis) {
        tick(chainTimes, stallMillis, stallMillis);
    }

    /** The same, an unseen tx being given up after {@code unknownTtlMillis} since its registration. */
    void tick(Map<String, Long> chainTimes, long stallMillis, long unknownTtlMillis) {
        long nowMillis = clock.getAsLong();
        chainTimes.forEach((chain, time) -> {
            for (Hop h : watches.awaitingOn(chain)) {
                boolean c = h.kind == HopKind.IBC ? h.timeoutPassed(time) : h.claimableBy(time);
                if (c) changed(watches.owner(h));
            }
        });
        for (Transfer t : new ArrayList<>(open.values())) {
            long limit = t.tx() == null ? unknownTtlMillis : stallMillis;
            if (nowMillis - progressAt.get(t.id) <= limit || changed.contains(t) || t.waitingForFinalization())
                continue;
            if (t.state().terminal()) forget(t); // finished, still missing a receipt nobody found: stop looking
            else if (t.abandon()) changed(t);
        }
    }

    @Override
    public void changed(Transfer t) {
        if (t == null) return;
        passChanged = true;
        changed.add(t);
        progressAt.put(t.id, clock.getAsLong());
        watches.index(t);
        List<TransferState> states = transitions.computeIfAbsent(t.id, k -> new ArrayList<>());
        TransferState last = states.isEmpty() ? savedState.get(t.id) : states.get(states.size() - 1);
        TransferState state = t.state();
        if (state != last) states.add(state);
    }

    @Override
    public boolean behind(String chainId, long timeNanos) {
        Long covered = coveredUntil.get(chainId);
        return covered == null || covered >= timeNanos;
    }

    /** Queues a catch-up search; the same search queued twice runs once, from the earlier time (unknown: 0, first). */
    @Override
    public void catchUp(TxObserver.CatchUp c) {
        catchUps.merge(c.chainId() + " " + c.query(), c, (a, b) -> a.since() <= b.since() ? a : b);
    }

    /**
     * Searches a newly followed tx by hash unless the next scan finds it: a tx tracked right after its broadcast is
     * usually in the next blocks, and one tracked after it was committed is searched a poll later.
     */
    void lookUpLater(Transfer t) {
        if (t.tx() == null && !chains.isEvm(t.chainId))
            hashLookups.put(t, 1); // EVM hashes: a receipt each cycle instead
    }

    /** Queues the hash searches whose delay is over (for txs still not seen). */
    void releaseHashLookups() {
        for (var it = hashLookups.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (e.getKey().tx() != null || !open.containsKey(e.getKey().id)) {
                it.remove();
            } else if (e.getValue() <= 0) {
                CatchUps.hash(e.getKey()).forEach(this::catchUp);
                it.remove();
            } else {
                e.setValue(e.getValue() - 1);
            }
        }
    }

    /** Queues catch-up searches for everything waited for on a chain whose scans start afresh (no saved cursor). */
    void catchUpOn(String chain) {
        watches.catchUpsOn(chain).forEach(this::catchUp);
    }

    /** The catch-up searches queued so far (at most {@code max}), removed from the queue. */
    List<TxObserver.CatchUp> takeCatchUps(int max) {
        List<TxObserver.CatchUp> out = new ArrayList<>();
        for (var it = catchUps.values().iterator(); it.hasNext() && out.size() < max; ) {
            out.add(it.next());
            it.remove();
        }
        return out;
    }

    int pendingCatchUps() {
        return catchUps.size();
    }

    /**
     * A change to save: the transfer, its state before and now, every state it went through since (in order, for the
     * {@code transfer updated} events), its last progress time.
     */
    record Change(
            Transfer transfer,
            TransferState before,
            TransferState after,
            List<TransferState> states,
            long progressAtMillis) {}

    /** The transfers changed since the last save (kept until {@link #saved}: a failed save is retried next cycle). */
    List<Change> changes() {
        List<Change> out = new ArrayList<>();
        for (Transfer t : changed) {
            out.add(new Change(
                    t,
                    savedState.get(t.id),
                    t.state(),
                    List.copyOf(transitions.getOrDefault(t.id, List.of())),
                    progressAt.get(t.id)));
        }
        return out;
    }

    /** The changes are in the database: they are done, and terminal transfers leave the book. */
    void saved(List<Change> changes) {
        for (Change c : changes) {
            Transfer t = c.transfer();
            changed.remove(t);
            transitions.remove(t.id);
            savedState.put(t.id, c.after());
            if (c.after().terminal() && !t.missingReceipt()) forget(t);
        }
    }

    private void forget(Transfer t) {
        open.remove(t.id);
        progressAt.remove(t.id);
        savedState.remove(t.id);
        transitions.remove(t.id);
        watches.remove(t);
    }

    long progressAt(long id) {
        return progressAt.getOrDefault(id, 0L);
    }
}
