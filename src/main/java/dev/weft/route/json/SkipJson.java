package dev.weft.route.json;

import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.SwapVenue;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/** The Skip Go API shapes of registry objects: {@code Asset}, {@code Chain}, {@code SwapVenue}, USD values. */
public final class SkipJson {
  private SkipJson() {}

  /** Skip's {@code Asset}. */
  public static JsonObject asset(Registry r, Asset a) {
    boolean evm = r.chain(a.chainId()).isEvmChain();
    return new JsonObject()
        .put("denom", a.denom())
        .put("chain_id", a.chainId())
        .put("origin_denom", a.originDenom())
        .put("origin_chain_id", a.originChainId())
        .put("trace", a.trace())
        .put("is_cw20", false)
        .put("is_evm", evm)
        .put("is_svm", false)
        .put("symbol", a.symbol())
        .put("name", a.name())
        .put("logo_uri", a.logoUri())
        .put("decimals", a.decimals())
        .put("token_contract", a.tokenContract())
        .put("description", a.description())
        .put("coingecko_id", a.coingeckoId())
        .put("recommended_symbol", a.symbol());
  }

  /** Skip's {@code Chain}, with Initia's {@code rest} and {@code rpc}. */
  public static JsonObject chain(Chain c) {
    JsonArray fees = new JsonArray();
    for (Chain.FeeAsset f : c.feeAssets()) {
      fees.add(new JsonObject().put("denom", f.denom()).put("gas_price", f.gasPrice() == null ? null : new JsonObject()
          .put("low", f.gasPrice().low()).put("average", f.gasPrice().average()).put("high", f.gasPrice().high())));
    }
    return new JsonObject()
        .put("chain_name", c.chainName())
        .put("chain_id", c.chainId())
        .put("pretty_name", c.prettyName())
        .put("chain_type", c.chainType())
        .put("bech32_prefix", c.bech32Prefix())
        .put("logo_uri", c.logoUri())
        .put("is_testnet", c.testnet())
        .put("pfm_enabled", c.pfm())
        .put("supports_memo", c.memo())
        .put("cosmos_module_support", c.isEvmChain() ? null : new JsonObject().put("authz", false).put("feegrant", false))
        .put("ibc_capabilities", c.isEvmChain() ? null : new JsonObject().put("cosmos_pfm", c.pfm())
            .put("cosmos_ibc_hooks", c.hooks() != null).put("cosmos_memo", c.memo()).put("cosmos_autopilot", false))
        .put("fee_assets", fees)
        .put("evm_chain_id", c.evmChainId())
        .put("rest", c.rest())
        .put("rpc", c.rpc());
  }

  /** Skip's {@code SwapVenue}. */
  public static JsonObject venue(SwapVenue v) {
    return new JsonObject().put("name", v.name()).put("chain_id", v.chainId()).put("logo_uri", v.logoUri());
  }

  /** The USD value of a base-unit amount with two decimals (half-even), or null when the asset has no price. */
  public static String usd(Registry r, Asset a, BigInteger amount) {
    BigDecimal price = r.usdPrice(a);
    if (price == null) return null;
    return new BigDecimal(amount).movePointLeft(a.decimals()).multiply(price).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
  }
}
