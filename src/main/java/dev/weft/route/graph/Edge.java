package dev.weft.route.graph;

import dev.weft.route.registry.Erc20Wrapper;
import dev.weft.route.registry.IbcChannel;
import dev.weft.route.registry.LayerZeroLane;
import dev.weft.route.registry.OpBridge;
import dev.weft.route.registry.SwapVenue;
import java.util.ArrayList;
import java.util.List;

/**
 * One edge of the route graph between two (chain, denom) nodes. Exactly the fields of its kind are set: {@code channel}
 * for IBC (sent over {@code channel.channelOn(from chain)}), {@code bridge} for OPinit deposits (and {@code wrapper}
 * when the deposit arrives as a wrapped ERC-20 through an OP hook) and withdrawals, {@code lane} for LayerZero,
 * {@code venue} and {@code pool} for swaps, and {@code next} for a swap through two pools of the venue (the second
 * trades what the first returns).
 */
public record Edge(
        int id,
        Kind kind,
        int from,
        int to,
        long durationSeconds,
        IbcChannel channel,
        OpBridge bridge,
        Erc20Wrapper wrapper,
        LayerZeroLane lane,
        SwapVenue venue,
        SwapVenue.Pool pool,
        SwapVenue.Pool next) {

    public enum Kind {
        IBC,
        OP_DEPOSIT,
        OP_WITHDRAW,
        LAYER_ZERO,
        SWAP
    }

    /** Every edge but a swap keeps the amount (a wrapper deposit only rescales it to the wrapped token's decimals). */
    public boolean isSwap() {
        return kind == Kind.SWAP;
    }

    /** The pools of a swap edge in order. */
    public List<SwapVenue.Pool> pools() {
        return next == null ? List.of(pool) : List.of(pool, next);
    }

    /** The denoms a swap edge passes, from {@code denomIn}: one more than its pools. */
    public List<String> swapDenoms(String denomIn) {
        List<String> out = new ArrayList<>(List.of(denomIn));
        for (SwapVenue.Pool p : pools()) {
            String last = out.get(out.size() - 1);
            out.add(last.equals(p.denomA()) ? p.denomB() : p.denomA());
        }
        return out;
    }
}
