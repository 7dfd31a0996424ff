package dev.weft.route.graph;

import java.math.BigInteger;
import java.util.List;

/**
 * A route found by {@link RouteSearch}: its edges in order, the amount before the first edge and after each edge,
 * the user tx that carries each edge (0-based), the quote of its swap (null when it has none) and of each pool of that
 * swap (empty without one).
 */
public record RoutePath(
        List<Edge> edges,
        List<BigInteger> amounts,
        List<Integer> txIndex,
        PoolMath.Quote swapQuote,
        List<PoolMath.Quote> poolQuotes,
        long durationSeconds) {

    public BigInteger amountIn() {
        return amounts.get(0);
    }

    public BigInteger amountOut() {
        return amounts.get(amounts.size() - 1);
    }

    public int txsRequired() {
        return txIndex.isEmpty() ? 0 : txIndex.get(txIndex.size() - 1) + 1;
    }
}
