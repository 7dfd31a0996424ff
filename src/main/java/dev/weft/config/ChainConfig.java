package dev.weft.config;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One chain this node indexes: its id, VM and bech32 prefix, the PostgreSQL schema its tables live in, and the node URLs
 * of each protocol (several per API; ingestion rotates away from an unhealthy one). Empty URL lists mean "a plugin
 * such as the devnet supplies them".
 */
public record ChainConfig(
        String chainId,
        Vm vm,
        String bech32Prefix,
        String schema,
        List<String> rpcUrls,
        List<String> restUrls,
        List<String> jsonRpcUrls) {
    public enum Vm {
        EVM,
        MOVE,
        WASM
    }

    /** What a chain id may be when it names a {@code chains} entry: a dotted key segment and a URL path segment. */
    static final Pattern CHAIN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

    private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    /**
     * The chain of {@code c}, a source scoped to one chain ({@link ConfigSource#forChainEntry}): the {@code chain}
     * block's when {@code entryId} is null (its tables in {@code public}, where a one-chain deployment has always kept
     * them), else the entry's (its tables in {@code chain_<id>}, unless it names its {@code schema}).
     */
    static ChainConfig from(ConfigSource c, String entryId) {
        String chainId = entryId != null ? entryId : c.requiredString("chain.chain_id");
        String prefix = c.string("chain.bech32_prefix", "init").toLowerCase(Locale.ROOT);
        if (!prefix.matches("[a-z][a-z0-9]{0,30}"))
            throw new ConfigException(
                    entryKey(entryId, "bech32_prefix"),
                    "must be lower-case letters and digits (got \"" + prefix + "\")");
        String schema = c.string("chain.schema", entryId == null ? "public" : defaultSchema(chainId));
        if (!SCHEMA.matcher(schema).matches())
            throw new ConfigException(
                    entryKey(entryId, "schema"),
                    "must be a PostgreSQL name of lower-case letters, digits and _ (got \"" + schema + "\")");
        return new ChainConfig(
                chainId,
                c.enumValue("chain.vm", Vm.class, Vm.EVM),
                prefix,
                schema,
                c.httpUrls("chain.rpc", List.of()),
                c.httpUrls("chain.rest", List.of()),
                c.httpUrls("chain.json_rpc", List.of()));
    }

    /**
     * The schema a {@code chains} entry of this id keeps its tables in when it names none ({@code chain_<id>}); an
     * {@link IllegalArgumentException} for what cannot be a chain id. Never {@code public}.
     */
    public static String schemaOf(String chainId) {
        if (chainId == null || !CHAIN_ID.matcher(chainId).matches())
            throw new IllegalArgumentException("a chain id is letters, digits, - and _ (at most 64)");
        return defaultSchema(chainId);
    }

    /** {@code chain_} and the chain id, lower-cased, every character PostgreSQL would need quoted as {@code _}. */
    static String defaultSchema(String chainId) {
        String s = "chain_" + chainId.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        return s.length() > 63 ? s.substring(0, 63) : s;
    }

    static String entryKey(String entryId, String key) {
        return entryId == null ? "chain." + key : "chains." + entryId + "." + key;
    }

    public boolean isEvm() {
        return vm == Vm.EVM;
    }
}
