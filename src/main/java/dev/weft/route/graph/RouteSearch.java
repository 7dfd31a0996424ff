package dev.weft.route.graph;

import dev.weft.route.registry.Asset;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Route search: every route that visits no chain twice, within the hop limit and the request's limits, valued by
 * {@link RouteCost}; the best is the one of highest value, then the largest amount out, the fewest user txs, the
 * shortest estimated duration, the fewest hops, and last the smaller edge ids in order (so equal routes always resolve
 * the same way).
 *
 * <p>Every edge but a swap keeps the amount and a route makes at most one swap (through one pool, or two pools of a
 * venue whose entry point chains them in one call), so a route's amount out depends only on its swap edge, computed once
 * per search. No chain twice: a route that leaves a chain and comes back signs more and waits longer for what a route on
 * that chain alone could do (the L1 → rollup → L1 detour to a better pool of a voucher is the case in point), and no
 * person would choose it. That rule also bounds the search: a depth-first walk over chain-simple paths of at most
 * {@code maxHops} edges (registries have tens of chains).
 *
 * <p>Tx modes decide when a route needs another user signature: at the start a tx is open on the source chain
 * ({@code LOCAL}: it may swap there and then leave); an IBC hop leaves the packet in flight ({@code FLIGHT}), and a
 * further IBC hop stays in the same tx only when the chain it passes supports the packet-forward middleware; after an
 * OPinit or LayerZero transfer the funds have landed ({@code SETTLED}). Any other step from {@code FLIGHT} or
 * {@code SETTLED} is a new tx signed on that chain.
 */
public final class RouteSearch {
    public enum OpWithdrawPolicy {
        /**
         * Routes with an OPinit withdrawal only when no route without one arrives (its claim is a later act the
         * route does not build, and {@code @skip-go/client} cannot sign its msg); among the others the cost model.
         */
        AVOID,
        /** Only routes with an OPinit withdrawal ({@code is_op_withdraw=true}). */
        FORCE
    }

    /** The best route under the policy (null when none), and whether any route exists at all. */
    public record Result(RoutePath path, boolean anyRoute) {}

    /**
     * One route the search found: its edges, amount out, txs, estimated seconds, whether it withdraws through an OPinit
     * bridge, and its value under the cost model.
     */
    public record Candidate(
            List<Edge> edges,
            BigInteger amountIn,
            BigInteger amountOut,
            int txs,
            long seconds,
            boolean withdraws,
            BigInteger value) {
        public int hops() {
            return edges.size();
        }
    }

    /**
     * Best first: the order {@link #find} chooses by. Value per unit of input (for an exact-in request every candidate
     * has the same input, so this is the value; for exact-out the input differs and is what the user pays).
     */
    public static final Comparator<Candidate> BEST_FIRST = ((Comparator<Candidate>) (a, b) ->
                    b.value().multiply(a.amountIn()).compareTo(a.value().multiply(b.amountIn())))
            .thenComparing(Candidate::amountOut, Comparator.reverseOrder())
            .thenComparing(Candidate::amountIn)
            .thenComparingInt(Candidate::txs)
            .thenComparingLong(Candidate::seconds)
            .thenComparingInt(Candidate::hops)
            .thenComparing(RouteSearch::compareIds);

    private static final int LOCAL = 0;
    private static final int FLIGHT = 1;
    private static final int SETTLED = 2;

    private RouteSearch() {}

    public static Result find(
            RouteGraph g, Asset source, Asset dest, BigInteger amountIn, OpWithdrawPolicy policy, int maxHops) {
        return find(g, source, dest, amountIn, policy, maxHops, RouteLimits.NONE, RouteCost.DEFAULT);
    }

    public static Result find(
            RouteGraph g,
            Asset source,
            Asset dest,
            BigInteger amountIn,
            OpWithdrawPolicy policy,
            int maxHops,
            RouteLimits limits) {
        return find(g, source, dest, amountIn, policy, maxHops, limits, RouteCost.DEFAULT);
    }

