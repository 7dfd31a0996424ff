package dev.weft.devnet.dex;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The view functions of the devnet L1's {@code 0x1::dex}, {@code 0x1::stableswap} and {@code 0x1::block}, as
 * {@code POST /initia/move/v1/view/json} runs them: {@code {address, module_name, function_name, type_args, args}}
 * with each argument a JSON text ({@code "\"0x1\""} for an address or object, {@code "\"100\""} for a u64,
 * {@code "30"} for a u8, {@code "null"} for an empty option); the result is {@code {data, events, gas_used}} with
 * {@code data} the JSON text of the return value as movevm's JSON writer prints it (u64/u128 as strings, addresses as
 * short hex literals, BigDecimal as a normalized decimal string, options as null or the value, several return values
 * as an array). Reads see the state after the latest block, at its timestamp.
 */
public final class MoveViews {
    private static final int MAX_LIMIT = 30;

    /** A request the chain answers with an error: the gRPC code and message. */
    public static final class ViewError extends RuntimeException {
        public final int code;

        ViewError(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    private final Dex dex;
    private final LongSupplier height;
    private final LongSupplier timestamp;

    /** @param height the latest block; @param timestamp its time in seconds */
    public MoveViews(Dex dex, LongSupplier height, LongSupplier timestamp) {
        this.dex = dex;
        this.height = height;
        this.timestamp = timestamp;
    }

    /** One view request → {@code {data, events, gas_used}}. */
    public JsonObject view(JsonObject req) {
        String address = address(req.getString("address", ""));
        if (!address.equals(address("0x1")))
            throw new ViewError(
                    5, "failed to find module " + req.getString("address") + "::" + req.getString("module_name"));
        String module = req.getString("module_name", "");
        String fn = req.getString("function_name", "");
        List<String> args = new ArrayList<>();
        for (Object o : req.getJsonArray("args", new JsonArray())) args.add(String.valueOf(o));
        Object result;
        try {
            result = switch (module) {
                case "dex" -> dexView(fn, args);
                case "stableswap" -> stableView(fn, args);
                case "block" -> blockView(fn, args);
                default -> throw new ViewError(5, "failed to find module 0x1::" + module);
            };
        } catch (MoveAbort e) {
            throw new ViewError(2, e.getMessage());
        }
        return new JsonObject()
                .put("data", Json.encode(result))
                .put("events", new JsonArray())
                .put("gas_used", "5000");
    }

    private Object blockView(String fn, List<String> args) {
        arity(fn, args, 0);
        return switch (fn) {
            case "get_current_block_height" -> Long.toString(height.getAsLong());
            case "get_current_block_timestamp" -> Long.toString(timestamp.getAsLong());
            default -> throw unknown("block", fn);
        };
    }

    private Object dexView(String fn, List<String> args) {
        long now = timestamp.getAsLong();
        switch (fn) {
            case "get_all_pairs", "get_all_pairs_by_denom" -> {
                arity(fn, args, 4);
                boolean byDenom = fn.endsWith("by_denom");
                String a = optional(args.get(0));
                String b = optional(args.get(1));
                String lp = optional(args.get(2));
                if ((a == null) != (b == null) || (b == null) != (lp == null))
                    throw new ViewError(2, new MoveAbort("dex", 17).getMessage());
                String[] start = a == null
                        ? null
                        : byDenom
                                ? new String[] {Dex.metadataOf(a), Dex.metadataOf(b), Dex.metadataOf(lp)}
                                : new String[] {address(a), address(b), address(lp)};
                int limit = Math.min(u8(args.get(3)), MAX_LIMIT);
                JsonArray out = new JsonArray();
                for (WeightedPair p : dex.pairs()) {
                    if (out.size() >= limit) break;
                    if (start != null && compareKey(p, start) <= 0) continue;
                    out.add(byDenom ? pairByDenom(p) : pair(p));
                }
                return out;
            }
            case "get_pairs" -> {
                arity(fn, args, 4);
                String a = address(string(args.get(0)));
                String b = address(string(args.get(1)));
                String after = optional(args.get(2));
                int limit = Math.min(u8(args.get(3)), MAX_LIMIT);
                JsonArray out = new JsonArray();
                for (WeightedPair p : dex.pairs()) {
                    if (out.size() >= limit) break;
                    if (!p.coinA.metadata().equals(a) || !p.coinB.metadata().equals(b)) continue;
                    if (after != null && p.liquidityToken.compareTo(address(after)) <= 0) continue;
                    out.add(pair(p));
                }
                return out;
            }
            case "get_pool_info" -> {
                arity(fn, args, 1);
                WeightedPair p = pair(args.get(0));
                return new JsonObject()
                        .put("coin_a_amount", Long.toString(p.reserveA))
                        .put("coin_b_amount", Long.toString(p.reserveB))
                        .put("total_share", Long.toString(p.totalShare));
            }
            case "get_config" -> {
                arity(fn, args, 1);
                WeightedPair p = pair(args.get(0));
                return new JsonObject().put("weights", weights(p)).put("swap_fee_rate", p.swapFeeRate.json());
            }
            case "get_current_weight" -> {
                arity(fn, args, 1);
                MoveDecimal[] w = pair(args.get(0)).weightsAt(now);
                return new JsonObject().put("coin_a_weight", w[0].json()).put("coin_b_weight", w[1].json());
            }
            case "get_swap_simulation", "get_swap_simulation_by_denom" -> {
                arity(fn, args, 3);
                boolean byDenom = fn.endsWith("by_denom");
                WeightedPair p = byDenom ? pairAt(Dex.metadataOf(string(args.get(0)))) : pair(args.get(0));
                String offer = byDenom ? Dex.metadataOf(string(args.get(1))) : address(string(args.get(1)));
                if (!offer.equals(p.coinA.metadata()) && !offer.equals(p.coinB.metadata()))
                    throw MoveAbort.invalidArgument("dex", 10);
                return Long.toString(p.simulate(offer.equals(p.coinA.metadata()), u64(args.get(2)), now)[0]);
            }
            default -> throw unknown("dex", fn);
        }
    }

    private Object stableView(String fn, List<String> args) {
        switch (fn) {
            case "get_pool" -> {
                arity(fn, args, 1);
                return poolJson(pool(args.get(0)));
            }
            case "get_all_pools" -> {
                arity(fn, args, 2);
                String before = optional(args.get(0));
                int limit = Math.min(u8(args.get(1)), MAX_LIMIT);
                JsonArray out = new JsonArray();
                for (StablePool p : dex.poolsDescending()) {
                    if (out.size() >= limit) break;
                    if (before != null && p.address.compareTo(address(before)) >= 0) continue;
                    out.add(poolJson(p));
                }
                return out;
            }
            case "get_swap_simulation" -> {
                arity(fn, args, 4);
                long[] r = pool(args.get(0))
                        .simulate(address(string(args.get(1))), address(string(args.get(2))), u64(args.get(3)));
                return Long.toString(r[0] - r[1]);
            }
            default -> throw unknown("stableswap", fn);
        }
    }

    private JsonObject poolJson(StablePool p) {
        JsonArray metadata = new JsonArray();
        JsonArray denoms = new JsonArray();
        JsonArray balances = new JsonArray();
        for (int i = 0; i < p.coins.size(); i++) {
            metadata.add(literal(p.coins.get(i).metadata()));
            denoms.add(p.coins.get(i).denom());
            balances.add(Long.toString(p.balances[i]));
        }
        return new JsonObject()
                .put("coin_metadata", metadata)
                .put("coin_denoms", denoms)
                .put("coin_balances", balances)
                .put("current_ann", Long.toString(p.ann))
                .put("swap_fee_rate", p.swapFeeRate.json());
    }

    private static JsonObject pair(WeightedPair p) {
        return new JsonObject()
                .put("coin_a", literal(p.coinA.metadata()))
                .put("coin_b", literal(p.coinB.metadata()))
                .put("liquidity_token", literal(p.liquidityToken))
                .put("weights", weights(p))
                .put("swap_fee_rate", p.swapFeeRate.json());
    }

    private static JsonObject pairByDenom(WeightedPair p) {
        return new JsonObject()
                .put("coin_a", p.coinA.denom())
                .put("coin_b", p.coinB.denom())
                .put("liquidity_token", "move/" + p.liquidityToken.substring(2))
                .put("weights", weights(p))
                .put("swap_fee_rate", p.swapFeeRate.json());
    }

    private static JsonObject weights(WeightedPair p) {
        return new JsonObject().put("weights_before", weight(p.before)).put("weights_after", weight(p.after));
    }

    private static JsonObject weight(WeightedPair.Weight w) {
        return new JsonObject()
                .put("coin_a_weight", w.coinA().json())
                .put("coin_b_weight", w.coinB().json())
                .put("timestamp", Long.toString(w.timestamp()));
    }

    private static int compareKey(WeightedPair p, String[] key) {
        int c = p.coinA.metadata().compareTo(key[0]);
        if (c == 0) c = p.coinB.metadata().compareTo(key[1]);
        if (c == 0) c = p.liquidityToken.compareTo(key[2]);
        return c;
    }

    private WeightedPair pair(String arg) {
        return pairAt(address(string(arg)));
    }

    private WeightedPair pairAt(String address) {
        WeightedPair p = dex.pair(address);
        if (p == null)
            throw new ViewError(
                    2,
                    "VM aborted: location=" + "0".repeat(63)
                            + "1::dex, code=393218: resource 0x1::dex::Config does not exist at " + literal(address));
        return p;
    }

    private StablePool pool(String arg) {
        String address = address(string(arg));
        StablePool p = dex.pool(address);
        if (p == null)
            throw new ViewError(
                    2,
                    "VM aborted: location=" + "0".repeat(63)
                            + "1::stableswap, code=393218: resource 0x1::stableswap::Pool does not exist at "
                            + literal(address));
        return p;
    }

    private static ViewError unknown(String module, String fn) {
        return new ViewError(5, "failed to find function 0x1::" + module + "::" + fn);
    }

    private static void arity(String fn, List<String> args, int n) {
        if (args.size() != n)
            throw new ViewError(
                    3,
                    fn + " takes " + n + " argument" + (n == 1 ? "" : "s") + ", got " + args.size()
                            + ": invalid request");
    }

    private static Object parse(String arg) {
        try {
            return Json.decodeValue(arg);
        } catch (DecodeException e) {
            throw new ViewError(3, "argument " + arg + " is not JSON: invalid request");
        }
    }

    private static String string(String arg) {
        if (parse(arg) instanceof String s) return s;
        throw new ViewError(3, "argument " + arg + " is not a JSON string: invalid request");
    }

    private static String optional(String arg) {
        Object v = parse(arg);
        if (v == null) return null;
        if (v instanceof String s) return s;
        throw new ViewError(3, "argument " + arg + " is not null or a JSON string: invalid request");
    }

    private static long u64(String arg) {
        try {
            return Long.parseUnsignedLong(string(arg));
        } catch (NumberFormatException e) {
            throw new ViewError(3, "argument " + arg + " is not a u64: invalid request");
        }
    }

    private static int u8(String arg) {
        Object v = parse(arg);
        if (v instanceof Number n && n.longValue() >= 0 && n.longValue() <= 255) return n.intValue();
        throw new ViewError(3, "argument " + arg + " is not a u8: invalid request");
    }

    /** A Move address in its full form: {@code 0x} + 64 lower-case hex digits. */
    static String address(String s) {
        String hex = s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
        if (hex.isEmpty() || hex.length() > 64 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new ViewError(3, "invalid address " + s + ": invalid request");
        }
        return "0x" + "0".repeat(64 - hex.length()) + hex.toLowerCase(Locale.ROOT);
    }

    /** movevm's {@code to_hex_literal}: {@code 0x} and the digits without leading zeros. */
    static String literal(String address) {
        String hex = address.substring(2).replaceFirst("^0+", "");
        return "0x" + (hex.isEmpty() ? "0" : hex);
    }
}
