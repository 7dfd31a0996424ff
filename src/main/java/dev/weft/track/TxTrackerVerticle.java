package dev.weft.track;

import dev.weft.bus.Addresses;
import dev.weft.config.TrackConfig;
import dev.weft.model.track.ObservedTx;
import dev.weft.model.track.Transfer;
import dev.weft.model.track.TransferState;
import dev.weft.runtime.NodeContext;
import dev.weft.store.TransferStore;
import dev.weft.track.poll.ChainPoller;
import dev.weft.track.poll.ChainRpc;
import dev.weft.track.poll.EvmReceipts;
import dev.weft.track.poll.LayerZeroDeliveries;
import dev.weft.track.poll.RpcClients;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transfer tracker (role {@code track}, a single writer behind a cluster-wide lease). At start it loads the open
 * transfers and the chains' scan cursors from the database, then runs poll cycles every {@code track.poll_interval}:
 * <ol>
 *   <li>pick up transfers registered (or re-armed) since the last cycle, each with a one-off search for its hash;</li>
 *   <li>scan every Cosmos chain something is waited for on, all in parallel, each in batches ({@link ChainPoller}; a
 *   chain this deployment indexes is read from its index while it is ingested, {@link IndexedChains}), and
 *   apply the txs found to the transfers (matched locally by hash and packet keys); on EVM chains, look up the receipts
 *   of the tracked txs not seen yet, on Cosmos chains with an EVM the Cosmos hashes of EVM hashes tracked, and on the
 *   destinations of LayerZero messages their deliveries ({@link EvmFollower});</li>
 *   <li>run the one-off searches queued (new hashes, catch-ups for events that may predate the scans), bounded by
 *   {@code track.lookups_per_poll}, and apply what they find;</li>
 *   <li>time-driven transitions (timeouts by the destination's clock, withdrawal claimability by the L1's, the stall
 *   timeout: ABANDONED);</li>
 *   <li>save the changed transfers, their hops and the cursors in one transaction, then publish
 *   {@link Addresses#TRANSFER_UPDATED} {@code {tx_hash, chain_id, state}} for every state each went through.</li>
 * </ol>
 * A restarted tracker resumes from the saved cursors, so nothing that happened meanwhile is missed; it also takes back
 * the completed transfers still missing a receive tx, and searches once more for everything its transfers wait for (the
 * searches queued by the previous tracker were in its memory only).
 */
public final class TxTrackerVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(TxTrackerVerticle.class);
    private static final int ARMED_PER_CYCLE = 10_000;
    /** Search rounds per cycle at most. */
    private static final int SEARCH_ROUNDS = 3;
    /** Blocks read per step of a lookback. */
    private static final int LOOKBACK_STEP = 10;

    private final NodeContext ctx;
    private final TrackConfig config;
    private TrackChains chains;
    private TransferStore store;
    private TransferBook book;
    private RpcClients clients;
    /** Indexed chains are read from the index (their new blocks too), the others from their nodes. */
    private IndexedChains indexed;

    private EvmFollower evm;
    private AddressWatcher watcher;
    private Set<String> resumed = Set.of();
    private final Map<String, ChainPoller> pollers = new LinkedHashMap<>();
    private final Set<String> dropped = new HashSet<>();
    private final Set<String> unreachable = new HashSet<>();
    private final TrackMetrics metrics = TrackMetrics.get();
    /** Every poll retries it: a node down for long is a warning a minute, not one per poll. */
    private final FailureLog evmSendsLog = new FailureLog(LOG, "registering the EVM sends of watched addresses");

    private boolean stopped;
    private long timer = -1;
    /** A scan of this cycle stopped below its chain's head (event-loop only). */
    private boolean behind;

    private Future<Void> running = Future.succeededFuture();

    public TxTrackerVerticle(NodeContext ctx) {
        this.ctx = ctx;
        this.config = ctx.config().track();
    }

    @Override
    public Future<?> start() {
        store = new TransferStore(ctx.pool());
        return vertx.executeBlocking(() -> TrackChains.load(ctx.config()))
                .compose(c -> {
                    chains = c;
                    book = new TransferBook(c, System::currentTimeMillis);
                    clients = new RpcClients(vertx, c::rpcUrls, c::ownRpc, config);
                    indexed = new IndexedChains(ctx, clients);
                    evm = new EvmFollower(
                            c,
                            book,
                            new EvmReceipts(vertx, c::evmEndpoints, config),
                            new LayerZeroDeliveries(vertx, c::evmEndpoints, c::destinationOfts, config),
                            new dev.weft.track.poll.LayerZeroSends(vertx, c::evmEndpoints, config),
                            unreachable);
                    watcher = new AddressWatcher(
                            new dev.weft.store.WatchStore(ctx.pool()),
                            new TrackService(store, c, vertx.eventBus(), config.maxOpen()),
                            config.watchMaxTotal(),
                            config.lookbackBlocks());
                    vertx.eventBus().consumer(Addresses.TRACK_WATCHES_CHANGED, m -> watcher.changed());
                    // where the last tracker stopped reading the EVM chains' OFTSent logs
                    return new dev.weft.store.WatchStore(ctx.pool()).evmCursors();
                })
                .compose(evmCursors -> {
                    evm.sends().resume(evmCursors);
                    return store.cursors();
                })
                .compose(cursors -> {
                    resumed = Set.copyOf(cursors.keySet());
                    cursors.forEach((chain, cursor) -> {
                        ChainRpc rpc = indexed.of(chain);
                        if (rpc != null) pollers.put(chain, poller(chain, rpc, cursor));
                    });
                    return store.lastSaveMillis();
                })
                .compose(lastSave -> {
                    // the stall clock does not run while no tracker does: a downtime shifts every loaded progress time
                    long now = System.currentTimeMillis();
                    long down = lastSave == null ? 0 : Math.max(0, now - lastSave);
                    long since = (lastSave == null ? now : lastSave)
                            - config.stallTimeout().toMillis();
                    return store.loadOpen()
                            .compose(open -> store.loadUnreceived(since).map(unreceived -> {
                                open.forEach(s -> resume(s, down, now));
                                unreceived.forEach(s -> resume(s, down, now));
                                // what the last tracker had still to search for (its queue is gone) is searched again,
                                // from each hop's send
                                book.chains().forEach(book::catchUpOn);
                                LOG.info(
                                        "tracker resumed {} open transfers and {} completed ones missing a receipt on {} chains",
                                        open.size(),
                                        unreceived.size(),
                                        pollers.size());
                                return null;
                            }));
                })
                .map(v -> {
                    cycle();
                    return null;
                });
    }

    @Override
    public Future<?> stop() {
        stopped = true;
        if (timer >= 0) vertx.cancelTimer(timer);
        // the cycle in flight ends (and saves) before the lease goes: a successor never races its last write
        return running.transform(x -> clients == null
                ? Future.succeededFuture()
                : Future.join(clients.close(), evm.close()).mapEmpty());
    }

    private ChainPoller poller(String chain, ChainRpc rpc, TransferStore.Cursor cursor) {
        return new ChainPoller(
                chain,
                rpc,
                cursor,
                config.maxBlocksPerPoll(),
                config.pageSize(),
                config.maxPagesPerPoll(),
                config.lookbackBlocks(),
                config.scanWindow(),
                config.scanAheadBytes());
    }

    /** Takes a transfer loaded at start into the book, its progress time moved {@code downMillis} later (at most now). */
    private void resume(TransferStore.Stored s, long downMillis, long nowMillis) {
        adopt(new TransferStore.Stored(
                s.transfer(), s.state(), Math.min(nowMillis, s.progressAtMillis() + downMillis)));
    }

    /** Takes a transfer from the database into the book; an unseen one gets a search for its hash. */
    private void adopt(TransferStore.Stored s) {
        Transfer t = s.transfer();
        book.add(t, s.state(), s.progressAtMillis());
        book.lookUpLater(t);
        if (t.state() != s.state()) book.changed(t); // re-armed: its stored state was reset to SUBMITTED
    }

    private void cycle() {
        if (stopped) return;
        long started = System.currentTimeMillis();
        behind = false;
        running = watcher.refresh(resumed, started)
                .recover(e -> {
                    LOG.warn("loading the watched addresses failed (retried next cycle): {}", e.toString());
                    watcher.changed();
                    return Future.succeededFuture();
                })
                .compose(v -> store.takeArmed(ARMED_PER_CYCLE))
                .compose(armed -> {
                    armed.forEach(this::adopt);
                    return scan();
                })
                .compose(v -> watchedEvmSends())
                .compose(v -> evm.receipts())
                .compose(v -> evm.evmHashesOnCosmosChains())
                .compose(v -> evm.layerZeroDeliveries())
                .compose(v -> searches())
                .compose(v -> {
                    Map<String, Long> times = new HashMap<>();
                    pollers.forEach((chain, p) -> {
                        if (p.cursor() != null) times.put(chain, p.cursor().timeNanos());
                    });
                    book.tick(
                            times,
                            config.stallTimeout().toMillis(),
                            config.unknownTtl().toMillis());
                    return save();
                });
        running.onComplete(ar -> {
            if (ar.failed())
                LOG.warn(
                        "tracker cycle failed (retried next cycle): {}",
                        ar.cause().toString());
            metrics.cycle(System.currentTimeMillis() - started, book.size());
            if (stopped) return;
            // a chain's scan that stopped below its head (its block or page cap) has more blocks waiting, read ahead
            // meanwhile:
            // after a cycle that succeeded the next one starts at once, so a tracker that fell behind catches up at the
            // pace
            // of the node's answers, not one capped batch per poll interval
            long delay = behind && ar.succeeded()
                    ? 1
                    : Math.max(1, config.pollInterval().toMillis() - (System.currentTimeMillis() - started));
            timer = vertx.setTimer(delay, t -> cycle());
        });
        running = running.recover(e -> Future.succeededFuture());
    }

    /**
     * EVM chains have no block scan: the {@code OFTSent} logs of their watched accounts are read over JSON-RPC and
     * their txs registered as {@code /v2/tx/track} would (then adopted; their receipts are read as for any tracked tx).
     */
    private Future<Void> watchedEvmSends() {
        // not before the watches are loaded: an empty list then would drop the saved read positions
        if (!watcher.loaded()) return Future.succeededFuture();
        return evm.watchedSends(watcher.watched(), watcher.fromHeights())
                .compose(txs -> {
                    // the read positions are saved with the links of what was found below them (one transaction)
                    Map<String, Long> cursors = evm.sends().unsaved();
                    if (txs.isEmpty() && cursors.isEmpty()) return Future.succeededFuture();
                    return watcher.register(pollers, txs, cursors).map(x -> {
                        evm.sends().saved(cursors);
                        return (Void) null;
                    });
                })
                .andThen(ar -> {
                    if (ar.succeeded()) evmSendsLog.succeeded();
                    else evmSendsLog.failed(ar.cause());
                })
                .recover(e -> Future.succeededFuture())
                .compose(v -> store.takeArmed(ARMED_PER_CYCLE))
                .map(armed -> {
                    armed.forEach(this::adopt);
                    return (Void) null;
                });
    }

    /** Scans every chain something is waited for on (in parallel) and applies what they found. */
    private Future<Void> scan() {
        Set<String> wanted = new HashSet<>(book.chains());
        watcher.chains().forEach(wanted::add); // watched addresses: their chains are scanned for what they start
        for (String chain : new ArrayList<>(pollers.keySet())) {
            if (!wanted.contains(chain)) {
                pollers.remove(chain);
                dropped.add(chain);
            }
        }
        for (String chain : wanted) {
            if (pollers.containsKey(chain) || chains.isEvm(chain)) continue; // EVM chains: EvmFollower#receipts
            ChainRpc rpc = indexed.of(chain);
            if (rpc == null) {
                if (unreachable.add(chain))
                    LOG.warn("no RPC URL for {}: its transfers cannot be followed (set track.nodes.{})", chain, chain);
                continue;
            }
            pollers.put(chain, poller(chain, rpc, null));
            dropped.remove(chain);
            book.catchUpOn(chain); // its scans start at its head: what happened before is searched once
        }
        List<ChainPoller> list = new ArrayList<>(pollers.values());
        List<Future<ChainPoller.Scan>> scans = new ArrayList<>();
        for (ChainPoller p : list) scans.add(p.scan());
        return Future.join(scans).transform(ar -> {
            List<ObservedTx> txs = new ArrayList<>();
            Map<String, Long> covered = new HashMap<>();
            for (int i = 0; i < list.size(); i++) {
                Future<ChainPoller.Scan> f = scans.get(i);
                if (f.failed()) {
                    LOG.warn(
                            "scan of {} failed: {}",
                            list.get(i).chainId(),
                            f.cause().toString());
                    continue;
                }
                txs.addAll(f.result().txs());
                if (f.result().behind()) behind = true;
                if (f.result().coveredBefore() != null)
                    covered.put(list.get(i).chainId(), f.result().coveredBefore());
            }
            // txs a watched address started are registered as /v2/tx/track would, then taken up before they apply
            return watcher.register(pollers, txs)
                    .recover(e -> {
                        LOG.warn("registering the txs of watched addresses failed: {}", e.toString());
                        return Future.succeededFuture(List.of());
                    })
                    .compose(back -> store.takeArmed(ARMED_PER_CYCLE)
                            .recover(e -> Future.succeededFuture(List.of()))
                            .map(armed -> {
                                armed.forEach(this::adopt);
                                txs.addAll(back);
                                book.apply(txs, covered);
                                return (Void) null;
                            }));
        });
    }

    /**
     * Runs the queued one-off searches and applies what they found. Per chain, searches for events since a known time
     * become one range search over the chain's blocks from then on (the poller learns their times, back at most
     * {@code track.lookback_blocks} blocks), and a burst of newly tracked hashes (a wallet backend tracking every tx it
     * broadcast) is looked for in the last {@code track.lookback_blocks} blocks; what remains (unknown times, hashes not
     * in those blocks) is searched one by one, at most {@code track.lookups_per_poll} per cycle.
     */
    private Future<Void> searches() {
        book.releaseHashLookups();
        return rounds(SEARCH_ROUNDS);
    }

    /**
     * Search rounds: what one round finds can start hops whose next events are old too (a tracked tx found in the past,
     * then its receipt); the next round looks for them in the same cycle.
     */
    private Future<Void> rounds(int left) {
        return searchRound()
                .compose(v -> left > 1 && book.pendingCatchUps() > 0 ? rounds(left - 1) : Future.succeededFuture());
    }

    private Future<Void> searchRound() {
        List<TxObserver.CatchUp> retry = new ArrayList<>();
        Map<ChainPoller, List<TxObserver.CatchUp>> byChain = new LinkedHashMap<>();
        Set<String> wanted = book.chains();
        for (TxObserver.CatchUp c : book.takeCatchUps(Integer.MAX_VALUE)) {
            if (!wanted.contains(c.chainId())) continue; // nothing waits there any more
            ChainPoller p = pollers.get(c.chainId());
            if (p == null || p.cursor() == null)
                retry.add(c); // the chain is not scanned yet: search after its first scan
            else byChain.computeIfAbsent(p, k -> new ArrayList<>()).add(c);
        }
        retry.forEach(book::catchUp);
        int lookback = config.lookbackBlocks();
        List<Future<Void>> learning = new ArrayList<>();
        byChain.forEach((p, list) -> {
            long since = list.stream()
                    .filter(c -> c.hash() == null && c.since() > 0)
                    .mapToLong(TxObserver.CatchUp::since)
                    .min()
                    .orElse(Long.MAX_VALUE);
            if (!hashes(list).isEmpty() && p.indexedFrom() > indexFloor(p)) since = Long.MIN_VALUE;
            if (since != Long.MAX_VALUE && lookback > 0) learning.add(p.learnSince(since, lookback));
        });
        return Future.join(learning).transform(x -> {
            Map<ChainPoller, Future<Batch>> ranges = new LinkedHashMap<>();
            List<TxObserver.CatchUp> oneByOne = new ArrayList<>();
            byChain.forEach((p, list) -> ranges.put(p, plan(p, list, oneByOne)));
            List<Future<List<ObservedTx>>> exact = new ArrayList<>();
            for (int i = config.lookupsPerPoll(); i < oneByOne.size(); i++)
                book.catchUp(oneByOne.get(i)); // bounded per cycle
            for (TxObserver.CatchUp c : oneByOne.subList(0, Math.min(oneByOne.size(), config.lookupsPerPoll()))) {
                exact.add(
                        pollers.get(c.chainId()).search(c.query(), c.perPage()).onFailure(e -> book.catchUp(c)));
            }
            List<Future<?>> all = new ArrayList<>(ranges.values());
            all.addAll(exact);
            return Future.join(all).transform(ar -> {
                List<ObservedTx> txs = new ArrayList<>();
                for (Future<List<ObservedTx>> f : exact) if (f.succeeded()) txs.addAll(f.result());
                // what this batch holds for sure: every tx of a chain from the start of its range searches on
                Map<String, Long> covered = new HashMap<>();
                pollers.forEach((chain, p) -> {
                    if (p.cursor() != null) covered.put(chain, p.cursor().timeNanos());
                });
                ranges.forEach((p, f) -> {
                    if (f.failed()) { // searched again next cycle, not dropped: what it looked for may be behind the
                        // scans for good
                        LOG.warn(
                                "catch-up search of {} failed (retried next cycle): {}",
                                p.chainId(),
                                f.cause().toString());
                        byChain.get(p).forEach(book::catchUp);
                        return;
                    }
                    txs.addAll(f.result().txs());
                    if (f.result().from() <= p.cursor().height())
                        covered.put(p.chainId(), p.timeBefore(f.result().from()));
                });
                book.apply(txs, covered);
                return Future.succeededFuture();
            });
        });
    }

    /** Txs of a chain found by range searches: every tx of the blocks from {@code from} to the cursor is among them. */
    private record Batch(List<ObservedTx> txs, long from) {}

    private static List<TxObserver.CatchUp> hashes(List<TxObserver.CatchUp> list) {
        return list.stream().filter(c -> c.hash() != null).toList();
    }

    /** The lowest block the hash index of a chain should reach: {@code track.lookback_blocks} below its cursor. */
    private long indexFloor(ChainPoller p) {
        return Math.max(1, Math.max(p.knownFrom(), p.cursor().height() - config.lookbackBlocks() + 1));
    }

    /**
     * The range searches of one chain: from the earliest block its catch-ups need (when the poller knows the blocks back
     * to then). Newly tracked hashes cost no request of their own: they are looked up in the poller's index of the
     * recent blocks' txs, which the scans keep and which is extended back to {@code track.lookback_blocks} blocks once
     * (then a found hash's block is read again for its events). A hash not there is not on chain yet: the scans will see
     * it, or {@code track.unknown_ttl} ends its tracking. Catch-ups it cannot place go to {@code oneByOne}.
     */
    private Future<Batch> plan(ChainPoller p, List<TxObserver.CatchUp> list, List<TxObserver.CatchUp> oneByOne) {
        long cursor = p.cursor().height();
        long from = cursor + 1;
        for (TxObserver.CatchUp c : list) {
            if (c.hash() != null) continue;
            Long h = c.since() > 0 ? p.heightSince(c.since()) : null;
            if (h == null) oneByOne.add(c);
            else from = Math.min(from, Math.max(1, h));
        }
        long start = from;
        Future<Batch> batch = start <= cursor
                ? p.range(start, cursor).map(txs -> new Batch(txs, start))
                : Future.succeededFuture(new Batch(List.of(), start));
        Set<String> hashes = new HashSet<>();
        for (TxObserver.CatchUp c : hashes(list)) hashes.add(c.hash());
        if (hashes.isEmpty()) return batch;
        long floor = indexFloor(p);
        return batch.compose(b -> {
            Set<String> left = new HashSet<>(hashes);
            b.txs().forEach(tx -> left.remove(tx.hash()));
            boolean contiguous = p.indexedFrom()
                    == b.from(); // the lookback joins this batch's range (else scans read the blocks between)
            Future<Batch> back = left.isEmpty() || p.indexedFrom() <= floor
                    ? Future.succeededFuture(new Batch(List.of(), b.from()))
                    : lookback(p, left, p.indexedFrom() - 1, floor);
            return back.compose(more -> {
                left.removeAll(more.txs().stream().map(ObservedTx::hash).toList());
                java.util.TreeSet<Long> heights = new java.util.TreeSet<>();
                // still left: neither in this batch's range nor in the lookback's, so a block in the index read before;
                // or, on a chain Weft indexes, a block its index holds the tx in (however old: no lookback bounds it)
                List<String> unplaced = new ArrayList<>();
                for (String hash : left) {
                    Long h = p.indexedHeight(hash);
                    if (h != null && h < b.from()) heights.add(h);
                    else if (h == null) unplaced.add(hash);
                }
                return indexed.heights(p.chainId(), unplaced).compose(found -> {
                    for (long h : found) if (h < b.from()) heights.add(h);
                    List<Future<List<ObservedTx>>> blocks = new ArrayList<>();
                    for (long h : heights) blocks.add(p.range(h, h));
                    return Future.join(blocks).transform(x -> {
                        List<ObservedTx> txs = new ArrayList<>(b.txs());
                        txs.addAll(more.txs());
                        for (Future<List<ObservedTx>> f : blocks) if (f.succeeded()) txs.addAll(f.result());
                        return Future.succeededFuture(
                                new Batch(txs, contiguous ? Math.min(b.from(), more.from()) : b.from()));
                    });
                });
            });
        });
    }

    /** The txs of the blocks going back from {@code to} (not below {@code floor}) until every hash is among them. */
    private Future<Batch> lookback(ChainPoller p, Set<String> hashes, long to, long floor) {
        long from = Math.max(floor, to - LOOKBACK_STEP + 1);
        if (from > to) return Future.succeededFuture(new Batch(List.of(), to + 1));
        return p.range(from, to).compose(txs -> {
            Set<String> left = new HashSet<>(hashes);
            for (ObservedTx tx : txs) left.remove(tx.hash());
            if (left.isEmpty() || from <= floor) return Future.succeededFuture(new Batch(txs, from));
            return lookback(p, left, from - 1, floor).map(more -> {
                List<ObservedTx> all = new ArrayList<>(txs);
                all.addAll(more.txs());
                return new Batch(all, more.from());
            });
        });
    }

    /** Saves the cycle's changes and cursors in one transaction, then publishes the state changes. */
    private Future<Void> save() {
        List<TransferBook.Change> changes = book.changes();
        List<TransferStore.Save> saves = changes.stream()
                .map(c -> new TransferStore.Save(c.transfer(), c.after(), c.progressAtMillis()))
                .toList();
        Map<String, TransferStore.Cursor> cursors = new LinkedHashMap<>();
        pollers.forEach((chain, p) -> {
            if (p.cursor() != null) cursors.put(chain, p.cursor());
        });
        List<String> drop = List.copyOf(dropped);
        List<TransferStore.Announced> announced = new ArrayList<>();
        for (TransferBook.Change c : changes)
            for (TransferState s : c.states())
                announced.add(new TransferStore.Announced(c.transfer().chainId, c.transfer().txHash, s.name()));
        return store.save(saves, cursors, drop, announced).map(sequences -> {
            dropped.removeAll(drop);
            book.saved(changes);
            for (int i = 0; i < announced.size(); i++) {
                TransferStore.Announced a = announced.get(i);
                vertx.eventBus()
                        .publish(
                                Addresses.TRANSFER_UPDATED,
                                new JsonObject()
                                        .put("tx_hash", a.txHash())
                                        .put("chain_id", a.chainId())
                                        .put("state", a.state())
                                        .put("sequence", sequences.get(i)));
            }
            if (!announced.isEmpty())
                Addresses.eventsAppended(
                        vertx.eventBus(),
                        sequences.stream()
                                .filter(java.util.Objects::nonNull)
                                .reduce((a, b) -> b)
                                .orElse(null));
            return null;
        });
    }
}
