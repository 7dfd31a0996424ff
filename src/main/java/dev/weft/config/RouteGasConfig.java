package dev.weft.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code route.gas.*} section: the per-message gas estimates quotes use where no simulation is made (calibrated on
 * the devnet's simulations, see docs/routing-api.md "Gas"), the multiplier from an estimate to the gas limit a tx
 * carries, and the bounds of {@code /v2/fungible/msgs}' simulations on the chains' nodes.
 *
 * @param tx                 gas of a Cosmos tx before its messages (ante handler: fee, signature, sequence)
 * @param transfer           an ICS-20 {@code MsgTransfer} (PFM hops and a memo's swap run on other chains)
 * @param execute            a Move {@code MsgExecute} (a swap script or the entry point's {@code swap_and_action})
 * @param deposit            an OPinit {@code MsgInitiateTokenDeposit}
 * @param withdrawal         an OPinit {@code MsgInitiateTokenWithdrawal}
 * @param send               a bank {@code MsgSend} (an integrator fee)
 * @param multiplier         gas limit = ⌈estimate × this⌉ (as {@code @skip-go/client} multiplies a simulation)
 * @param simulate           whether {@code /msgs} simulates its Cosmos txs on the chain's node
 * @param simulateTimeout    timeout of one simulation (or account/balance read) request
 * @param simulateConcurrent requests in flight per chain for simulations and balance reads
 * @param layerZero          the EVM tx of a LayerZero OFT {@code send}, intrinsic gas included
 * @param gasPriceTtl        how long an {@code eth_gasPrice} read stays the price of its chain
 * @param chains             chain id → its {@code route.gas.chains.<chain_id>.*} settings (chains listed only)
 */
public record RouteGasConfig(
        long tx,
        long transfer,
        long execute,
        long deposit,
        long withdrawal,
        long send,
        BigDecimal multiplier,
        boolean simulate,
        Duration simulateTimeout,
        int simulateConcurrent,
        long layerZero,
        Duration gasPriceTtl,
        Map<String, ChainGasConfig> chains) {

    public static RouteGasConfig from(ConfigSource c) {
        double m = c.doubleValue("route.gas.multiplier", 1.5, 1.0, 10.0);
        Duration timeout = c.duration("route.gas.simulate_timeout", Duration.ofSeconds(2));
        if (timeout.toMillis() < 100 || timeout.toSeconds() > 30)
            throw new ConfigException("route.gas.simulate_timeout", "must be between 100ms and 30s");
        Duration ttl = c.duration("route.gas.evm_price_ttl", Duration.ofSeconds(30));
        if (ttl.toSeconds() < 1 || ttl.toHours() > 1)
            throw new ConfigException("route.gas.evm_price_ttl", "must be between 1s and 1h");
        ChainGasConfig d = ChainGasConfig.defaults(c);
        Map<String, ChainGasConfig> chains = new LinkedHashMap<>();
        for (String id : c.entryNames("route.gas.chains")) {
            if (!(c.raw("route.gas.chains." + id) instanceof io.vertx.core.json.JsonObject))
                throw new ConfigException("route.gas.chains." + id, "must be an object of gas settings");
            chains.put(id, ChainGasConfig.of(c, id, d));
        }
        return new RouteGasConfig(
                d.tx(),
                d.transfer(),
                d.execute(),
                d.deposit(),
                d.withdrawal(),
                d.send(),
                BigDecimal.valueOf(m),
                c.bool("route.gas.simulate", true),
                timeout,
                c.intValue("route.gas.simulate_concurrency", 4, 1, 64),
                d.layerZero(),
                ttl,
                Map.copyOf(chains));
    }

    /** A chain's settings: its overrides where it has an entry, else the shared estimates. */
    public ChainGasConfig chain(String chainId) {
        ChainGasConfig own = chainId == null ? null : chains.get(chainId);
        return own != null
                ? own
                : new ChainGasConfig(
                        tx, transfer, execute, deposit, withdrawal, send, layerZero, null, java.util.List.of());
    }

    /** The gas limit a tx of this estimate carries. */
    public long limit(long estimate) {
        return new BigDecimal(estimate)
                .multiply(multiplier)
                .setScale(0, java.math.RoundingMode.CEILING)
                .longValueExact();
    }
}
