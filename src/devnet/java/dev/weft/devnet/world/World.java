package dev.weft.devnet.world;

import dev.weft.chain.AccountAddress;
import dev.weft.config.ConfigException;
import dev.weft.devnet.config.DevnetConfig;
import dev.weft.devnet.dex.ConnectOracle;
import dev.weft.devnet.dex.Dex;
import dev.weft.devnet.dex.DexModule;
import dev.weft.devnet.dex.L1RestRoutes;
import dev.weft.devnet.dex.MoveViews;
import dev.weft.devnet.exec.BankModule;
import dev.weft.devnet.exec.ChainApp;
import dev.weft.devnet.exec.MoveObjects;
import dev.weft.devnet.exec.MoveStdModule;
import dev.weft.devnet.exec.VmModule;
import dev.weft.devnet.gen.ChainSpec;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.http.DevnetServer;
import dev.weft.devnet.http.Reply;
import dev.weft.devnet.ibc.FailureRules;
import dev.weft.devnet.ibc.IbcChain;
import dev.weft.devnet.ibc.IbcModule;
import dev.weft.devnet.ibc.MoveHooks;
import dev.weft.devnet.ibc.Relayer;
import dev.weft.devnet.lz.LzExecutor;
import dev.weft.devnet.opinit.OpChildModule;
import dev.weft.devnet.opinit.OpExecutor;
import dev.weft.devnet.opinit.OpHostModule;
import dev.weft.devnet.registry.ChainDenoms;
import dev.weft.devnet.registry.DevnetRegistry;
import dev.weft.devnet.registry.DevnetRegistry.Asset;
import dev.weft.devnet.registry.DevnetRegistry.Chain;
import dev.weft.devnet.registry.DevnetRegistry.Channel;
import dev.weft.devnet.registry.DevnetRegistry.Lane;
import dev.weft.devnet.registry.DevnetRegistry.OpBridge;
import dev.weft.devnet.traffic.L1Traffic;
import dev.weft.devnet.traffic.MoveTraffic;
import dev.weft.devnet.traffic.Traffic;
import dev.weft.devnet.tx.MsgTypes;
import dev.weft.devnet.tx.SystemSigner;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The multi-chain devnet: the generated chain and the quiet chains of {@code devnet.chains}, joined as the registry
 * says (IBC transfer channels between running chains, OPinit bridges between a running L1 and its rollups), with one
 * relayer and one executor for all of them. Every chain produces its blocks in lockstep (same height, same interval);
 * all of it runs on the devnet verticle's event loop.
 */
public final class World {
    private final Map<String, ChainNode> nodes = new LinkedHashMap<>();
    private final Map<String, Dex> dexes = new LinkedHashMap<>();
    private final Map<String, ConnectOracle> oracles = new LinkedHashMap<>();
    private final Map<String, L1RestRoutes> l1Routes = new LinkedHashMap<>();
    private final Map<String, MoveObjectRoutes> moveRoutes = new LinkedHashMap<>();
    private final Relayer relayer;
    private final OpExecutor executor;
    private final LzExecutor layerZero = new LzExecutor();
    private final Map<String, Traffic> traffic = new LinkedHashMap<>();

    private World(Relayer relayer, OpExecutor executor) {
        this.relayer = relayer;
        this.executor = executor;
    }

