package dev.weft.config;

import java.math.BigDecimal;
import java.util.List;

/**
 * One chain's gas settings: the {@code route.gas.*} per-message estimates with the chain's own
 * {@code route.gas.chains.<chain_id>.*} overrides applied, a gas price replacing the registry's (for a chain whose
 * registry entry has none usable, e.g. an EVM chain without fee assets) and the EVM JSON-RPC URLs {@code /msgs}
 * estimates the chain's EVM txs on (else the registry's {@code apis.json_rpc}).
 *
 * @param tx         gas of a Cosmos tx before its messages
 * @param transfer   an ICS-20 {@code MsgTransfer}
 * @param execute    a Move {@code MsgExecute}
 * @param deposit    an OPinit deposit
 * @param withdrawal an OPinit withdrawal
 * @param send       a bank {@code MsgSend}
 * @param layerZero  the whole EVM tx of a LayerZero OFT {@code send} (intrinsic gas included)
 * @param gasPrice   the chain's gas price in base units of its fee token per gas unit, or null (the registry's, else
 *                   the node's {@code eth_gasPrice} for an EVM chain)
 * @param jsonRpc    EVM JSON-RPC URLs, empty when not configured
 */
public record ChainGasConfig(
        long tx,
        long transfer,
        long execute,
        long deposit,
        long withdrawal,
        long send,
        long layerZero,
        BigDecimal gasPrice,
        List<String> jsonRpc) {

    static final long MAX_GAS = 100_000_000;

    /** The shared {@code route.gas.*} estimates as a chain without overrides sees them. */
    static ChainGasConfig defaults(ConfigSource c) {
        return new ChainGasConfig(
                c.longValue("route.gas.tx", 40_000, 0, MAX_GAS),
                c.longValue("route.gas.transfer", 95_000, 0, MAX_GAS),
                c.longValue("route.gas.execute", 150_000, 0, MAX_GAS),
                c.longValue("route.gas.deposit", 80_000, 0, MAX_GAS),
                c.longValue("route.gas.withdrawal", 80_000, 0, MAX_GAS),
                c.longValue("route.gas.send", 80_000, 0, MAX_GAS),
                // calibrated on Anvil: eth_estimateGas of the devnet lane's OFT adapter send is 118,643
                // (docs/routing-api.md)
                c.longValue("route.gas.layer_zero", 120_000, 21_000, MAX_GAS),
                null,
                List.of());
    }

    /** {@code route.gas.chains.<chainId>.*} over the shared values. */
    static ChainGasConfig of(ConfigSource c, String chainId, ChainGasConfig d) {
        String p = "route.gas.chains." + chainId + ".";
        return new ChainGasConfig(
                c.longValue(p + "tx", d.tx, 0, MAX_GAS),
                c.longValue(p + "transfer", d.transfer, 0, MAX_GAS),
                c.longValue(p + "execute", d.execute, 0, MAX_GAS),
                c.longValue(p + "deposit", d.deposit, 0, MAX_GAS),
                c.longValue(p + "withdrawal", d.withdrawal, 0, MAX_GAS),
                c.longValue(p + "send", d.send, 0, MAX_GAS),
                c.longValue(p + "layer_zero", d.layerZero, 21_000, MAX_GAS),
                price(c, p + "gas_price"),
                List.copyOf(c.httpUrls(p + "json_rpc", List.of())));
    }

    /** A decimal gas price (a JSON number or a string), at least 0 and at most 10^30; null when unset. */
    private static BigDecimal price(ConfigSource c, String key) {
        Object v = c.raw(key);
        if (v == null || v instanceof String s && s.isBlank()) return null;
        try {
            BigDecimal p = new BigDecimal(String.valueOf(v).trim());
            if (p.signum() < 0 || p.compareTo(BigDecimal.TEN.pow(30)) > 0)
                throw new ConfigException(key, "must be a gas price between 0 and 1e30");
            return p.stripTrailingZeros();
        } catch (NumberFormatException e) {
            throw new ConfigException(key, "must be a decimal number (got \"" + v + "\")");
        }
    }
}
