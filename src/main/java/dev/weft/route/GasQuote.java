package dev.weft.route;

import dev.weft.config.RouteGasConfig;
import dev.weft.route.graph.Edge;
import dev.weft.route.graph.RouteCost;
import dev.weft.route.graph.RouteGraph;
import dev.weft.route.graph.TxPlan;
import dev.weft.route.json.RegistryJson;
import dev.weft.route.json.SkipJson;
import dev.weft.route.msgs.CosmosMsgs;
import dev.weft.route.registry.Asset;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.Registry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;

/**
 * The gas of a route's Cosmos txs, quoted as Skip's {@code estimated_fees} entries of type {@code GAS}: the per-message
 * estimates of {@code route.gas.*} (calibrated on the devnet's simulations), the limit a tx carries (estimate ×
 * {@code route.gas.multiplier}) and its fee, limit × the chain's average gas price in its first registry fee asset
 * (a Cosmos tx pays its whole limit: the SDK refunds no unused gas). EVM txs get no entry (their gas token and price are
 * not in the registry's fee assets).
 */
final class GasQuote {
    /** {@code gas_source} of an entry: the per-message table, or the chain node's simulation of the tx. */
    static final String ESTIMATE = "ESTIMATE";

    static final String SIMULATION = "SIMULATION";

    private final Registry r;
    private final RegistryJson shared;
    private final RouteGasConfig cfg;

    GasQuote(Registry r, RegistryJson shared, RouteGasConfig cfg) {
        this.r = r;
        this.shared = shared;
        this.cfg = cfg;
    }

    RouteGasConfig config() {
        return cfg;
    }

    /** A chain's fee token: the registry asset, its denom and average gas price. */
    record FeeToken(Asset asset, String denom, BigDecimal price) {
        BigInteger fee(long gasLimit) {
            return price.multiply(BigDecimal.valueOf(gasLimit))
                    .setScale(0, RoundingMode.CEILING)
                    .toBigInteger();
        }
    }

    /** The first fee asset of the chain with an average (else low) gas price and a registry asset; null when none. */
    FeeToken feeToken(String chainId) {
        Chain c = r.chain(chainId);
        if (c == null || c.feeAssets() == null) return null;
        for (Chain.FeeAsset f : c.feeAssets()) {
            if (f.gasPrice() == null) continue;
            String p = f.gasPrice().average() != null
                    ? f.gasPrice().average()
                    : f.gasPrice().low();
            if (p == null) continue;
            try {
                BigDecimal price = new BigDecimal(p);
                Asset a = r.asset(chainId, f.denom());
                if (price.signum() >= 0 && a != null) return new FeeToken(a, f.denom(), price);
            } catch (NumberFormatException e) {
                // a registry price that is no number gives no quote
            }
        }
        return null;
    }

    long gas(TxPlan.Kind k) {
        return switch (k) {
            case TRANSFER -> cfg.transfer();
            case EXECUTE -> cfg.execute();
            case DEPOSIT -> cfg.deposit();
            case WITHDRAWAL -> cfg.withdrawal();
            case LAYER_ZERO -> 0;
        };
    }

    /** The estimate of a Cosmos tx of the route (the tx's own gas and each message's). */
    long estimate(TxPlan.Tx tx) {
        long g = cfg.tx();
        for (TxPlan.Kind k : tx.msgs()) g += gas(k);
        return g;
    }

    /** The estimate of a Cosmos tx carrying messages of these type URLs (an unknown type counts as an execute). */
    long estimateOf(List<String> typeUrls) {
        long g = cfg.tx();
        for (String t : typeUrls) {
            g += switch (t) {
                case CosmosMsgs.TRANSFER -> cfg.transfer();
                case CosmosMsgs.DEPOSIT -> cfg.deposit();
                case CosmosMsgs.WITHDRAWAL -> cfg.withdrawal();
                case CosmosMsgs.SEND -> cfg.send();
                default -> cfg.execute();
            };
        }
        return g;
    }

