package dev.weft.route.json;

import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.LayerZeroLane;
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

    /**
     * An asset as {@code /v2/fungible/assets} lists it: Skip's {@code Asset} with the fields Initia's router adds
     * ({@code hidden}; {@code oftOwner}, the OFT or OFT adapter contract a LayerZero lane sends it through, when it has
     * one; field names as initia-labs/initia.js {@code RawAsset}).
     */
    public static JsonObject listedAsset(Registry r, Asset a) {
        JsonObject o = asset(r, a).put("hidden", r.chain(a.chainId()).hidden());
        for (LayerZeroLane l : r.lanes()) {
            if (l.fromChainId().equals(a.chainId()) && l.denomIn().equals(a.denom()))
                o.put("oftOwner", l.sourceOftContract());
        }
        return o;
    }

    /**
     * Skip's {@code Chain}, with what Initia's router adds: {@code rest}, {@code rpc}, {@code hidden} and, on chains with
     * an EVM, {@code evm_fee_asset} {@code {name, symbol, decimals}} (the gas token as wallets add the chain: 18 decimals
     * on minievm rollups, whose EVM shows the fee coin with 18).
     */
    public static JsonObject chain(Registry r, Chain c) {
        JsonArray fees = new JsonArray();
        for (Chain.FeeAsset f : c.feeAssets()) {
            fees.add(new JsonObject()
                    .put("denom", f.denom())
                    .put(
                            "gas_price",
                            f.gasPrice() == null
                                    ? null
                                    : new JsonObject()
                                            .put("low", f.gasPrice().low())
                                            .put("average", f.gasPrice().average())
                                            .put("high", f.gasPrice().high())));
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
                .put(
                        "cosmos_module_support",
                        c.isEvmChain()
                                ? null
                                : new JsonObject().put("authz", false).put("feegrant", false))
                .put(
                        "ibc_capabilities",
                        c.isEvmChain()
                                ? null
                                : new JsonObject()
                                        .put("cosmos_pfm", c.pfm())
                                        .put("cosmos_ibc_hooks", c.hooks() != null)
                                        .put("cosmos_memo", c.memo())
                                        .put("cosmos_autopilot", false))
                .put("fee_assets", fees)
                .put("evm_chain_id", c.evmChainId())
                .put("rest", c.rest())
                .put("rpc", c.rpc())
                .put("evm_fee_asset", evmFeeAsset(r, c))
                .put("hidden", c.hidden());
    }

    private static JsonObject evmFeeAsset(Registry r, Chain c) {
        if (!c.hasEvm()) return null;
        String denom = c.isEvmChain()
                ? c.nativeDenom()
                : c.feeAssets().isEmpty() ? null : c.feeAssets().get(0).denom();
        Asset a = denom == null ? null : r.asset(c.chainId(), denom);
        if (a == null) return null;
        return new JsonObject()
                .put("name", a.name())
                .put("symbol", a.symbol())
                .put("decimals", c.isEvmChain() ? a.decimals() : 18);
    }

    /** Skip's {@code SwapVenue}. */
    public static JsonObject venue(SwapVenue v) {
        return new JsonObject()
                .put("name", v.name())
                .put("chain_id", v.chainId())
                .put("logo_uri", v.logoUri());
    }

    /** The USD value of a base-unit amount with two decimals (half-even), or null when the asset has no price. */
    public static String usd(Registry r, Asset a, BigInteger amount) {
        BigDecimal price = r.usdPrice(a);
        if (price == null) return null;
        return new BigDecimal(amount)
                .movePointLeft(a.decimals())
                .multiply(price)
                .setScale(2, RoundingMode.HALF_EVEN)
                .toPlainString();
    }
}
