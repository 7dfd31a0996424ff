package dev.weft.route;

import dev.weft.bus.BusError;
import dev.weft.route.graph.Edge;
import dev.weft.route.msgs.OperationsDiff;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The swap estimates a client accepted in {@code /route}, when the pools have moved by the time it asks for
 * {@code /msgs}: on a live chain they move every block, so a client that waits a few seconds holds operations whose
 * estimates (and the amounts after the first swap) differ from a route computed now. Such operations are accepted when
 * everything else is the route's (venues, pools, channels, bridges, the amounts before the first swap) and the route
 * computed now still reaches the minimum the client accepted (its amount out less the slippage tolerance); the
 * messages then carry the client's minimums, as Skip's do, so the user never gets less than the quote they signed for.
 */
final class SwapEstimates {
    /** The fields of an operation from the first swap on that follow the pools' state. */
    private static final Set<String> ESTIMATES =
            Set.of("amount_in", "amount_out", "swap_amount_in", "price_impact_percent", "estimated_amount_out");

    private SwapEstimates() {}

    /**
     * The first difference between the client's operations and the route's other than the estimates, as
     * {@link OperationsDiff} names it; null when the estimates are all that differ.
     */
    static String difference(JsonArray given, ComputedRoute route) {
        JsonArray expected = route.json().getJsonArray("operations");
        if (given.size() != expected.size()) return OperationsDiff.firstDifference("operations", given, expected);
        List<Edge> edges = route.path().edges();
        int firstSwap = firstSwap(edges);
        for (int i = 0; i < edges.size(); i++) {
            // a LayerZero transfer's amount out is not its amount in (dust): it is compared exactly, even after a swap
            boolean estimated = firstSwap >= 0 && i >= firstSwap && edges.get(i).kind() != Edge.Kind.LAYER_ZERO;
            String d = OperationsDiff.firstDifference(
                    "operations[" + i + "]", given.getValue(i), expected.getValue(i), estimated ? ESTIMATES : Set.of());
            if (d != null) return d;
        }
        return null;
    }

    /**
     * The path amounts of the client's operations (one more than the operations: the amount in, then each operation's
     * amount out), when {@link #difference} found none but the estimates. Throws a 400 when the estimates do not add up
     * or the route computed now falls below the minimum they accept.
     */
    static List<BigInteger> accepted(
            JsonArray given, ComputedRoute route, BigInteger amountOut, BigDecimal slippagePercent) {
        List<Edge> edges = route.path().edges();
        int firstSwap = firstSwap(edges);
        List<BigInteger> amounts = new ArrayList<>(route.path().amounts().subList(0, firstSwap + 1));
        for (int i = firstSwap; i < edges.size(); i++) {
            JsonObject op = given.getJsonObject(i);
            String at = "operations[" + i + "]";
            BigInteger in = RouteRequest.amount(op, "amount_in", at + ".amount_in");
            BigInteger out = RouteRequest.amount(op, "amount_out", at + ".amount_out");
            BigInteger carried = amounts.get(i);
            if (!in.equals(carried)) {
                throw BusError.badRequest(at + ".amount_in is \"" + in + "\", "
                        + (i == firstSwap ? "the route has" : "the operation before gives") + " \"" + carried + "\"");
            }
            if (edges.get(i).isSwap()) {
                JsonObject swapIn = op.getJsonObject("swap").getJsonObject("swap_in");
                if (!in.toString().equals(swapIn.getValue("swap_amount_in"))
                        || !out.toString().equals(swapIn.getValue("estimated_amount_out"))) {
                    throw BusError.badRequest(
                            at + ".swap.swap_in does not have the operation's amount_in and amount_out");
                }
            } else if (!out.equals(in)) {
                throw BusError.badRequest(at + ".amount_out is \"" + out + "\", the transfer moves \"" + in + "\"");
            }
            amounts.add(out);
        }
        BigInteger accepted = amounts.get(amounts.size() - 1);
        if (amountOut != null && !amountOut.equals(accepted)) {
            throw BusError.badRequest("amount_out is \"" + amountOut + "\", the operations give \"" + accepted + "\"");
        }
        BigInteger minimum = MsgsBuilder.floor(accepted, MsgsBuilder.keep(slippagePercent));
        BigInteger now = route.path().amountOut();
        if (now.compareTo(minimum) < 0) {
            throw BusError.badRequest("the pools have moved: the route now gives \"" + now + "\", below the minimum \""
                    + minimum + "\" of amount_out \"" + accepted + "\" at slippage_tolerance_percent "
                    + slippagePercent.toPlainString() + ": ask /route again");
        }
        return amounts;
    }

    private static int firstSwap(List<Edge> edges) {
        for (int i = 0; i < edges.size(); i++) if (edges.get(i).isSwap()) return i;
        return -1;
    }
}
