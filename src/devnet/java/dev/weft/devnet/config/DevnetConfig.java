package dev.weft.devnet.config;

import dev.weft.config.ConfigException;
import dev.weft.config.ConfigSource;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The local simulated chain ({@code devnet.*}): how it is generated (seed, block interval, txs per block, empty-block
 * share, genesis time), how it grows (live: a block every interval after {@code history_blocks}; history: exactly
 * {@code history_blocks}), where it listens (port 0 picks a free port) and which faults it injects.
 *
 * @param genesisTime null = "auto": the first start time minus the history (kept in {@code stateFile} in live mode,
 *                    so that a restarted live chain has grown meanwhile instead of starting over)
 * @param stateFile   where live mode keeps its auto genesis time; empty = nowhere
 * @param registry    the registry file of the devnet's chains (chain ids, channels, bridges, denoms)
 * @param chains      the other chains of the multi-chain devnet (none: the generated chain alone)
 * @param maxBlockTxs most submitted txs a block takes (the rest wait for the next block)
 * @param chainKind   how the generated chain's REST API is registered: an OPinit rollup (opchild) or a plain SDK chain
 * @param moveOwnerEvents whether the Move chains follow each fungible-asset deposit/withdrawal with its owner event
 *                    (movevm since mid-2025); false emits what chains of older movevm versions emit
 * @param verifySignatures whether CheckTx verifies submitted txs' signatures and sequences as a real chain does
 * @param cachedBlocks how many generated blocks the generated chain keeps (the most recently used): a block asked again
 *                    after the cache let it go is generated again
 * @param chainId     the generated chain's id: {@code chain.chain_id}, the chain the node indexes (when
 *                    {@code chain.vm} is not {@code evm}, the node indexes another chain: {@code devnet.chain_id})
 * @param bech32Prefix the generated chain's account prefix: {@code chain.bech32_prefix} (else
 *                    {@code devnet.bech32_prefix})
 */