    /** The best route using only what {@code limits} allows, under {@code cost}. */
    public static Result find(
            RouteGraph g,
            Asset source,
            Asset dest,
            BigInteger amountIn,
            OpWithdrawPolicy policy,
            int maxHops,
            RouteLimits limits,
            RouteCost cost) {
        List<Candidate> all = candidates(g, source, dest, amountIn, maxHops, limits, cost);
        Candidate best = best(all, policy);
        if (best == null) return new Result(null, !all.isEmpty());
        return new Result(path(g, best.edges(), amountIn), true);
    }

    /**
     * The best route delivering at least {@code amountOut}, each candidate with the smallest input that does, under
     * {@code cost} (value per unit of input).
     */
    public static Result findExactOut(
            RouteGraph g,
            Asset source,
            Asset dest,
            BigInteger amountOut,
            OpWithdrawPolicy policy,
            int maxHops,
            RouteLimits limits,
            RouteCost cost) {
        List<Candidate> all = candidatesExactOut(g, source, dest, amountOut, maxHops, limits, cost);
        Candidate best = best(all, policy);
        if (best == null) return new Result(null, !all.isEmpty());
        return new Result(path(g, best.edges(), best.amountIn()), true);
    }

    /** The best candidate the policy admits (null when none). */
    public static Candidate best(List<Candidate> all, OpWithdrawPolicy policy) {
        boolean withoutWithdrawal = all.stream().anyMatch(c -> !c.withdraws());
        Candidate best = null;
        for (Candidate c : all) {
            if (!admitted(c, policy, withoutWithdrawal)) continue;
            if (best == null || BEST_FIRST.compare(c, best) < 0) best = c;
        }
        return best;
    }

    /** Whether the policy admits a candidate, given whether any candidate arrives without a withdrawal. */
    public static boolean admitted(Candidate c, OpWithdrawPolicy policy, boolean withoutWithdrawal) {
        if (policy == OpWithdrawPolicy.FORCE) return c.withdraws();
        return !c.withdraws() || !withoutWithdrawal;
    }

    /** The path of a candidate, with its amounts and tx indexes. */
    public static RoutePath path(RouteGraph g, Candidate c, BigInteger amountIn) {
        return path(g, c.edges(), amountIn);
    }

    /**
     * Every route from {@code source} to {@code dest} that visits no chain twice, has at most {@code maxHops} edges,
     * uses only what {@code limits} allows and delivers a positive amount, in no particular order.
     */
    public static List<Candidate> candidates(
            RouteGraph g,
            Asset source,
            Asset dest,
            BigInteger amountIn,
            int maxHops,
            RouteLimits limits,
            RouteCost cost) {
        return walkAll(g, source, dest, amountIn, null, maxHops, limits, false, cost);
    }

    /**
     * The routes a request's rules leave out, for {@code /routes}' {@code rejected}: every route without limits and
     * with chains visited again (each node still once), at most {@code maxHops} edges, exact-in.
     */
    public static List<Candidate> unrestricted(
            RouteGraph g, Asset source, Asset dest, BigInteger amountIn, int maxHops, RouteCost cost) {
        return walkAll(g, source, dest, amountIn, null, maxHops, RouteLimits.NONE, true, cost);
    }

    /** Whether a candidate enters a chain it has left (the chain it visits twice, else null). */
    public static String chainVisitedTwice(RouteGraph g, Candidate c) {
        java.util.Set<String> left = new java.util.HashSet<>();
        for (Edge e : c.edges()) {
            String from = g.asset(e.from()).chainId();
            String to = g.asset(e.to()).chainId();
            if (from.equals(to)) continue;
            left.add(from);
            if (left.contains(to)) return to;
        }
        return null;
    }

    /**
     * {@link #candidates} for an exact-out request: every route that can deliver at least {@code amountOut}, each with
     * the smallest input that does (its {@code amountIn}) and what that input delivers.
     */
    public static List<Candidate> candidatesExactOut(
            RouteGraph g,
            Asset source,
            Asset dest,
            BigInteger amountOut,
            int maxHops,
            RouteLimits limits,
            RouteCost cost) {
        return walkAll(g, source, dest, null, amountOut, maxHops, limits, false, cost);
    }

