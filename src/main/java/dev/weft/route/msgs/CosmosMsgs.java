package dev.weft.route.msgs;

import dev.weft.chain.Hex;
import dev.weft.route.registry.Denoms;
import dev.weft.route.registry.SwapVenue;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigInteger;

/**
 * The Cosmos messages of routes as amino/snake-case JSON (what {@code cosmos_tx.msgs[].msg} carries as a string):
 * ICS-20 {@code MsgTransfer} (with a packet-forward memo), OPinit {@code MsgInitiateTokenDeposit} and
 * {@code MsgInitiateTokenWithdrawal}, Move {@code MsgExecute} of InitiaDEX's swap entry functions, minievm {@code MsgCall}.
 */
public final class CosmosMsgs {
  public static final String TRANSFER = "/ibc.applications.transfer.v1.MsgTransfer";
  public static final String DEPOSIT = "/opinit.ophost.v1.MsgInitiateTokenDeposit";
  public static final String WITHDRAWAL = "/opinit.opchild.v1.MsgInitiateTokenWithdrawal";
  public static final String EXECUTE = "/initia.move.v1.MsgExecute";
  public static final String EVM_CALL = "/minievm.evm.v1.MsgCall";
  /** PFM retries on timeout (Skip's default). */
  static final int PFM_RETRIES = 2;

  private CosmosMsgs() {}

  /** A message: its type URL and its JSON value. */
  public record Msg(String typeUrl, JsonObject value) {
    public JsonObject json() {
      return new JsonObject().put("msg_type_url", typeUrl).put("msg", value.encode());
    }

    /** The proto-JSON form with {@code @type} that minievm's {@code execute_cosmos} takes. */
    public String withType() {
      JsonObject o = new JsonObject().put("@type", typeUrl);
      value.forEach(e -> o.put(e.getKey(), e.getValue()));
      return o.encode();
    }
  }

  public static Msg transfer(String port, String channel, String denom, BigInteger amount, String sender, String receiver,
                             long timeoutTimestampNanos, String memo) {
    return new Msg(TRANSFER, new JsonObject()
        .put("source_port", port)
        .put("source_channel", channel)
        .put("token", coin(denom, amount))
        .put("sender", sender)
        .put("receiver", receiver)
        .put("timeout_height", new JsonObject().put("revision_number", "0").put("revision_height", "0"))
        .put("timeout_timestamp", timeoutTimestampNanos)
        .put("memo", memo));
  }

  /** A packet-forward-middleware hop: {@code {"forward":{receiver, port, channel, timeout, retries, next?}}}. */
  public static JsonObject forward(String receiver, String port, String channel, String timeout, JsonObject next) {
    JsonObject f = new JsonObject().put("receiver", receiver).put("port", port).put("channel", channel)
        .put("timeout", timeout).put("retries", PFM_RETRIES);
    if (next != null) f.put("next", next);
    return new JsonObject().put("forward", f);
  }

  public static Msg deposit(String sender, long bridgeId, String to, String denom, BigInteger amount, String data) {
    return new Msg(DEPOSIT, new JsonObject()
        .put("sender", sender)
        .put("bridge_id", Long.toString(bridgeId))
        .put("to", to)
        .put("amount", coin(denom, amount))
        .put("data", data));
  }

  public static Msg withdrawal(String sender, String to, String denom, BigInteger amount) {
    return new Msg(WITHDRAWAL, new JsonObject()
        .put("sender", sender)
        .put("to", to)
        .put("amount", coin(denom, amount)));
  }

  /**
   * InitiaDEX swap through one pool, with {@code min_return}: {@code 0x1::dex::swap_script(pair, offer_coin,
   * offer_coin_amount, min_return)} for weighted (constant-product) pairs, {@code 0x1::stableswap::swap_script(pool,
   * offer_coin_metadata, return_coin_metadata, offer_amount, min_return_amount)} for stableswap pools.
   */
  public static Msg swap(String sender, SwapVenue.Pool pool, String denomIn, String denomOut, BigInteger amount, BigInteger minReturn) {
    byte[] poolObject = Denoms.moveMetadata(pool.pool());
    JsonArray args = new JsonArray().add(Bcs.address(poolObject)).add(Bcs.address(Denoms.moveMetadata(denomIn)));
    String module;
    if (pool.type() == SwapVenue.PoolType.STABLESWAP) {
      module = "stableswap";
      args.add(Bcs.address(Denoms.moveMetadata(denomOut)));
    } else {
      module = "dex";
    }
    args.add(Bcs.u64(amount)).add(Bcs.someU64(minReturn));
    return new Msg(EXECUTE, new JsonObject()
        .put("sender", sender)
        .put("module_address", "0x1")
        .put("module_name", module)
        .put("function_name", "swap_script")
        .put("type_args", new JsonArray())
        .put("args", args));
  }

  public static Msg evmCall(String sender, String contract, byte[] input) {
    return new Msg(EVM_CALL, new JsonObject()
        .put("sender", sender)
        .put("contract_addr", contract)
        .put("input", Hex.prefixed(input))
        .put("value", "0")
        .put("access_list", new JsonArray()));
  }

  private static JsonObject coin(String denom, BigInteger amount) {
    return new JsonObject().put("denom", denom).put("amount", amount.toString());
  }
}
