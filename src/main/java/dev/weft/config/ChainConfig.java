package dev.weft.config;

import java.util.List;
import java.util.Locale;

/**
 * The chain this node indexes: its id, VM and bech32 prefix, and the node URLs of each protocol (several per API;
 * ingestion rotates away from an unhealthy one). Empty URL lists mean "the local devnet".
 */
public record ChainConfig(
        String chainId,
        Vm vm,
        String bech32Prefix,
        List<String> rpcUrls,
        List<String> restUrls,
        List<String> jsonRpcUrls) {
    public enum Vm {
        EVM,
        MOVE,
        WASM
    }

    static ChainConfig from(ConfigSource c) {
        String chainId = c.requiredString("chain.chain_id");
        String prefix = c.string("chain.bech32_prefix", "init").toLowerCase(Locale.ROOT);
        if (!prefix.matches("[a-z][a-z0-9]{0,30}"))
            throw new ConfigException(
                    "chain.bech32_prefix", "must be lower-case letters and digits (got \"" + prefix + "\")");
        return new ChainConfig(
                chainId,
                c.enumValue("chain.vm", Vm.class, Vm.EVM),
                prefix,
                c.httpUrls("chain.rpc", List.of()),
                c.httpUrls("chain.rest", List.of()),
                c.httpUrls("chain.json_rpc", List.of()));
    }

    public boolean isEvm() {
        return vm == Vm.EVM;
    }
}
