package dev.weft.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every chain a deployment indexes: the {@code chain} block (the one-chain form, kept as it always was) and the entries
 * of {@code chains}, keyed by chain id, plus {@code default_chain}, the chain {@code /indexer/…} and {@code /status}
 * serve (default: the {@code chain} block's, else the first entry). A node's writer roles run for the chains of
 * {@code node.chains} (default: all).
 */
public record ChainsConfig(
        Map<String, ChainConfig> byId, String defaultChainId, Set<String> legacy, List<String> ownChains) {

    static ChainsConfig from(ConfigSource node) {
        Map<String, ChainConfig> byId = new LinkedHashMap<>();
        Set<String> legacy = new HashSet<>();
        if (node.has("chain.chain_id") || !node.has("chains")) {
            ChainConfig c = ChainConfig.from(node.forChainEntry(null), null);
            byId.put(c.chainId(), c);
            legacy.add(c.chainId());
        }
        for (String id : node.entryNames("chains")) {
            if (!ChainConfig.CHAIN_ID.matcher(id).matches())
                throw new ConfigException(
                        "chains." + id, "a chain id of letters, digits, - and _ (at most 64) names each entry");
            if (byId.containsKey(id))
                throw new ConfigException("chains." + id, "is also the chain block's chain_id: give it once");
            if (!(node.raw("chains." + id) instanceof io.vertx.core.json.JsonObject))
                throw new ConfigException("chains." + id, "must be an object");
            byId.put(id, ChainConfig.from(node.forChainEntry(id), id));
        }
        Set<String> schemas = new HashSet<>();
        for (ChainConfig c : byId.values()) {
            if (!schemas.add(c.schema()))
                throw new ConfigException(
                        ChainConfig.entryKey(legacy.contains(c.chainId()) ? null : c.chainId(), "schema"),
                        "\"" + c.schema() + "\" is another chain's schema");
        }
        String def = node.string("default_chain", byId.keySet().iterator().next());
        if (!byId.containsKey(def))
            throw new ConfigException("default_chain", "names no configured chain (got \"" + def + "\")");
        List<String> own = node.stringList("node.chains", List.of());
        for (String id : own)
            if (!byId.containsKey(id))
                throw new ConfigException("node.chains", "names no configured chain (got \"" + id + "\")");
        return new ChainsConfig(
                java.util.Collections.unmodifiableMap(byId),
                def,
                Set.copyOf(legacy),
                own.isEmpty() ? List.copyOf(byId.keySet()) : List.copyOf(own));
    }

    public ChainConfig defaultChain() {
        return byId.get(defaultChainId);
    }

    public ChainConfig get(String chainId) {
        return byId.get(chainId);
    }

    public boolean has(String chainId) {
        return byId.containsKey(chainId);
    }

    /** The configured chains, default first, then as written. */
    public List<ChainConfig> all() {
        List<ChainConfig> out = new ArrayList<>();
        out.add(defaultChain());
        for (ChainConfig c : byId.values()) if (!c.chainId().equals(defaultChainId)) out.add(c);
        return out;
    }

    /** Whether the chain is the {@code chain} block's (read as {@code chain.*}) rather than a {@code chains} entry. */
    public boolean isChainBlock(String chainId) {
        return legacy.contains(chainId);
    }
}
