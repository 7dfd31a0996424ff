package dev.weft.track;

import dev.weft.bus.Addresses;
import dev.weft.node.NodeContext;
import dev.weft.store.TransferStore;
import dev.weft.track.model.Transfer;
import dev.weft.track.model.TransferState;
import dev.weft.track.poll.ChainPoller;
import dev.weft.track.poll.ChainRpc;
import dev.weft.track.poll.RpcClients;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The transfer tracker (role {@code track}, a single writer behind a cluster-wide lease). At start it loads the open
 * transfers and the chains' scan cursors from the database, then runs poll cycles every {@code track.poll_interval}:
 * <ol>
 *   <li>pick up transfers registered (or re-armed) since the last cycle, each with a one-off search for its hash;</li>
 *   <li>scan every chain something is waited for on, all in parallel, each in batches ({@link ChainPoller}), and apply
 *   the txs found to the transfers (matched locally by hash and packet keys);</li>
 *   <li>run the one-off searches queued (new hashes, catch-ups for events that may predate the scans), bounded by
 *   {@code track.lookups_per_poll}, and apply what they find;</li>
 *   <li>time-driven transitions (timeouts by the destination's clock, withdrawal claimability by the L1's, the stall
 *   timeout: ABANDONED);</li>
 *   <li>save the changed transfers, their hops and the cursors in one transaction, then publish
 *   {@link Addresses#TRANSFER_UPDATED} {@code {tx_hash, chain_id, state}} for every state each went through.</li>
 * </ol>
 * A restarted tracker resumes from the saved cursors, so nothing that happened meanwhile is missed.
 */
public final class TxTrackerVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(TxTrackerVerticle.class);
  private static final int ARMED_PER_CYCLE = 10_000;

  private final NodeContext ctx;
  private final TrackConfig config;
  private TrackChains chains;
  private TransferStore store;
  private TransferBook book;
  private RpcClients clients;
  private final Map<String, ChainPoller> pollers = new LinkedHashMap<>();
  private final Set<String> dropped = new HashSet<>();
  private final Set<String> unreachable = new HashSet<>();
  private boolean stopped;
  private long timer = -1;
  private Future<Void> running = Future.succeededFuture();

  public TxTrackerVerticle(NodeContext ctx) {
    this.ctx = ctx;
    this.config = ctx.config().track();
  }

  @Override
  public Future<?> start() {
    store = new TransferStore(ctx.pool());
    return vertx.executeBlocking(() -> TrackChains.load(ctx.config().route(), config, ctx.info()))
        .compose(c -> {
          chains = c;
          book = new TransferBook(c, System::currentTimeMillis);
          clients = new RpcClients(vertx, c, config);
          return store.cursors();
        })
        .compose(cursors -> {
          cursors.forEach((chain, cursor) -> {
            ChainRpc rpc = clients.of(chain);
            if (rpc != null) pollers.put(chain, poller(chain, rpc, cursor));
          });
          return store.loadOpen();
        })
        .map(open -> {
          open.forEach(this::adopt);
          LOG.info("tracker resumed {} open transfers on {} chains", open.size(), pollers.size());
          cycle();
          return null;
        });
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    if (timer >= 0) vertx.cancelTimer(timer);
    // the cycle in flight ends (and saves) before the lease goes: a successor never races its last write
    return running.transform(x -> clients == null ? Future.succeededFuture() : clients.close());
  }

  private ChainPoller poller(String chain, ChainRpc rpc, TransferStore.Cursor cursor) {
    return new ChainPoller(chain, rpc, cursor, config.maxBlocksPerPoll(), config.pageSize(), config.maxPagesPerPoll());
  }

  /** Takes a transfer from the database into the book; an unseen one gets a search for its hash. */
  private void adopt(TransferStore.Stored s) {
    Transfer t = s.transfer();
    book.add(t, s.state(), s.progressAtMillis());
    if (t.tx() == null) CatchUps.hash(t).forEach(book::catchUp);
    if (t.state() != s.state()) book.changed(t); // re-armed: its stored state was reset to SUBMITTED
  }

  private void cycle() {
    if (stopped) return;
    long started = System.currentTimeMillis();
    running = store.takeArmed(ARMED_PER_CYCLE)
        .compose(armed -> {
          armed.forEach(this::adopt);
          return scan();
        })
        .compose(v -> searches())
        .compose(v -> {
          Map<String, Long> times = new HashMap<>();
          pollers.forEach((chain, p) -> {
            if (p.cursor() != null) times.put(chain, p.cursor().timeNanos());
          });
          book.tick(times, config.stallTimeout().toMillis());
          return save();
        });
    running.onComplete(ar -> {
      if (ar.failed()) LOG.warn("tracker cycle failed (retried next cycle): {}", ar.cause().toString());
      if (stopped) return;
      long delay = Math.max(1, config.pollInterval().toMillis() - (System.currentTimeMillis() - started));
      timer = vertx.setTimer(delay, t -> cycle());
    });
    running = running.recover(e -> Future.succeededFuture());
  }

  /** Scans every chain something is waited for on (in parallel) and applies what they found. */
  private Future<Void> scan() {
    Set<String> wanted = book.chains();
    for (String chain : new ArrayList<>(pollers.keySet())) {
      if (!wanted.contains(chain)) {
        pollers.remove(chain);
        dropped.add(chain);
      }
    }
    for (String chain : wanted) {
      if (pollers.containsKey(chain)) continue;
      ChainRpc rpc = clients.of(chain);
      if (rpc == null) {
        if (unreachable.add(chain)) LOG.warn("no RPC URL for {}: its transfers cannot be followed (set track.nodes.{})", chain, chain);
        continue;
      }
      pollers.put(chain, poller(chain, rpc, null));
      dropped.remove(chain);
      book.catchUpOn(chain); // its scans start at its head: what happened before is searched once
    }
    List<ChainPoller> list = new ArrayList<>(pollers.values());
    List<Future<ChainPoller.Scan>> scans = new ArrayList<>();
    for (ChainPoller p : list) scans.add(p.scan());
    return Future.join(scans).transform(ar -> {
      List<ObservedTx> txs = new ArrayList<>();
      Map<String, Long> covered = new HashMap<>();
      for (int i = 0; i < list.size(); i++) {
        Future<ChainPoller.Scan> f = scans.get(i);
        if (f.failed()) {
          LOG.warn("scan of {} failed: {}", list.get(i).chainId(), f.cause().toString());
          continue;
        }
        txs.addAll(f.result().txs());
        if (f.result().coveredBefore() != null) covered.put(list.get(i).chainId(), f.result().coveredBefore());
      }
      book.apply(txs, covered);
      return Future.succeededFuture();
    });
  }

  /** Runs the queued one-off searches (bounded) and applies what they found. */
  private Future<Void> searches() {
    List<TxObserver.CatchUp> queued = book.takeCatchUps(config.lookupsPerPoll());
    List<Future<List<ObservedTx>>> results = new ArrayList<>();
    List<TxObserver.CatchUp> retry = new ArrayList<>();
    Set<String> wanted = book.chains();
    for (TxObserver.CatchUp c : queued) {
      if (!wanted.contains(c.chainId())) continue; // nothing waits there any more
      ChainPoller p = pollers.get(c.chainId());
      if (p == null || p.cursor() == null) { // the chain is not scanned yet: search after its first scan
        retry.add(c);
        continue;
      }
      results.add(p.search(c.query(), c.perPage()).onFailure(e -> book.catchUp(c)));
    }
    retry.forEach(book::catchUp);
    return Future.join(results).transform(ar -> {
      List<ObservedTx> txs = new ArrayList<>();
      for (Future<List<ObservedTx>> f : results) if (f.succeeded()) txs.addAll(f.result());
      Map<String, Long> covered = new HashMap<>();
      pollers.forEach((chain, p) -> {
        if (p.cursor() != null) covered.put(chain, p.cursor().timeNanos());
      });
      book.apply(txs, covered);
      return Future.succeededFuture();
    });
  }

  /** Saves the cycle's changes and cursors in one transaction, then publishes the state changes. */
  private Future<Void> save() {
    List<TransferBook.Change> changes = book.changes();
    List<TransferStore.Save> saves = changes.stream()
        .map(c -> new TransferStore.Save(c.transfer(), c.after(), c.progressAtMillis())).toList();
    Map<String, TransferStore.Cursor> cursors = new LinkedHashMap<>();
    pollers.forEach((chain, p) -> {
      if (p.cursor() != null) cursors.put(chain, p.cursor());
    });
    List<String> drop = List.copyOf(dropped);
    return store.save(saves, cursors, drop).map(v -> {
      dropped.removeAll(drop);
      book.saved(changes);
      for (TransferBook.Change c : changes) {
        for (TransferState s : c.states()) {
          vertx.eventBus().publish(Addresses.TRANSFER_UPDATED, new JsonObject().put("tx_hash", c.transfer().txHash)
              .put("chain_id", c.transfer().chainId).put("state", s.name()));
        }
      }
      return null;
    });
  }
}
