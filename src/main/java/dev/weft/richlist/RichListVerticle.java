package dev.weft.richlist;

import dev.weft.bus.Addresses;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.chain.model.FungibleTransfer;
import dev.weft.config.ChainConfig;
import dev.weft.config.IngestConfig;
import dev.weft.config.RichListConfig;
import dev.weft.pipeline.RetryPolicy;
import dev.weft.pipeline.StepLoop;
import dev.weft.runtime.NodeContext;
import dev.weft.store.EventStore;
import dev.weft.store.RichListStore;
import dev.weft.store.RichListStore.Pair;
import dev.weft.store.RichListStore.Writes;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rich list: fungible balances per (token, account), applied from the transfer rows of the chain's VM (ERC-20
 * Transfer logs, Move fungible-asset movements, CW20 events). On an EVM rollup, from the ERC-20 transfer rows
 * ingestion commits with each block ({@code fungible_transfer}), behind its own cursor ({@code pipeline_cursor 'richlist'}, {@code /status.rich_list_height}).
 * It follows the ingest cursor (less {@code richlist.lag_blocks}), woken by {@code block indexed} and a poll. Each run
 * of heights is one transaction that checks the cursor, reads the balances it changes, and applies the deltas of the
 * heights before the first at which a balance would go negative; at that height the affected tokens are repaired:
 * every known holder's balance is read with batched {@code eth_call balanceOf} at that height and overwrites the
 * stored one. When the indexed history does not start at height 1 (ingestion started at {@code ingest.start_height}),
 * the first run is a snapshot instead: the balance of every known token for every known 20-byte account, read at one
 * height H, then deltas from H+1, each account or token seen for the first time since having its balances read at the
 * height before its run. From genesis, deltas alone are exact. After each commit {@code rich list updated}
 * is published. Its steps run one at a time in a {@link StepLoop} (retry with backoff, drain on stop). On Move and Wasm chains no node
 * call can read a balance back: the movements are applied from the first indexed height as they are (no snapshot, no
 * repair, no denom mapping).
 */
