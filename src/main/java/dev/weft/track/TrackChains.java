package dev.weft.track;

import dev.weft.chain.Hex;
import dev.weft.config.ChainConfig;
import dev.weft.config.RouteConfig;
import dev.weft.config.TrackConfig;
import dev.weft.config.WeftConfig;
import dev.weft.route.registry.Chain;
import dev.weft.route.registry.ChainEndpoints;
import dev.weft.route.registry.IbcChannel;
import dev.weft.route.registry.LayerZeroLane;
import dev.weft.route.registry.OpBridge;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.RegistryLoader;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the tracker knows of the chains, from the route registries ({@code route.registries}, with
 * {@code route.finalization_periods}): which chains it tracks (every chain of the registry: Cosmos L1s and rollups
 * through their CometBFT RPC, EVM chains through their JSON-RPC receipts), their explorer links, the LayerZero lanes, which chain is at the other end of a channel, the OPinit bridges,
 * how tx hashes are written, and each chain's RPC URLs.
 */
public final class TrackChains {
    private final Registry registry;
    private final TrackConfig config;
    private final Map<String, List<String>> restUrls;
    private final ChainConfig indexed;

    /**
     * @param restUrls chain id → Cosmos REST URLs configured for it ({@code route.rest})
     * @param indexed  the chain this node indexes ({@code chain.*}): its configured URLs serve the tracker too
     */
    public TrackChains(Registry registry, TrackConfig config, Map<String, List<String>> restUrls, ChainConfig indexed) {
        this.registry = registry;
        this.config = config;
        this.restUrls = restUrls;
        this.indexed = indexed;
    }

    /** Loads the registries (blocking: file IO). */
    public static TrackChains load(WeftConfig c) {
        RouteConfig route = c.route();
        return new TrackChains(
                RegistryLoader.load(route.registries(), route.finalizationPeriods()),
                c.track(),
                route.restUrls(),
                c.chain());
    }

    public boolean supported(String chainId) {
        return registry.chain(chainId) != null;
    }

    /** Whether a chain is an EVM chain (tracked by receipts, its txs named by {@code 0x} Keccak hashes). */
    public boolean isEvm(String chainId) {
        Chain c = registry.chain(chainId);
        return c != null && c.isEvmChain();
    }

    /**
     * A tx hash of a chain as the tracker stores and returns it: on an EVM chain {@code 0x} and lower-case hex (as
     * JSON-RPC writes it), else {@link #normalizeHash(String)}; null when it is not 32 bytes of hex.
     */
    public String normalizeHash(String chainId, String hash) {
        String n = normalizeHash(hash);
        return n == null || !isEvm(chainId) ? n : "0x" + n.toLowerCase(Locale.ROOT);
    }

    /** The LayerZero lane sending from {@code chainId} through an OFT (adapter) contract, or null. */
    public LayerZeroLane lane(String chainId, String oftContract) {
        for (LayerZeroLane l : registry.lanes()) {
            if (l.fromChainId().equals(chainId) && l.sourceOftContract().equalsIgnoreCase(oftContract)) return l;
        }
        return null;
    }

    /** The lanes' destination OFT contract of {@code denom} on {@code chainId} (its ERC-20), "" when the registry names none. */
    public String destinationOft(String chainId, String denom) {
        var a = registry.asset(chainId, denom);
        return a == null || a.tokenContract() == null ? "" : a.tokenContract();
    }

    /** Every destination OFT contract of the lanes ending on {@code chainId}. */
    public List<String> destinationOfts(String chainId) {
        return registry.lanes().stream()
                .filter(l -> l.toChainId().equals(chainId))
                .map(l -> destinationOft(chainId, l.denomOut()))
                .filter(s -> !s.isEmpty())
                .distinct()
                .toList();
    }

    /**
     * The EVM JSON-RPC URLs of any chain with an EVM (a LayerZero destination's logs, the wallet endpoints' balances and
     * broadcasts): {@code track.nodes} for an EVM chain, else the chain's EVM JSON-RPC ({@code chain.json_rpc} for the
     * indexed chain, the registry's {@code apis.json_rpc}, the local devnet's).
     */
    public List<String> evmEndpoints(String chainId) {
        if (isEvm(chainId)) return evmRpcUrls(chainId);
        if (indexed != null
                && indexed.chainId().equals(chainId)
                && !indexed.jsonRpcUrls().isEmpty()) return indexed.jsonRpcUrls();
        return jsonRpcUrls(chainId);
    }

