package dev.weft.route;

import dev.weft.bus.BusError;
import dev.weft.route.graph.Edge;
import dev.weft.route.graph.RouteLimits;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A {@code POST /v2/fungible/route} body, checked for types and required fields. The HTTP module parses it to answer
 * 400 before any bus hop; the route verticle parses it again (the bus has other clients).
 *
 * <p>Exact-in ({@code amount_in}) or, as Skip, exact-out: {@code amount_out} without {@code amount_in} asks for the
 * smallest input delivering at least that much ({@code amountIn} is then null until the route is computed). With both,
 * {@code amount_in} is the request and {@code amount_out} what a {@code /msgs} body repeats from the route.
 */
public record RouteRequest(
        BigInteger amountIn,
        String sourceChainId,
        String sourceDenom,
        String destChainId,
        String destDenom,
        boolean allowUnsafe,
        Boolean goFast,
        boolean isOpWithdraw,
        RouteLimits limits,
        BigInteger exactOut,
        int affiliateBps) {

    /** Most {@code cumulative_affiliate_fee_bps}: a fee below 100 % (10000 bps would take everything). */
    public static final int MAX_AFFILIATE_BPS = 9999;

    /** The same request with {@code cumulative_affiliate_fee_bps} (what a msgs body repeats from its route request). */
    public RouteRequest withAffiliateBps(int bps) {
        return new RouteRequest(
                amountIn,
                sourceChainId,
                sourceDenom,
                destChainId,
                destDenom,
                allowUnsafe,
                goFast,
                isOpWithdraw,
                limits,
                exactOut,
                bps);
    }

    /** An exact-in request. */
    public RouteRequest(
            BigInteger amountIn,
            String sourceChainId,
            String sourceDenom,
            String destChainId,
            String destDenom,
            boolean allowUnsafe,
            Boolean goFast,
            boolean isOpWithdraw,
            RouteLimits limits) {
        this(
                amountIn,
                sourceChainId,
                sourceDenom,
                destChainId,
                destDenom,
                allowUnsafe,
                goFast,
                isOpWithdraw,
                limits,
                null,
                0);
    }

    /** Skip's BridgeType values, and the edge kinds of those Weft models (the others have no lane: no route uses them). */
    private static final Map<String, List<Edge.Kind>> BRIDGES = Map.of(
            "IBC",
            List.of(Edge.Kind.IBC),
            "OPINIT",
            List.of(Edge.Kind.OP_DEPOSIT, Edge.Kind.OP_WITHDRAW),
            "LAYER_ZERO",
            List.of(Edge.Kind.LAYER_ZERO),
            "AXELAR",
            List.of(),
            "CCTP",
            List.of(),
            "HYPERLANE",
            List.of(),
            "GO_FAST",
            List.of(),
            "STARGATE",
            List.of(),
            "EUREKA",
            List.of());
    /** Compiled once: {@code String.matches} compiles its pattern on every call, and every route request checks these. */
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,78}");

    private static final Pattern ZEROS = Pattern.compile("0+");

    public static RouteRequest parse(JsonObject body) {
        if (body == null) throw BusError.badRequest("request body must be a JSON object");
        boolean exactOut = body.getValue("amount_in") == null && body.getValue("amount_out") != null;
        int affiliateBps = bps(body.getValue("cumulative_affiliate_fee_bps"), "cumulative_affiliate_fee_bps");
        if (exactOut && affiliateBps > 0) {
            throw BusError.badRequest("cumulative_affiliate_fee_bps is taken on exact-in routes only (give amount_in)");
        }
        if (body.getValue("amount_in") == null && body.getValue("amount_out") == null) {
            throw BusError.badRequest("amount_in is required");
        }
        return new RouteRequest(
                exactOut ? null : amount(body, "amount_in"),
                string(body, "source_asset_chain_id"),
                string(body, "source_asset_denom"),
                string(body, "dest_asset_chain_id"),
                string(body, "dest_asset_denom"),
                bool(body, "allow_unsafe", true),
                optBool(body, "go_fast"),
                bool(body, "is_op_withdraw", false),
                limits(body),
                exactOut ? amount(body, "amount_out") : null,
                affiliateBps);
    }

    /** A basis-points fee: an integer 0–{@value #MAX_AFFILIATE_BPS}, as a string (Skip's type) or a JSON integer. */
    static int bps(Object v, String path) {
        if (v == null) return 0;
        String s = v instanceof String str
                ? str
                : v instanceof Number n && !(v instanceof Double || v instanceof Float) ? n.toString() : null;
        if (s == null || !BPS.matcher(s).matches() || Integer.parseInt(s) > MAX_AFFILIATE_BPS) {
            throw BusError.badRequest(path + " must be an integer from 0 to " + MAX_AFFILIATE_BPS
                    + " basis points (got " + show(v) + ")");
        }
        return Integer.parseInt(s);
    }

    private static final Pattern BPS = Pattern.compile("[0-9]{1,5}");

    /**
     * Skip's route restrictions: {@code bridges} (absent or empty: all), {@code allow_swaps} (default true),
     * {@code swap_venues} (absent or empty: all), {@code allow_multi_tx} (default true, as Initia's router answers).
     */
    static RouteLimits limits(JsonObject body) {
        Set<Edge.Kind> kinds = RouteLimits.NONE.kinds();
        Object b = body.getValue("bridges");
        if (b != null) {
            if (!(b instanceof JsonArray arr)) throw BusError.badRequest("bridges must be an array of bridge types");
            if (!arr.isEmpty()) {
                kinds = EnumSet.noneOf(Edge.Kind.class);
                for (int i = 0; i < arr.size(); i++) {
                    List<Edge.Kind> k = arr.getValue(i) instanceof String name ? BRIDGES.get(name) : null;
                    if (k == null) {
                        throw BusError.badRequest("bridges[" + i + "] must be one of " + String.join(", ", BRIDGE_NAMES)
                                + " (got " + show(arr.getValue(i)) + ")");
                    }
                    kinds.addAll(k);
                }
            }
        }
        Set<String> venues = null;
        Object v = body.getValue("swap_venues");
        if (v != null) {
            if (!(v instanceof JsonArray arr))
                throw BusError.badRequest("swap_venues must be an array of {name, chain_id}");
            if (!arr.isEmpty()) {
                venues = new HashSet<>();
                for (int i = 0; i < arr.size(); i++) {
                    if (!(arr.getValue(i) instanceof JsonObject venue))
                        throw BusError.badRequest("swap_venues[" + i + "] must be an object {name, chain_id}");
                    Object chain = venue.getValue("chain_id");
                    if (chain != null && !(chain instanceof String))
                        throw BusError.badRequest("swap_venues[" + i + "].chain_id must be a string");
                    if (!(venue.getValue("name") instanceof String name) || name.isBlank()) {
                        throw BusError.badRequest("swap_venues[" + i + "].name must be a non-empty string");
                    }
                    venues.add((chain == null ? "*" : (String) chain) + "/" + name);
                }
            }
        }
        return new RouteLimits(kinds, bool(body, "allow_swaps", true), venues, !bool(body, "allow_multi_tx", true));
    }

    private static final List<String> BRIDGE_NAMES =
            List.of("IBC", "AXELAR", "CCTP", "HYPERLANE", "OPINIT", "GO_FAST", "STARGATE", "LAYER_ZERO", "EUREKA");

    /** A required base-unit amount: a positive integer, as a JSON string (or an integral JSON number). */
    public static BigInteger amount(JsonObject body, String key) {
        return amount(body, key, key);
    }

    /** {@link #amount(JsonObject, String)} of a nested object, its errors naming the field by {@code path}. */
    static BigInteger amount(JsonObject body, String key, String path) {
        Object v = body.getValue(key);
        if (v == null) throw BusError.badRequest(path + " is required");
        String s = v instanceof String str
                ? str
                : v instanceof Number n && !(v instanceof Double || v instanceof Float) ? n.toString() : null;
        if (s == null || !DIGITS.matcher(s).matches() || ZEROS.matcher(s).matches()) {
            throw BusError.badRequest(path + " must be a positive integer in base units (got " + show(v) + ")");
        }
        return new BigInteger(s);
    }

    public static String string(JsonObject body, String key) {
        Object v = body.getValue(key);
        if (v == null) throw BusError.badRequest(key + " is required");
        if (!(v instanceof String s) || s.isBlank()) throw BusError.badRequest(key + " must be a non-empty string");
        return s.trim();
    }

    static boolean bool(JsonObject body, String key, boolean def) {
        Boolean b = optBool(body, key);
        return b == null ? def : b;
    }

    static Boolean optBool(JsonObject body, String key) {
        Object v = body.getValue(key);
        if (v == null) return null;
        if (v instanceof Boolean b) return b;
        throw BusError.badRequest(key + " must be a boolean");
    }

    /** A request value quoted in an error: strings in quotes, a long one cut after {@value #SHOWN} characters. */
    static String show(Object v) {
        if (!(v instanceof String s)) return String.valueOf(v);
        return s.length() <= SHOWN
                ? "\"" + s + "\""
                : "\"" + s.substring(0, SHOWN) + "…\" (" + s.length() + " characters)";
    }

    private static final int SHOWN = 100;
}
