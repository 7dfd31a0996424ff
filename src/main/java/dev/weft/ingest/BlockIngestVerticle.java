package dev.weft.ingest;

import dev.weft.config.IngestConfig;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.model.ingest.IngestProgress;
import dev.weft.bus.Addresses;
import dev.weft.chain.Hex;
import dev.weft.chain.client.Backoff;
import dev.weft.chain.client.CometRpcClient;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.chain.model.Rfc3339;
import dev.weft.config.ChainConfig;
import dev.weft.runtime.NodeContext;
import dev.weft.nft.NftMetadata;
import dev.weft.nft.NftParser;
import dev.weft.store.IngestStore;
import dev.weft.store.PositionMovedException;
import dev.weft.store.NftStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.TreeMap;

/**
 * Block ingestion: one loop for catch-up and live follow (so there is no hand-over gap, rollytics#25). Heights up to
 * the node's head are fetched ahead concurrently in a bounded window (the memory bound); finished blocks wait in
 * height order and are committed strictly in order, several consecutive ones per transaction when they are ready.
 * Every node failure retries the height with capped backoff, a failed commit retries the same blocks, and the cursor
 * only moves with a commit, so nothing is skipped or written twice. After each commit, {@code block indexed} is
 * published once per height, in order.
 */
public final class BlockIngestVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(BlockIngestVerticle.class);

  private final NodeContext ctx;
  private final IngestConfig cfg;
  private final ChainConfig chain;
  private CometRpcClient rpc;
  private CosmosRestClient rest;
  private EvmRpcClient evm;
  private BlockFetcher fetcher;
  private IngestStore store;
  private IngestMetrics metrics;
  private IngestProgress progress;
  /** Where an empty database starts (chosen at start from the configuration and the node's earliest block). */
  private long firstHeight;

  // pipeline state, confined to this verticle's event loop
  private long nextFetch;
  private long head;
  private final TreeMap<Long, IndexedBlock> ready = new TreeMap<>();
  /** Approximate bytes held by {@link #ready}. */
  private long readyBytes;
  private final Set<Long> fetching = new HashSet<>();
  /** What the database holds (after the last successful commit). */
  private IngestStore.Position committed;
  /** The position after the batch being committed and the prepared one: where the next batch starts. */
  private IngestStore.Position planned;
  private long plannedNext;
  private IngestStore.Batch inflight;
  /** A batch whose commit failed without telling whether it went through (decided when the position is read again). */
  private IngestStore.Batch unconfirmed;
  private IngestStore.Batch prepared;
  private boolean preparing;
  private boolean recovering;
  /** Bumped whenever the plan is reset, so a preparation started before is dropped. */
  private int epoch;
  private int commitFailures;
  private boolean stopped;
  private Promise<Void> idle;
  private long headTimer = -1;
  private long progressTimer = -1;
  private long lastWindowFullLog;
  private boolean chainMismatchLogged;

  public BlockIngestVerticle(NodeContext ctx) {
    this.ctx = ctx;
    this.cfg = ctx.config().ingest();
    this.chain = ctx.config().chain();
  }

  @Override
  public Future<?> start() {
    if (chain.rpcUrls().isEmpty() || chain.restUrls().isEmpty() || chain.isEvm() && chain.jsonRpcUrls().isEmpty()) {
      return Future.failedFuture(new IllegalStateException(
          "ingestion needs chain.rpc, chain.rest" + (chain.isEvm() ? " and chain.json_rpc" : "") + " (or the devnet role to fill them in)"));
    }
    rpc = new CometRpcClient(vertx, chain.rpcUrls(), cfg.clientOptions());
    rest = new CosmosRestClient(vertx, chain.restUrls(), cfg.clientOptions());
    evm = chain.isEvm() ? new EvmRpcClient(vertx, chain.jsonRpcUrls(), cfg.clientOptions()) : null;
    NftMetadata nftMetadata = new NftMetadata(chain, evm, rest);
    fetcher = new BlockFetcher(vertx, rpc, rest, evm, new ProposerResolver(rest, chain.bech32Prefix()),
        new BlockAssembler(new AccountExtractor(chain), NftParser.forChain(chain)), nftMetadata, cfg);
    store = new IngestStore(ctx.pool(), 500_000, chain.isEvm());
    metrics = IngestMetrics.forChain(chain.chainId());
    return new NftStore(ctx.pool()).collections(nftMetadata::remember).compose(v -> store.position())
        .compose(pos -> pos.empty() ? fetcher.startHeight().map(h -> {
          firstHeight = h;
          return pos;
        }) : Future.succeededFuture(pos)).onSuccess(pos -> {
      resetPlan(pos);
      nextFetch = plannedNext;
      progress = new IngestProgress(System.nanoTime(), pos.height(), pos.txs());
      LOG.info("ingestion of {} starts at height {} (rpc {}, rest {}{})", chain.chainId(), plannedNext,
          rpc.http().endpoints().all(), rest.http().endpoints().all(), evm == null ? "" : ", json-rpc " + evm.http().endpoints().all());
      pollHead();
      progressTimer = vertx.setPeriodic(cfg.progressInterval().toMillis(), t -> logProgress());
    });
  }

  /** Starts planning again from what the database holds. */
  private void resetPlan(IngestStore.Position pos) {
    epoch++;
    committed = pos;
    planned = pos;
    plannedNext = pos.empty() ? firstHeight : pos.height() + 1;
    prepared = null;
    metrics.height.set(pos.height());
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    if (headTimer >= 0) vertx.cancelTimer(headTimer);
    if (progressTimer >= 0) vertx.cancelTimer(progressTimer);
    // let a running commit finish (it either commits whole or rolls back), then close the clients
    Future<Void> quiet = inflight != null ? (idle = Promise.promise()).future() : Future.succeededFuture();
    return quiet.compose(v -> Future.join(rpc.close(), rest.close(), evm == null ? Future.succeededFuture() : evm.close()));
  }

  // ---- head ----

  private void pollHead() {
    if (stopped) return;
    rpc.status().onComplete(ar -> {
      if (stopped) return;
      if (ar.succeeded()) {
        String network = ar.result().network();
        if (!network.isEmpty() && !network.equals(chain.chainId())) {
          if (!chainMismatchLogged) LOG.error("the node serves chain {} but chain.chain_id is {}: not indexing it", network, chain.chainId());
          chainMismatchLogged = true;
        } else if (ar.result().latestHeight() > head) {
          head = ar.result().latestHeight();
          metrics.head.set(head);
          pump();
        }
      } else {
        LOG.warn("cannot read the chain head: {}", ar.cause().getMessage());
      }
      headTimer = vertx.setTimer(cfg.pollInterval().toMillis(), t -> pollHead());
    });
  }

  // ---- fetch window ----

  private void pump() {
    // heights below nextFetch that are neither fetched nor in flight (after a restart of the plan): fetch them again
    for (long h = plannedNext; h < nextFetch && fetching.size() + ready.size() < cfg.window(); h++) {
      if (!ready.containsKey(h) && !fetching.contains(h)) fetch(h, 1, System.nanoTime());
    }
    while (!stopped && nextFetch <= head && fetching.size() + ready.size() < cfg.window() && readyBytes < cfg.bufferedBytes()) {
      long h = nextFetch++;
      if (!ready.containsKey(h) && !fetching.contains(h)) fetch(h, 1, System.nanoTime());
    }
    metrics.window.set(fetching.size() + ready.size());
    // backpressure: fetched blocks pile up behind a slow height or slow commits, and fetching waits
    if (nextFetch <= head && (readyBytes >= cfg.bufferedBytes()
        || fetching.size() + ready.size() >= cfg.window() && ready.size() >= Math.max(1, cfg.window() / 2))) logWindowFull();
    tryCommit();
  }

  private void fetch(long height, int attempt, long started) {
    fetching.add(height);
    fetcher.fetch(height).onComplete(ar -> {
      if (stopped) return;
      if (ar.succeeded()) {
        metrics.fetched(System.nanoTime() - started);
        fetching.remove(height);
        if (height > committed.height()) hold(ar.result());
        pump();
        return;
      }
      metrics.fetchRetries.increment();
      long delay = Backoff.delayMs(attempt, cfg.retryBase(), cfg.retryMax());
      if (attempt == 1 || attempt % 10 == 0) {
        LOG.warn("height {} not fetched (attempt {}): {}; retrying in {} ms", height, attempt, ar.cause().getMessage(), delay);
      }
      vertx.setTimer(delay, t -> {
        if (stopped) return;
        fetching.remove(height);
        fetch(height, attempt + 1, started);
      });
    });
  }

  private void hold(IndexedBlock b) {
    IndexedBlock old = ready.put(b.height(), b);
    readyBytes += b.approxBytes() - (old == null ? 0 : old.approxBytes());
  }

  /** Drops the held blocks up to a height (committed). */
  private void release(long upTo) {
    var done = ready.headMap(upTo + 1);
    for (IndexedBlock b : done.values()) readyBytes -= b.approxBytes();
    done.clear();
  }

  private void logWindowFull() {
    long now = System.currentTimeMillis();
    if (now - lastWindowFullLog < cfg.progressInterval().toMillis()) return;
    lastWindowFullLog = now;
    LOG.info("fetch window full: {} fetched blocks (~{} KiB) wait for height {} ({} heights in flight{}); fetching pauses",
        ready.size(), readyBytes / 1024, committed.height() + 1, fetching.size(), inflight != null ? ", a commit running" : "");
  }

  // ---- commit: prepare the next run on a worker while the current one is committed ----

  private void tryCommit() {
    if (stopped || recovering) return;
    if (inflight == null && prepared != null) {
      IngestStore.Batch b = prepared;
      prepared = null;
      send(b);
    }
    if (prepared == null && !preparing) prepareNext();
  }

  private void prepareNext() {
    List<IndexedBlock> batch = new ArrayList<>();
    int txs = 0;
    long h = plannedNext;
    IndexedBlock b;
    while (batch.size() < cfg.commitBlocks() && (b = ready.get(h)) != null) {
      if (!batch.isEmpty() && txs + b.txCount() > cfg.commitTxs()) break;
      batch.add(b);
      txs += b.txCount();
      h++;
    }
    if (batch.isEmpty()) return;
    preparing = true;
    int at = epoch;
    IngestStore.Position before = planned;
    vertx.executeBlocking(() -> store.prepare(batch, before), false).onComplete(ar -> {
      preparing = false;
      if (stopped) return;
      if (at != epoch) {
        tryCommit();
        return;
      }
      if (ar.failed()) {
        failed("preparing heights " + batch.get(0).height() + ".." + batch.get(batch.size() - 1).height(), ar.cause());
        return;
      }
      prepared = ar.result();
      planned = prepared.after();
      plannedNext = prepared.lastHeight() + 1;
      tryCommit();
    });
  }

  private void send(IngestStore.Batch b) {
    inflight = b;
    long started = System.nanoTime();
    store.commit(b).onComplete(ar -> {
      inflight = null;
      if (ar.succeeded()) {
        commitFailures = 0;
        metrics.committed(System.nanoTime() - started);
        committed = b.after();
        metrics.height.set(committed.height());
        release(committed.height());
        for (IngestStore.Committed c : b.committed()) published(c);
        if (stopped) {
          if (idle != null) idle.tryComplete();
          return;
        }
        pump();
      } else {
        if (idle != null) idle.tryComplete();
        if (!(ar.cause() instanceof PositionMovedException)) unconfirmed = b;
        if (!stopped) failed("commit of heights " + b.firstHeight() + ".." + b.lastHeight(), ar.cause());
      }
    });
  }

  /** A commit or preparation failed: drop the plan, wait, re-read the position from the database and go on from it. */
  private void failed(String what, Throwable cause) {
    commitFailures++;
    metrics.commitRetries.increment();
    epoch++;
    prepared = null;
    recovering = true;
    long delay = cause instanceof PositionMovedException ? 0 : Backoff.delayMs(commitFailures, cfg.retryBase(), cfg.retryMax());
    LOG.warn("{} failed (attempt {}): {}; re-reading the position in {} ms", what, commitFailures, cause.getMessage(), delay);
    vertx.setTimer(Math.max(1, delay), t -> {
      if (stopped) return;
      if (inflight != null) {
        // the other in-flight commit decides the position first
        vertx.setTimer(10, x -> failed(what, cause));
        return;
      }
      store.position().onComplete(ar -> {
        if (stopped) return;
        recovering = false;
        if (ar.failed()) {
          failed("reading the position", ar.cause());
          return;
        }
        if (unconfirmed != null && unconfirmed.after().equals(ar.result())) {
          // the commit went through after all (its answer lost while the database could not be asked): announce it
          for (IngestStore.Committed c : unconfirmed.committed()) published(c);
        }
        unconfirmed = null;
        resetPlan(ar.result());
        release(plannedNext - 1);
        if (nextFetch < plannedNext) nextFetch = plannedNext;
        pump();
      });
    });
  }

  private void published(IngestStore.Committed c) {
    metrics.blocks.increment();
    metrics.txs.increment(c.txCount());
    metrics.evmTxs.increment(c.evmTxCount());
    vertx.eventBus().publish(Addresses.BLOCK_INDEXED, new JsonObject()
        .put("chain_id", chain.chainId())
        .put("height", c.height())
        .put("hash", Hex.upper(c.hash()))
        .put("tx_count", c.txCount())
        .put("time", Rfc3339.nanos(c.timeNs())));
  }

  private void logProgress() {
    if (stopped || progress == null) return;
    long height = committed.height();
    if (head - height > 1) {
      LOG.info(progress.line(System.nanoTime(), height, head, committed.txs()));
    } else {
      progress.reset(System.nanoTime(), height, committed.txs());
    }
  }
}
