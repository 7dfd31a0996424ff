package dev.weft.route.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * The user txs of a route and the messages each signs, from its edges alone, as {@code /v2/fungible/msgs} builds them:
 * a swap is one {@code MsgExecute}, an OPinit deposit or withdrawal one message, a run of IBC hops one
 * {@code MsgTransfer} (the further hops are PFM forwards in its memo), a swap on IBC arrival no message of the user's
 * (the hook's memo runs it, the relayer pays that gas), a LayerZero lane an EVM tx. The tx boundaries are
 * {@link RouteSearch}'s.
 */
public final class TxPlan {
    /** A message kind: what the gas estimate of a Cosmos message depends on. */
    public enum Kind {
        TRANSFER,
        EXECUTE,
        DEPOSIT,
        WITHDRAWAL,
        LAYER_ZERO
    }

    /**
     * One user tx: its index, the chain index ({@link RouteGraph#chainOf}) and id it is signed on, its first operation and
     * the messages it carries.
     */
    public record Tx(int index, String chainId, int firstOperation, List<Kind> msgs) {
        public boolean evm() {
            return msgs.contains(Kind.LAYER_ZERO);
        }
    }

    private TxPlan() {}

    public static List<Tx> of(RouteGraph g, List<Edge> edges) {
        return of(g, edges.toArray(new Edge[0]), edges.size());
    }

    /** The txs of the first {@code hops} edges of {@code stack}. */
    public static List<Tx> of(RouteGraph g, Edge[] stack, int hops) {
        List<Tx> out = new ArrayList<>(2);
        int tx = -1;
        int mode = LOCAL;
        List<Kind> msgs = null;
        for (int i = 0; i < hops; i++) {
            Edge e = stack[i];
            int next = tx < 0 ? 0 : tx;
            boolean msg;
            if (e.isSwap()) {
                boolean onArrival = mode == FLIGHT && g.hookSwap(e.id());
                if (!onArrival && mode != LOCAL) next++;
                msg = !onArrival;
                mode = onArrival ? SETTLED : LOCAL;
            } else {
                boolean forwarded = mode == FLIGHT && e.kind() == Edge.Kind.IBC && g.pfm(e.from());
                if (!forwarded && mode != LOCAL) next++;
                msg = !forwarded;
                mode = e.kind() == Edge.Kind.IBC ? FLIGHT : SETTLED;
            }
            if (tx < 0 || next != tx) {
                tx = next;
                msgs = new ArrayList<>(2);
                out.add(new Tx(tx, g.asset(e.from()).chainId(), i, msgs));
            }
            if (msg) msgs.add(kind(e));
        }
        return out;
    }

    private static Kind kind(Edge e) {
        return switch (e.kind()) {
            case SWAP -> Kind.EXECUTE;
            case IBC -> Kind.TRANSFER;
            case OP_DEPOSIT -> Kind.DEPOSIT;
            case OP_WITHDRAW -> Kind.WITHDRAWAL;
            case LAYER_ZERO -> Kind.LAYER_ZERO;
        };
    }

    private static final int LOCAL = 0;
    private static final int FLIGHT = 1;
    private static final int SETTLED = 2;
}
