package dev.weft.route.graph;

import dev.weft.route.registry.Asset;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Best-route search: the route with the largest amount out, then the fewest user txs, then the shortest estimated
 * duration (then the fewest hops).
 *
 * <p>Every edge but a swap keeps the amount and a route makes at most one swap (through one pool, or two pools of a venue
 * whose entry point chains them in one call), so the amount out depends only on which swap edge the route uses. The search is one Dijkstra over states
 * (node, tx mode, has-OP-withdrawal flag, swap slot) with the lexicographic cost (txs, seconds, hops); the answer is the
 * cheapest terminal state of the swap slot with the best amount.
 *
 * <p>Tx modes decide when a route needs another user signature: at the start a tx is open on the source chain
 * ({@code LOCAL}: it may swap there and then leave); an IBC hop leaves the packet in flight ({@code FLIGHT}), and a
 * further IBC hop stays in the same tx only when the chain it passes supports the packet-forward middleware; after an
 * OPinit or LayerZero transfer the funds have landed ({@code SETTLED}). Any other step from {@code FLIGHT} or
 * {@code SETTLED} is a new tx signed on that chain.
 */
public final class RouteSearch {
    public enum OpWithdrawPolicy {
        /** Prefer routes without an OPinit withdrawal (days of finalization); use one only when nothing else arrives. */
        AVOID,
        /** Only routes with an OPinit withdrawal ({@code is_op_withdraw=true}). */
        FORCE
    }

    /** The best route under the policy (null when none), and whether any route exists at all. */
    public record Result(RoutePath path, boolean anyRoute) {}

    private static final int LOCAL = 0;
    private static final int FLIGHT = 1;
    private static final int SETTLED = 2;
    private static final long INF = Long.MAX_VALUE;
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private RouteSearch() {}

    public static Result find(
            RouteGraph g, Asset source, Asset dest, BigInteger amountIn, OpWithdrawPolicy policy, int maxHops) {
        return find(g, source, dest, amountIn, policy, maxHops, RouteLimits.NONE);
    }

