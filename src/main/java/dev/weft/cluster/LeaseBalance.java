package dev.weft.cluster;

import dev.weft.store.LeaseStore.LeaseConnection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Spreads one kind's per-chain leases (ingest of each chain, say) over the live nodes that run the kind: a node takes a
 * free lease only while it holds no more of the kind than any other node that waits for that lease, and a node holding
 * two more than such a node gives up one (its highest key, so its other leases stay put). So no node holds two chains'
 * ingest while an eligible node holds none, and a node that joins receives its share without a restart.
 *
 * @param me       this node's id
 * @param lease    the lease deciding (e.g. {@code ingest.weft-l1-1})
 * @param key      its advisory-lock key
 * @param kindKeys the keys of every lease of the same kind (one per configured chain)
 * @param seen      every lease connection of the cluster, as PostgreSQL lists them
 * @param preferred the node an operator asked to write the lease's chain, or null
 */
record LeaseBalance(
        String me, String lease, long key, Set<Long> kindKeys, List<LeaseConnection> seen, String preferred) {

    /**
     * The node an operator asked to write the chain ({@code POST /admin/chains/{chain_id}/writer}), when it waits for
     * or holds this lease: it alone takes it. A preferred node that is down or does not run the chain is ignored.
     */
    private String livePreferred() {
        if (preferred == null) return null;
        for (LeaseConnection c : seen) if (c.nodeId().equals(preferred) && c.isFor(lease)) return preferred;
        return preferred.equals(me) ? me : null;
    }

    /** Whether this node may try the (free) lease now. */
    boolean mayTake() {
        String chosen = livePreferred();
        if (chosen != null) return chosen.equals(me);
        Map<String, Integer> held = heldByNode();
        int mine = held.getOrDefault(me, 0);
        for (String node : waitingNodes()) if (held.getOrDefault(node, 0) < mine) return false;
        return true;
    }

    /** Whether this node, holding the lease, should hand it to a node that holds two fewer of the kind. */
    boolean shouldHandOver() {
        String chosen = livePreferred();
        if (chosen != null) return !chosen.equals(me);
        Map<String, Integer> held = heldByNode();
        int mine = held.getOrDefault(me, 0);
        long highest = seen.stream()
                .filter(c -> c.nodeId().equals(me) && c.heldKey() != null && kindKeys.contains(c.heldKey()))
                .mapToLong(LeaseConnection::heldKey)
                .max()
                .orElse(key);
        if (highest != key) return false;
        for (String node : waitingNodes()) if (held.getOrDefault(node, 0) + 2 <= mine) return true;
        return false;
    }

    private Map<String, Integer> heldByNode() {
        Map<String, Integer> out = new HashMap<>();
        for (LeaseConnection c : seen)
            if (c.heldKey() != null && kindKeys.contains(c.heldKey())) out.merge(c.nodeId(), 1, Integer::sum);
        return out;
    }

    /** The other nodes with a connection for this lease that do not hold it. */
    private Set<String> waitingNodes() {
        Set<String> out = new java.util.HashSet<>();
        for (LeaseConnection c : seen)
            if (!c.nodeId().equals(me) && c.isFor(lease) && c.heldKey() == null) out.add(c.nodeId());
        return out;
    }
}
