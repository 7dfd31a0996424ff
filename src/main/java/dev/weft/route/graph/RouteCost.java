package dev.weft.route.graph;

import java.math.BigInteger;

/**
 * The cost model routes are chosen by: the amount received, discounted by a penalty per user tx beyond the first and
 * per minute of estimated duration, both in basis points of that amount (so the model needs no price and holds for any
 * asset and size). An OPinit withdrawal counts one tx more than it builds: the user's claim on the L1
 * ({@code MsgFinalizeTokenWithdrawal}) once the finalization period has passed.
 *
 * <p>{@code value = amount_out × max(0, 1 − extraTxBps·(txs − 1)/10⁴ − minuteBps·seconds/(60·10⁴))}, computed exactly in
 * integers as {@code amount_out × weight} with the weight in units of 1/600 000.
 *
 * @param extraTxBps penalty per tx to sign beyond the first (config {@code route.cost.extra_tx_bps})
 * @param minuteBps  penalty per minute of estimated duration (config {@code route.cost.minute_bps})
 */
public record RouteCost(int extraTxBps, int minuteBps) {
    public static final RouteCost DEFAULT = new RouteCost(10, 1);
    private static final long WHOLE = 600_000;

    /** The weight of a route, in units of 1/600 000 of its amount out (0 when the penalties reach the whole amount). */
    public long weight(int txs, boolean withdraws, long seconds) {
        long extra = Math.max(0, txs - 1) + (withdraws ? 1 : 0);
        long w = WHOLE - 60L * extraTxBps * extra - (long) minuteBps * Math.min(seconds, WHOLE * 1000);
        return Math.max(0, w);
    }

    /** The value of a route under the model, in units of 1/600 000 of the destination asset's base unit. */
    public BigInteger value(BigInteger amountOut, int txs, boolean withdraws, long seconds) {
        return amountOut.multiply(BigInteger.valueOf(weight(txs, withdraws, seconds)));
    }
}
