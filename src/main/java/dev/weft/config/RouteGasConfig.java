package dev.weft.config;

import java.math.BigDecimal;
import java.time.Duration;

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
        int simulateConcurrent) {

    private static final long MAX_GAS = 100_000_000;

    public static RouteGasConfig from(ConfigSource c) {
        double m = c.doubleValue("route.gas.multiplier", 1.5, 1.0, 10.0);
        Duration timeout = c.duration("route.gas.simulate_timeout", Duration.ofSeconds(2));
        if (timeout.toMillis() < 100 || timeout.toSeconds() > 30)
            throw new ConfigException("route.gas.simulate_timeout", "must be between 100ms and 30s");
        return new RouteGasConfig(
                c.longValue("route.gas.tx", 40_000, 0, MAX_GAS),
                c.longValue("route.gas.transfer", 95_000, 0, MAX_GAS),
                c.longValue("route.gas.execute", 150_000, 0, MAX_GAS),
                c.longValue("route.gas.deposit", 80_000, 0, MAX_GAS),
                c.longValue("route.gas.withdrawal", 80_000, 0, MAX_GAS),
                c.longValue("route.gas.send", 80_000, 0, MAX_GAS),
                BigDecimal.valueOf(m),
                c.bool("route.gas.simulate", true),
                timeout,
                c.intValue("route.gas.simulate_concurrency", 4, 1, 64));
    }

    /** The gas limit a tx of this estimate carries. */
    public long limit(long estimate) {
        return new BigDecimal(estimate)
                .multiply(multiplier)
                .setScale(0, java.math.RoundingMode.CEILING)
                .longValueExact();
    }
}
