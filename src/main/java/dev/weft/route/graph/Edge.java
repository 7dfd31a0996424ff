package dev.weft.route.graph;

import dev.weft.route.registry.Erc20Wrapper;
import dev.weft.route.registry.IbcChannel;
import dev.weft.route.registry.LayerZeroLane;
import dev.weft.route.registry.OpBridge;
import dev.weft.route.registry.SwapVenue;

/**
 * One edge of the route graph between two (chain, denom) nodes. Exactly the fields of its kind are set: {@code channel}
 * for IBC (sent over {@code channel.channelOn(from chain)}), {@code bridge} for OPinit deposits (and {@code wrapper}
 * when the deposit arrives as a wrapped ERC-20 through an OP hook) and withdrawals, {@code lane} for LayerZero,
 * {@code venue} and {@code pool} for swaps.
 */
public record Edge(int id, Kind kind, int from, int to, long durationSeconds, IbcChannel channel, OpBridge bridge,
                   Erc20Wrapper wrapper, LayerZeroLane lane, SwapVenue venue, SwapVenue.Pool pool) {

  public enum Kind { IBC, OP_DEPOSIT, OP_WITHDRAW, LAYER_ZERO, SWAP }

  /** Every edge but a swap keeps the amount (a wrapper deposit only rescales it to the wrapped token's decimals). */
  public boolean isSwap() {
    return kind == Kind.SWAP;
  }
}
