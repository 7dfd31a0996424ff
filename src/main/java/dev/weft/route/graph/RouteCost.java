package dev.weft.route.graph;

import java.math.BigInteger;

/**
 * The cost model routes are chosen by: the amount received net of the estimated gas of its txs (in the destination
 * asset, where USD prices of it and of the fee assets are known), discounted by a penalty per user tx beyond the first
 * and per minute of estimated duration, both in basis points of that amount. An OPinit withdrawal counts one tx more
 * than it builds: the user's claim on the L1 ({@code MsgFinalizeTokenWithdrawal}) once the finalization period has
 * passed.
 *
 * <p>{@code value = max(0, amount_out − gas) × max(0, 1 − extraTxBps·(txs − 1)/10⁴ − minuteBps·seconds/(60·10⁴))},
 * computed exactly in integers as {@code (amount_out − gas) × weight} with the weight in units of 1/600 000.
 *
 * @param extraTxBps penalty per tx to sign beyond the first (config {@code route.cost.extra_tx_bps})
 * @param minuteBps  penalty per minute of estimated duration (config {@code route.cost.minute_bps})
 * @param gas        the gas of a route's txs in destination base units, or null (no gas term: no prices)
 */
public record RouteCost(int extraTxBps, int minuteBps, GasTerm gas) {
    public static final RouteCost DEFAULT = new RouteCost(10, 1);
    private static final long WHOLE = 600_000;

    /** The estimated gas fees of a route's txs, in base units of the destination asset (rounded up). */
    @FunctionalInterface
    public interface GasTerm {
        BigInteger inDestUnits(RouteGraph g, Edge[] edges, int hops);
    }

    public RouteCost(int extraTxBps, int minuteBps) {
        this(extraTxBps, minuteBps, null);
    }

    public RouteCost withGas(GasTerm term) {
        return new RouteCost(extraTxBps, minuteBps, term);
    }

    /** The weight of a route, in units of 1/600 000 of its amount out (0 when the penalties reach the whole amount). */
    public long weight(int txs, boolean withdraws, long seconds) {
        long extra = Math.max(0, txs - 1) + (withdraws ? 1 : 0);
        long w = WHOLE - 60L * extraTxBps * extra - (long) minuteBps * Math.min(seconds, WHOLE * 1000);
        return Math.max(0, w);
    }

    /** The value of a route under the model without its gas, in units of 1/600 000 of the destination's base unit. */
    public BigInteger value(BigInteger amountOut, int txs, boolean withdraws, long seconds) {
        return amountOut.multiply(BigInteger.valueOf(weight(txs, withdraws, seconds)));
    }

    /** The value of the route of the first {@code hops} edges of {@code edges}, net of its gas when priced. */
    public BigInteger value(
            RouteGraph g, Edge[] edges, int hops, BigInteger amountOut, int txs, boolean withdraws, long seconds) {
        BigInteger net = amountOut;
        if (gas != null) {
            BigInteger fee = gas.inDestUnits(g, edges, hops);
            if (fee != null) net = net.subtract(fee).max(BigInteger.ZERO);
        }
        return value(net, txs, withdraws, seconds);
    }
}
