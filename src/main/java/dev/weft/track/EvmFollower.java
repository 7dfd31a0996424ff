package dev.weft.track;

import dev.weft.model.track.ObservedTx;
import dev.weft.model.track.Transfer;
import dev.weft.track.poll.EvmReceipts;
import dev.weft.track.poll.LayerZeroDeliveries;
import dev.weft.track.poll.LayerZeroSends;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tracker's lookups on EVM JSON-RPC, one step of each poll cycle apiece: receipts of the txs tracked on EVM chains,
 * the Cosmos hashes of EVM txs tracked on Cosmos chains with an EVM, and the deliveries of LayerZero messages. Each
 * step applies what it found to the {@link TransferBook}.
 */
final class EvmFollower {
    private static final Logger LOG = LoggerFactory.getLogger(EvmFollower.class);

    private final TrackChains chains;
    private final TransferBook book;
    private final EvmReceipts receipts;
    private final LayerZeroDeliveries deliveries;
    private final LayerZeroSends sends;
    /** Chains already warned about as unreachable (shared with the tracker's scans: one warning per chain). */
    private final Set<String> unreachable;

    EvmFollower(
            TrackChains chains,
            TransferBook book,
            EvmReceipts receipts,
            LayerZeroDeliveries deliveries,
            LayerZeroSends sends,
            Set<String> unreachable) {
        this.chains = chains;
        this.book = book;
        this.receipts = receipts;
        this.deliveries = deliveries;
        this.sends = sends;
        this.unreachable = unreachable;
    }

    /**
     * Looks up the receipts of the tracked txs not seen yet on EVM chains: one batch per chain (and per
     * {@code EvmReceipts.BATCH} hashes), every chain in parallel; the open transfers are at most {@code track.max_open},
     * and an unseen hash is given up after {@code track.unknown_ttl}. A receipt's {@code OFTSent} starts a LayerZero hop.
     */
    Future<Void> receipts() {
        List<String> evmChains = new ArrayList<>();
        List<Future<List<ObservedTx>>> found = new ArrayList<>();
        for (String chain : book.chains()) {
            if (!chains.isEvm(chain)) continue;
            if (!receipts.reachable(chain)) {
                if (unreachable.add(chain))
                    LOG.warn("no JSON-RPC URL for {}: its txs cannot be followed (set track.nodes.{})", chain, chain);
                continue;
            }
            evmChains.add(chain);
            found.add(receipts.find(
                    chain, List.copyOf(new java.util.TreeSet<>(book.watches().unseenHashes(chain)))));
        }
        return apply(evmChains, found, "receipts");
    }

    /**
     * An EVM tx sent to a Cosmos chain with an EVM (a minievm rollup) is tracked by its EVM hash, which no CometBFT
     * search knows: the unseen hashes of such chains are asked for their Cosmos hash (one JSON-RPC batch per chain), and
     * a hash that has one is also matched and searched by it.
     */
    Future<Void> evmHashesOnCosmosChains() {
        List<String> polled = new ArrayList<>();
        List<Future<Map<String, String>>> found = new ArrayList<>();
        for (String chain : book.chains()) {
            if (chains.isEvm(chain) || !receipts.reachable(chain)) continue;
            List<String> unseen =
                    List.copyOf(new java.util.TreeSet<>(book.watches().unaliasedHashes(chain)));
            if (unseen.isEmpty()) continue;
            polled.add(chain);
            found.add(receipts.cosmosHashes(chain, unseen));
        }
        return Future.join(found).transform(ar -> {
            for (int i = 0; i < found.size(); i++) {
                String chain = polled.get(i);
                if (found.get(i).failed()) {
                    LOG.warn(
                            "EVM hashes of {} failed: {}",
                            chain,
                            found.get(i).cause().toString());
                    continue;
                }
                found.get(i).result().forEach((evmHash, cosmosHash) -> {
                    Transfer t = book.watches().byHash(chain, evmHash);
                    if (t == null) return;
                    book.watches().alias(t, cosmosHash);
                    // searched as a newly tracked hash: usually in a recent block the scans read before its Cosmos hash
                    // was known
                    book.catchUp(new TxObserver.CatchUp(chain, "tx.hash='" + cosmosHash + "'", 1, cosmosHash, 0));
                });
            }
            return Future.succeededFuture();
        });
    }

