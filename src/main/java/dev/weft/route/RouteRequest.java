package dev.weft.route;

import io.vertx.core.json.JsonObject;

import java.math.BigInteger;

/**
 * A {@code POST /v2/fungible/route} body, checked for types and required fields. The HTTP module parses it to answer
 * 400 before any bus hop; the route verticle parses it again (the bus has other clients).
 */
public record RouteRequest(BigInteger amountIn, String sourceChainId, String sourceDenom, String destChainId,
                           String destDenom, boolean allowUnsafe, Boolean goFast, boolean isOpWithdraw) {

  public static RouteRequest parse(JsonObject body) {
    if (body == null) throw RouteError.badRequest("request body must be a JSON object");
    if (body.getValue("amount_in") == null && body.getValue("amount_out") != null) {
      throw RouteError.badRequest("amount_in is required (quotes for an exact amount_out are not supported)");
    }
    return new RouteRequest(amount(body, "amount_in"),
        string(body, "source_asset_chain_id"), string(body, "source_asset_denom"),
        string(body, "dest_asset_chain_id"), string(body, "dest_asset_denom"),
        bool(body, "allow_unsafe", true), optBool(body, "go_fast"), bool(body, "is_op_withdraw", false));
  }

  /** The same request with another amount (the OP-hook lookup quotes one whole token). */
  public RouteRequest withAmount(BigInteger amount) {
    return new RouteRequest(amount, sourceChainId, sourceDenom, destChainId, destDenom, allowUnsafe, goFast, isOpWithdraw);
  }

  /** A required base-unit amount: a positive integer, as a JSON string (or an integral JSON number). */
  public static BigInteger amount(JsonObject body, String key) {
    Object v = body.getValue(key);
    if (v == null) throw RouteError.badRequest(key + " is required");
    String s = v instanceof String str ? str : v instanceof Number n && !(v instanceof Double || v instanceof Float) ? n.toString() : null;
    if (s == null || !s.matches("[0-9]{1,78}") || s.matches("0+")) {
      throw RouteError.badRequest(key + " must be a positive integer in base units (got " + show(v) + ")");
    }
    return new BigInteger(s);
  }

  public static String string(JsonObject body, String key) {
    Object v = body.getValue(key);
    if (v == null) throw RouteError.badRequest(key + " is required");
    if (!(v instanceof String s) || s.isBlank()) throw RouteError.badRequest(key + " must be a non-empty string");
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
    throw RouteError.badRequest(key + " must be a boolean");
  }

  static String show(Object v) {
    return v instanceof String s ? "\"" + s + "\"" : String.valueOf(v);
  }
}
