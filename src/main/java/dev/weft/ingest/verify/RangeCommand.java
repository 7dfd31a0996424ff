package dev.weft.ingest.verify;

import dev.weft.chain.client.CometRpcClient;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.config.ChainConfig;
import dev.weft.config.ConfigException;
import dev.weft.config.WeftConfig;
import dev.weft.ingest.BlockFetcher;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.nft.NftMetadata;
import dev.weft.store.Database;
import dev.weft.store.RangeStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code verify} and {@code reindex} of a range of heights: each height is fetched again from the chain's node and
 * rebuilt by ingestion's own code ({@link BlockFetcher}, the store's row definitions), then compared with what the
 * database holds ({@link RangeStore#compare}). {@code verify} prints each differing row as {@code height table key};
 * {@code reindex} replaces the rows of each differing height in one transaction of its own (readers see the old rows
 * until it commits), then appends a {@code range reindexed} event. Neither takes the writer lease: they touch only heights
 * the writer has committed, and the writer only appends above them.
 *
 * <p>Exit codes: 0 every height matches (verify) or was replaced (reindex); 1 a mismatch (verify), a height reindex
 * refused or a failure; 2 a bad argument, named on stderr.
 */
public final class RangeCommand {
    private static final int AHEAD = 8;
    private static final long PROGRESS_NANOS = 5_000_000_000L;

    private RangeCommand() {}

    /** Whether {@code args} start with a range command ({@code Main} hands them here). */
    public static boolean handles(String[] args) {
        return args.length > 0 && RangeArgs.isCommand(args[0]);
    }

    /** The command line's entry: reads the configuration ({@code --config}, else the default). */
    public static int main(String[] args, PrintStream out, PrintStream err) {
        RangeArgs a;
        WeftConfig config;
        try {
            a = RangeArgs.parse(args);
            config = WeftConfig.load(a.config(), Map.of());
        } catch (IllegalArgumentException | ConfigException e) {
            err.println("weft: " + e.getMessage());
            return 2;
        }
        return run(a, config, out, err);
    }

    /** Runs the command of {@code args} (the command word first) against {@code config}; answers the exit code. */
    public static int run(String[] args, WeftConfig config, PrintStream out, PrintStream err) {
        RangeArgs a;
        try {
            a = RangeArgs.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("weft: " + e.getMessage());
            return 2;
        }
        return run(a, config, out, err);
    }

    private static int run(RangeArgs a, WeftConfig config, PrintStream out, PrintStream err) {
        // --chain: any configured chain (the chain block's or a chains entry), read with its own node URLs and
        // overrides, its rows in its own schema; without it, the default chain
        String id = a.chain() != null ? a.chain() : config.chains().defaultChainId();
        if (!config.chains().has(id)) {
            err.println("weft: --chain " + id + " is not an indexed chain (this deployment indexes "
                    + String.join(", ", config.chains().byId().keySet()) + ")");
            return 2;
        }
        WeftConfig chainConfig = config.forChain(id);
        ChainConfig chain = chainConfig.chain();
        String urls = config.chains().isChainBlock(id) ? "chain." : "chains." + id + ".";
        if (chain.rpcUrls().isEmpty()
                || chain.restUrls().isEmpty()
                || chain.isEvm() && chain.jsonRpcUrls().isEmpty()) {
            err.println("weft: " + a.name() + " reads the chain's node: set " + urls + "rpc, " + urls + "rest"
                    + (chain.isEvm() ? " and " + urls + "json_rpc" : ""));
            return 2;
        }
        Vertx vertx = Vertx.vertx();
        Database db = null;
        try {
            db = await(Database.start(vertx, config.database()));
            Pool pool = await(
                            db.chainPool(chain.schema(), chainConfig.database().poolSize()))
                    .pool();
            return new Run(a, chainConfig, vertx, pool, out, err).all();
        } catch (Exception e) {
            err.println("weft: " + a.name() + " failed: " + oneLine(e));
            return 1;
        } finally {
            if (db != null) await(db.close().recover(e -> Future.succeededFuture()));
            await(vertx.close().recover(e -> Future.succeededFuture()));
        }
    }

    /** One run of the command over its range. */
    private static final class Run {
        private final RangeArgs a;
        private final ChainConfig chain;
        private final RangeStore store;
        private final BlockFetcher fetcher;
        private final PrintStream out;
        private final PrintStream err;

        Run(RangeArgs a, WeftConfig config, Vertx vertx, Pool pool, PrintStream out, PrintStream err) {
            this.a = a;
            this.chain = config.chain();
            this.out = out;
            this.err = err;
            var opts = config.ingest().clientOptions();
            CometRpcClient rpc = new CometRpcClient(vertx, chain.rpcUrls(), opts);
            CosmosRestClient rest = new CosmosRestClient(vertx, chain.restUrls(), opts);
            EvmRpcClient evm = chain.isEvm() ? new EvmRpcClient(vertx, chain.jsonRpcUrls(), opts) : null;
            this.store = new RangeStore(pool, 100_000);
            this.fetcher = BlockFetcher.forChain(
                    vertx, chain, config.ingest(), pool, rpc, rest, evm, new NftMetadata(chain, evm, rest));
        }

        int all() {
            RangeStore.Start start = await(store.start(a.from()));
            if (a.to() > start.ingestHeight()) {
                err.println("weft: --to " + a.to() + " is above the last indexed height " + start.ingestHeight());
                return 2;
            }
            // the first block ingested measured its block time from the header before it, when the node had one
            if (start.previousTimeNs() == null) await(fetcher.startHeight());
            Long previousTime = start.previousTimeNs();
            long txs = start.txsBefore();
            long evmTxs = start.evmTxsBefore();
            long mismatches = 0;
            long replaced = 0;
            long total = a.to() - a.from() + 1;
            long began = System.nanoTime();
            long lastReport = began;
            ArrayDeque<Future<IndexedBlock>> ahead = new ArrayDeque<>();
            long next = a.from();
            for (long h = a.from(); h <= a.to(); h++) {
                while (next <= a.to() && ahead.size() < AHEAD) ahead.add(fetcher.fetch(next++));
                IndexedBlock block = await(ahead.poll());
                RangeStore.Rebuilt rebuilt = await(store.rebuild(block, previousTime, txs, evmTxs));
                List<RangeStore.Mismatch> found = await(store.compare(rebuilt));
                if (!a.reindex()) {
                    found.forEach(out::println);
                    mismatches += found.size();
                } else if (!found.isEmpty()) {
                    String refused = refusal(rebuilt, found, start);
                    if (refused != null) {
                        err.println("weft: reindex refused at height " + h + ": " + refused + "; heights " + a.from()
                                + "–" + (h - 1) + " were checked (" + replaced + " replaced)");
                        return 1;
                    }
                    await(store.replace(rebuilt));
                    replaced++;
                    Set<String> tables = new LinkedHashSet<>();
                    found.forEach(m -> tables.add(m.table()));
                    out.println("replaced " + h + " " + String.join(",", tables));
                }
                previousTime = rebuilt.timeNs();
                txs = rebuilt.txsAfter();
                evmTxs = rebuilt.evmTxsAfter();
                long now = System.nanoTime();
                if (now - lastReport >= PROGRESS_NANOS) {
                    lastReport = now;
                    progress(h - a.from() + 1, total, now - began, h);
                }
            }
            double secs = Math.max(1e-9, (System.nanoTime() - began) / 1e9);
            if (a.reindex()) {
                long seq = await(store.reindexed(chain.chainId(), a.from(), a.to(), replaced));
                err.printf(
                        Locale.ROOT,
                        "reindex: heights %d–%d of %s checked in %.1f s (%.1f blocks/s), %d replaced; event %d%n",
                        a.from(),
                        a.to(),
                        chain.chainId(),
                        secs,
                        total / secs,
                        replaced,
                        seq);
                return 0;
            }
            err.printf(
                    Locale.ROOT,
                    "verify: heights %d–%d of %s in %.1f s (%.1f blocks/s): %s%n",
                    a.from(),
                    a.to(),
                    chain.chainId(),
                    secs,
                    total / secs,
                    mismatches == 0 ? "every row matches" : mismatches + " row(s) differ");
            return mismatches == 0 ? 0 : 1;
        }

        /** Why a differing height is not replaced: rows whose derived state reindex cannot keep exact. */
        private String refusal(RangeStore.Rebuilt b, List<RangeStore.Mismatch> found, RangeStore.Start start) {
            boolean transfers = found.stream().anyMatch(m -> m.table().equals("fungible_transfer"));
            if (transfers && start.richListHeight() != null && b.height() <= start.richListHeight())
                return "its fungible_transfer rows differ and the rich list (at height " + start.richListHeight()
                        + ") has already added them to its balances";
            return await(store.refusal(b));
        }

        private void progress(long done, long total, long nanos, long height) {
            double rate = done / (nanos / 1e9);
            err.printf(
                    Locale.ROOT,
                    "%s: height %d (%d of %d, %.1f %%), %.1f blocks/s, ETA %.0f s%n",
                    a.name(),
                    height,
                    done,
                    total,
                    100.0 * done / total,
                    rate,
                    (total - done) / rate);
        }
    }

    private static <T> T await(Future<T> f) {
        try {
            return f.toCompletionStage().toCompletableFuture().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) throw r;
            throw new IllegalStateException(oneLine(c), c);
        }
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replaceAll("[\\r\\n]+", " ");
    }
}