    /**
     * Looks for the deliveries of the LayerZero messages sent: per destination chain, the new blocks' {@code OFTReceived}
     * logs of its OFTs ({@link LayerZeroDeliveries}), every chain in parallel, matched against the guids waited for.
     */
    Future<Void> layerZeroDeliveries() {
        Set<String> waited = book.watches().layerZeroChains();
        deliveries.retain(waited);
        List<String> polled = new ArrayList<>();
        List<Future<List<ObservedTx>>> found = new ArrayList<>();
        for (String chain : waited) {
            if (!deliveries.reachable(chain)) {
                if (unreachable.add(chain))
                    LOG.warn(
                            "no EVM JSON-RPC URL or OFT contract for {}: its LayerZero deliveries cannot be followed",
                            chain);
                continue;
            }
            polled.add(chain);
            found.add(deliveries.poll(chain, book.watches().layerZeroGuids(chain)));
        }
        return apply(polled, found, "LayerZero deliveries");
    }

    /**
     * The LayerZero sends of the accounts watched on EVM chains ({@code watched}: chain → 0x keys of 20 bytes) in the
     * new blocks ({@link LayerZeroSends}), every chain in parallel; a failed chain is logged and read again next cycle.
     */
    Future<List<ObservedTx>> watchedSends(Map<String, Set<String>> watched, Map<String, Map<String, Long>> heights) {
        sends.retain(watched.keySet());
        List<String> polled = new ArrayList<>();
        List<Future<List<ObservedTx>>> found = new ArrayList<>();
        watched.forEach((chain, accounts) -> {
            if (!chains.isEvm(chain)) return;
            if (!sends.reachable(chain)) {
                if (unreachable.add(chain))
                    LOG.warn("no JSON-RPC URL for {}: its watched addresses cannot be followed", chain);
                return;
            }
            Map<String, Long> evm = new java.util.HashMap<>();
            Map<String, Long> from = heights.getOrDefault(chain, Map.of());
            for (String a : accounts) if (a.length() == 42) evm.put(a, from.get(a)); // 0x + 20 bytes: an EVM account
            polled.add(chain);
            found.add(sends.poll(chain, evm));
        });
        return Future.join(found).transform(ar -> {
            List<ObservedTx> txs = new ArrayList<>();
            for (int i = 0; i < found.size(); i++) {
                if (found.get(i).succeeded()) txs.addAll(found.get(i).result());
                else
                    LOG.warn(
                            "LayerZero sends of watched addresses on {} failed: {}",
                            polled.get(i),
                            found.get(i).cause().toString());
            }
            return Future.succeededFuture(txs);
        });
    }

    /** The durable read positions of {@link LayerZeroSends}: loaded at start, saved with what they found. */
    LayerZeroSends sends() {
        return sends;
    }

    /** Applies what each chain's lookup found; a failed lookup is logged and runs again next cycle. */
    private Future<Void> apply(List<String> polled, List<Future<List<ObservedTx>>> found, String what) {
        return Future.join(found).transform(ar -> {
            List<ObservedTx> txs = new ArrayList<>();
            for (int i = 0; i < found.size(); i++) {
                if (found.get(i).succeeded()) txs.addAll(found.get(i).result());
                else
                    LOG.warn(
                            "{} of {} failed: {}",
                            what,
                            polled.get(i),
                            found.get(i).cause().toString());
            }
            if (!txs.isEmpty()) book.apply(txs, Map.of());
            return Future.succeededFuture();
        });
    }

    Future<Void> close() {
        return Future.join(receipts.close(), deliveries.close(), sends.close()).mapEmpty();
    }
}