public record DevnetConfig(
        long seed,
        long evmChainId,
        Mode mode,
        long historyBlocks,
        Duration blockInterval,
        int txsPerBlock,
        double emptyBlockShare,
        Instant genesisTime,
        String host,
        int rpcPort,
        int restPort,
        int jsonRpcPort,
        int recipients,
        int txSearchWindow,
        String stateFile,
        FaultConfig faults,
        String registry,
        List<ExtraChain> chains,
        RelayerConfig relayer,
        OpinitConfig opinit,
        int maxBlockTxs,
        ChainKind chainKind,
        boolean moveOwnerEvents,
        boolean verifySignatures,
        int cachedBlocks,
        String chainId,
        String bech32Prefix) {

    public enum Mode {
        LIVE,
        HISTORY
    }

    /**
     * {@code ROLLUP}: the generated chain answers as a minievm rollup (opchild validators); {@code PLAIN}: as a plain
     * Cosmos SDK 0.50 chain without OPinit (x/staking validators; the opchild routes are unregistered, HTTP 501), the way
     * the Initia L1 and non-rollup chains answer. The registry's L1 chains are always plain.
     */
    public enum ChainKind {
        ROLLUP,
        PLAIN
    }

    /**
     * A further chain of the registry served on its own ports (no EVM JSON-RPC), with the generated traffic of its
     * history: {@code txsPerBlock} txs on average in each non-empty block of heights 2 to {@code 1 + trafficBlocks}
     * (within the history), {@code emptyBlockShare} of them empty. Only the L1 and Move chains have a generator.
     */
    public record ExtraChain(
            String chainId, int rpcPort, int restPort, int txsPerBlock, double emptyBlockShare, long trafficBlocks) {
        public static final int DEFAULT_TXS_PER_BLOCK = 6;
        public static final double DEFAULT_EMPTY_BLOCK_SHARE = 0.1;
        public static final long DEFAULT_TRAFFIC_BLOCKS = 300;

        /** A chain with the default traffic. */
        public ExtraChain(String chainId, int rpcPort, int restPort) {
            this(chainId, rpcPort, restPort, DEFAULT_TXS_PER_BLOCK, DEFAULT_EMPTY_BLOCK_SHARE, DEFAULT_TRAFFIC_BLOCKS);
        }
    }

    /**
     * The simulated IBC relayer: its delay, and the test failure rules (packets to a timeout receiver are never
     * relayed; a packet or deposit to an error receiver fails on arrival).
     */
    public record RelayerConfig(Duration delay, List<String> timeoutReceivers, List<String> errorReceivers) {}

    /** The simulated OPinit executor: deposit finalization delay and output proposal interval. */
    public record OpinitConfig(Duration delay, Duration outputInterval) {}

    public static DevnetConfig from(ConfigSource c) {
        // the generated chain is the one the node indexes: it takes the indexed chain's identity (a minievm rollup)
        // unless the node indexes another chain of the devnet (chain.vm move or wasm): then the generated chain is
        // devnet.chain_id / devnet.bech32_prefix, and chain.chain_id must not name it
        String vm = c.string("chain.vm", "evm").trim().toLowerCase(java.util.Locale.ROOT);
        if (!VMS.contains(vm)) throw new ConfigException("chain.vm", "must be one of " + VMS + " (got " + vm + ")");
        String indexed = c.string("chain.chain_id", "weft-devnet-1").trim();
        String ownId = c.string("devnet.chain_id", "weft-devnet-1").trim();
        String ownPrefix = c.string("devnet.bech32_prefix", "init").trim().toLowerCase(java.util.Locale.ROOT);
        String indexedPrefix = c.string("chain.bech32_prefix", "init").trim().toLowerCase(java.util.Locale.ROOT);
        String generatedId = vm.equals("evm") ? indexed : ownId;
        String generatedPrefix = vm.equals("evm") ? indexedPrefix : ownPrefix;
        if (!vm.equals("evm") && generatedId.equals(indexed))
            throw new ConfigException(
                    "chain.vm",
                    "the devnet's generated chain " + generatedId + " is a minievm rollup: chain.vm must be evm when"
                            + " chain.chain_id names it (got " + vm + ")");
        if (generatedId.isEmpty()) throw new ConfigException("devnet.chain_id", "must not be empty");
        Duration interval = c.duration("devnet.block_interval", Duration.ofSeconds(1));
        if (interval.toMillis() < 1 || interval.toDays() > 1)
            throw new ConfigException(
                    "devnet.block_interval", "must be between 1ms and 1d (got " + interval.toMillis() + "ms)");
        return new DevnetConfig(
                c.longValue("devnet.seed", 42, Long.MIN_VALUE, Long.MAX_VALUE),
                c.longValue("devnet.evm_chain_id", 1397, 1, (1L << 53) - 1),
                c.enumValue("devnet.mode", Mode.class, Mode.LIVE),
                c.longValue("devnet.history_blocks", 300, 0, 1L << 40),
                interval,
                c.intValue("devnet.txs_per_block", 20, 0, 10_000),
                c.doubleValue("devnet.empty_block_share", 0.1, 0, 0.99),
                genesisTime(c),
                c.string("devnet.host", "127.0.0.1"),
                c.intValue("devnet.rpc_port", 26657, 0, 65535),
                c.intValue("devnet.rest_port", 1317, 0, 65535),
                c.intValue("devnet.json_rpc_port", 8545, 0, 65535),
                c.intValue("devnet.recipients", 4096, 1, 10_000_000),
                c.intValue("devnet.tx_search_window", 1000, 1, 1_000_000),
                c.string("devnet.state_file", "./data/devnet-state.json").trim(),
                FaultConfig.from(c),
                c.string("devnet.registry", "conf/registry/devnet.json").trim(),
                chains(c),
                new RelayerConfig(
                        positive(c, "devnet.relayer.delay", Duration.ofSeconds(2)),
                        c.stringList("devnet.relayer.timeout_receivers", List.of()),
                        c.stringList("devnet.relayer.error_receivers", List.of())),
                new OpinitConfig(
                        positive(c, "devnet.opinit.delay", Duration.ofSeconds(2)),
                        positive(c, "devnet.opinit.output_interval", Duration.ofSeconds(10))),
                c.intValue("devnet.max_block_txs", 5000, 1, 100_000),
                c.enumValue("devnet.chain_kind", ChainKind.class, ChainKind.ROLLUP),
                c.bool("devnet.move_owner_events", true),
                c.bool("devnet.verify_signatures", true),
                c.intValue("devnet.cached_blocks", 128, 1, 10_000_000),
                generatedId,
                generatedPrefix);
    }

    private static final List<String> VMS = List.of("evm", "move", "wasm");

    private static List<ExtraChain> chains(ConfigSource c) {
        List<ExtraChain> out = new ArrayList<>();
        io.vertx.core.json.JsonObject all = c.object("devnet.chains");
        for (String id : all.fieldNames()) {
            String key = "devnet.chains." + id;
            if (!(all.getValue(id) instanceof io.vertx.core.json.JsonObject o))
                throw new ConfigException(key, "must be an object {rpc_port, rest_port}");
            out.add(new ExtraChain(
                    id,
                    port(c, o, key, "rpc_port"),
                    port(c, o, key, "rest_port"),
                    (int) number(c, o, key, "txs_per_block", ExtraChain.DEFAULT_TXS_PER_BLOCK, 0, 1000),
                    number(c, o, key, "empty_block_share", ExtraChain.DEFAULT_EMPTY_BLOCK_SHARE, 0, 0.99),
                    (long) number(c, o, key, "traffic_blocks", ExtraChain.DEFAULT_TRAFFIC_BLOCKS, 0, 1_000_000)));
        }
        return List.copyOf(out);
    }

    /** A chain's port: its own key ({@code weft.devnet.chains.<id>.rpc_port}, {@code WEFT_DEVNET_CHAINS_…}) first. */
    private static int port(ConfigSource c, io.vertx.core.json.JsonObject o, String chainKey, String field) {
        String key = chainKey + "." + field;
        String own = c.override(key);
        Object v = own != null ? own : o.getValue(field);
        if (v == null) return 0;
        try {
            int p = Integer.parseInt(v.toString().trim());
            if (p >= 0 && p <= 65535) return p;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException(key, "must be a port between 0 and 65535 (got " + v + ")");
    }

    /** A chain's traffic setting: its own key first, then the {@code devnet.chains} object's field, then the default. */
    private static double number(
            ConfigSource c,
            io.vertx.core.json.JsonObject o,
            String chainKey,
            String field,
            double def,
            double min,
            double max) {
        String key = chainKey + "." + field;
        String own = c.override(key);
        Object v = own != null ? own : o.getValue(field);
        if (v == null) return def;
        try {
            double d = Double.parseDouble(v.toString().trim());
            if (d >= min
                    && d <= max
                    && (!field.equals("txs_per_block") && !field.equals("traffic_blocks") || d == Math.rint(d)))
                return d;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException(
                key, "must be a number between " + fmt(min) + " and " + fmt(max) + " (got " + v + ")");
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static Duration positive(ConfigSource c, String key, Duration def) {
        Duration d = c.duration(key, def);
        if (d.isNegative()) throw new ConfigException(key, "must not be negative");
        return d;
    }

    /** Whether the devnet runs more than the generated chain. */
    public boolean multichain() {
        return !chains.isEmpty();
    }

    private static Instant genesisTime(ConfigSource c) {
        String s = c.optionalString("devnet.genesis_time");
        if (s == null || s.equalsIgnoreCase("auto")) return null;
        try {
            return Instant.parse(s.trim());
        } catch (DateTimeParseException e) {
            throw new ConfigException(
                    "devnet.genesis_time",
                    "must be an RFC 3339 time such as 2025-01-01T00:00:00Z, or auto (got \"" + s + "\")");
        }
    }

    /**
     * Faults injected per request, decided by a hash of (seed, request, attempt number) so that a test sees the same
     * faults whatever the order of its requests.
     *
     * @param shortRestRate     share of heights whose REST {@code /txs/block} answers too few txs for the first
     *                          {@code shortRestAttempts} attempts
     * @param latency           added to every answer of the devnet's HTTP servers (a node across a network)
     */
    public record FaultConfig(
            double errorRate,
            double delayRate,
            Duration delay,
            double truncateRate,
            double shortRestRate,
            int shortRestAttempts,
            long seed,
            Duration latency) {
        static FaultConfig from(ConfigSource c) {
            return new FaultConfig(
                    c.doubleValue("devnet.faults.error_rate", 0, 0, 1),
                    c.doubleValue("devnet.faults.delay_rate", 0, 0, 1),
                    c.duration("devnet.faults.delay", Duration.ofMillis(200)),
                    c.doubleValue("devnet.faults.truncate_rate", 0, 0, 1),
                    c.doubleValue("devnet.faults.short_rest_rate", 0, 0, 1),
                    c.intValue("devnet.faults.short_rest_attempts", 2, 0, 1000),
                    c.longValue("devnet.faults.seed", 7, Long.MIN_VALUE, Long.MAX_VALUE),
                    c.duration("devnet.faults.latency", Duration.ZERO));
        }

        public static FaultConfig none() {
            return new FaultConfig(0, 0, Duration.ZERO, 0, 0, 0, 0, Duration.ZERO);
        }

        /** Whether any fault can happen (when not, requests skip the bookkeeping). */
        public boolean any() {
            return errorRate > 0 || delayRate > 0 || truncateRate > 0 || shortRestRate > 0;
        }
    }
}