    /**
     * The depth-first walk from {@code source} to {@code dest} behind {@link #candidates}, {@link #unrestricted} and
     * {@link #candidatesExactOut}: exact-in when {@code amountIn} is given, else exact-out; {@code revisits} lets
     * chains be entered again (each node still once).
     */
    private static List<Candidate> walkAll(
            RouteGraph g,
            Asset source,
            Asset dest,
            BigInteger amountIn,
            BigInteger amountOut,
            int maxHops,
            RouteLimits limits,
            boolean revisits,
            RouteCost cost) {
        int src = g.nodeOf(source);
        int dst = g.nodeOf(dest);
        List<Candidate> out = new ArrayList<>();
        if (dst < 0 || src < 0) return out;
        Walk w = new Walk(
                g, dst, amountIn, amountOut, maxHops, limits.isNone() ? null : limits, limits.singleTx(), cost, out);
        w.revisits = revisits;
        w.visited[g.chainOf(src)] = true;
        w.onPath[src] = true;
        w.walk(src, LOCAL, false, -1, 0, 0L, 0);
        return out;
    }

    /** The depth-first walk's fixed inputs and its current path. */
    private static final class Walk {
        final RouteGraph g;
        final int dst;
        /** The input of an exact-in walk (null for exact-out). */
        final BigInteger amountIn;
        /** The amount out of an exact-out walk (null for exact-in). */
        final BigInteger target;

        final java.util.Map<String, BigInteger> swapIn = new java.util.HashMap<>();
        final int maxHops;
        final RouteLimits only;
        final boolean singleTx;
        final RouteCost cost;
        final List<Candidate> out;
        // after its one swap a route only transfers: a swap, or any edge after it, into a node from which transfers
        // cannot reach the destination is never on a route, and its amount is not worth computing
        final boolean[] reaches;
        final boolean[] visited;
        /** Chains may be entered again (for {@link #unrestricted}); nodes are then kept to once by {@code onPath}. */
        boolean revisits;

        final boolean[] onPath;
        final Edge[] stack;
        final BigInteger[] swapOut;

        Walk(
                RouteGraph g,
                int dst,
                BigInteger amountIn,
                BigInteger target,
                int maxHops,
                RouteLimits only,
                boolean singleTx,
                RouteCost cost,
                List<Candidate> out) {
            this.g = g;
            this.dst = dst;
            this.amountIn = amountIn;
            this.target = target;
            this.maxHops = maxHops;
            this.only = only;
            this.singleTx = singleTx;
            this.cost = cost;
            this.out = out;
            this.reaches = g.reachesByTransfers(dst);
            this.visited = new boolean[g.chainCount()];
            this.onPath = new boolean[g.nodeCount()];
            this.stack = new Edge[maxHops];
            this.swapOut = new BigInteger[g.swapCount()];
        }

        BigInteger swapOut(int slot) {
            BigInteger v = swapOut[slot];
            if (v == null) {
                Edge e = g.swap(slot);
                v = PoolMath.amountOut(g, e, g.asset(e.from()).denom(), amountIn);
                swapOut[slot] = v;
            }
            return v;
        }

        /** The smallest input of a swap slot returning at least {@code need} (null when none does), computed once. */
        BigInteger swapIn(int slot, BigInteger need) {
            String key = slot + "/" + need;
            if (swapIn.containsKey(key)) return swapIn.get(key);
            Edge e = g.swap(slot);
            BigInteger v = PoolMath.amountInFor(g, e, g.asset(e.from()).denom(), need);
            swapIn.put(key, v);
            return v;
        }

