package dev.weft.route;

import dev.weft.bus.BusError;
import dev.weft.route.graph.Edge;
import dev.weft.route.graph.RouteLimits;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A {@code POST /v2/fungible/msgs} body: the route's assets and amount, the operations of {@code /route} verbatim, one
 * address per {@code required_chain_addresses} entry, the slippage tolerance (percent, default 1), the signed OP hook
 * when the route requires one, and optionally the IBC timeout in seconds.
 */
public record MsgsRequest(
        RouteRequest route,
        BigInteger amountOut,
        List<String> addressList,
        JsonArray operations,
        BigDecimal slippagePercent,
        SignedOpHook signedOpHook,
        Long timeoutSeconds,
        java.util.Map<String, List<Affiliate>> affiliates) {

    /** Skip's {@code Affiliate}: an address on its chain (checked against the chain later) and its share in bps. */
    public record Affiliate(String address, int bps) {}

    /** Most affiliates on one chain: each is a msg in the user's tx. */
    static final int MAX_AFFILIATES = 10;

    /** {@code {<chain id>: {affiliates: [{address, basis_points_fee}]}}}, types and bounds checked. */
    private static java.util.Map<String, List<Affiliate>> affiliates(Object v) {
        java.util.Map<String, List<Affiliate>> out = new java.util.LinkedHashMap<>();
        if (v == null) return out;
        if (!(v instanceof JsonObject byChain))
            throw BusError.badRequest("chain_ids_to_affiliates must be an object of chain id → {affiliates}");
        for (String chain : byChain.fieldNames()) {
            String at = "chain_ids_to_affiliates." + chain;
            if (!(byChain.getValue(chain) instanceof JsonObject entry)
                    || !(entry.getValue("affiliates") instanceof JsonArray list)) {
                throw BusError.badRequest(at + " must be an object {affiliates: [{address, basis_points_fee}]}");
            }
            if (list.size() > MAX_AFFILIATES)
                throw BusError.badRequest(at + ".affiliates has " + list.size() + ", at most " + MAX_AFFILIATES);
            List<Affiliate> named = new java.util.ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                if (!(list.getValue(i) instanceof JsonObject a))
                    throw BusError.badRequest(
                            at + ".affiliates[" + i + "] must be an object {address, basis_points_fee}");
                named.add(new Affiliate(
                        RouteRequest.string(a, "address"),
                        RouteRequest.bps(
                                a.getValue("basis_points_fee"), at + ".affiliates[" + i + "].basis_points_fee")));
            }
            out.put(chain, List.copyOf(named));
        }
        return out;
    }

    /** {@code {"signer": "<bech32>", "hook": "<base64 signed Cosmos tx>"}}. */
    public record SignedOpHook(String signer, String hook) {}

    public static MsgsRequest parse(JsonObject body) {
        // a msgs body repeats the route's amount_in whatever the route request gave (an exact-out quote answers one)
        if (body.getValue("amount_in") == null) throw BusError.badRequest("amount_in is required");
        RouteRequest route = RouteRequest.parse(body);
        BigInteger amountOut = body.getValue("amount_out") == null ? null : RouteRequest.amount(body, "amount_out");
        Object list = body.getValue("address_list");
        if (list == null) throw BusError.badRequest("address_list is required");
        if (!(list instanceof JsonArray arr)) throw BusError.badRequest("address_list must be an array of strings");
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < arr.size(); i++) {
            if (!(arr.getValue(i) instanceof String s))
                throw BusError.badRequest("address_list[" + i + "] must be a string");
            addresses.add(s.trim());
        }
        Object ops = body.getValue("operations");
        if (ops == null)
            throw BusError.badRequest(
                    "operations is required (the operations of the route, as /v2/fungible/route returned them)");
        if (!(ops instanceof JsonArray opsArr) || opsArr.isEmpty())
            throw BusError.badRequest("operations must be a non-empty array");
        for (int i = 0; i < opsArr.size(); i++) {
            if (!(opsArr.getValue(i) instanceof JsonObject))
                throw BusError.badRequest("operations[" + i + "] must be an object");
        }
        if (body.getValue("post_route_handler") != null) {
            throw BusError.badRequest(
                    "post_route_handler is not supported: the route ends with the transfer to the last address of address_list");
        }
        java.util.Map<String, List<Affiliate>> affiliates = affiliates(body.getValue("chain_ids_to_affiliates"));
        return new MsgsRequest(
                route,
                amountOut,
                List.copyOf(addresses),
                opsArr,
                slippage(body),
                signedOpHook(body),
                timeout(body),
                affiliates);
    }

    private static BigDecimal slippage(JsonObject body) {
        Object v = body.getValue("slippage_tolerance_percent");
        if (v == null) return BigDecimal.ONE;
        BigDecimal d = null;
        if (v instanceof String || v instanceof Number) {
            try {
                d = new BigDecimal(v.toString().trim());
            } catch (NumberFormatException e) {
                d = null;
            }
        }
        if (d == null || d.signum() < 0 || d.compareTo(BigDecimal.valueOf(100)) > 0) {
            throw BusError.badRequest("slippage_tolerance_percent must be a decimal between 0 and 100 (got "
                    + RouteRequest.show(v) + ")");
        }
        return d;
    }

    private static SignedOpHook signedOpHook(JsonObject body) {
        Object v = body.getValue("signed_op_hook");
        if (v == null) return null;
        if (!(v instanceof JsonObject o)) throw BusError.badRequest("signed_op_hook must be an object {signer, hook}");
        return new SignedOpHook(RouteRequest.string(o, "signer"), RouteRequest.string(o, "hook"));
    }

    private static final Pattern TIMEOUT_SECONDS = Pattern.compile("[1-9][0-9]{0,6}");

    private static Long timeout(JsonObject body) {
        Object v = body.getValue("timeout_seconds");
        if (v == null) return null;
        String s = v.toString();
        if (!(v instanceof String || v instanceof Integer || v instanceof Long)
                || !TIMEOUT_SECONDS.matcher(s).matches()) {
            throw BusError.badRequest("timeout_seconds must be a whole number of seconds between 1 and 9999999");
        }
        return Long.parseLong(s);
    }

    /**
     * The restrictions a route with these operations satisfies: the bridges and swap venues they use, whether they swap,
     * whether they fit in one tx. The route a restricted {@code /route} request returned is the best route within these.
     */
    public RouteLimits limitsOfOperations() {
        Set<Edge.Kind> kinds = EnumSet.noneOf(Edge.Kind.class);
        Set<String> venues = new HashSet<>();
        boolean swaps = false;
        boolean singleTx = true;
        for (int i = 0; i < operations.size(); i++) {
            JsonObject op = operations.getJsonObject(i);
            if (op.getValue("tx_index") instanceof Number n && n.longValue() != 0) singleTx = false;
            if (op.containsKey("transfer")) kinds.add(Edge.Kind.IBC);
            if (op.containsKey("op_init_transfer")) kinds.addAll(List.of(Edge.Kind.OP_DEPOSIT, Edge.Kind.OP_WITHDRAW));
            if (op.containsKey("layer_zero_transfer")) kinds.add(Edge.Kind.LAYER_ZERO);
            if (op.getValue("swap") instanceof JsonObject swap) {
                swaps = true;
                if (swap.getValue("swap_venues") instanceof JsonArray used) {
                    for (Object v : used) {
                        if (v instanceof JsonObject venue
                                && venue.getValue("chain_id") instanceof String chain
                                && venue.getValue("name") instanceof String name) {
                            venues.add(chain + "/" + name);
                        }
                    }
                }
            }
        }
        return new RouteLimits(kinds, swaps, venues.isEmpty() ? null : venues, singleTx);
    }

    /** Whether the operations withdraw through an OPinit bridge (the route is recomputed with {@code is_op_withdraw}). */
    public boolean withdrawsThroughOpBridge(java.util.function.Predicate<String> isRollup) {
        for (int i = 0; i < operations.size(); i++) {
            JsonObject op = operations.getJsonObject(i).getJsonObject("op_init_transfer");
            if (op != null && op.getValue("from_chain_id") instanceof String from && isRollup.test(from)) return true;
        }
        return false;
    }
}
