package dev.weft.route;

import dev.weft.config.ChainGasConfig;
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
 * The gas of a route's txs, quoted as Skip's {@code estimated_fees} entries of type {@code GAS}: the per-message
 * estimates of {@code route.gas.*} (calibrated on the devnet's simulations; {@code route.gas.chains.<id>.*} per chain),
 * the limit a tx carries (estimate × {@code route.gas.multiplier}) and its fee. A Cosmos tx pays limit × the chain's
 * average gas price in its first registry fee asset (the SDK refunds no unused gas). An EVM tx (a LayerZero OFT send)
 * pays the gas it uses × the gas price (the EVM refunds the unused limit, Ethereum yellow paper §6.2), in the chain's
 * gas token: its native denom, or a minievm chain's fee denom; its price is the configured one, else the registry's
 * fee asset price (minievm lists the EVM gas price there), else the node's cached {@code eth_gasPrice}.
 */
final class GasQuote {
    /** {@code gas_source} of an entry: the per-message table, or the chain node's simulation of the tx. */
    static final String ESTIMATE = "ESTIMATE";

    static final String SIMULATION = "SIMULATION";

    private final Registry r;
    private final RegistryJson shared;
    private final RouteGasConfig cfg;
    private final EvmGasPrices evmPrices;

    GasQuote(Registry r, RegistryJson shared, RouteGasConfig cfg, EvmGasPrices evmPrices) {
        this.r = r;
        this.shared = shared;
        this.cfg = cfg;
        this.evmPrices = evmPrices;
    }

    RouteGasConfig config() {
        return cfg;
    }

    EvmGasPrices evmPrices() {
        return evmPrices;
    }

    /** A chain's fee token: the registry asset, its denom and average gas price. */
    record FeeToken(Asset asset, String denom, BigDecimal price) {
        BigInteger fee(long gasLimit) {
            return price.multiply(BigDecimal.valueOf(gasLimit))
                    .setScale(0, RoundingMode.CEILING)
                    .toBigInteger();
        }
    }

    /**
     * The chain's fee token: its configured gas price ({@code route.gas.chains.<id>.gas_price}) in its first priced fee
     * asset (else its gas asset), else the first fee asset with an average (else low) gas price and a registry asset;
     * null when none.
     */
    FeeToken feeToken(String chainId) {
        Chain c = r.chain(chainId);
        if (c == null) return null;
        FeeToken registry = registryToken(c);
        BigDecimal own = cfg.chain(chainId).gasPrice();
        if (own == null) return registry;
        Asset a = registry != null ? registry.asset() : gasAsset(c);
        return a == null ? null : new FeeToken(a, a.denom(), own);
    }

    private FeeToken registryToken(Chain c) {
        if (c.feeAssets() == null) return null;
        for (Chain.FeeAsset f : c.feeAssets()) {
            if (f.gasPrice() == null) continue;
            String p = f.gasPrice().average() != null
                    ? f.gasPrice().average()
                    : f.gasPrice().low();
            if (p == null) continue;
            try {
                BigDecimal price = new BigDecimal(p);
                Asset a = r.asset(c.chainId(), f.denom());
                if (price.signum() >= 0 && a != null) return new FeeToken(a, f.denom(), price);
            } catch (NumberFormatException e) {
                // a registry price that is no number gives no quote
            }
        }
        return null;
    }

    /** The token an EVM tx's gas is paid in: an EVM chain's native denom, else the first fee asset with an asset. */
    private Asset gasAsset(Chain c) {
        if (c.nativeDenom() != null) return r.asset(c.chainId(), c.nativeDenom());
        if (c.feeAssets() == null) return null;
        for (Chain.FeeAsset f : c.feeAssets()) {
            Asset a = r.asset(c.chainId(), f.denom());
            if (a != null) return a;
        }
        return null;
    }

    /**
     * The fee token of an EVM tx on the chain: {@link #feeToken}, else its gas asset at the node's cached
     * {@code eth_gasPrice} (wei, scaled to the asset's decimals as minievm's JSON-RPC reports 18 decimals: minievm
     * x/evm/types ToEthersUint); null when neither is known yet.
     */
    FeeToken evmFeeToken(String chainId) {
        FeeToken t = feeToken(chainId);
        if (t != null) return t;
        Chain c = r.chain(chainId);
        Asset a = c == null ? null : gasAsset(c);
        if (a == null) return null;
        BigInteger wei = evmPrices.cached(r, chainId);
        return wei == null ? null : new FeeToken(a, a.denom(), EvmGasPrices.inBaseUnits(wei, a.decimals()));
    }

    /** The fee token of an EVM tx at a price just read from the node (wei per gas). */
    FeeToken evmFeeToken(String chainId, BigInteger wei) {
        FeeToken t = feeToken(chainId);
        if (t != null || wei == null) return t != null ? t : evmFeeToken(chainId);
        Chain c = r.chain(chainId);
        Asset a = c == null ? null : gasAsset(c);
        return a == null ? null : new FeeToken(a, a.denom(), EvmGasPrices.inBaseUnits(wei, a.decimals()));
    }

    /** Whether the chain's EVM gas price comes from the node (neither configured nor in the registry). */
    boolean evmPriceFromNode(String chainId) {
        return feeToken(chainId) == null;
    }

    long gas(String chainId, TxPlan.Kind k) {
        ChainGasConfig c = cfg.chain(chainId);
        return switch (k) {
            case TRANSFER -> c.transfer();
            case EXECUTE -> c.execute();
            case DEPOSIT -> c.deposit();
            case WITHDRAWAL -> c.withdrawal();
            case LAYER_ZERO -> c.layerZero();
        };
    }

    /**
     * The estimate of a tx of the route: a Cosmos tx's own gas and each message's; an EVM tx's whole estimate (its
     * intrinsic gas is in it).
     */
    long estimate(TxPlan.Tx tx) {
        if (tx.evm()) return cfg.chain(tx.chainId()).layerZero();
        long g = cfg.chain(tx.chainId()).tx();
        for (TxPlan.Kind k : tx.msgs()) g += gas(tx.chainId(), k);
        return g;
    }

    /**
     * The estimate of a Cosmos tx on the chain carrying messages of these type URLs (an unknown type counts as an
     * execute).
     */
    long estimateOf(String chainId, List<String> typeUrls) {
        ChainGasConfig c = cfg.chain(chainId);
        long g = c.tx();
        for (String t : typeUrls) {
            g += switch (t) {
                case CosmosMsgs.TRANSFER -> c.transfer();
                case CosmosMsgs.DEPOSIT -> c.deposit();
                case CosmosMsgs.WITHDRAWAL -> c.withdrawal();
                case CosmosMsgs.SEND -> c.send();
                default -> c.execute();
            };
        }
        return g;
    }

    /**
     * The GAS entries of a route's txs (none for an EVM-signed Cosmos source, a chain without a priced fee asset, or an
     * EVM chain whose price is not read yet).
     */
    JsonArray entries(RouteGraph g, List<Edge> edges, boolean evmSigned) {
        JsonArray out = new JsonArray();
        for (TxPlan.Tx tx : TxPlan.of(g, edges)) {
            if (!tx.evm() && tx.index() == 0 && evmSigned) continue;
            JsonObject e = tx.evm()
                    ? evmEntry(tx.chainId(), tx.index(), tx.firstOperation(), estimate(tx), ESTIMATE, null)
                    : entry(tx.chainId(), tx.index(), tx.firstOperation(), estimate(tx), ESTIMATE);
            if (e != null) out.add(e);
        }
        return out;
    }

    /**
     * The GAS entry of an EVM tx: the fee is the estimate × the price (the unused limit is refunded), the limit the
     * estimate × {@code route.gas.multiplier}; {@code wei} a price just read from the node (null: the cached one).
     */
    JsonObject evmEntry(String chainId, int txIndex, int operation, long estimate, String source, BigInteger wei) {
        FeeToken t = evmFeeToken(chainId, wei);
        if (t == null) return null;
        return shape(t, chainId, txIndex, operation, estimate, cfg.limit(estimate), t.fee(estimate), source);
    }

    /**
     * One GAS entry in Skip's fee shape, plus Weft's {@code estimated_gas}, {@code gas_limit}, {@code gas_price} and
     * {@code gas_source}; null when the chain has no priced fee asset.
     */
    JsonObject entry(String chainId, int txIndex, int operation, long estimate, String source) {
        FeeToken t = feeToken(chainId);
        if (t == null) return null;
        long limit = cfg.limit(estimate);
        return shape(t, chainId, txIndex, operation, estimate, limit, t.fee(limit), source);
    }

    private JsonObject shape(
            FeeToken t,
            String chainId,
            int txIndex,
            int operation,
            long estimate,
            long limit,
            BigInteger amount,
            String source) {
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
     * The cost model's gas term for routes to {@code dest}: each tx's fee in USD, over the destination's USD
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
                if (!tx.evm() && tx.index() == 0 && evmSigned) continue;
                long estimate = estimate(tx);
                usd = usd.add(usdByTx.computeIfAbsent(
                        tx.chainId() + "/" + estimate + "/" + tx.evm(), k -> usd(tx.chainId(), estimate, tx.evm())));
            }
            if (usd.signum() == 0) return BigInteger.ZERO;
            return usd.divide(destUnit, MathContext.DECIMAL64)
                    .setScale(0, RoundingMode.CEILING)
                    .toBigInteger();
        };
    }

    /** The USD value of the fee of a tx of this estimate on the chain; 0 without a priced fee asset. */
    private BigDecimal usd(String chainId, long estimate, boolean evm) {
        FeeToken t = evm ? evmFeeToken(chainId) : feeToken(chainId);
        BigDecimal p = t == null ? null : r.usdPrice(t.asset());
        if (p == null) return BigDecimal.ZERO;
        BigInteger fee = t.fee(evm ? estimate : cfg.limit(estimate));
        return new BigDecimal(fee).multiply(p).movePointLeft(t.asset().decimals());
    }
}
