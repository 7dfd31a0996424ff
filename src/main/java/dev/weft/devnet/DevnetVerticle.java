package dev.weft.devnet;

import dev.weft.config.ConfigException;
import dev.weft.config.WeftConfig;
import dev.weft.devnet.evm.EvmRpcServer;
import dev.weft.devnet.fault.FaultInjector;
import dev.weft.devnet.gen.ChainSpec;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.rest.CosmosRestServer;
import dev.weft.devnet.rpc.CometRpcServer;
import dev.weft.devnet.world.ChainNode;
import dev.weft.devnet.world.World;
import dev.weft.node.NodeContext;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.RegistryLoader;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

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
      return Future.failedFuture(new ConfigException("chain.vm", "the devnet simulates EVM rollups only (got " + config.chain().vm().name().toLowerCase(java.util.Locale.ROOT) + ")"));
    }
    DevnetConfig d = config.devnet();
    return vertx.executeBlocking(() -> new Prepared(DevnetStart.resolve(d, config.chain().chainId(), Instant.now()),
            RegistryLoader.load(List.of(d.registry()), java.util.Map.of())))
        .compose(p -> serve(config, d, p));
  }

  private record Prepared(DevnetStart start, Registry registry) {}

  private Future<?> serve(WeftConfig config, DevnetConfig d, Prepared p) {
    DevnetStart s = p.start();
    chain = new DevnetChain(ChainSpec.of(d, config.chain(), s.genesis()), s.head());
    initialHead = s.head();
    world = World.build(chain, p.registry(), d, s.genesis(), s.head(), d.mode() == DevnetConfig.Mode.LIVE);
    FaultInjector faults = new FaultInjector(d.faults());
    List<Future<?>> listening = new ArrayList<>();
    List<Runnable> announce = new ArrayList<>();
    String host = d.host().equals("0.0.0.0") ? "127.0.0.1" : d.host();
    for (ChainNode n : world.nodes()) {
      boolean generated = n.chain() == chain;
      DevnetConfig.ExtraChain ports = d.chains().stream().filter(x -> x.chainId().equals(n.chainId())).findFirst().orElse(null);
      CometRpcServer rpc = new CometRpcServer(vertx, faults, n.chain(), d.host(), d.txSearchWindow(), n);
      CosmosRestServer rest = new CosmosRestServer(vertx, faults, n.chain(), n).withRoutes(world.restRoutes(n.chainId()));
      listening.add(rpc.listen(d.host(), generated ? d.rpcPort() : ports.rpcPort()));
      listening.add(rest.listen(d.host(), generated ? d.restPort() : ports.restPort()));
      EvmRpcServer evm = generated ? new EvmRpcServer(vertx, faults, chain) : null;
      if (evm != null) listening.add(evm.listen(d.host(), d.jsonRpcPort()));
      announce.add(() -> {
        ctx.info().put("devnet." + n.chainId() + ".rpc.port", Integer.toString(rpc.port()));
        ctx.info().put("devnet." + n.chainId() + ".rest.port", Integer.toString(rest.port()));
        if (evm != null) {
          ctx.info().put("devnet.rpc.port", Integer.toString(rpc.port()));
          ctx.info().put("devnet.rest.port", Integer.toString(rest.port()));
          ctx.info().put("devnet.json_rpc.port", Integer.toString(evm.port()));
        }
      });
    }
    return Future.all(listening).onSuccess(x -> {
      ctx.info().put("devnet.host", host);
      ctx.info().put("devnet.chains", String.join(",", world.nodes().stream().map(ChainNode::chainId).toList()));
      announce.forEach(Runnable::run);
      ctx.info().put("devnet", "chain " + chain.spec().chainId() + " (" + describe(d) + ")   rpc http://" + host + ":"
          + ctx.info().get("devnet.rpc.port") + "   rest http://" + host + ":" + ctx.info().get("devnet.rest.port")
          + "   json-rpc http://" + host + ":" + ctx.info().get("devnet.json_rpc.port") + others(host));
      if (d.mode() == DevnetConfig.Mode.LIVE) startProducing(d);
      LOG.info("devnet {} serving {} blocks on {} chain(s)", chain.spec().chainId(), chain.head(), world.nodes().size());
    });
  }

  /** The other chains' URLs, one line each under the generated chain's (the banner prints the value as is). */
  private String others(String host) {
    StringBuilder b = new StringBuilder();
    for (ChainNode n : world.nodes()) {
      if (n.chain() == chain) continue;
      b.append("\n                chain ").append(n.chainId()).append("   rpc http://").append(host).append(':')
          .append(ctx.info().get("devnet." + n.chainId() + ".rpc.port")).append("   rest http://").append(host).append(':')
          .append(ctx.info().get("devnet." + n.chainId() + ".rest.port"));
    }
    return b.toString();
  }

  private String describe(DevnetConfig d) {
    String history = chain.head() + " blocks";
    return d.mode() == DevnetConfig.Mode.LIVE ? history + ", then a block every " + d.blockInterval().toMillis() + "ms" : history + ", history mode";
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
