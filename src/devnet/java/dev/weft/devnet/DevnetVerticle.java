package dev.weft.devnet;

import dev.weft.config.ConfigException;
import dev.weft.devnet.config.DevnetConfig;
import dev.weft.devnet.config.LayerZeroDeliveryConfig;
import dev.weft.devnet.evm.EvmRpcServer;
import dev.weft.devnet.fault.FaultInjector;
import dev.weft.devnet.gen.ChainSpec;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.lz.LzSourceWatcher;
import dev.weft.devnet.registry.DevnetRegistry;
import dev.weft.devnet.rest.CosmosRestServer;
import dev.weft.devnet.rpc.CometRpcServer;
import dev.weft.devnet.world.ChainNode;
import dev.weft.devnet.world.World;
import dev.weft.runtime.Listening;
import dev.weft.runtime.NodeContext;
import dev.weft.runtime.RolePlugin;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The devnet role: the simulated minievm rollup ({@code chain.chain_id}, {@code chain.bech32_prefix}) served on
 * loopback through its CometBFT RPC, Cosmos REST and EVM JSON-RPC, and the further chains of {@code devnet.chains}
 * (CometBFT RPC and Cosmos REST each), joined by IBC channels and OPinit bridges as {@code devnet.registry} says. In
 * live mode every chain produces a block every {@code devnet.block_interval} after the history, with the txs
 * submitted to it; in history mode the chains stay at {@code devnet.history_blocks}. Once it listens it supplies
 * its URLs as configuration ({@link #configuration()}): {@code chain.rpc}, {@code chain.rest}, {@code chain.json_rpc}
 * for the generated chain, {@code route.rest.<chain id>} and {@code track.nodes.<chain id>} for every chain.
 */
public final class DevnetVerticle extends VerticleBase implements RolePlugin.Started {
    private static final Logger LOG = LoggerFactory.getLogger(DevnetVerticle.class);
    /** At most this many blocks are produced per tick when the event loop fell behind. */
    private static final int MAX_CATCH_UP = 100;

    private final NodeContext ctx;
    private DevnetChain chain;
    private World world;
    private LzSourceWatcher layerZero;
    private LayerZeroDeliveryConfig layerZeroConfig;
    private long initialHead;
    private long startNanos;
    private Map<String, String> supplied = Map.of();
    private List<String> banner = List.of();

    public DevnetVerticle(NodeContext ctx) {
        this.ctx = ctx;
    }

    /** The chains this verticle runs (tests reach the world through the node's deployments). */
    public World world() {
        return world;
    }

    @Override
    public Future<?> start() {
        DevnetConfig d;
        try {
            d = DevnetConfig.from(ctx.config().source());
            layerZeroConfig = LayerZeroDeliveryConfig.from(ctx.config().source());
        } catch (ConfigException e) {
            return Future.failedFuture(e);
        }
        // the chains and the replay of the L1's and Move rollup's generated history run on a worker: thousands of txs
        // are signed and executed before the servers answer
        return vertx.executeBlocking(() -> prepare(d)).compose(p -> serve(d, p));
    }

    @Override
    public Map<String, String> configuration() {
        return supplied;
    }

    @Override
    public List<String> banner() {
        return banner;
    }

    private record Prepared(DevnetStart start, DevnetRegistry registry, DevnetChain chain, World world) {}

    private static Prepared prepare(DevnetConfig d) {
        DevnetStart s = DevnetStart.resolve(d, d.chainId(), Instant.now());
        DevnetRegistry registry = DevnetRegistry.load(d.registry());
        DevnetChain chain = new DevnetChain(ChainSpec.of(d, s.genesis()), s.head(), d.cachedBlocks());
        World world = World.build(chain, registry, d, s.genesis(), s.head(), d.mode() == DevnetConfig.Mode.LIVE);
        long started = System.nanoTime();
        long txs = world.replayHistory();
        if (txs > 0)
            LOG.info(
                    "devnet replayed {} generated txs of the other chains' history in {} ms",
                    txs,
                    (System.nanoTime() - started) / 1_000_000);
        return new Prepared(s, registry, chain, world);
    }

    private Future<?> serve(DevnetConfig d, Prepared p) {
        DevnetStart s = p.start();
        chain = p.chain();
        initialHead = s.head();
        world = p.world();
        FaultInjector faults = new FaultInjector(d.faults());
        List<Future<?>> listening = new ArrayList<>();
        List<Supplier<DevnetEndpoints.Chain>> bound = new ArrayList<>();
        String host = d.host().equals("0.0.0.0") ? "127.0.0.1" : d.host();
        for (ChainNode n : world.nodes()) {
            boolean generated = n.chain() == chain;
            DevnetConfig.ExtraChain ports = d.chains().stream()
                    .filter(x -> x.chainId().equals(n.chainId()))
                    .findFirst()
                    .orElse(null);
            CometRpcServer rpc = new CometRpcServer(vertx, faults, n.chain(), d.host(), d.txSearchWindow(), n);
            boolean plain = generated ? d.chainKind() == DevnetConfig.ChainKind.PLAIN : isL1(p.registry(), n.chainId());
            CosmosRestServer rest = new CosmosRestServer(vertx, faults, n.chain(), n, plain, d.txSearchWindow())
                    .withRoutes(world.restRoutes(n.chainId()));
            // an extra chain's ports are devnet.chains.<chain id>.rpc_port / rest_port
            String prefix = generated ? "devnet." : "devnet.chains." + n.chainId() + ".";
            int rpcPort = generated ? d.rpcPort() : ports.rpcPort();
            int restPort = generated ? d.restPort() : ports.restPort();
            listening.add(Listening.named(rpc.listen(d.host(), rpcPort), prefix + "rpc_port", d.host(), rpcPort));
            listening.add(Listening.named(rest.listen(d.host(), restPort), prefix + "rest_port", d.host(), restPort));
            EvmRpcServer evm =
                    generated ? new EvmRpcServer(vertx, faults, chain, d.txSearchWindow(), n::submitEthereum) : null;
            if (evm != null)
                listening.add(Listening.named(
                        evm.listen(d.host(), d.jsonRpcPort()), "devnet.json_rpc_port", d.host(), d.jsonRpcPort()));
            bound.add(() ->
                    new DevnetEndpoints.Chain(n.chainId(), rpc.port(), rest.port(), evm == null ? 0 : evm.port()));
        }
        return Future.all(listening).onSuccess(x -> {
            List<DevnetEndpoints.Chain> chains =
                    bound.stream().map(Supplier::get).toList();
            DevnetEndpoints.Chain generated = chains.stream()
                    .filter(c -> c.chainId().equals(chain.spec().chainId()))
                    .findFirst()
                    .orElseThrow();
            DevnetEndpoints endpoints = new DevnetEndpoints(host, generated, chains);
            ctx.info().attach(DevnetEndpoints.class, endpoints);
            supplied = suppliedConfiguration(endpoints);
            banner = List.of("  devnet        chain " + chain.spec().chainId() + " (" + describe(d) + ")   rpc "
                    + endpoints.url(generated.rpcPort()) + "   rest " + endpoints.url(generated.restPort())
                    + "   json-rpc " + endpoints.url(generated.jsonRpcPort()) + others(endpoints));
            if (d.mode() == DevnetConfig.Mode.LIVE) startProducing(d);
            startLayerZero(d);
            LOG.info(
                    "devnet {} serving {} blocks on {} chain(s)",
                    chain.spec().chainId(),
                    chain.head(),
                    world.nodes().size());
        });
    }

    /**
     * The URLs the node's roles read as ordinary configuration: the generated chain's as {@code chain.*}, every chain's
     * REST as {@code route.rest.<id>} and every other chain's CometBFT RPC as {@code track.nodes.<id>} (the generated
     * chain's RPC reaches the tracker as {@code chain.rpc}), and every other chain's RPC and REST as
     * {@code chains.<id>.rpc} / {@code .rest}, for a configuration that indexes it.
     */
    static Map<String, String> suppliedConfiguration(DevnetEndpoints e) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("chain.rpc", e.url(e.generated().rpcPort()));
        out.put("chain.rest", e.url(e.generated().restPort()));
        out.put("chain.json_rpc", e.url(e.generated().jsonRpcPort()));
        for (DevnetEndpoints.Chain c : e.chains()) {
            out.put("route.rest." + c.chainId(), e.url(c.restPort()));
            if (!c.equals(e.generated())) {
                out.put("track.nodes." + c.chainId(), e.url(c.rpcPort()));
                // read only where the configuration indexes the chain (an entry of chains)
                out.put("chains." + c.chainId() + ".rpc", e.url(c.rpcPort()));
                out.put("chains." + c.chainId() + ".rest", e.url(c.restPort()));
            }
        }
        return Map.copyOf(out);
    }

    @Override
    public Future<?> stop() {
        return layerZero == null ? Future.succeededFuture() : layerZero.stop();
    }

    /** The simulated LayerZero delivery, when a source chain is configured and a lane ends on a chain here. */
    private void startLayerZero(DevnetConfig d) {
        LayerZeroDeliveryConfig lz = layerZeroConfig;
        if (!lz.enabled()) return;
        if (d.mode() != DevnetConfig.Mode.LIVE || !world.layerZero().serves()) {
            LOG.warn(
                    "devnet.layer_zero.source_rpc is set but no LayerZero lane ends on a live chain here: nothing is delivered");
            return;
        }
        layerZero = new LzSourceWatcher(vertx, lz, world.layerZero());
        layerZero.start();
    }

    /** An L1 of the registry: a plain SDK chain (the Initia L1 has no opchild module). */
    private static boolean isL1(DevnetRegistry registry, String chainId) {
        var c = registry.chain(chainId);
        return c != null && c.l1();
    }

    /** The other chains' URLs, one line each under the generated chain's (the banner prints the value as is). */
    private String others(DevnetEndpoints e) {
        StringBuilder b = new StringBuilder();
        for (DevnetEndpoints.Chain n : e.chains()) {
            if (n.equals(e.generated())) continue;
            b.append("\n                chain ")
                    .append(n.chainId())
                    .append("   rpc ")
                    .append(e.url(n.rpcPort()))
                    .append("   rest ")
                    .append(e.url(n.restPort()));
        }
        return b.toString();
    }

    private String describe(DevnetConfig d) {
        String history = chain.head() + " blocks";
        return d.mode() == DevnetConfig.Mode.LIVE
                ? history + ", then a block every " + d.blockInterval().toMillis() + "ms"
                : history + ", history mode";
    }

    /** Keeps the heads at history + elapsed / interval (catching up a little when a tick came late). */
    private void startProducing(DevnetConfig d) {
        startNanos = System.nanoTime();
        long interval = d.blockInterval().toNanos();
        vertx.setPeriodic(Math.max(1, d.blockInterval().toMillis()), id -> {
            long target = initialHead + (System.nanoTime() - startNanos) / interval;
            for (int i = 0; i < MAX_CATCH_UP && chain.head() < target; i++) world.produceNext();
        });
    }
}
