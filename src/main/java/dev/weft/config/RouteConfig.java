package dev.weft.config;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code route.*} section: which registry files make the route graph, the per-hop duration estimates, the IBC
 * timeout written into MsgTransfer and PFM memos, the hop limit, per-chain finalization-period overrides and the
 * interval of the registry file-change scan.
 *
 * @param registries           registry files, merged into one registry (their chains must be disjoint)
 * @param ibcTimeout           MsgTransfer {@code timeout_timestamp} = now + this; also the PFM {@code timeout}
 * @param maxHops              longest route (operations) the search returns
 * @param ibcHop               estimated duration of one IBC hop (relay on both sides)
 * @param opDeposit            estimated duration of an OPinit deposit (executor relay)
 * @param layerZero            estimated duration of a LayerZero lane that names none
 * @param swap                 estimated duration of a swap (it runs in the tx that carries it)
 * @param finalizationPeriods  chain id of a rollup → finalization period replacing its registry value
 * @param reloadScanInterval   how often the registry files are checked for changes (zero: never)
 * @param poolRefresh          the market state (pools of live venues, oracle prices) is read at least this often
 * @param maxStateAge          swap quotes on state older than this are refused (503); older oracle prices are not used
 * @param stateTimeout         timeout of one market-state request to a chain's REST API
 * @param restUrls             chain id → REST URLs the market state is read from (else the registry's {@code apis.rest},
 *                             else the local devnet's port for the chain)
 * @param extraTxBps           the cost model's penalty per user tx beyond the first, in basis points of the amount out
 * @param minuteBps            the cost model's penalty per minute of estimated duration, in basis points
 * @param gas                  gas estimates, limits and the bounds of {@code /msgs}' simulations ({@code route.gas.*})
 */
public record RouteConfig(
        List<String> registries,
        Duration ibcTimeout,
        int maxHops,
        Duration ibcHop,
        Duration opDeposit,
        Duration layerZero,
        Duration swap,
        Map<String, Duration> finalizationPeriods,
        Duration reloadScanInterval,
        Duration poolRefresh,
        Duration maxStateAge,
        Duration stateTimeout,
        Map<String, List<String>> restUrls,
        int extraTxBps,
        int minuteBps,
        RouteGasConfig gas) {

    public static final List<String> DEFAULT_REGISTRIES =
            List.of("conf/registry/mainnet.json", "conf/registry/devnet.json");

    public static RouteConfig from(ConfigSource c) {
        List<String> files = c.stringList("route.registries", DEFAULT_REGISTRIES);
        if (files.isEmpty()) throw new ConfigException("route.registries", "names no registry file");
        Duration timeout = c.duration("route.ibc_timeout", Duration.ofMinutes(5));
        if (timeout.toSeconds() < 1) throw new ConfigException("route.ibc_timeout", "must be at least 1s");
        Map<String, Duration> periods = new LinkedHashMap<>();
        JsonObject overrides = c.object("route.finalization_periods");
        for (String chain : overrides.fieldNames()) {
            String key = "route.finalization_periods." + chain;
            Duration d = c.duration(key, null);
            if (d == null || d.toSeconds() < 1) throw new ConfigException(key, "must be a duration of at least 1s");
            periods.put(chain, d);
        }
        return new RouteConfig(
                files,
                timeout,
                c.intValue("route.max_hops", 6, 1, 16),
                nonNegative(c, "route.durations.ibc", Duration.ofSeconds(30)),
                nonNegative(c, "route.durations.op_deposit", Duration.ofSeconds(60)),
                nonNegative(c, "route.durations.layer_zero", Duration.ofMinutes(3)),
                nonNegative(c, "route.durations.swap", Duration.ZERO),
                Map.copyOf(periods),
                nonNegative(c, "route.reload_scan_interval", Duration.ofSeconds(10)),
                atLeast(c, "route.pool_refresh", Duration.ofSeconds(2), Duration.ofMillis(100)),
                atLeast(c, "route.max_state_age", Duration.ofSeconds(30), Duration.ofSeconds(1)),
                atLeast(c, "route.state_timeout", Duration.ofSeconds(5), Duration.ofMillis(100)),
                c.urlsByChain("route.rest"),
                c.intValue("route.cost.extra_tx_bps", 10, 0, 10_000),
                c.intValue("route.cost.minute_bps", 1, 0, 10_000),
                RouteGasConfig.from(c));
    }

    private static Duration atLeast(ConfigSource c, String key, Duration def, Duration min) {
        Duration d = c.duration(key, def);
        if (d.compareTo(min) < 0) throw new ConfigException(key, "must be at least " + min.toMillis() + "ms");
        return d;
    }

    /** Defaults with the given registry files (tests and the bench). */
    public static RouteConfig defaults(List<String> registries) {
        JsonObject json = new JsonObject()
                .put("route", new JsonObject().put("registries", new io.vertx.core.json.JsonArray(registries)));
        return from(ConfigSource.fileOnly(json));
    }

    private static Duration nonNegative(ConfigSource c, String key, Duration def) {
        Duration d = c.duration(key, def);
        if (d.isNegative()) throw new ConfigException(key, "must not be negative");
        return d;
    }
}
