package dev.weft.evm;

import dev.weft.config.EvmConfig;
import dev.weft.model.evm.TracedBlock;
import dev.weft.bus.Addresses;
import dev.weft.chain.client.Backoff;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.config.ChainConfig;
import dev.weft.config.IngestConfig;
import dev.weft.model.ingest.IngestProgress;
import dev.weft.runtime.NodeContext;
import dev.weft.store.InternalTxStore;
import dev.weft.store.PositionMovedException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The EVM tracer: its own cursor ({@code evm}) behind ingestion. It asks its {@link HeightSource} for the next heights
 * (in a node: those the ingest cursor has passed whose block has EVM txs), traces up to {@code evm.window} of them
 * concurrently ({@link BlockTracer}), and commits them strictly in height order, a run of ready heights per
 * transaction, the cursor moving in the same transaction after a position check, so nothing is skipped or written
 * twice, also across restarts and with a second writer. A height that fails (node error, receipts and traces that do
 * not pair) is retried with capped backoff, never skipped. It wakes on {@code block indexed} and also polls, since
 * events are at-most-once. After each commit, {@code internal txs indexed} is published once per height, in order. On
 * a chain without an EVM it does nothing.
 */
public final class EvmTraceVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(EvmTraceVerticle.class);

  private final NodeContext ctx;
  private final EvmConfig cfg;
  private final IngestConfig retries;
  private final ChainConfig chain;
  private final HeightSource sourceOverride;
  private EvmRpcClient rpc;
  private BlockTracer tracer;
  private InternalTxStore store;
  private HeightSource source;
  private EvmMetrics metrics;
  private IngestProgress progress;
  private MessageConsumer<Object> wake;

  // pipeline state, confined to this verticle's event loop
  private InternalTxStore.Position committed;
  /** The highest height handed to the tracer (or committed). */
  private long planned;
  /** Planned heights not committed yet, in order: being traced or ready. Its size is bounded by the window. */
  private final ArrayDeque<InternalTxStore.Target> order = new ArrayDeque<>();
  private final Map<Long, TracedBlock> ready = new HashMap<>();
  private long head;
  /** Bumped whenever the plan is reset, so traces started before are dropped. */
  private int epoch;
  private boolean planning;
  private boolean replan;
  private boolean committing;
  /** A run whose commit failed without telling whether it went through (decided when the position is read again). */
  private InternalTxStore.Batch unconfirmed;
  private boolean recovering;
  private boolean stopped;
  private int commitFailures;
  private Promise<Void> idle;
  private long pollTimer = -1;
  private long progressTimer = -1;

  public EvmTraceVerticle(NodeContext ctx) {
    this(ctx, null);
  }

  /**
   * A tracer that visits the heights of {@code source} instead of the ingested ones (null: the ingested ones). Tests
   * drive a plain EVM node (Anvil) this way: {@code new EvmTraceVerticle(ctx, HeightSource.range(1, head))}.
   */
  public EvmTraceVerticle(NodeContext ctx, HeightSource source) {
    this.ctx = ctx;
    this.cfg = ctx.config().evm();
    this.retries = ctx.config().ingest();
    this.chain = ctx.config().chain();
    this.sourceOverride = source;
  }

  @Override
  public Future<?> start() {
    if (!chain.isEvm()) {
      LOG.info("chain {} runs the {} VM: the EVM tracer has nothing to do", chain.chainId(), chain.vm().name().toLowerCase(java.util.Locale.ROOT));
      return Future.succeededFuture();
    }
    if (chain.jsonRpcUrls().isEmpty()) {
      return Future.failedFuture(new IllegalStateException("the EVM tracer needs chain.json_rpc (or the devnet role to fill it in)"));
    }
    rpc = new EvmRpcClient(vertx, chain.jsonRpcUrls(), retries.clientOptions());
    tracer = new BlockTracer(vertx, rpc, cfg.traceTimeout());
    store = new InternalTxStore(ctx.pool(), 200_000);
    source = sourceOverride != null ? sourceOverride : HeightSource.ingested(store);
    metrics = EvmMetrics.forChain(chain.chainId());
    return store.position().onSuccess(pos -> {
      reset(pos);
      progress = new IngestProgress("internal txs", System.nanoTime(), pos.height(), pos.internalTxs());
      LOG.info("EVM tracer of {} resumes after height {} (json-rpc {}, {} heights in flight)", chain.chainId(), pos.height(),
          rpc.http().endpoints().all(), cfg.window());
      wake = vertx.eventBus().consumer(Addresses.BLOCK_INDEXED, m -> plan());
      pollTimer = vertx.setPeriodic(cfg.pollInterval().toMillis(), t -> plan());
      progressTimer = vertx.setPeriodic(cfg.progressInterval().toMillis(), t -> logProgress());
      plan();
    });
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    if (rpc == null) return Future.succeededFuture();
    if (pollTimer >= 0) vertx.cancelTimer(pollTimer);
    if (progressTimer >= 0) vertx.cancelTimer(progressTimer);
    Future<Void> unregistered = wake == null ? Future.succeededFuture() : wake.unregister();
    // let a running commit finish (it either commits whole or rolls back), then close the client
    Future<Void> quiet = committing ? (idle = Promise.promise()).future() : Future.succeededFuture();
    return Future.join(unregistered, quiet).compose(v -> rpc.close());
  }

  /** Starts planning again from what the database holds. */
  private void reset(InternalTxStore.Position pos) {
    epoch++;
    committed = pos;
    planned = pos.height();
    order.clear();
    ready.clear();
    metrics.height.set(pos.height());
    metrics.window.set(0);
  }

  // ---- plan and trace ----

  /** Asks the source for heights to fill the window (one question at a time; a wake-up meanwhile asks again after). */
  private void plan() {
    if (stopped || recovering) return;
    if (planning) {
      replan = true;
      return;
    }
    int room = cfg.window() - order.size();
    if (room <= 0) return;
    planning = true;
    int at = epoch;
    source.next(planned, room).onComplete(ar -> {
      planning = false;
      if (stopped) return;
      if (ar.failed()) {
        LOG.warn("cannot read the heights to trace: {}", ar.cause().getMessage());
      } else if (at == epoch) {
        head = Math.max(head, ar.result().head());
        metrics.head.set(head);
        for (InternalTxStore.Target t : ar.result().targets()) {
          if (t.height() <= planned) continue;
          order.add(t);
          planned = t.height();
          trace(t, 1, at);
        }
        metrics.window.set(order.size());
      }
      if (replan) {
        replan = false;
        plan();
      }
    });
  }

  private void trace(InternalTxStore.Target t, int attempt, int at) {
    long started = System.nanoTime();
    tracer.trace(t.height(), t.evmTxs()).onComplete(ar -> {
      if (stopped || at != epoch) return;
      if (ar.succeeded()) {
        metrics.traceLatency.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        ready.put(t.height(), ar.result());
        tryCommit();
        return;
      }
      metrics.traceRetries.increment();
      long delay = Backoff.delayMs(attempt, retries.retryBase(), retries.retryMax());
      if (attempt == 1 || attempt % 10 == 0) {
        LOG.warn("height {} not traced (attempt {}): {}; retrying in {} ms", t.height(), attempt, ar.cause().getMessage(), delay);
      }
      vertx.setTimer(delay, x -> {
        if (!stopped && at == epoch) trace(t, attempt + 1, at);
      });
    });
  }

  // ---- commit, strictly in order ----

  private void tryCommit() {
    if (stopped || recovering || committing) return;
    List<TracedBlock> run = new ArrayList<>();
    int rows = 0;
    for (InternalTxStore.Target t : order) {
      TracedBlock b = ready.get(t.height());
      if (b == null) break;
      if (!run.isEmpty() && (run.size() >= cfg.commitHeights() || rows + b.rows().size() > cfg.commitRows())) break;
      run.add(b);
      rows += b.rows().size();
    }
    if (run.isEmpty()) return;
    committing = true;
    InternalTxStore.Position before = committed;
    long started = System.nanoTime();
    vertx.executeBlocking(() -> store.prepare(run, before), false)
        .compose(batch -> store.commit(batch).map(batch).onFailure(e -> {
          if (!(e instanceof PositionMovedException)) unconfirmed = batch;
        }))
        .onComplete(ar -> {
          committing = false;
          if (ar.failed()) {
            if (idle != null) idle.tryComplete();
            if (!stopped) failed("commit of heights " + run.get(0).height() + ".." + run.get(run.size() - 1).height(), ar.cause());
            return;
          }
          commitFailures = 0;
          metrics.commitLatency.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
          committed = ar.result().after();
          metrics.height.set(committed.height());
          for (TracedBlock b : run) {
            order.removeFirst();
            ready.remove(b.height());
            published(b);
          }
          metrics.window.set(order.size());
          if (stopped) {
            if (idle != null) idle.tryComplete();
            return;
          }
          plan();
          tryCommit();
        });
  }

  /** A commit failed: drop the plan, wait, re-read the position from the database and go on from it. */
  private void failed(String what, Throwable cause) {
    commitFailures++;
    metrics.commitRetries.increment();
    recovering = true;
    epoch++;
    long delay = cause instanceof PositionMovedException ? 0 : Backoff.delayMs(commitFailures, retries.retryBase(), retries.retryMax());
    LOG.warn("{} failed (attempt {}): {}; re-reading the position in {} ms", what, commitFailures, cause.getMessage(), delay);
    vertx.setTimer(Math.max(1, delay), t -> {
      if (stopped) return;
      store.position().onComplete(ar -> {
        if (stopped) return;
        recovering = false;
        if (ar.failed()) {
          failed("reading the position", ar.cause());
          return;
        }
        if (unconfirmed != null && unconfirmed.after().equals(ar.result())) {
          // the commit went through after all (its answer lost while the database could not be asked): announce it
          unconfirmed.blocks().forEach(this::published);
        }
        unconfirmed = null;
        reset(ar.result());
        plan();
      });
    });
  }

  private void published(TracedBlock b) {
    metrics.heights.increment();
    metrics.internalTxs.increment(b.rows().size());
    vertx.eventBus().publish(Addresses.INTERNAL_TXS_INDEXED, new JsonObject()
        .put("chain_id", chain.chainId())
        .put("height", b.height())
        .put("count", b.rows().size()));
  }

  private void logProgress() {
    if (stopped || progress == null) return;
    if (!order.isEmpty() && head - committed.height() > 1) {
      LOG.info("EVM tracer: {}", progress.line(System.nanoTime(), committed.height(), head, committed.internalTxs()));
    } else {
      progress.reset(System.nanoTime(), committed.height(), committed.internalTxs());
    }
  }
}