    /**
     * @param generated the generated chain (its id may be absent from the registry: it then only runs bank sends)
     * @param registry  the devnet registry
     * @param live      whether blocks are produced (history mode takes no submitted tx)
     */
    public static World build(
            DevnetChain generated, DevnetRegistry registry, DevnetConfig d, Instant genesis, long head, boolean live) {
        FailureRules rules =
                new FailureRules(d.relayer().timeoutReceivers(), d.relayer().errorReceivers());
        World w = new World(
                new Relayer(d.relayer().delay(), rules),
                new OpExecutor(d.opinit().delay(), d.opinit().outputInterval()));
        List<DevnetChain> chains = new ArrayList<>();
        chains.add(generated);
        for (DevnetConfig.ExtraChain x : d.chains()) {
            Chain c = registry.chain(x.chainId());
            String key = "devnet.chains." + x.chainId();
            if (c == null) throw new ConfigException(key, "is not a chain of the devnet registry " + d.registry());
            if (c.isEvmChain() || c.hasEvm())
                throw new ConfigException(key, "is an EVM chain: only the generated chain serves EVM JSON-RPC");
            if (x.chainId().equals(generated.spec().chainId()))
                throw new ConfigException(key, "is the generated chain (chain.chain_id)");
            chains.add(new DevnetChain(
                    ChainSpec.quiet(x.chainId(), c.bech32Prefix(), d.seed(), genesis, d.blockInterval()), head));
        }
        // L1s first: in each round a deposit's L1 block comes before the rollup blocks of the same height
        chains.sort((a, b) -> Boolean.compare(!isL1(registry, a), !isL1(registry, b)));
        Map<String, IbcChain> ibc = new LinkedHashMap<>();
        Map<String, OpHostModule> hosts = new LinkedHashMap<>();
        for (DevnetChain chain : chains) {
            String id = chain.spec().chainId();
            Chain c = registry.chain(id);
            String prefix = chain.spec().bech32Prefix();
            Predicate<String> valid = c != null ? c::acceptsAddress : s -> AccountAddress.isValid(s, prefix);
            ChainApp app = new ChainApp(id, prefix, valid).add(new BankModule());
            boolean move = c != null && "move".equals(c.vm());
            if (move) app.moveVm(d.moveOwnerEvents());
            MoveObjects objects = move ? new MoveObjects() : null;
            if (c != null) {
                dev.weft.devnet.exec.MsgModule executes;
                MoveHooks hooks = null;
                if (c.l1() && "move".equals(c.vm())) {
                    String entryPoint = registry.venues().stream()
                            .filter(v -> v.chainId().equals(id) && v.hookEntryPoint() != null)
                            .map(DevnetRegistry.Venue::hookEntryPoint)
                            .findFirst()
                            .orElse(null);
                    DexModule dex = w.addInitiaModules(app, chain, genesis, entryPoint);
                    executes = dex;
                    if ("move".equals(c.hooks())) {
                        hooks = new MoveHooks(
                                entryPoint == null ? Set.of() : Set.of(entryPoint), dex, MsgTypes.EXECUTE);
                    }
                } else {
                    executes = new VmModule(List.of("evm".equals(c.vm()) ? MsgTypes.EVM_CALL : MsgTypes.EXECUTE));
                    app.add(executes);
                }
                if (move) {
                    Map<String, String> denoms = new LinkedHashMap<>();
                    for (Asset a : registry.assetsOn(id))
                        denoms.put(dev.weft.chain.Hex.prefixed(ChainDenoms.moveMetadata(a.denom())), a.denom());
                    app.add(new MoveStdModule(
                            MsgTypes.EXECUTE,
                            executes,
                            prefix,
                            app.moveCoins(),
                            objects,
                            denoms::get,
                            chain.submittedBalances()::grant));
                }
                IbcChain ic = new IbcChain(id, prefix, c.pfm());
                ibc.put(id, ic);
                app.add(new IbcModule(ic, rules, w.relayer, valid, hooks));
                String fee = c.feeDenom();
                w.relayer.add(ic, new SystemSigner("relayer", id, prefix, fee, d.seed()));
                w.executor.addSigner(id, new SystemSigner("executor", id, prefix, fee, d.seed()));
                if (c.l1()) {
                    OpHostModule host = new OpHostModule(prefix, w.executor);
                    hosts.put(id, host);
                    app.add(host);
                }
            }
            fundTestAccounts(chain, app, c != null ? registry.assetsOn(id) : List.of());
            Traffic t = c == null ? null : traffic(registry, d, c, chain);
            if (t != null) {
                t.genesis(chain.accounts());
                for (String sender : t.senders()) fund(chain, app, sender, registry.assetsOn(id), TRAFFIC_COINS);
                w.traffic.put(id, t);
            }
            if (app.moveCoins() != null) w.moveRoutes.put(id, new MoveObjectRoutes(app.moveCoins(), objects));
            w.nodes.put(id, new ChainNode(chain, app, d.maxBlockTxs(), live, d.verifySignatures()));
        }
        for (Channel ch : registry.channels()) {
            IbcChain a = ibc.get(ch.chainA());
            IbcChain b = ibc.get(ch.chainB());
            if (a == null || b == null) continue;
            a.addChannel(ch.port(), ch.channelA(), ch.chainB(), ch.channelB());
            b.addChannel(ch.port(), ch.channelB(), ch.chainA(), ch.channelA());
        }
        for (Asset asset : registry.assets()) {
            IbcChain ic = ibc.get(asset.chainId());
            if (ic != null && asset.denom().startsWith("ibc/")) ic.addTrace(asset.ibcPath());
        }
        for (ChainNode n : w.nodes.values()) {
            Chain c = registry.chain(n.chainId());
            OpBridge bridge = c == null ? null : c.opBridge();
            if (bridge == null || !hosts.containsKey(bridge.l1ChainId())) continue;
            hosts.get(bridge.l1ChainId()).addBridge(bridge.bridgeId());
            n.app().add(new OpChildModule(bridge.bridgeId(), bridge.opDenoms(), c.bech32Prefix(), rules, w.executor));
            DevnetChain l2 = n.chain();
            w.executor.addBridge(bridge.bridgeId(), bridge.l1ChainId(), n.chainId(), l2::head);
        }
        for (Lane lane : registry.lanes()) {
            ChainNode n = w.nodes.get(lane.toChainId());
            Chain c = registry.chain(lane.toChainId());
            Asset out = registry.asset(lane.toChainId(), lane.denomOut());
            if (n == null || out == null || out.tokenContract() == null) continue;
            String fee = c.feeDenom();
            DevnetChain chain = n.chain();
            w.layerZero.addLane(lane, out.tokenContract(), n.app(), c.bech32Prefix(), fee, d.seed(), chain::head);
        }
        return w;
    }

