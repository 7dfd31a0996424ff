package dev.weft.track;

import dev.weft.model.track.Hop;
import dev.weft.model.track.Transfer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the tracker waits for on each chain, indexed so that a scanned tx is matched in O(events): tracked tx hashes
 * not seen yet, packets by their source key (acknowledge/timeout on the sending chain) and destination key
 * (recv/write_acknowledgement on the receiving chain), deposits by L1 sequence on their rollup, withdrawals by bridge
 * on their L1, LayerZero messages by guid on their destination. A transfer's entries are rebuilt from its hops whenever it changes.
 */
final class Watches {
    private final Map<String, Map<String, Transfer>> hashes = new HashMap<>();
    private final Map<String, Map<String, Hop>> sources = new HashMap<>();
    private final Map<String, Map<String, Hop>> destinations = new HashMap<>();
    private final Map<String, Map<Long, Hop>> deposits = new HashMap<>();
    private final Map<String, Map<Long, List<Hop>>> withdrawals = new HashMap<>();
    private final Map<String, Map<String, Hop>> layerZero = new HashMap<>();
    private final Map<Hop, Transfer> owners = new HashMap<>();
    private final Map<Long, List<Runnable>> undo = new HashMap<>();

    /** Indexes what the transfer still waits for (a terminal one leaves when it is saved, see TransferBook#saved). */
    void index(Transfer t) {
        remove(t);
        List<Runnable> u = new ArrayList<>();
        if (t.tx() == null) {
            put(hashes, t.chainId, t.txHash, t, u);
        }
        for (Hop h : t.hops()) {
            owners.put(h, t);
            u.add(() -> owners.remove(h));
            switch (h.kind) {
                case IBC -> {
                    if (!h.done()) put(sources, h.fromChain, h.sourceKey(), h, u);
                    // the recv may be seen after the ack (a batch in any order, a catch-up search): keep waiting for it
                    if (!h.toChain.isEmpty() && (h.receiveTx() == null || (!h.done() && h.ackSuccess() == null))) {
                        put(destinations, h.toChain, h.destinationKey(), h, u);
                    }
                }
                case OP_DEPOSIT -> {
                    if (!h.done()) put(deposits, h.toChain, h.opSequence, h, u);
                    else if (h.awaitingOutput()) putWithdrawal(h, u); // a failed deposit's refund
                }
                case OP_WITHDRAWAL -> {
                    if (h.awaitingOutput()) putWithdrawal(h, u);
                }
                case LAYER_ZERO -> {
                    if (!h.done()) put(layerZero, h.toChain, h.guid(), h, u);
                }
            }
        }
        undo.put(t.id, u);
    }

    /** A withdrawal (or a failed deposit's refund) waits for outputs of its bridge on its L1. */
    private void putWithdrawal(Hop h, List<Runnable> u) {
        String l1 = h.l1Chain();
        List<Hop> list = withdrawals
                .computeIfAbsent(l1, k -> new HashMap<>())
                .computeIfAbsent(h.bridgeId, k -> new ArrayList<>());
        list.add(h);
        u.add(() -> {
            list.remove(h);
            if (list.isEmpty()) withdrawals.get(l1).remove(h.bridgeId);
            if (withdrawals.get(l1).isEmpty()) withdrawals.remove(l1);
        });
    }

    void remove(Transfer t) {
        List<Runnable> u = undo.remove(t.id);
        if (u != null) u.forEach(Runnable::run);
    }

    private static <K, V> void put(Map<String, Map<K, V>> index, String chain, K key, V value, List<Runnable> undo) {
        Map<K, V> m = index.computeIfAbsent(chain, c -> new HashMap<>());
        m.put(key, value);
        undo.add(() -> {
            if (m.get(key) == value) m.remove(key);
            if (m.isEmpty()) index.remove(chain);
        });
    }

    /** The value of {@code key} in a per-chain index, or null. */
    private static <K, V> V get(Map<String, Map<K, V>> index, String chain, K key) {
        Map<K, V> m = index.get(chain);
        return m == null ? null : m.get(key);
    }

    Transfer byHash(String chain, String hash) {
        return get(hashes, chain, hash);
    }