    /** The best route using only what {@code limits} allows. */
    public static Result find(
            RouteGraph g,
            Asset source,
            Asset dest,
            BigInteger amountIn,
            OpWithdrawPolicy policy,
            int maxHops,
            RouteLimits limits) {
        RouteLimits only = limits.isNone() ? null : limits;
        long maxTxs = limits.singleTx() ? 1 : Long.MAX_VALUE;
        int src = g.nodeOf(source);
        int dst = g.nodeOf(dest);
        // after its one swap a route only transfers: a swap, or any edge after it, into a node from which transfers
        // cannot
        // reach the destination is never on a route, and its amount is not worth computing
        if (dst < 0) return new Result(null, false);
        boolean[] reaches = g.reachesByTransfers(dst);
        int n = g.nodeCount();
        int slots = g.swapCount() + 1;
        Scratch s = SCRATCH.get();
        s.begin(slots * n * 6, g.swapCount());
        // best terminal cost per (slot, flag)
        long[] terminal = new long[slots * 2];
        int[] terminalState = new int[slots * 2];
        java.util.Arrays.fill(terminal, INF);
        int start = state(0, src, LOCAL, 0, n);
        s.relax(start, pack(1, 0, 0), -1, -1);
        while (!s.heapEmpty()) {
            long cost = s.peekCost();
            int st = s.pop();
            if (cost > s.cost(st)) continue;
            int flag = st & 1;
            int mode = (st >> 1) % 3;
            int rest = st / 6;
            int node = rest % n;
            int slot = rest / n;
            if (node == dst) {
                int t = slot * 2 + flag;
                if (cost < terminal[t]) {
                    terminal[t] = cost;
                    terminalState[t] = st;
                }
                continue;
            }
            long txs = cost >>> 52;
            long secs = (cost >>> 8) & ((1L << 44) - 1);
            long hops = cost & 0xFF;
            if (hops >= maxHops) continue;
            for (int i = g.outStart(node); i < g.outEnd(node); i++) {
                Edge e = g.edge(g.outEdge(i));
                if (only != null && !only.allows(e)) continue;
                int nSlot = slot;
                int nMode;
                long nTxs = txs;
                int nFlag = flag;
                if (slot != 0 && !reaches[e.to()]) continue;
                if (e.isSwap()) {
                    if (slot != 0 || !reaches[e.to()]) continue;
                    int sw = g.swapSlot(e.id());
                    if (s.swapOut(g, sw, amountIn).signum() <= 0) continue;
                    nSlot = sw + 1;
                    if (mode == FLIGHT && g.hookSwap(e.id())) {
                        nMode = SETTLED;
                    } else {
                        if (mode != LOCAL) nTxs++;
                        nMode = LOCAL;
                    }
                } else {
                    boolean forwarded = mode == FLIGHT && e.kind() == Edge.Kind.IBC && g.pfm(node);
                    if (!forwarded && mode != LOCAL) nTxs++;
                    nMode = e.kind() == Edge.Kind.IBC ? FLIGHT : SETTLED;
                    if (e.kind() == Edge.Kind.OP_WITHDRAW) nFlag = 1;
                }
                if (nTxs > maxTxs) continue;
                int ns = state(nSlot, e.to(), nMode, nFlag, n);
                s.relax(ns, pack(nTxs, secs + e.durationSeconds(), hops + 1), st, e.id());
            }
        }
        int best = -1;
        BigInteger bestAmount = null;
        boolean any = false;
        boolean withoutWithdrawal = false;
        for (int t = 0; t < terminal.length; t++) {
            if (terminal[t] == INF) continue;
            any = true;
            if ((t & 1) == 0) withoutWithdrawal = true;
        }
        for (int t = 0; t < terminal.length; t++) {
            if (terminal[t] == INF) continue;
            int flag = t & 1;
            if (policy == OpWithdrawPolicy.FORCE && flag == 0) continue;
            if (policy == OpWithdrawPolicy.AVOID && withoutWithdrawal && flag == 1) continue;
            int slot = t / 2;
            BigInteger amount = slot == 0 ? amountIn : s.swapOut(g, slot - 1, amountIn);
            int c = bestAmount == null ? 1 : amount.compareTo(bestAmount);
            if (c > 0 || c == 0 && terminal[t] < terminal[best]) {
                best = t;
                bestAmount = amount;
            }
        }
        if (best < 0) return new Result(null, any);
        return new Result(path(g, s, terminalState[best], amountIn), true);
    }

    private static RoutePath path(RouteGraph g, Scratch s, int end, BigInteger amountIn) {
        List<Edge> edges = new ArrayList<>();
        for (int st = end; s.prevEdge(st) >= 0; st = s.prevState(st)) edges.add(g.edge(s.prevEdge(st)));
        Collections.reverse(edges);
        List<BigInteger> amounts = new ArrayList<>();
        List<Integer> txIndex = new ArrayList<>();
        amounts.add(amountIn);
        BigInteger amount = amountIn;
        PoolMath.Quote quote = null;
        List<PoolMath.Quote> poolQuotes = List.of();
        int tx = 0;
        int mode = LOCAL;
        long secs = 0;
        for (Edge e : edges) {
            if (e.isSwap()) {
                poolQuotes = PoolMath.quotes(g, e, g.asset(e.from()).denom(), amount);
                quote = PoolMath.combined(poolQuotes);
                amount = quote.amountOut();
                if (mode == FLIGHT && g.hookSwap(e.id())) {
                    mode = SETTLED;
                } else {
                    if (mode != LOCAL) tx++;
                    mode = LOCAL;
                }
            } else {
                boolean forwarded = mode == FLIGHT && e.kind() == Edge.Kind.IBC && g.pfm(e.from());
                if (!forwarded && mode != LOCAL) tx++;
                mode = e.kind() == Edge.Kind.IBC ? FLIGHT : SETTLED;
                if (e.wrapper() != null) {
                    amount = amount.multiply(BigInteger.TEN.pow(
                            g.asset(e.to()).decimals() - g.asset(e.from()).decimals()));
                }
            }
            secs += e.durationSeconds();
            amounts.add(amount);
            txIndex.add(tx);
        }
        return new RoutePath(
                List.copyOf(edges), List.copyOf(amounts), List.copyOf(txIndex), quote, List.copyOf(poolQuotes), secs);
    }