    /**
     * A Cosmos tx hash as the tracker stores and returns it: Cosmos chains name txs by the upper-case
     * hex SHA-256 of their bytes, without {@code 0x}. Any case and an optional {@code 0x} are accepted; null when it is
     * not 32 bytes of hex.
     */
    public static String normalizeHash(String hash) {
        if (hash == null) return null;
        String h = hash.trim();
        if (h.startsWith("0x") || h.startsWith("0X")) h = h.substring(2);
        if (h.length() != 64 || !Hex.isHex(h, 32)) return null;
        return h.toUpperCase(Locale.ROOT);
    }

    /** The explorer page of a tx (the registry's {@code explorer_tx_page}), "" when the chain has none. */
    public String explorerLink(String chainId, String hash) {
        Chain c = registry.chain(chainId);
        if (c == null || c.explorerTxPage() == null || c.explorerTxPage().isEmpty()) return "";
        return c.explorerTxPage().replace("${txHash}", hash);
    }

    /** The chain at the other end of a transfer channel, or null when the registry does not know the channel. */
    public String counterparty(String chainId, String channel) {
        IbcChannel c = registry.channel(chainId, channel);
        return c == null ? null : c.counterpartyChain(chainId);
    }

    /** The rollup of an L1's bridge, or null. */
    public OpBridge bridgeOf(String l1ChainId, long bridgeId) {
        for (Chain c : registry.chains().values()) {
            OpBridge b = c.opBridge();
            if (b != null && b.bridgeId() == bridgeId && b.l1ChainId().equals(l1ChainId)) return b;
        }
        return null;
    }

    /** A rollup's bridge, or null. */
    public OpBridge bridge(String l2ChainId) {
        Chain c = registry.chain(l2ChainId);
        return c == null ? null : c.opBridge();
    }

    /**
     * The CometBFT RPC URLs of a chain: {@code track.nodes}, else {@code chain.rpc} for the chain this node indexes, else
     * the registry's {@code apis.rpc}; empty when none is known.
     */
    public List<String> rpcUrls(String chainId) {
        return rpc(chainId).urls();
    }

    /**
     * Whether a chain's RPC URLs ({@link #rpcUrls}) are the operator's own nodes ({@code track.nodes}, the indexed chain's
     * {@code chain.rpc}) rather than the registry's public ones.
     */
    public boolean ownRpc(String chainId) {
        return rpc(chainId).own();
    }

    private record Rpc(List<String> urls, boolean own) {}

    private Rpc rpc(String chainId) {
        List<String> configured = config.nodes().get(chainId);
        if (configured != null) return new Rpc(configured, true);
        if (indexed != null
                && indexed.chainId().equals(chainId)
                && !indexed.rpcUrls().isEmpty()) return new Rpc(indexed.rpcUrls(), true);
        Chain c = registry.chain(chainId);
        if (c != null && c.rpc() != null && !c.rpc().isBlank()) return new Rpc(List.of(c.rpc()), false);
        return new Rpc(List.of(), false);
    }

    /** The Cosmos REST URLs of a chain: {@code route.rest}, else the registry's {@code apis.rest}; empty when none. */
    public List<String> restUrls(String chainId) {
        return ChainEndpoints.rest(registry, chainId, restUrls);
    }

    /**
     * The EVM JSON-RPC URL of a chain with an EVM: the registry's {@code apis.json_rpc}, else {@code chain.json_rpc} when
     * it is the indexed chain; empty when none.
     */
    public List<String> jsonRpcUrls(String chainId) {
        Chain c = registry.chain(chainId);
        if (c == null || !c.hasEvm()) return List.of();
        if (c.jsonRpc() != null && !c.jsonRpc().isBlank()) return List.of(c.jsonRpc());
        if (indexed == null || !indexed.chainId().equals(chainId)) return List.of();
        return indexed.jsonRpcUrls();
    }

    /** The JSON-RPC URLs the tracker reads an EVM chain's receipts from: {@code track.nodes}, else {@link #jsonRpcUrls}. */
    public List<String> evmRpcUrls(String chainId) {
        List<String> configured = config.nodes().get(chainId);
        return configured != null ? configured : jsonRpcUrls(chainId);
    }

    public Registry registry() {
        return registry;
    }
}