        /** An exact-out candidate of the current path: its smallest input, back from the target (null: none). */
        void exactOut(int slot, int txs, long secs, boolean withdraws, int hops) {
            BigInteger need = target;
            for (int i = hops - 1; i >= 0; i--) {
                Edge e = stack[i];
                if (e.wrapper() != null) {
                    BigInteger scale = BigInteger.TEN.pow(
                            g.asset(e.to()).decimals() - g.asset(e.from()).decimals());
                    BigInteger[] qr = need.divideAndRemainder(scale);
                    need = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
                } else if (e.isSwap()) {
                    need = swapIn(slot, need);
                    if (need == null) return;
                }
            }
            BigInteger in = need.max(BigInteger.ONE);
            BigInteger delivered = in;
            for (int i = 0; i < hops; i++) {
                Edge e = stack[i];
                if (e.isSwap())
                    delivered = PoolMath.amountOut(g, e, g.asset(e.from()).denom(), delivered);
                else if (e.wrapper() != null) {
                    delivered = delivered.multiply(BigInteger.TEN.pow(
                            g.asset(e.to()).decimals() - g.asset(e.from()).decimals()));
                }
            }
            out.add(new Candidate(
                    List.of(java.util.Arrays.copyOf(stack, hops)),
                    in,
                    delivered,
                    txs,
                    secs,
                    withdraws,
                    cost.value(g, stack, hops, delivered, txs, withdraws, secs)));
        }

        void walk(int node, int mode, boolean withdraws, int slot, int txIndex, long secs, int hops) {
            if (node == dst && target != null) {
                exactOut(slot, txIndex + 1, secs, withdraws, hops);
                return;
            }
            if (node == dst) {
                BigInteger amount = slot < 0 ? amountIn : swapOut(slot);
                for (int i = 0; i < hops; i++) {
                    Edge e = stack[i];
                    if (e.wrapper() != null) {
                        amount = amount.multiply(BigInteger.TEN.pow(
                                g.asset(e.to()).decimals() - g.asset(e.from()).decimals()));
                    }
                }
                int txs = txIndex + 1;
                out.add(new Candidate(
                        List.of(java.util.Arrays.copyOf(stack, hops)),
                        amountIn,
                        amount,
                        txs,
                        secs,
                        withdraws,
                        cost.value(g, stack, hops, amount, txs, withdraws, secs)));
                return;
            }
            if (hops >= maxHops) return;
            int chain = g.chainOf(node);
            for (int i = g.outStart(node); i < g.outEnd(node); i++) {
                Edge e = g.edge(g.outEdge(i));
                if (only != null && !only.allows(e)) continue;
                int to = e.to();
                int toChain = g.chainOf(to);
                if (revisits ? onPath[to] : toChain != chain && visited[toChain]) continue;
                if (slot >= 0 && !reaches[to]) continue;
                int nSlot = slot;
                int nMode;
                int nTx = txIndex;
                boolean nWithdraws = withdraws;
                if (e.isSwap()) {
                    if (slot >= 0 || !reaches[to]) continue;
                    int sw = g.swapSlot(e.id());
                    if (target == null && swapOut(sw).signum() <= 0) continue;
                    nSlot = sw;
                    if (mode == FLIGHT && g.hookSwap(e.id())) {
                        nMode = SETTLED;
                    } else {
                        if (mode != LOCAL) nTx++;
                        nMode = LOCAL;
                    }
                } else {
                    boolean forwarded = mode == FLIGHT && e.kind() == Edge.Kind.IBC && g.pfm(node);
                    if (!forwarded && mode != LOCAL) nTx++;
                    nMode = e.kind() == Edge.Kind.IBC ? FLIGHT : SETTLED;
                    if (e.kind() == Edge.Kind.OP_WITHDRAW) nWithdraws = true;
                }
                if (singleTx && nTx > 0) continue;
                stack[hops] = e;
                boolean entered = toChain != chain;
                if (entered) visited[toChain] = true;
                onPath[to] = true;
                walk(to, nMode, nWithdraws, nSlot, nTx, secs + e.durationSeconds(), hops + 1);
                onPath[to] = false;
                if (entered) visited[toChain] = false;
            }
        }
    }

    private static int compareIds(Candidate a, Candidate b) {
        int n = Math.min(a.edges().size(), b.edges().size());
        for (int i = 0; i < n; i++) {
            int c = Integer.compare(a.edges().get(i).id(), b.edges().get(i).id());
            if (c != 0) return c;
        }
        return Integer.compare(a.edges().size(), b.edges().size());
    }

    private static RoutePath path(RouteGraph g, List<Edge> edges, BigInteger amountIn) {
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
}
