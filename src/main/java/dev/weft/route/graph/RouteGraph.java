package dev.weft.route.graph;

import dev.weft.config.RouteConfig;
import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.Erc20Wrapper;
import dev.weft.route.registry.IbcChannel;
import dev.weft.route.registry.LayerZeroLane;
import dev.weft.route.registry.OpBridge;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.SwapVenue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The route graph of one registry version, built once: a node per asset (chain, denom) and an edge per way to move it:
 * an IBC hop over each transfer channel, an OPinit deposit and withdrawal per bridged denom (a deposit into an ERC-20
 * wrapper's token needs an OP hook), a LayerZero lane, both directions of every pool, and every two-pool path of a
 * venue with an entry point that runs it in one call. Out-edges and in-edges are kept in arrays
 * (compressed rows) for the search.
 */
public final class RouteGraph {
    private final Registry registry;
    private final Asset[] nodes;
    private final Map<String, Integer> index = new HashMap<>();
    private final boolean[] pfm;
    /** Each node's chain, as an index into the registry's chains (the search's visited set). */
    private final int[] chainOf;

    private final int chainCount;
    private final Edge[] edges;
    private final int[] outStart;
    private final int[] outEdges;
    private final int[] inStart;
    private final int[] inEdges;
    private final int[] swapSlot;
    private final Edge[] swaps;
    private final boolean[] hookSwap;
    /** Each pool's derived parameters, by pool instance (read-only once built). */
    private final Map<SwapVenue.Pool, PoolCurve> curves = new java.util.IdentityHashMap<>();
    /** Per destination node, the nodes that reach it by transfers alone (filled on first use). */
    private final java.util.concurrent.atomic.AtomicReferenceArray<boolean[]> reachesByTransfers;

    public RouteGraph(Registry registry, RouteConfig config) {
        this.registry = registry;
        List<Asset> assets = registry.assets();
        nodes = assets.toArray(new Asset[0]);
        pfm = new boolean[nodes.length];
        chainOf = new int[nodes.length];
        Map<String, Integer> chainIndex = new HashMap<>();
        for (String id : registry.chains().keySet()) chainIndex.put(id, chainIndex.size());
        chainCount = chainIndex.size();
        for (int i = 0; i < nodes.length; i++) {
            index.put(nodes[i].key(), i);
            pfm[i] = registry.chain(nodes[i].chainId()).pfm();
            chainOf[i] = chainIndex.get(nodes[i].chainId());
        }
        Set<String> depositOnly = new HashSet<>();
        for (Erc20Wrapper w : registry.wrappers()) depositOnly.add(w.chainId() + "/" + w.wrappedDenom());
        List<Edge> out = new ArrayList<>();
        for (IbcChannel ch : registry.channels()) {
            for (String side : List.of(ch.chainA(), ch.chainB())) {
                String other = ch.counterpartyChain(side);
                for (Asset a : registry.assetsOn(side)) {
                    if (depositOnly.contains(a.key())) continue;
                    String path = Denoms.pathAfterTransfer(
                            a.ibcPath(), ch.port(), ch.channelOn(side), ch.counterpartyChannel(side));
                    Integer to = index.get(other + "/" + Denoms.denomOfPath(path));
                    if (to == null) continue;
                    out.add(new Edge(
                            out.size(),
                            Edge.Kind.IBC,
                            node(a),
                            to,
                            config.ibcHop().toSeconds(),
                            ch,
                            null,
                            null,
                            null,
                            null,
                            null,
                            null));
                }
            }
        }
        for (Chain c : registry.chains().values()) {
            OpBridge b = c.opBridge();
            if (b == null) continue;
            for (String l1Denom : b.opDenoms()) {
                int l1 = index.get(b.l1ChainId() + "/" + l1Denom);
                String l2Denom = Denoms.l2(b.bridgeId(), l1Denom);
                int l2 = index.get(c.chainId() + "/" + l2Denom);
                out.add(new Edge(
                        out.size(),
                        Edge.Kind.OP_DEPOSIT,
                        l1,
                        l2,
                        config.opDeposit().toSeconds(),
                        null,
                        b,
                        null,
                        null,
                        null,
                        null,
                        null));
                out.add(new Edge(
                        out.size(),
                        Edge.Kind.OP_WITHDRAW,
                        l2,
                        l1,
                        b.finalizationPeriod().toSeconds(),
                        null,
                        b,
                        null,
                        null,
                        null,
                        null,
                        null));
                for (Erc20Wrapper w : registry.wrappers()) {
                    if (!w.chainId().equals(c.chainId()) || !w.localDenom().equals(l2Denom)) continue;
                    int wrapped = index.get(w.chainId() + "/" + w.wrappedDenom());
                    out.add(new Edge(
                            out.size(),
                            Edge.Kind.OP_DEPOSIT,
                            l1,
                            wrapped,
                            config.opDeposit().toSeconds(),
                            null,
                            b,
                            w,
                            null,
                            null,
                            null,
                            null));
                }
            }
        }
        for (LayerZeroLane l : registry.lanes()) {
            long d = (l.duration() != null ? l.duration() : config.layerZero()).toSeconds();
            out.add(new Edge(
                    out.size(),
                    Edge.Kind.LAYER_ZERO,
                    index.get(l.fromChainId() + "/" + l.denomIn()),
                    index.get(l.toChainId() + "/" + l.denomOut()),
                    d,
                    null,
                    null,
                    null,
                    l,
                    null,
                    null,
                    null));
        }
        List<Edge> swapList = new ArrayList<>();
        for (SwapVenue v : registry.venues()) {
            for (SwapVenue.Pool p : v.pools()) {
                int a = index.get(v.chainId() + "/" + p.denomA());
                int b = index.get(v.chainId() + "/" + p.denomB());
                for (int[] dir : new int[][] {{a, b}, {b, a}}) {
                    Edge e = new Edge(
                            out.size(),
                            Edge.Kind.SWAP,
                            dir[0],
                            dir[1],
                            config.swap().toSeconds(),
                            null,
                            null,
                            null,
                            null,
                            v,
                            p,
                            null);
                    out.add(e);
                    swapList.add(e);
                }
            }
            if (v.hookEntryPoint() == null) continue;
            // two-pool paths A → X → B, executed in one call by the venue's entry point
            for (SwapVenue.Pool p : v.pools()) {
                for (SwapVenue.Pool q : v.pools()) {
                    if (p == q) continue;
                    for (String x : List.of(p.denomA(), p.denomB())) {
                        if (!x.equals(q.denomA()) && !x.equals(q.denomB())) continue;
                        String a = x.equals(p.denomA()) ? p.denomB() : p.denomA();
                        String b = x.equals(q.denomA()) ? q.denomB() : q.denomA();
                        if (a.equals(b)) continue;
                        Edge e = new Edge(
                                out.size(),
                                Edge.Kind.SWAP,
                                index.get(v.chainId() + "/" + a),
                                index.get(v.chainId() + "/" + b),
                                config.swap().toSeconds(),
                                null,
                                null,
                                null,
                                null,
                                v,
                                p,
                                q);
                        out.add(e);
                        swapList.add(e);
                    }
                }
            }
        }
        for (Edge e : swapList) for (SwapVenue.Pool p : e.pools()) curves.computeIfAbsent(p, PoolCurve::of);
        reachesByTransfers = new java.util.concurrent.atomic.AtomicReferenceArray<>(nodes.length);
        edges = out.toArray(new Edge[0]);
        swaps = swapList.toArray(new Edge[0]);
        swapSlot = new int[edges.length];
        java.util.Arrays.fill(swapSlot, -1);
        for (int i = 0; i < swaps.length; i++) swapSlot[swaps[i].id()] = i;
        hookSwap = new boolean[edges.length];
        for (Edge e : swaps) {
            hookSwap[e.id()] = e.venue().hookEntryPoint() != null
                    && "move".equals(registry.chain(e.venue().chainId()).hooks());
        }
        int[][] byFrom = rowsBy(edges, nodes.length, Edge::from);
        outStart = byFrom[0];
        outEdges = byFrom[1];
        int[][] byTo = rowsBy(edges, nodes.length, Edge::to);
        inStart = byTo[0];
        inEdges = byTo[1];
    }

    /**
     * The edge ids grouped by one end (compressed rows): {@code [0]} where each node's run starts (one entry more than
     * nodes, the last the end), {@code [1]} the ids.
     */
    private static int[][] rowsBy(Edge[] edges, int nodeCount, java.util.function.ToIntFunction<Edge> end) {
        int[] start = new int[nodeCount + 1];
        for (Edge e : edges) start[end.applyAsInt(e) + 1]++;
        for (int i = 0; i < nodeCount; i++) start[i + 1] += start[i];
        int[] ids = new int[edges.length];
        int[] fill = start.clone();
        for (Edge e : edges) ids[fill[end.applyAsInt(e)]++] = e.id();
        return new int[][] {start, ids};
    }

    private int node(Asset a) {
        return index.get(a.key());
    }

    public Registry registry() {
        return registry;
    }

    /** The index of a node's chain, below {@link #chainCount()}. */
    public int chainOf(int node) {
        return chainOf[node];
    }

    public int chainCount() {
        return chainCount;
    }

    public int nodeCount() {
        return nodes.length;
    }

    public int edgeCount() {
        return edges.length;
    }

    public Asset asset(int node) {
        return nodes[node];
    }

    /** The node of an asset of the registry, or -1. */
    public int nodeOf(Asset a) {
        Integer i = index.get(a.key());
        return i == null ? -1 : i;
    }

    public Edge edge(int id) {
        return edges[id];
    }

    boolean pfm(int node) {
        return pfm[node];
    }

    int outStart(int node) {
        return outStart[node];
    }

    int outEnd(int node) {
        return outStart[node + 1];
    }

    int outEdge(int i) {
        return outEdges[i];
    }

    /**
     * Whether a swap edge can run on arrival of the IBC packet that brings its input, in the transfer's own tx: its
     * chain runs Move ibc-hooks and its venue has a hook entry point.
     */
    public boolean hookSwap(int edge) {
        return hookSwap[edge];
    }

    /** The derived parameters of a pool of one of this graph's swap edges. */
    PoolCurve curve(SwapVenue.Pool pool) {
        return curves.get(pool);
    }

    /** Whether each node reaches {@code dst} by transfers alone (no swap), {@code dst} included. */
    boolean[] reachesByTransfers(int dst) {
        boolean[] r = reachesByTransfers.get(dst);
        if (r != null) return r;
        r = new boolean[nodes.length];
        r[dst] = true;
        java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>(List.of(dst));
        while (!todo.isEmpty()) {
            int n = todo.poll();
            for (int i = inStart[n]; i < inStart[n + 1]; i++) {
                Edge e = edges[inEdges[i]];
                if (e.isSwap() || r[e.from()]) continue;
                r[e.from()] = true;
                todo.add(e.from());
            }
        }
        reachesByTransfers.set(dst, r);
        return r;
    }

    /** The slot of a swap edge among all swap edges, or -1. */
    int swapSlot(int edge) {
        return swapSlot[edge];
    }

    int swapCount() {
        return swaps.length;
    }

    Edge swap(int slot) {
        return swaps[slot];
    }
}
