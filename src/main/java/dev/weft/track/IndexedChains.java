package dev.weft.track;

import dev.weft.runtime.NodeContext;
import dev.weft.store.LeaseStore;
import dev.weft.store.TxHeightsStore;
import dev.weft.track.poll.ChainRpc;
import dev.weft.track.poll.IndexedChainRpc;
import dev.weft.track.poll.RpcClients;
import io.vertx.core.Future;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The chains the tracker reads from this deployment's own index rather than from their nodes: every chain with a pool
 * here (a {@code chain} or {@code chains} entry), while some node of the cluster ingests it (holds its
 * {@code ingest.<chain_id>} lease; without one the index stands still, so the tracker reads the node as for any other
 * chain). Other chains get their node's RPC as it is.
 */
final class IndexedChains {
    private final NodeContext ctx;
    private final RpcClients clients;
    private final Map<String, ChainRpc> indexed = new HashMap<>();

    IndexedChains(NodeContext ctx, RpcClients clients) {
        this.ctx = ctx;
        this.clients = clients;
    }

    /** The reads of a chain, or null when no RPC URL is known for it. */
    ChainRpc of(String chainId) {
        ChainRpc node = clients.of(chainId);
        if (node == null) return null;
        Optional<NodeContext> chain = ctx.chains().get(chainId).filter(c -> c.pool() != null);
        if (chain.isEmpty()) return node;
        return indexed.computeIfAbsent(
                chainId,
                id -> new IndexedChainRpc(
                        id, node, new TxHeightsStore(chain.get().pool()), () -> ingested(id)));
    }

    /** Whether some node holds the chain's ingest lease now. */
    private Future<Boolean> ingested(String chainId) {
        long key = LeaseStore.keyOf("ingest." + chainId);
        return new LeaseStore(ctx.pool())
                .connections()
                .map(all -> all.stream().anyMatch(c -> c.heldKey() != null && c.heldKey() == key));
    }

    /**
     * The heights the chain's own index (when this deployment indexes the chain) holds these tx hashes at; none for a
     * chain it does not index, or when the index cannot be read (the scans and lookback go on as before).
     */
    Future<Set<Long>> heights(String chainId, List<String> hashes) {
        if (hashes.isEmpty()) return Future.succeededFuture(Set.of());
        return ctx.chains()
                .get(chainId)
                .filter(c -> c.pool() != null)
                .map(c -> new TxHeightsStore(c.pool())
                        .heights(hashes)
                        .<Set<Long>>map(m -> new HashSet<>(m.values()))
                        .recover(e -> Future.succeededFuture(Set.of())))
                .orElse(Future.succeededFuture(Set.of()));
    }
}
