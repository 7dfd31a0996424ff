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
 * @param defaults           the shared per-message estimates ({@code route.gas.tx}, {@code transfer}, {@code execute},
 *                           {@code deposit}, {@code withdrawal}, {@code send}, {@code layer_zero}: {@link ChainGasConfig})
 *                           of every chain without its own
 * @param multiplier         gas limit = ⌈estimate × this⌉ (as {@code @skip-go/client} multiplies a simulation)
 * @param simulate           whether {@code /msgs} simulates its Cosmos txs on the chain's node
 * @param simulateTimeout    timeout of one simulation (or account/balance read) request
 * @param simulateConcurrent requests in flight per chain for simulations and balance reads
 * @param gasPriceTtl        how long an {@code eth_gasPrice} read stays the price of its chain
 * @param chains             chain id → its {@code route.gas.chains.<chain_id>.*} settings (chains listed only)
 */
public record RouteGasConfig(
        ChainGasConfig defaults,
        BigDecimal multiplier,
        boolean simulate,
        Duration simulateTimeout,
        int simulateConcurrent,
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
                d,
                BigDecimal.valueOf(m),
                c.bool("route.gas.simulate", true),
                timeout,
                c.intValue("route.gas.simulate_concurrency", 4, 1, 64),
                ttl,
                Map.copyOf(chains));
    }

    /** A chain's settings: its overrides where it has an entry, else the shared estimates. */
    public ChainGasConfig chain(String chainId) {
        ChainGasConfig own = chainId == null ? null : chains.get(chainId);
        return own != null ? own : defaults;
    }

    /**
     * The node client bounds of the simulations, balance reads and gas price reads {@code /msgs} and quotes make on a
     * chain's node: {@code route.gas.simulate_concurrency} in flight, {@code route.gas.simulate_timeout} each, one
     * attempt per URL.
     */
    public NodeClientOptions simulationClient() {
        return new NodeClientOptions(
                simulateConcurrent,
                simulateTimeout,
                1,
                Duration.ofMillis(100),
                Duration.ofMillis(100),
                3,
                Duration.ofSeconds(30));
    }

    /** The gas limit a tx of this estimate carries. */
    public long limit(long estimate) {
        return new BigDecimal(estimate)
                .multiply(multiplier)
                .setScale(0, java.math.RoundingMode.CEILING)
                .longValueExact();
    }
}