    /** What each generated sender holds of every bank denom of its chain at genesis. */
    static final java.math.BigInteger TRAFFIC_COINS = java.math.BigInteger.TEN.pow(12);

    /**
     * The generator of a chain's history, or null: the L1 with InitiaDEX and the Move rollups have one (an EVM chain
     * other than the generated one has none).
     */
    private static Traffic traffic(DevnetRegistry registry, DevnetConfig d, Chain c, DevnetChain chain) {
        DevnetConfig.ExtraChain x = d.chains().stream()
                .filter(e -> e.chainId().equals(c.chainId()))
                .findFirst()
                .orElse(null);
        if (x == null || !"move".equals(c.vm()) || c.feeDenom() == null) return null;
        long last = Math.min(d.historyBlocks(), 1 + x.trafficBlocks());
        String prefix = c.bech32Prefix();
        if (c.l1()) {
            // a packet is received a relayer delay after its send, and its ack comes back after another one
            long interval = Math.max(1, d.blockInterval().toNanos());
            long margin = 2 * ((d.relayer().delay().toNanos() + interval - 1) / interval) + 2;
            String channel = null;
            String counterpartyPrefix = prefix;
            for (Channel ch : registry.channels()) {
                boolean a = ch.chainA().equals(c.chainId());
                if (!a && !ch.chainB().equals(c.chainId())) continue;
                String other = a ? ch.chainB() : ch.chainA();
                Chain o = registry.chain(other);
                boolean running = d.chains().stream().anyMatch(e -> e.chainId().equals(other));
                if (o != null && running && "move".equals(o.vm()) && !o.l1()) {
                    channel = a ? ch.channelA() : ch.channelB();
                    counterpartyPrefix = o.bech32Prefix();
                    break;
                }
            }
            return new L1Traffic(
                    c.chainId(),
                    prefix,
                    c.feeDenom(),
                    d.seed(),
                    x.txsPerBlock(),
                    x.emptyBlockShare(),
                    last,
                    channel,
                    counterpartyPrefix,
                    margin);
        }
        List<String> denoms = new ArrayList<>();
        denoms.add(c.feeDenom());
        for (Asset a : registry.assetsOn(c.chainId())) {
            if (!denoms.contains(a.denom())
                    && !a.denom().startsWith("evm/")
                    && !a.denom().startsWith("0x")) denoms.add(a.denom());
        }
        return new MoveTraffic(c.chainId(), prefix, denoms, d.seed(), x.txsPerBlock(), x.emptyBlockShare(), last);
    }

    /**
     * Executes the generated history of the chains that have a generator (the L1, the Move rollup), from height 2 to
     * their last generated height (at most the head), every chain in lockstep and L1s first, with the relayer's txs
     * due in each block before the generated ones, so IBC transfers complete within the history. Runs once, before the
     * servers answer (off the event loop: a few thousand txs are signed and executed). Returns the txs recorded.
     */
    public long replayHistory() {
        long end = 0;
        for (Traffic t : traffic.values()) end = Math.max(end, t.lastHeight());
        long recorded = 0;
        for (long h = 2; h <= end; h++) {
            for (ChainNode n : nodes.values()) {
                if (h > n.chain().head()) continue;
                long t = n.chain().blockTimeNanos(h);
                List<byte[]> txs = new ArrayList<>(relayer.due(n.chainId(), h, t));
                Traffic gen = traffic.get(n.chainId());
                if (gen != null) txs.addAll(gen.txs(h, t));
                recorded += n.replay(h, txs);
            }
        }
        return recorded;
    }