    private static int state(int slot, int node, int mode, int flag, int n) {
        return ((slot * n + node) * 3 + mode) * 2 + flag;
    }

    private static long pack(long txs, long secs, long hops) {
        return txs << 52 | Math.min(secs, (1L << 44) - 1) << 8 | hops;
    }

    /** Per-thread search arrays, reused across searches (a stamp marks the entries of the current search). */
    private static final class Scratch {
        private long[] cost = new long[0];
        private int[] prevState = new int[0];
        private int[] prevEdge = new int[0];
        private int[] stamp = new int[0];
        private int epoch;
        private long[] heapCost = new long[64];
        private int[] heapState = new int[64];
        private int heapSize;
        private BigInteger[] swapOut = new BigInteger[0];

        void begin(int states, int swaps) {
            if (cost.length < states) {
                cost = new long[states];
                prevState = new int[states];
                prevEdge = new int[states];
                stamp = new int[states];
                epoch = 0;
            }
            if (++epoch == Integer.MAX_VALUE) {
                java.util.Arrays.fill(stamp, 0);
                epoch = 1;
            }
            heapSize = 0;
            if (swapOut.length < swaps) swapOut = new BigInteger[swaps];
            java.util.Arrays.fill(swapOut, null);
        }

        long cost(int st) {
            return stamp[st] == epoch ? cost[st] : INF;
        }

        int prevState(int st) {
            return prevState[st];
        }

        int prevEdge(int st) {
            return stamp[st] == epoch ? prevEdge[st] : -1;
        }

        void relax(int st, long c, int from, int edge) {
            if (c >= cost(st)) return;
            stamp[st] = epoch;
            cost[st] = c;
            prevState[st] = from;
            prevEdge[st] = edge;
            push(c, st);
        }

        BigInteger swapOut(RouteGraph g, int slot, BigInteger amountIn) {
            BigInteger out = swapOut[slot];
            if (out == null) {
                Edge e = g.swap(slot);
                out = PoolMath.amountOut(g, e, g.asset(e.from()).denom(), amountIn);
                swapOut[slot] = out;
            }
            return out;
        }

        boolean heapEmpty() {
            return heapSize == 0;
        }

        long peekCost() {
            return heapCost[0];
        }

        private void push(long c, int st) {
            if (heapSize == heapCost.length) {
                heapCost = java.util.Arrays.copyOf(heapCost, heapSize * 2);
                heapState = java.util.Arrays.copyOf(heapState, heapSize * 2);
            }
            int i = heapSize++;
            while (i > 0) {
                int p = (i - 1) >> 1;
                if (heapCost[p] <= c) break;
                heapCost[i] = heapCost[p];
                heapState[i] = heapState[p];
                i = p;
            }
            heapCost[i] = c;
            heapState[i] = st;
        }

        int pop() {
            int top = heapState[0];
            long c = heapCost[--heapSize];
            int st = heapState[heapSize];
            int i = 0;
            while (true) {
                int l = 2 * i + 1;
                if (l >= heapSize) break;
                int r = l + 1;
                int m = r < heapSize && heapCost[r] < heapCost[l] ? r : l;
                if (heapCost[m] >= c) break;
                heapCost[i] = heapCost[m];
                heapState[i] = heapState[m];
                i = m;
            }
            heapCost[i] = c;
            heapState[i] = st;
            return top;
        }
    }
}