public final class RichListVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(RichListVerticle.class);
    private static final long SCAN_BLOCKS = 1_000;
    /** The transfer rows each VM's rich list applies. */
    private static final Map<ChainConfig.Vm, FungibleTransfer.Kind> KINDS = Map.of(
            ChainConfig.Vm.EVM,
            FungibleTransfer.Kind.ERC20,
            ChainConfig.Vm.MOVE,
            FungibleTransfer.Kind.MOVE_FA,
            ChainConfig.Vm.WASM,
            FungibleTransfer.Kind.CW20);

    private final NodeContext ctx;
    private final RichListConfig cfg;
    private final IngestConfig ingest;
    private final ChainConfig chain;
    private EvmRpcClient evm;
    private CosmosRestClient rest;
    private RichListStore store;
    private BalanceReader balances;
    private DenomResolver denoms;
    private RichListMetrics metrics;
    private MessageConsumer<JsonObject> blocks;
    private StepLoop loop;
    private long pollTimer = -1;
    /** Balance rows written since start or the last rebuild of the rank index. */
    private long rowsSinceRebuild;

    public RichListVerticle(NodeContext ctx) {
        this.ctx = ctx;
        this.cfg = ctx.config().richlist();
        this.ingest = ctx.config().ingest();
        this.chain = ctx.config().chain();
    }

    @Override
    public Future<?> start() {
        store = new RichListStore(ctx.pool(), chain.chainId());
        events = new EventStore(ctx.pool());
        metrics = RichListMetrics.forChain(chain.chainId());
        loop = new StepLoop(vertx, "rich list", new RetryPolicy(ingest.retryBase(), ingest.retryMax()), this::step);
        if (!chain.isEvm()) {
            LOG.info(
                    "rich list: {} is a {} chain: balances from its {} movements, from the first indexed height",
                    chain.chainId(),
                    chain.vm(),
                    KINDS.get(chain.vm()));
            return Future.succeededFuture(follow());
        }
        if (chain.jsonRpcUrls().isEmpty() || chain.restUrls().isEmpty()) {
            return Future.failedFuture(new IllegalStateException(
                    "the rich list needs chain.json_rpc and chain.rest (or the devnet role to fill them in)"));
        }
        evm = new EvmRpcClient(vertx, chain.jsonRpcUrls(), ingest.clientOptions());
        rest = new CosmosRestClient(vertx, chain.restUrls(), ingest.clientOptions());
        balances = new BalanceReader(evm, cfg.balanceBatch(), cfg.balanceConcurrency());
        denoms = new DenomResolver(rest);
        return store.denoms().map(stored -> {
            denoms.stored(stored);
            return follow();
        });
    }

    /** Wakes the loop on each indexed block and on the poll interval. */
    private Void follow() {
        blocks = vertx.eventBus().consumer(Addresses.BLOCK_INDEXED, m -> loop.wake());
        pollTimer = vertx.setPeriodic(cfg.pollInterval().toMillis(), t -> loop.wake());
        loop.wake();
        return null;
    }

    @Override
    public Future<?> stop() {
        if (pollTimer >= 0) vertx.cancelTimer(pollTimer);
        Future<Void> unregistered = blocks == null ? Future.succeededFuture() : blocks.unregister();
        Future<?> stopped = loop == null ? Future.succeededFuture() : loop.stop();
        return Future.join(unregistered, stopped)
                .compose(v -> evm == null ? Future.succeededFuture() : Future.join(evm.close(), rest.close()));
    }

    /** One step: a bootstrap snapshot, a run of heights or a repair. True when it moved the cursor (more may follow). */
    private Future<Boolean> step() {
        return store.progress().compose(p -> {
            long target = p.ingest() - cfg.lagBlocks();
            metrics.height.set(p.richList());
            if (p.firstBlock() == null || target < p.firstBlock()) return Future.succeededFuture(false);
            if (p.richList() == 0 && p.firstBlock() > 1 && evm != null)
                return bootstrap(p.firstBlock(), target).map(true);
            long from = Math.max(p.richList() + 1, p.firstBlock());
            if (from > target) return upkeep();
            boolean midChain = p.firstBlock() > 1 && evm != null;
            return store.runEnd(from, Math.min(target, from + cfg.commitBlocks() - 1), cfg.commitTxs())
                    .compose(to -> run(p.richList(), from, to, midChain))
                    .map(true);
        });
    }

    /**
     * Caught up: after more than {@code richlist.reindex_after_rows} balance rows written since start or the last rebuild,
     * rebuilds the rank index online (a catch-up leaves it mostly dead entries, and deep pages then plan a sort of the
     * whole token). A failure is logged and waits for as many writes again; it never stops the writer.
     */
    private Future<Boolean> upkeep() {
        long threshold = cfg.reindexAfterRows();
        if (threshold == 0 || rowsSinceRebuild <= threshold) return Future.succeededFuture(false);
        long rows = rowsSinceRebuild;
        rowsSinceRebuild = 0;
        long started = System.nanoTime();
        return store.rebuildRankIndex()
                .map(r -> {
                    metrics.reindexes.increment();
                    if (!r.leftoversDropped().isEmpty())
                        LOG.info(
                                "rich list: dropped invalid leftovers of an earlier rebuild: {}", r.leftoversDropped());
                    LOG.info(
                            "rich list: rebuilt the rank index after {} balance writes in {} ms: {} kB → {} kB",
                            rows,
                            (System.nanoTime() - started) / 1_000_000,
                            r.bytesBefore() / 1024,
                            r.bytesAfter() / 1024);
                    return false;
                })
                .recover(e -> {
                    LOG.warn(
                            "rich list: rebuilding the rank index failed after {} ms (retried after {} more balance writes): {}",
                            (System.nanoTime() - started) / 1_000_000,
                            threshold,
                            e.getMessage());
                    return Future.succeededFuture(false);
                });
    }

    private Future<RunDeltas> deltas(long from, long to) {
        Future<Set<String>> coinDenoms = evm == null ? Future.succeededFuture(Set.of()) : store.coinDenoms(to);
        return Future.all(store.transfers(from, to, KINDS.get(chain.vm())), coinDenoms)
                .compose(rows -> vertx.executeBlocking(() -> RunDeltas.of(rows.resultAt(0), rows.resultAt(1)), false));
    }

    /**
     * @param cursor the rich-list cursor the run follows: {@code from − 1}, or 0 for the first run of a Move or Wasm chain
     *               indexed from a later height (no snapshot sets it there)
     */
    private Future<Void> run(long cursor, long from, long to, boolean midChain) {
        return deltas(from, to)
                .compose(d -> resolve(d.denoms())
                        .compose(newDenoms -> (midChain
                                        ? firstSight(d, from - 1)
                                        : Future.succeededFuture(Map.<Pair, BigInteger>of()))
                                .compose(base -> apply(d, cursor, from, to, base, newDenoms))));
    }

    /** The new bank denom → ERC-20 mappings (none off EVM, where tokens are named by their own address). */
    private Future<Map<String, AccountAddress>> resolve(Set<String> seen) {
        return denoms == null ? Future.succeededFuture(Map.of()) : denoms.resolve(seen);
    }

    /**
     * Applies heights {@code from..to} of {@code d} on top of the first-sight balances {@code base}. The transaction sees
     * the balances it leaves; if one would have been negative at some height, it rolls back and applies the heights
     * before that one, or repairs the token when it is the first height.
     */
    private Future<Void> apply(
            RunDeltas d,
            long cursor,
            long from,
            long to,
            Map<Pair, BigInteger> base,
            Map<String, AccountAddress> newDenoms) {
        Map<Pair, BigInteger> net = d.net(to, Set.of());
        Writes w = new Writes(to, net, base, Set.of(), newDenoms);
        return store.transact(cursor, w, after -> {
                    // off EVM there is no balance to read back: the movements are applied as they are
                    RunDeltas.Negative n = evm == null ? null : d.firstNegative(RunDeltas.before(after, net), to);
                    if (n != null) throw new NegativeBalance(n);
                    return RunDeltas.holderDeltas(after, net, base);
                })
                .compose(c -> committed(c, d.sides(to)))
                .recover(e -> {
                    if (!(e instanceof NegativeBalance nb)) return Future.failedFuture(e);
                    long h = nb.negative.height();
                    return h == from
                            ? repair(d, nb.negative, newDenoms, base)
                            : apply(d, cursor, from, h - 1, base, newDenoms);
                });
    }

    /** Rolls back a transaction whose balances would have gone negative. */
    private static final class NegativeBalance extends RuntimeException {
        final RunDeltas.Negative negative;

        NegativeBalance(RunDeltas.Negative negative) {
            super("a balance would go negative at height " + negative.height(), null, false, false);
            this.negative = negative;
        }
    }

    /**
     * When the indexed history does not start at genesis, an account (or token) seen for the first time since the
     * snapshot had a balance nobody read: its balances of every token (every holder's of a new token) are read at the
     * height before the run, so the run's deltas apply to the real starting balances.
     */
    private Future<Map<Pair, BigInteger>> firstSight(RunDeltas d, long before) {
        Set<AccountAddress> accounts = d.accounts();
        if (accounts.isEmpty()) return Future.succeededFuture(Map.of());
        return Future.all(store.known(accounts), store.tokens()).compose(x -> {
            Set<AccountAddress> fresh = new LinkedHashSet<>(accounts);
            fresh.removeAll(x.<Set<AccountAddress>>resultAt(0));
            Set<AccountAddress> tokens = new LinkedHashSet<>(x.<List<AccountAddress>>resultAt(1));
            Set<AccountAddress> newTokens = new LinkedHashSet<>(d.tokens());
            newTokens.removeAll(tokens);
            tokens.addAll(newTokens);
            if (fresh.isEmpty() && newTokens.isEmpty()) return Future.succeededFuture(Map.<Pair, BigInteger>of());
            Future<List<AccountAddress>> holders =
                    newTokens.isEmpty() ? Future.succeededFuture(List.of()) : store.holders();
            return holders.compose(all -> {
                Map<AccountAddress, Set<AccountAddress>> which = new LinkedHashMap<>();
                for (AccountAddress t : tokens) {
                    Set<AccountAddress> as = new LinkedHashSet<>(fresh);
                    if (newTokens.contains(t)) as.addAll(all);
                    which.put(t, as);
                }
                return balances.read(which, before);
            });
        });
    }

    /**
     * A balance of {@code n.tokens()} would go negative at {@code n.height()} (the first height of {@code d}): reads every
     * known holder's balance of those tokens there (and of the accounts that height moves) and overwrites them, with the
     * other tokens' deltas of that height (on their first-sight balances {@code base}), in one transaction.
     */
    private Future<Void> repair(
            RunDeltas d, RunDeltas.Negative n, Map<String, AccountAddress> newDenoms, Map<Pair, BigInteger> base) {
        long h = n.height();
        return store.holdersOf(n.tokens())
                .compose(known -> {
                    Map<AccountAddress, Set<AccountAddress>> which = new LinkedHashMap<>(known);
                    d.accountsAt(h, n.tokens())
                            .forEach((t, accounts) -> which.computeIfAbsent(t, k -> new LinkedHashSet<>())
                                    .addAll(accounts));
                    int count = which.values().stream().mapToInt(Set::size).sum();
                    LOG.warn(
                            "rich list: a balance of {} would go negative at height {} (an event the history lacks): re-reading {} balances there",
                            n.tokens(),
                            h,
                            count);
                    return balances.read(which, h);
                })
                .compose(read -> {
                    Map<Pair, BigInteger> net = d.net(h, n.tokens());
                    Map<Pair, BigInteger> absolutes = new LinkedHashMap<>();
                    base.forEach((p, v) -> {
                        if (!n.tokens().contains(p.token())) absolutes.put(p, v);
                    });
                    Map<Pair, BigInteger> firstSight = new LinkedHashMap<>(absolutes);
                    absolutes.putAll(read);
                    Writes w = new Writes(h, net, absolutes, n.tokens(), newDenoms);
                    return store.transact(h - 1, w, after -> RunDeltas.holderDeltas(after, net, firstSight));
                })
                .compose(c -> {
                    metrics.repairs.increment(n.tokens().size());
                    return committed(c, d.sides(h));
                });
    }

    /**
     * The history starts at {@code first} > 1: balances before it are unknown, so they are read at one height {@code h}
     * for every token seen in the indexed txs (or mapped from a bank denom) and every known 20-byte account.
     */
    private Future<Void> bootstrap(long first, long h) {
        LOG.info(
                "rich list: the indexed history starts at height {}, not genesis: snapshot of balances at height {}",
                first,
                h);
        Set<AccountAddress> tokens = new LinkedHashSet<>();
        Set<AccountAddress> accounts = new LinkedHashSet<>();
        Set<String> seenDenoms = new LinkedHashSet<>();
        return scan(first, h, tokens, accounts, seenDenoms)
                .compose(v -> store.accounts20())
                .compose(known -> {
                    accounts.addAll(known);
                    return authAccounts(h);
                })
                .compose(listed -> {
                    accounts.addAll(listed);
                    return denoms.resolve(seenDenoms);
                })
                .compose(newDenoms -> {
                    tokens.addAll(newDenoms.values());
                    Map<AccountAddress, Set<AccountAddress>> which = new LinkedHashMap<>();
                    for (AccountAddress t : tokens) which.put(t, accounts);
                    LOG.info(
                            "rich list: reading {} tokens × {} accounts at height {}",
                            tokens.size(),
                            accounts.size(),
                            h);
                    return balances.read(which, h).compose(read -> {
                        Map<Pair, BigInteger> positive = new LinkedHashMap<>();
                        read.forEach((p, v) -> {
                            if (v.signum() > 0) positive.put(p, v);
                        });
                        Writes w = new Writes(h, Map.of(), positive, tokens, newDenoms);
                        return store.transact(0, w, after -> Map.of());
                    });
                })
                .compose(c -> committed(c, 0));
    }

    /**
     * The 20-byte accounts x/auth lists at {@code h} (as rollytics' bootstrap): holders that never appear in the indexed
     * history are found too. A node that does not serve the list (a 4xx) leaves the accounts of the history only.
     */
    private Future<Set<AccountAddress>> authAccounts(long h) {
        return rest.accountAddresses(h)
                .map(list -> {
                    Set<AccountAddress> out = new LinkedHashSet<>();
                    for (String a : list) {
                        try {
                            AccountAddress parsed = AccountAddress.parse(a, chain.bech32Prefix());
                            if (parsed.bytes().length == 20) out.add(parsed);
                        } catch (IllegalArgumentException e) {
                            LOG.debug("auth account {} skipped: {}", a, e.getMessage());
                        }
                    }
                    return out;
                })
                .recover(e -> {
                    if (!(e instanceof dev.weft.chain.client.NodeException ne) || ne.retryable())
                        return Future.failedFuture(e);
                    LOG.warn(
                            "rich list: the node does not list the accounts at height {} ({}): the snapshot covers the accounts of the indexed history",
                            h,
                            e.getMessage());
                    return Future.succeededFuture(Set.of());
                });
    }

    /** Tokens, accounts and denoms of the stored txs of heights {@code from..to}, read in chunks. */
    private Future<Void> scan(
            long from, long to, Set<AccountAddress> tokens, Set<AccountAddress> accounts, Set<String> seenDenoms) {
        if (from > to) return Future.succeededFuture();
        long end = Math.min(to, from + SCAN_BLOCKS - 1);
        return deltas(from, end).compose(d -> {
            tokens.addAll(d.tokens());
            for (Pair p : d.pairs()) accounts.add(p.account());
            seenDenoms.addAll(d.denoms());
            return scan(end + 1, to, tokens, accounts, seenDenoms);
        });
    }

    private EventStore events;

    /**
     * Announces a committed transaction. One whose answer was lost (found committed) wrote its event all the same: its
     * sequence is read back first (the rich list runs one step at a time, so announcements stay in order).
     */
    private Future<Void> committed(RichListStore.Committed c, long sides) {
        Writes w = c.writes();
        Future<Long> sequence = c.sequence() != null
                ? Future.succeededFuture(c.sequence())
                : events.sequencesAt(chain.chainId(), EventStore.RICHLIST, w.cursor(), w.cursor())
                        .map(m -> m.get(w.cursor()))
                        .otherwise((Long) null);
        return sequence.map(s -> {
            announce(w, s, sides);
            return null;
        });
    }

    private void announce(Writes w, Long sequence, long sides) {
        metrics.deltas.increment(sides);
        rowsSinceRebuild += w.deltas().size() + w.absolutes().size();
        metrics.height.set(w.cursor());
        if (denoms != null) denoms.stored(w.denoms()); // off EVM no denom is mapped
        JsonArray changed = new JsonArray();
        for (AccountAddress t : w.tokens()) changed.add(t.hex());
        vertx.eventBus()
                .publish(
                        Addresses.RICH_LIST_UPDATED,
                        new JsonObject()
                                .put("chain_id", chain.chainId())
                                .put("height", w.cursor())
                                .put("denoms", changed)
                                .put("sequence", sequence));
        Addresses.eventsAppended(vertx.eventBus(), sequence);
    }
}