    /** The GAS entries of a route's txs (none for EVM txs or chains without a priced fee asset). */
    JsonArray entries(RouteGraph g, List<Edge> edges, boolean evmSigned) {
        JsonArray out = new JsonArray();
        for (TxPlan.Tx tx : TxPlan.of(g, edges)) {
            if (tx.evm() || tx.index() == 0 && evmSigned) continue;
            JsonObject e = entry(tx.chainId(), tx.index(), tx.firstOperation(), estimate(tx), ESTIMATE);
            if (e != null) out.add(e);
        }
        return out;
    }

    /**
     * One GAS entry in Skip's fee shape, plus Weft's {@code estimated_gas}, {@code gas_limit}, {@code gas_price} and
     * {@code gas_source}; null when the chain has no priced fee asset.
     */
    JsonObject entry(String chainId, int txIndex, int operation, long estimate, String source) {
        FeeToken t = feeToken(chainId);
        if (t == null) return null;
        long limit = cfg.limit(estimate);
        BigInteger amount = t.fee(limit);
        return new JsonObject()
                .put("fee_type", "GAS")
                .put("bridge_id", null)
                .put("amount", amount.toString())
                .put("usd_amount", SkipJson.usd(r, t.asset(), amount))
                .put("origin_asset", shared.asset(t.asset()))
                .put("chain_id", chainId)
                .put("tx_index", txIndex)
                .put("operation_index", operation)
                .put("fee_behavior", "FEE_BEHAVIOR_ADDITIONAL")
                .put("estimated_gas", Long.toString(estimate))
                .put("gas_limit", Long.toString(limit))
                .put("gas_price", t.price().toPlainString())
                .put("gas_source", source);
    }

    /** A GAS entry as the cosmjs {@code StdFee} a tx is signed with: {@code {amount: [{denom, amount}], gas}}. */
    static JsonObject stdFee(JsonObject entry) {
        JsonObject asset = entry.getJsonObject("origin_asset");
        return new JsonObject()
                .put(
                        "amount",
                        new JsonArray()
                                .add(new JsonObject()
                                        .put("denom", asset.getString("denom"))
                                        .put("amount", entry.getString("amount"))))
                .put("gas", entry.getString("gas_limit"));
    }

    /**
     * The cost model's gas term for routes to {@code dest}: each Cosmos tx's fee in USD, over the destination's USD
     * price; null (no term) when the destination has no price. A tx whose fee asset has no price counts nothing.
     */
    RouteCost.GasTerm term(Asset dest, boolean evmSigned) {
        BigDecimal destPrice = r.usdPrice(dest);
        if (destPrice == null || destPrice.signum() <= 0) return null;
        BigDecimal destUnit = destPrice.movePointLeft(dest.decimals());
        // per request: each (chain, estimate)'s fee in USD, computed once (candidates share their txs' shapes)
        java.util.Map<String, BigDecimal> usdByTx = new java.util.HashMap<>();
        return (g, edges, hops) -> {
            BigDecimal usd = BigDecimal.ZERO;
            for (TxPlan.Tx tx : TxPlan.of(g, edges, hops)) {
                if (tx.evm() || tx.index() == 0 && evmSigned) continue;
                long estimate = estimate(tx);
                usd = usd.add(usdByTx.computeIfAbsent(tx.chainId() + "/" + estimate, k -> usd(tx.chainId(), estimate)));
            }
            if (usd.signum() == 0) return BigInteger.ZERO;
            return usd.divide(destUnit, MathContext.DECIMAL64)
                    .setScale(0, RoundingMode.CEILING)
                    .toBigInteger();
        };
    }

    /** The USD value of the fee of a tx of this estimate on the chain; 0 without a priced fee asset. */
    private BigDecimal usd(String chainId, long estimate) {
        FeeToken t = feeToken(chainId);
        BigDecimal p = t == null ? null : r.usdPrice(t.asset());
        if (p == null) return BigDecimal.ZERO;
        BigInteger fee = t.fee(cfg.limit(estimate));
        return new BigDecimal(fee).multiply(p).movePointLeft(t.asset().decimals());
    }
}