    /**
     * Also matches an unseen tracked tx by another hash of the same tx (the Cosmos hash of an EVM tx tracked on a
     * minievm rollup by its EVM hash), until it is seen or re-indexed.
     */
    void alias(Transfer t, String otherHash) {
        List<Runnable> u = undo.get(t.id);
        if (u == null || t.tx() != null || byHash(t.chainId, otherHash) != null) return;
        put(hashes, t.chainId, otherHash, t, u);
    }

    /** The tracked hashes of a chain not seen yet, without the aliases ({@link #alias}) nor the hashes that have one. */
    Set<String> unaliasedHashes(String chain) {
        Map<String, Transfer> m = hashes.getOrDefault(chain, Map.of());
        Map<Long, Integer> perTransfer = new HashMap<>();
        m.values().forEach(t -> perTransfer.merge(t.id, 1, Integer::sum));
        Set<String> out = new HashSet<>();
        m.forEach((h, t) -> {
            if (h.equals(t.txHash) && perTransfer.get(t.id) == 1) out.add(h);
        });
        return out;
    }

    /** The tracked hashes of a chain not seen yet. */
    Set<String> unseenHashes(String chain) {
        return Set.copyOf(hashes.getOrDefault(chain, Map.of()).keySet());
    }

    Hop bySource(String chain, String key) {
        return get(sources, chain, key);
    }

    Hop byDestination(String chain, String key) {
        return get(destinations, chain, key);
    }

    Hop deposit(String chain, long l1Sequence) {
        return get(deposits, chain, l1Sequence);
    }

    List<Hop> withdrawals(String l1Chain, long bridgeId) {
        List<Hop> l = get(withdrawals, l1Chain, bridgeId);
        return l == null ? List.of() : List.copyOf(l);
    }

    /** Hops waiting on this chain as their destination (for timeout detection). */
    List<Hop> awaitingOn(String chain) {
        List<Hop> out = new ArrayList<>();
        Map<String, Hop> d = destinations.get(chain);
        if (d != null) out.addAll(d.values());
        Map<Long, List<Hop>> w = withdrawals.get(chain);
        if (w != null) w.values().forEach(out::addAll);
        return out;
    }

    /** Catch-up searches for the events waited for on a chain (when its scans start afresh; hashes are searched apart). */
    List<TxObserver.CatchUp> catchUpsOn(String chain) {
        List<TxObserver.CatchUp> out = new ArrayList<>();
        sources.getOrDefault(chain, Map.of())
                .values()
                .forEach(h -> out.addAll(CatchUps.source(h, h.sendTx().timeNanos())));
        destinations
                .getOrDefault(chain, Map.of())
                .values()
                .forEach(h -> out.addAll(CatchUps.destination(h, h.sendTx().timeNanos())));
        deposits.getOrDefault(chain, Map.of())
                .values()
                .forEach(h -> out.addAll(CatchUps.deposit(h, h.sendTx().timeNanos())));
        withdrawals
                .getOrDefault(chain, Map.of())
                .values()
                .forEach(l -> l.forEach(h -> {
                    if (h.outputTx() == null)
                        out.addAll(CatchUps.withdrawal(h, h.sendTx().timeNanos()));
                }));
        return out;
    }

    /** The LayerZero hop waiting for the delivery of {@code guid} on {@code chain}, or null. */
    Hop layerZero(String chain, String guid) {
        return get(layerZero, chain, guid);
    }

    /** The guids of the LayerZero messages waited for on {@code chain}. */
    Set<String> layerZeroGuids(String chain) {
        return Set.copyOf(layerZero.getOrDefault(chain, Map.of()).keySet());
    }

    /** The chains LayerZero messages are waited for on (followed by their EVM logs, not by the scans). */
    Set<String> layerZeroChains() {
        return Set.copyOf(layerZero.keySet());
    }

    Transfer owner(Hop h) {
        return owners.get(h);
    }

    /** Every chain something is waited for on. */
    Set<String> chains() {
        Set<String> out = new HashSet<>();
        out.addAll(hashes.keySet());
        out.addAll(sources.keySet());
        out.addAll(destinations.keySet());
        out.addAll(deposits.keySet());
        out.addAll(withdrawals.keySet());
        return out;
    }
}
