package dev.weft.devnet;

import dev.weft.config.ConfigException;
import dev.weft.config.WeftConfig;
import dev.weft.devnet.evm.EvmRpcServer;
import dev.weft.devnet.fault.FaultInjector;
import dev.weft.devnet.gen.ChainSpec;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.rest.CosmosRestServer;
import dev.weft.devnet.rpc.CometRpcServer;
import dev.weft.node.NodeContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;

/**
 * The devnet role: one simulated minievm rollup ({@code chain.chain_id}, {@code chain.bech32_prefix}) served on
 * loopback through its CometBFT RPC, Cosmos REST and EVM JSON-RPC. In live mode it produces a block every
 * {@code devnet.block_interval} after the history; in history mode the chain stays at {@code devnet.history_blocks}.
 * The bound ports go into the node info ({@code devnet.rpc.port}, {@code devnet.rest.port},
 * {@code devnet.json_rpc.port}), from which the node points its own chain URLs at the devnet.
 */
public final class DevnetVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(DevnetVerticle.class);
  /** At most this many blocks are produced per tick when the event loop fell behind. */
  private static final int MAX_CATCH_UP = 100;

  private final NodeContext ctx;
  private DevnetChain chain;
  private long initialHead;
  private long startNanos;

  public DevnetVerticle(NodeContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Future<?> start() {
    WeftConfig config = ctx.config();
    if (!config.chain().isEvm()) {
      return Future.failedFuture(new ConfigException("chain.vm", "the devnet simulates EVM rollups only (got " + config.chain().vm().name().toLowerCase(java.util.Locale.ROOT) + ")"));
    }
    DevnetConfig d = config.devnet();
    return vertx.executeBlocking(() -> DevnetStart.resolve(d, config.chain().chainId(), Instant.now()))
        .compose(s -> serve(config, d, s));
  }

  private Future<?> serve(WeftConfig config, DevnetConfig d, DevnetStart s) {
    chain = new DevnetChain(ChainSpec.of(d, config.chain(), s.genesis()), s.head());
    initialHead = s.head();
    FaultInjector faults = new FaultInjector(d.faults());
    CometRpcServer rpc = new CometRpcServer(vertx, faults, chain, d.host(), d.txSearchWindow());
    CosmosRestServer rest = new CosmosRestServer(vertx, faults, chain);
    EvmRpcServer evm = new EvmRpcServer(vertx, faults, chain);
    return Future.all(rpc.listen(d.host(), d.rpcPort()), rest.listen(d.host(), d.restPort()), evm.listen(d.host(), d.jsonRpcPort()))
        .onSuccess(x -> {
          String host = d.host().equals("0.0.0.0") ? "127.0.0.1" : d.host();
          ctx.info().put("devnet.host", host);
          ctx.info().put("devnet.rpc.port", Integer.toString(rpc.port()));
          ctx.info().put("devnet.rest.port", Integer.toString(rest.port()));
          ctx.info().put("devnet.json_rpc.port", Integer.toString(evm.port()));
          ctx.info().put("devnet", "chain " + chain.spec().chainId() + " (" + describe(d) + ")   rpc http://" + host + ":" + rpc.port()
              + "   rest http://" + host + ":" + rest.port() + "   json-rpc http://" + host + ":" + evm.port());
          if (d.mode() == DevnetConfig.Mode.LIVE) startProducing(d);
          LOG.info("devnet {} serving {} blocks: rpc {}, rest {}, json-rpc {}", chain.spec().chainId(), chain.head(), rpc.port(), rest.port(), evm.port());
        });
  }

  private String describe(DevnetConfig d) {
    String history = chain.head() + " blocks";
    return d.mode() == DevnetConfig.Mode.LIVE ? history + ", then a block every " + d.blockInterval().toMillis() + "ms" : history + ", history mode";
  }

  /** Keeps the head at history + elapsed / interval (catching up a little when a tick came late). */
  private void startProducing(DevnetConfig d) {
    startNanos = System.nanoTime();
    long interval = d.blockInterval().toNanos();
    vertx.setPeriodic(Math.max(1, d.blockInterval().toMillis()), id -> {
      long target = initialHead + (System.nanoTime() - startNanos) / interval;
      for (int i = 0; i < MAX_CATCH_UP && chain.head() < target; i++) chain.advance();
    });
  }
}