    /**
     * The Move L1's InitiaDEX (executing swap txs and Skip's entry point at {@code entryPoint}, answering views) and
     * Connect oracle. Returns the module executing Move calls.
     */
    private DexModule addInitiaModules(ChainApp app, DevnetChain chain, Instant genesis, String entryPoint) {
        String id = chain.spec().chainId();
        Dex dex = Dex.genesis(id, genesis);
        DexModule module = new DexModule(MsgTypes.EXECUTE, dex, entryPoint);
        app.add(module);
        ConnectOracle oracle = new ConnectOracle(id, chain::blockTimeNanos);
        MoveViews views = new MoveViews(dex, chain::head, () -> chain.blockTimeNanos(chain.head()) / 1_000_000_000L);
        dexes.put(id, dex);
        oracles.put(id, oracle);
        l1Routes.put(id, new L1RestRoutes(dex, views, oracle, chain::head));
        return module;
    }

    /** The REST routes a chain adds to its Cosmos REST server (Move views, Connect oracle), or null. */
    public Function<DevnetServer.Request, Reply> restRoutes(String chainId) {
        L1RestRoutes l1 = l1Routes.get(chainId);
        MoveObjectRoutes objects = moveRoutes.get(chainId);
        if (objects == null) return l1;
        return r -> {
            Reply reply = objects.apply(r);
            return reply != null || l1 == null ? reply : l1.apply(r);
        };
    }

    /** The Connect oracle of an L1 chain, or null. */
    public ConnectOracle oracle(String chainId) {
        return oracles.get(chainId);
    }

    private static boolean isL1(DevnetRegistry r, DevnetChain chain) {
        Chain c = r.chain(chain.spec().chainId());
        return c != null && c.l1();
    }

    /** The chains, L1s first. */
    public List<ChainNode> nodes() {
        return List.copyOf(nodes.values());
    }

    public ChainNode node(String chainId) {
        return nodes.get(chainId);
    }

    /** The LayerZero executor delivering the lanes' packets on the chains here (fed by the source watcher). */
    public LzExecutor layerZero() {
        return layerZero;
    }

    public Relayer relayer() {
        return relayer;
    }

    /** Produces the next block of every chain (L1s first), each with the bots' txs due and the queued user txs. */
    public void produceNext() {
        for (ChainNode n : nodes.values()) {
            String id = n.chainId();
            n.produce((h, t) -> {
                List<byte[]> txs = new ArrayList<>(relayer.due(id, h, t));
                txs.addAll(executor.due(id, h, t));
                txs.addAll(layerZero.due(id, h, t));
                return txs;
            });
        }
    }

    /**
     * The devnet's well-known test keys (secp256k1 private keys of one repeated byte, 0x01…01 to 0x08…08, like a local
     * chain's published dev accounts): on every chain their Cosmos ({@code secp256k1}) and Initia ({@code ethsecp256k1})
     * accounts exist at genesis and hold {@link #TEST_ACCOUNT_COINS} of every bank denom the registry lists on the
     * chain, so a wallet signing with one can pay fees and send at once. {@link #TEST_ACCOUNT_KEY} is the first.
     */
    public static final List<java.math.BigInteger> TEST_ACCOUNT_KEYS = java.util.stream.IntStream.rangeClosed(1, 8)
            .mapToObj(b -> new java.math.BigInteger(String.format("%02x", b).repeat(32), 16))
            .toList();

    public static final java.math.BigInteger TEST_ACCOUNT_KEY = TEST_ACCOUNT_KEYS.get(0);
    public static final java.math.BigInteger TEST_ACCOUNT_COINS = java.math.BigInteger.TEN.pow(15);

    private static void fund(
            DevnetChain chain, ChainApp app, String account, List<Asset> assets, java.math.BigInteger amount) {
        for (Asset asset : assets) {
            if (asset.denom().startsWith("evm/") || asset.denom().startsWith("0x")) continue;
            chain.submittedBalances().grant(account, asset.denom(), amount);
            if (app.moveCoins() != null) app.moveCoins().genesis(account, asset.denom());
        }
    }

    private static void fundTestAccounts(DevnetChain chain, ChainApp app, List<Asset> assets) {
        String prefix = chain.spec().bech32Prefix();
        for (java.math.BigInteger key : TEST_ACCOUNT_KEYS) {
            byte[] pub = AccountAddress.compressedPublicKey(key);
            for (AccountAddress a : List.of(AccountAddress.fromSecp256k1(pub), AccountAddress.fromEthSecp256k1(pub))) {
                chain.accounts().create(a.bytes());
                for (Asset asset : assets) {
                    if (asset.denom().startsWith("evm/") || asset.denom().startsWith("0x")) continue;
                    chain.submittedBalances().grant(a.bech32(prefix), asset.denom(), TEST_ACCOUNT_COINS);
                    if (app.moveCoins() != null) app.moveCoins().genesis(a.bech32(prefix), asset.denom());
                }
            }
        }
    }
}
