package dev.weft.devnet;

import dev.weft.config.ConfigException;
import dev.weft.config.DevnetConfig;
import dev.weft.config.LayerZeroDeliveryConfig;
import dev.weft.config.WeftConfig;
import dev.weft.devnet.evm.EvmRpcServer;
import dev.weft.devnet.fault.FaultInjector;
import dev.weft.devnet.gen.ChainSpec;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.lz.LzSourceWatcher;
import dev.weft.devnet.rest.CosmosRestServer;
import dev.weft.devnet.rpc.CometRpcServer;
import dev.weft.devnet.world.ChainNode;
import dev.weft.devnet.world.World;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.RegistryLoader;
import dev.weft.runtime.Listening;
import dev.weft.runtime.NodeContext;
import dev.weft.runtime.NodeInfo;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The devnet role: the simulated minievm rollup ({@code chain.chain_id}, {@code chain.bech32_prefix}) served on
 * loopback through its CometBFT RPC, Cosmos REST and EVM JSON-RPC, and the further chains of {@code devnet.chains}
 * (CometBFT RPC and Cosmos REST each), joined by IBC channels and OPinit bridges as {@code devnet.registry} says. In
 * live mode every chain produces a block every {@code devnet.block_interval} after the history, with the txs
 * submitted to it; in history mode the chains stay at {@code devnet.history_blocks}. Bound ports go into the node
 * info ({@code devnet.rpc.port}, … for the generated chain; {@code devnet.<chain id>.rpc.port} and
 * {@code .rest.port} for every chain), from which the node points its chain URLs and the tracker its chains.
 */
public final class DevnetVerticle extends VerticleBase {
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

    public DevnetVerticle(NodeContext ctx) {
        this.ctx = ctx;
    }

    /** The chains this verticle runs (tests reach the world through the node's deployments). */
    public World world() {
        return world;
    }

    @Override
    public Future<?> start() {
        WeftConfig config = ctx.config();
        if (!config.chain().isEvm()) {
            return Future.failedFuture(new ConfigException(
                    "chain.vm",
                    "the devnet simulates EVM rollups only (got "
                            + config.chain().vm().name().toLowerCase(java.util.Locale.ROOT) + ")"));
        }
        DevnetConfig d = config.devnet();
        try {
            layerZeroConfig = LayerZeroDeliveryConfig.from(config.source());
        } catch (ConfigException e) {
            return Future.failedFuture(e);
        }
        return vertx.executeBlocking(() -> new Prepared(
                        DevnetStart.resolve(d, config.chain().chainId(), Instant.now()),
                        RegistryLoader.load(List.of(d.registry()), java.util.Map.of())))
                .compose(p -> serve(config, d, p));
    }

    private record Prepared(DevnetStart start, Registry registry) {}

    private Future<?> serve(WeftConfig config, DevnetConfig d, Prepared p) {
        DevnetStart s = p.start();
        chain = new DevnetChain(ChainSpec.of(d, config.chain(), s.genesis()), s.head(), d.cachedBlocks());
        initialHead = s.head();
        world = World.build(chain, p.registry(), d, s.genesis(), s.head(), d.mode() == DevnetConfig.Mode.LIVE);
        FaultInjector faults = new FaultInjector(d.faults());
        List<Future<?>> listening = new ArrayList<>();
        List<Supplier<NodeInfo.DevnetChain>> bound = new ArrayList<>();
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
            bound.add(
                    () -> new NodeInfo.DevnetChain(n.chainId(), rpc.port(), rest.port(), evm == null ? 0 : evm.port()));
        }
        return Future.all(listening).onSuccess(x -> {
            List<NodeInfo.DevnetChain> chains =
                    bound.stream().map(Supplier::get).toList();
            NodeInfo.DevnetChain generated = chains.stream()
                    .filter(c -> c.chainId().equals(chain.spec().chainId()))
                    .findFirst()
                    .orElseThrow();
            ctx.info()
                    .devnet(new NodeInfo.Devnet(
                            host,
                            "chain " + chain.spec().chainId() + " (" + describe(d) + ")   rpc http://"
                                    + host + ":" + generated.rpcPort() + "   rest http://" + host + ":"
                                    + generated.restPort() + "   json-rpc http://"
                                    + host + ":" + generated.jsonRpcPort() + others(host, chains),
                            generated,
                            chains));
            if (d.mode() == DevnetConfig.Mode.LIVE) startProducing(d);
            startLayerZero(d);
            LOG.info(
                    "devnet {} serving {} blocks on {} chain(s)",
                    chain.spec().chainId(),
                    chain.head(),
                    world.nodes().size());
        });
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
    private static boolean isL1(Registry registry, String chainId) {
        var c = registry.chain(chainId);
        return c != null && c.l1();
    }

    /** The other chains' URLs, one line each under the generated chain's (the banner prints the value as is). */
    private String others(String host, List<NodeInfo.DevnetChain> chains) {
        StringBuilder b = new StringBuilder();
        for (NodeInfo.DevnetChain n : chains) {
            if (n.chainId().equals(chain.spec().chainId())) continue;
            b.append("\n                chain ")
                    .append(n.chainId())
                    .append("   rpc http://")
                    .append(host)
                    .append(':')
                    .append(n.rpcPort())
                    .append("   rest http://")
                    .append(host)
                    .append(':')
                    .append(n.restPort());
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
