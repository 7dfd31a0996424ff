package dev.weft.route;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.route.registry.Registry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;

/**
 * The EVM txs of a {@code /v2/fungible/msgs} answer (a LayerZero OFT send) against their chain's JSON-RPC: the price
 * ({@link EvmGasPrices}, read at most once per TTL), {@code eth_estimateGas} of the exact tx the answer returns (from,
 * to, data, value) replacing the per-message estimate, and with {@code enable_gas_warnings} the signer's
 * {@code eth_getBalance} of the gas token. Single attempts bounded like the Cosmos simulations
 * ({@code route.gas.simulate_timeout}, {@code route.gas.simulate_concurrency} per chain); a failure (a node down, a
 * send that reverts because its ERC-20 approval is not made yet) keeps the estimate.
 */
final class EvmGasEstimates {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private EvmGasEstimates() {}

    /** Whether an {@code evm_tx} gets a GAS entry: a LayerZero send (not the Cosmos precompile's call). */
    static boolean quoted(JsonObject evm) {
        return !MsgsBuilder.COSMOS_PRECOMPILE.equalsIgnoreCase(evm.getString("to"));
    }

    /**
     * The GAS entry of the EVM tx at {@code txIndex}: the node's estimate of the tx at a fresh price; the per-message
     * estimate at that price when the estimate fails; null when no price is known at all.
     */
    static Future<JsonObject> entry(RouteService s, JsonObject evm, int txIndex, int operation) {
        GasQuote quote = s.gas();
        Registry r = s.registry();
        String chain = evm.getString("chain_id");
        long estimate = quote.config().chain(chain).layerZero();
        EvmGasPrices prices = quote.evmPrices();
        Future<BigInteger> price =
                quote.evmPriceFromNode(chain) ? prices.fresh(r, chain) : Future.succeededFuture(null);
        EvmRpcClient rpc = quote.config().simulate() ? prices.client(r, chain) : null;
        Future<Long> used = rpc == null
                ? Future.failedFuture("no estimate")
                : rpc.call("eth_estimateGas", EvmRpcClient.params(call(evm)))
                        .map(n -> EvmGasPrices.quantity(n).longValueExact());
        return Future.join(price, used).transform(ar -> {
            BigInteger wei = price.succeeded() ? price.result() : null;
            boolean simulated = used.succeeded() && used.result() > 0;
            return Future.succeededFuture(quote.evmEntry(
                    chain,
                    txIndex,
                    operation,
                    simulated ? used.result() : estimate,
                    simulated ? GasQuote.SIMULATION : GasQuote.ESTIMATE,
                    wei));
        });
    }

    /** The call object of an {@code evm_tx}: its signer, contract, value (wei) and calldata (hex without 0x). */
    private static ObjectNode call(JsonObject evm) {
        ObjectNode c = NODES.objectNode();
        c.put("from", evm.getString("signer_address"));
        c.put("to", evm.getString("to"));
        c.put("value", "0x" + new BigInteger(evm.getString("value")).toString(16));
        c.put("data", "0x" + evm.getString("data"));
        return c;
    }

    /**
     * The signer's balance of the gas token in its base units ({@code eth_getBalance} is in wei: 18 decimals), or a
     * failed future when the chain has no JSON-RPC.
     */
    static Future<BigInteger> balance(RouteService s, String chain, String signer, int decimals) {
        EvmRpcClient rpc = s.gas().evmPrices().client(s.registry(), chain);
        if (rpc == null) return Future.failedFuture("no JSON-RPC for " + chain);
        return rpc.call("eth_getBalance", EvmRpcClient.params(signer, "latest"))
                .map(n -> EvmGasPrices.quantity(n).divide(BigInteger.TEN.pow(Math.max(0, 18 - decimals))));
    }
}
