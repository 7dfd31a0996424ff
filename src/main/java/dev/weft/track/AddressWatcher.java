package dev.weft.track;

import dev.weft.bus.Addresses;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import dev.weft.model.track.ObservedTx;
import dev.weft.store.WatchStore;
import dev.weft.track.poll.ChainPoller;
import dev.weft.track.poll.EvmReceipts;
import io.vertx.core.Future;
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
 * The tracker's side of watched addresses: which accounts are watched on which chain (loaded at start, reloaded when
 * {@link Addresses#TRACK_WATCHES_CHANGED} says so and every minute), and, for every tx the scans read, whether a
 * watched account started a transfer in it. Such a tx is registered through {@link TrackService#track}, the code path
 * of {@code /v2/tx/track} (idempotent: a tx tracked already is not registered twice), and linked to the account for
 * {@code /v2/tx/by_address}. A watch new to the tracker is looked for once in the blocks from its chain's head when it
 * was made ({@code from_height}, read by {@code POST /v2/watch}) to the scans' cursor, at most
 * {@code track.lookback_blocks} blocks: a transfer broadcast right after the POST is in one of them, even when the
 * tracker had not followed the chain yet or scanned those blocks before it loaded the watch. By height, not time: a
 * chain's block times may lag the database clock that stamps {@code created_at} (the devnet's under load did), and a
 * look back to a time then starts above the transfer's block. A watch without a head (it could not be read) is looked
 * for back to its creation time, as before. Event-loop only.
 */
final class AddressWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(AddressWatcher.class);
    private static final long RELOAD_MILLIS = 60_000;

    private final WatchStore store;
    private final TrackService track;
    private final int maxTotal;
    private final int lookback;
    /** chain → hex keys of the watched accounts. */
    private Map<String, Set<String>> watched = Map.of();
    /** chain → hex key → the chain's head when it was first watched (the watches that recorded one). */
    private Map<String, Map<String, Long>> fromHeights = Map.of();
    /** chain → block time (ns) from which its new watches without a head are still to be looked for. */
    private final Map<String, Long> backfill = new HashMap<>();
    /** chain → the lowest head of its new watches, from which they are still to be looked for. */
    private final Map<String, Long> backfillFrom = new HashMap<>();

    private boolean dirty = true;
    private boolean loaded;
    private long loadedAt;

    AddressWatcher(WatchStore store, TrackService track, int maxTotal, int lookback) {
        this.store = store;
        this.track = track;
        this.maxTotal = maxTotal;
        this.lookback = lookback;
    }

    /** A notice that watches changed: reloaded at the start of the next cycle. */
    void changed() {
        dirty = true;
    }

    /** Chain → hex keys ({@code 0x}, lower case) of the accounts watched on it. */
    Map<String, Set<String>> watched() {
        return watched;
    }

    /** Chain → hex key → the chain's head when the account was first watched (only the watches that recorded one). */
    Map<String, Map<String, Long>> fromHeights() {
        return fromHeights;
    }

    /** Whether the watches were loaded once (before, no chain is known to be unwatched). */
    boolean loaded() {
        return loaded;
    }

    /** The chains accounts are watched on (polled for them even when no transfer waits there). */
    Set<String> chains() {
        return watched.keySet();
    }

    /**
     * Reloads the watches when told or a minute after the last load. {@code resumed}: the chains whose scans resume
     * from a saved cursor (at the first load, their watches need no look back: the scans cover what followed).
     */
    Future<Void> refresh(Set<String> resumed, long nowMillis) {
        if (!dirty && nowMillis - loadedAt < RELOAD_MILLIS) return Future.succeededFuture();
        dirty = false;
        return store.watched(maxTotal).map(list -> {
            Map<String, Set<String>> next = new HashMap<>();
            Map<String, Map<String, Long>> heights = new HashMap<>();
            for (WatchStore.Watched w : list) {
                String key = AccountAddress.of(w.address()).hex();
                next.computeIfAbsent(w.chainId(), c -> new HashSet<>()).add(key);
                if (w.fromHeight() != null)
                    heights.computeIfAbsent(w.chainId(), c -> new HashMap<>()).put(key, w.fromHeight());
                boolean known = watched.getOrDefault(w.chainId(), Set.of()).contains(key);
                if (known || (!loaded && resumed.contains(w.chainId()))) continue;
                if (w.fromHeight() != null) backfillFrom.merge(w.chainId(), w.fromHeight(), Math::min);
                else backfill.merge(w.chainId(), w.sinceMillis() * 1_000_000L, Math::min);
            }
            watched = next;
            fromHeights = heights;
            backfill.keySet().retainAll(next.keySet());
            backfillFrom.keySet().retainAll(next.keySet());
            loaded = true;
            loadedAt = nowMillis;
            return null;
        });
    }

    /**
     * Looks back for the new watches of the scanned chains (their blocks since the watch was made), registers every
     * tx of {@code scanned} and of those blocks a watched account started a transfer in; answers the txs read back
     * (to apply with the scanned ones).
     */
    Future<List<ObservedTx>> register(Map<String, ChainPoller> pollers, List<ObservedTx> scanned) {
        return register(pollers, scanned, Map.of());
    }

    /**
     * {@link #register(Map, List)}, saving {@code evmCursors} (chain → next block to read, of the EVM reads that found
     * {@code scanned}) in the transaction that links what it registered.
     */
    Future<List<ObservedTx>> register(
            Map<String, ChainPoller> pollers, List<ObservedTx> scanned, Map<String, Long> evmCursors) {
        List<Future<List<ObservedTx>>> reads = new ArrayList<>();
        Set<String> filling = new HashSet<>(backfill.keySet());
        filling.addAll(backfillFrom.keySet());
        for (String chain : filling) {
            ChainPoller p = pollers.get(chain);
            if (p == null || p.cursor() == null) continue; // not scanned yet: after its first scan
            Long since = backfill.remove(chain);
            Long head = backfillFrom.remove(chain);
            Future<Long> byTime = since == null
                    ? Future.succeededFuture(null)
                    : p.learnSince(since, lookback).map(v -> {
                        Long from = p.heightSince(since);
                        return from == null ? p.knownFrom() : from;
                    });
            reads.add(byTime.compose(t -> {
                long to = p.cursor().height();
                long from = t == null ? Long.MAX_VALUE : t;
                // from the head when the watch was made, at most track.lookback_blocks below the scans
                if (head != null) from = Math.min(from, Math.max(head, Math.max(1, to - Math.max(1, lookback) + 1)));
                return from > to ? Future.succeededFuture(List.<ObservedTx>of()) : p.range(from, to);
            }));
        }
        return Future.join(reads).transform(x -> {
            List<ObservedTx> back = new ArrayList<>();
            for (Future<List<ObservedTx>> f : reads) {
                if (f.succeeded()) back.addAll(f.result());
                else
                    LOG.warn(
                            "looking back for new watches failed: {}", f.cause().toString());
            }
            Map<String, ObservedTx> found = new LinkedHashMap<>();
            Map<String, List<String>> accounts = new HashMap<>();
            for (List<ObservedTx> l : List.of(scanned, back)) {
                for (ObservedTx tx : l) {
                    Set<String> w = watched.get(tx.chainId());
                    if (w == null) continue;
                    for (String a : starters(tx)) {
                        if (!w.contains(a)) continue;
                        String k = tx.chainId() + " " + tx.hash();
                        found.putIfAbsent(k, tx);
                        List<String> as = accounts.computeIfAbsent(k, y -> new ArrayList<>());
                        if (!as.contains(a)) as.add(a);
                    }
                }
            }
            return registerAll(new ArrayList<>(found.entrySet()), 0, accounts, new ArrayList<>(), evmCursors)
                    .map(v -> back);
        });
    }

    /** Registers the found txs one after the other (a few per cycle), then links those registered. */
    private Future<Void> registerAll(
            List<Map.Entry<String, ObservedTx>> found,
            int i,
            Map<String, List<String>> accounts,
            List<WatchStore.Link> links,
            Map<String, Long> evmCursors) {
        if (i == found.size()) return store.link(links, evmCursors);
        ObservedTx tx = found.get(i).getValue();
        return track.track(new JsonObject().put("tx_hash", tx.hash()).put("chain_id", tx.chainId()))
                .transform(ar -> {
                    if (ar.succeeded()) {
                        String hash = ar.result().getString("tx_hash");
                        for (String a : accounts.get(found.get(i).getKey()))
                            links.add(
                                    new WatchStore.Link(tx.chainId(), dev.weft.chain.Hex.decode(a), hash, tx.height()));
                    } else {
                        LOG.warn(
                                "tx {} of a watched address on {} not tracked: {}",
                                tx.hash(),
                                tx.chainId(),
                                ar.cause().toString());
                    }
                    return registerAll(found, i + 1, accounts, links, evmCursors);
                });
    }

    /**
     * The accounts (hex keys) that started a transfer in a tx: none when it failed or starts none (no
     * {@code send_packet}, {@code initiate_token_deposit}, {@code initiate_token_withdrawal}, {@code OFTSent}), and
     * none for a relayer's or executor's tx ({@code recv_packet}, {@code finalize_token_deposit}: the sends in it
     * continue someone else's transfer, a PFM hop or a failed deposit's refund). Else its signer (the {@code tx}
     * event's {@code acc_seq}), the ICS-20 packet data's {@code sender} and the OPinit events' and OFTSent's
     * {@code from}.
     */
    static Set<String> starters(ObservedTx tx) {
        if (tx.code() != 0) return Set.of();
        boolean starts = false;
        for (ObservedTx.Event e : tx.events()) {
            switch (e.type()) {
                case "recv_packet", "finalize_token_deposit" -> {
                    return Set.of();
                }
                case "send_packet", "initiate_token_deposit", "initiate_token_withdrawal", EvmReceipts.OFT_SENT ->
                    starts = true;
                default -> {}
            }
        }
        if (!starts) return Set.of();
        Set<String> out = new HashSet<>();
        for (ObservedTx.Event e : tx.events()) {
            switch (e.type()) {
                case "tx" -> {
                    String accSeq = e.get("acc_seq");
                    if (accSeq != null && accSeq.lastIndexOf('/') > 0)
                        add(out, accSeq.substring(0, accSeq.lastIndexOf('/')));
                }
                case "send_packet" -> {
                    String data = e.get("packet_data");
                    if (data == null) continue;
                    try {
                        add(out, new JsonObject(data).getString("sender"));
                    } catch (RuntimeException ignored) {
                        // not ICS-20 JSON (another application's packet): no sender to read
                    }
                }
                case "initiate_token_deposit", "initiate_token_withdrawal", EvmReceipts.OFT_SENT ->
                    add(out, e.get("from"));
                default -> {}
            }
        }
        return out;
    }

    /** Adds the key of an address in bech32 (any prefix: the chain's) or hex; anything else is left out. */
    private static void add(Set<String> out, String address) {
        if (address == null || address.isBlank()) return;
        try {
            byte[] bytes = address.startsWith("0x") || address.startsWith("0X")
                    ? AccountAddress.parse(address, "\u0000").bytes()
                    : Bech32.decode(address).data();
            out.add(AccountAddress.of(bytes).hex());
        } catch (RuntimeException ignored) {
            // not an account address (a module's name, a contract of another length): no watch can match it
        }
    }
}
