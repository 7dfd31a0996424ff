package dev.weft.route.msgs;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.util.Set;

/**
 * The first place where the operations a client sent differ from the route's, described for a 400 message. Values the
 * route prices from the oracle at the moment it is computed are informational and not compared: a price that moved
 * between a client's {@code /route} and its {@code /msgs} (a block or two later) does not make its operations wrong.
 */
public final class OperationsDiff {
    /** Informational fields of an operation: USD values of the oracle price at the time of the route. */
    private static final Set<String> PRICED = Set.of("messaging_fee_amount_usd");

    private OperationsDiff() {}

    /** Null when equal, else e.g. {@code operations[1].transfer.channel is "channel-3", the route has "channel-35"}. */
    public static String firstDifference(String path, Object given, Object expected) {
        return firstDifference(path, given, expected, Set.of());
    }

    /** The same, also not comparing the fields named in {@code skipped} (at any depth; present or not). */
    public static String firstDifference(String path, Object given, Object expected, Set<String> skipped) {
        if (expected instanceof JsonObject e) {
            if (!(given instanceof JsonObject g)) return path + " is " + show(given) + ", the route has an object";
            for (String k : e.fieldNames()) {
                if (PRICED.contains(k) || skipped.contains(k)) continue;
                if (!g.containsKey(k)) return path + "." + k + " is missing, the route has " + show(e.getValue(k));
                String d = firstDifference(path + "." + k, g.getValue(k), e.getValue(k), skipped);
                if (d != null) return d;
            }
            for (String k : g.fieldNames()) {
                if (!e.containsKey(k) && !PRICED.contains(k) && !skipped.contains(k))
                    return path + "." + k + " is not part of the route";
            }
            return null;
        }
        if (expected instanceof JsonArray e) {
            if (!(given instanceof JsonArray g)) return path + " is " + show(given) + ", the route has an array";
            if (g.size() != e.size()) return path + " has " + g.size() + " entries, the route has " + e.size();
            for (int i = 0; i < e.size(); i++) {
                String d = firstDifference(path + "[" + i + "]", g.getValue(i), e.getValue(i), skipped);
                if (d != null) return d;
            }
            return null;
        }
        if (expected instanceof Number en && given instanceof Number gn) {
            return new BigDecimal(en.toString()).compareTo(new BigDecimal(gn.toString())) == 0
                    ? null
                    : path + " is " + show(given) + ", the route has " + show(expected);
        }
        if (expected == null ? given == null : expected.equals(given)) return null;
        return path + " is " + show(given) + ", the route has " + show(expected);
    }

    private static String show(Object v) {
        if (v instanceof String s) return "\"" + s + "\"";
        if (v instanceof JsonObject || v instanceof JsonArray)
            return "a JSON " + (v instanceof JsonObject ? "object" : "array");
        return String.valueOf(v);
    }
}
