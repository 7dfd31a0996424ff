package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import dev.weft.config.ConfigSource;
import dev.weft.config.WeftConfig;
import dev.weft.node.WeftNode;
import dev.weft.store.EmbeddedPostgresServer;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The EVM tracer benchmark ({@code bench/evm-trace.sh}). A devnet in history mode runs in its own JVM (as in
 * {@link IngestReadBench}); this JVM indexes it into a fresh embedded PostgreSQL through real nodes, in three phases:
 * (1) both roles (ingest, evm) on an empty database, as the default run does: how long after ingestion the internal
 * txs are caught up (this phase also warms the JIT up, and the devnet's traces, for the runs after); (2) block ingestion
 * alone on another empty database, the baseline; (3) {@code bench.pairs} times in turn: the tracer alone over a copy of
 * what phase 2 committed (internal txs per second, and its rate in blocks of chain per second as a ratio to phase
 * 2's), then the tracer alone over another copy from a second devnet with the same history that answers every request
 * after {@code bench.far_latency_ms}: its rate as a ratio to the near run just before it (the adaptive window against a
 * far node), after a first far run that is not counted (the far devnet's warm-up, as phase 1 is the near one's). Both
 * devnets generate their whole history before anything is timed and keep it ({@code bench.devnet_cache}),
 * as in the other catch-up benches: a devnet that generated blocks while timed took CPU from the node it was compared
 * with, the far one more (it was warmed less).
 *
 * <p>The default history is 18,000 blocks: the far tracer pays round trips at its start and end that the near one
 * does not, a larger share of a short catch-up (200 ms away, whole-run ratios 0.85–0.99 in six pairs of 6,000-block
 * runs of ~5.5 s; 0.94–1.03 in six pairs of 18,000 blocks, ~16–19 s).
 *
 * <p>System properties: {@code bench.blocks} (history blocks, default 18000), {@code bench.txs_per_block} (20),
 * {@code bench.fsync} (true), {@code bench.far_latency_ms} (200; 0: near runs only), {@code bench.pairs} (2),
 * {@code bench.devnet_cache} (true).
 */
public final class EvmTraceBench {
    public static void main(String[] args) throws Exception {
        long blocks = Long.getLong("bench.blocks", 18_000);
        int txsPerBlock = Integer.getInteger("bench.txs_per_block", 20);
        boolean fsync = Boolean.parseBoolean(System.getProperty("bench.fsync", "true"));
        Path work = BenchWork.create("weft-bench-evm");
        int[] ports = {Ports.free(), Ports.free(), Ports.free()};
        boolean cached = Boolean.parseBoolean(System.getProperty("bench.devnet_cache", "true"));
        List<String> cache = cached ? IngestReadBench.cacheAll(blocks) : List.of();
        Process devnet = IngestReadBench.startDevnet(work, blocks, txsPerBlock, ports, cache);
        String rpc = "http://127.0.0.1:" + ports[0];
        Process far = null;
        EmbeddedPostgresServer pg = null;
        Vertx vertx = TestNodes.newVertx();
        try {
            IngestReadBench.waitFor(rpc + "/status", 120);
            if (cached)
                IngestReadBench.warmDevnet(
                        rpc, "http://127.0.0.1:" + ports[1], "http://127.0.0.1:" + ports[2], blocks, (int) blocks, 8);
            pg = EmbeddedPostgresServer.start(work.resolve("pg"), 0, fsync, Map.of());
            long head = Long.parseLong(new JsonObject(IngestReadBench.httpGet(rpc + "/status"))
                    .getJsonObject("result")
                    .getJsonObject("sync_info")
                    .getString("latest_block_height"));
            System.out.printf(
                    Locale.ROOT,
                    "weft evm bench: %d history blocks (%d txs/block nominal), %d cores, PostgreSQL fsync %s%n",
                    head,
                    txsPerBlock,
                    Runtime.getRuntime().availableProcessors(),
                    fsync ? "on" : "off");

            // 1. both roles on an empty database, as the default run does (this also warms the JIT for the two phases
            // after)
            String url = pg.url();
            String url2 = url.replaceFirst("/[^/]*$", "/weft_bench_together");
            Pool pool = pool(vertx, url);
            await(pool.query("CREATE DATABASE weft_bench_together").execute());
            Pool pool2 = pool(vertx, url2);
            WeftNode both = TestNodes.start(vertx, config(url2, ports, "ingest", "evm"));
            long t0 = System.nanoTime();
            Await.until(
                    "ingestion to " + head,
                    IngestReadBench.BENCH_SECONDS,
                    () -> scalar(pool2, "SELECT height FROM pipeline_cursor WHERE name = 'ingest'") >= head);
            double ingestDone = (System.nanoTime() - t0) / 1e9;
            long lastEvm = scalar(pool2, "SELECT coalesce(max(height), 0) FROM block WHERE evm_tx_count > 0");
            Await.until(
                    "internal txs to " + lastEvm,
                    IngestReadBench.BENCH_SECONDS,
                    () -> scalar(pool2, "SELECT height FROM pipeline_cursor WHERE name = 'evm'") >= lastEvm);
            double allDone = (System.nanoTime() - t0) / 1e9;
            await(both.stop());
            long internal = scalar(pool2, "SELECT internal_txs FROM evm_internal_totals");
            await(pool2.close());
            System.out.printf(
                    Locale.ROOT,
                    "both together  from empty (JIT cold): ingestion done in %.1f s (%.1f blocks/s), internal txs (%d) caught up %.1f s later%n",
                    ingestDone,
                    head / ingestDone,
                    internal,
                    allDone - ingestDone);

            // 2. ingestion alone, the baseline
            WeftNode ingest = TestNodes.start(vertx, config(url, ports, "ingest"));
            long t1 = System.nanoTime();
            Await.until(
                    "ingestion to " + head,
                    IngestReadBench.BENCH_SECONDS,
                    () -> scalar(pool, "SELECT height FROM pipeline_cursor WHERE name = 'ingest'") >= head);
            double ingestSecs = (System.nanoTime() - t1) / 1e9;
            await(ingest.stop());
            Row totals = await(pool.query("SELECT blocks, txs, evm_txs FROM ingest_totals")
                            .execute())
                    .iterator()
                    .next();
            double ingestBps = head / ingestSecs;
            System.out.printf(
                    Locale.ROOT,
                    "ingest alone   %d blocks, %d txs (+%d EVM receipts) in %.1f s: %.1f blocks/s, %.0f txs/s%n",
                    totals.getLong(0),
                    totals.getLong(1),
                    totals.getLong(2),
                    ingestSecs,
                    ingestBps,
                    totals.getLong(1) / ingestSecs);

            // 3. the tracer alone, near its node and then bench.far_latency_ms away, bench.pairs times in turn, each
            // run
            // over its own copy of what ingestion committed: each far run is compared with the near run just before it,
            // so
            // a change in the machine's speed over the invocation (it moves by half within an hour on a shared 2-core
            // VM)
            // does not enter the ratio
            long farMs = Long.getLong("bench.far_latency_ms", 200);
            int pairs = Integer.getInteger("bench.pairs", 2);
            String template = url.replaceFirst("^.*/([^/?]*).*$", "$1");
            await(pool.close());
            Pool admin = pool(vertx, url2);
            long traced = scalar(admin, "SELECT count(*) FROM block WHERE evm_tx_count > 0");
            int[] farPorts = {Ports.free(), Ports.free(), Ports.free()};
            if (farMs > 0) {
                List<String> farOpts = new ArrayList<>(cache);
                farOpts.add("-Dweft.devnet.faults.latency=" + farMs + "ms");
                far = IngestReadBench.startDevnet(
                        Files.createDirectories(work.resolve("far")), blocks, txsPerBlock, farPorts, farOpts);
                IngestReadBench.waitFor("http://127.0.0.1:" + farPorts[0] + "/status", 120);
                // its JVM compiles its block generation first, as the near devnet's did during phases 1 and 2; with the
                // cache,
                // it generates every block, 256 heights asked at once (tens of seconds 200 ms away)
                IngestReadBench.warmDevnet(
                        "http://127.0.0.1:" + farPorts[0],
                        "http://127.0.0.1:" + farPorts[1],
                        "http://127.0.0.1:" + farPorts[2],
                        head,
                        cached ? (int) head : 400,
                        cached ? 256 : 4);
                // then a tracer catch-up from it, not counted, as the near devnet served one in phase 1: in a first far
                // run the
                // far devnet still compiled its traces and answers (1.7–4.6 s of its CPU, 1.0–1.5 s in the far runs
                // after it)
                TracerRun warmUp = traceCopy(vertx, admin, url, template, farPorts, lastEvm, far);
                System.out.printf(
                        Locale.ROOT,
                        "tracer alone, the node %d ms away, a warm-up run (not counted): %.1f s, the far devnet's CPU %.1f s%n",
                        farMs,
                        warmUp.run().secs(),
                        warmUp.run().spent().cpu().devnetSecs());
            }
            List<double[]> ratios = new ArrayList<>();
            for (int pair = 1; pair <= pairs; pair++) {
                TracerRun near = traceCopy(vertx, admin, url, template, ports, lastEvm, devnet);
                double traceBps = head / near.run().secs();
                System.out.printf(
                        Locale.ROOT,
                        "tracer alone   %d heights with EVM txs, %d internal txs in %.1f s (second half of the chain %.1f s): %.0f internal txs/s, %.1f heights/s "
                                + "(%.1f blocks/s of chain) → tracer/ingest ratio %.2f%n",
                        traced,
                        near.internalTxs(),
                        near.run().secs(),
                        near.run().secondHalf(),
                        near.internalTxs() / near.run().secs(),
                        traced / near.run().secs(),
                        traceBps,
                        traceBps / ingestBps);
                near.run().print(near.internalTxs());
                if (farMs <= 0) continue;
                // the same blocks from a devnet that answers after farMs (a node across a network): the window adapts
                // to the
                // round trip as ingestion's does
                TracerRun farRun = traceCopy(vertx, admin, url, template, farPorts, lastEvm, far);
                double whole = near.run().secs() / farRun.run().secs();
                double second = near.run().secondHalf() / farRun.run().secondHalf();
                ratios.add(new double[] {whole, second});
                System.out.printf(
                        Locale.ROOT,
                        "tracer alone, the node %d ms away: %d internal txs in %.1f s (second half of the chain %.1f s): %.1f heights/s "
                                + "→ ratio to the tracer alone near just before %.2f, second half %.2f%n",
                        farMs,
                        farRun.internalTxs(),
                        farRun.run().secs(),
                        farRun.run().secondHalf(),
                        traced / farRun.run().secs(),
                        whole,
                        second);
                farRun.run().print(farRun.internalTxs());
            }
            await(admin.close());
            if (!ratios.isEmpty()) {
                StringBuilder line =
                        new StringBuilder("tracer " + farMs + " ms away / near, pair by pair (whole / second half):");
                for (double[] r : ratios) line.append(String.format(Locale.ROOT, " %.2f / %.2f,", r[0], r[1]));
                System.out.println(line.substring(0, line.length() - 1));
            }
        } finally {
            await(vertx.close());
            if (pg != null) pg.close();
            devnet.destroy();
            devnet.waitFor();
            if (far != null) {
                far.destroy();
                far.waitFor();
            }
            TestDatabase.deleteTree(work);
        }
    }

    /**
     * A tracer's catch-up: its seconds, those after it passed half the chain (the window adapted, its ramp behind), and
     * what it left idle of the machine and each process spent meanwhile.
     */
    record CatchUp(double secs, double secondHalf, CpuShares.Spent spent) {
        /** The idle and CPU line under the run's line ({@code internalTxs}: what the run wrote). */
        void print(long internalTxs) {
            System.out.printf(Locale.ROOT, "         CPU idle %.0f %%%n", 100 * spent.idle());
            spent.cpu().print("", secs, internalTxs, "internal tx");
        }
    }

    /** One tracer run and the internal txs it wrote. */
    record TracerRun(CatchUp run, long internalTxs) {}

    /**
     * The tracer alone (roles {@code evm}) over a fresh copy of the database {@code template}, reading the devnet on
     * {@code ports}, timed until its cursor reaches {@code last}; the copy replaces the previous run's. It is made file by
     * file after a checkpoint (PostgreSQL's {@code FILE_COPY}), so no run starts with a copy's WAL still to flush;
     * {@code admin} is a pool on another database (a template needs its source idle).
     */
    static TracerRun traceCopy(
            Vertx vertx, Pool admin, String url, String template, int[] ports, long last, Process devnet)
            throws Exception {
        await(admin.query("DROP DATABASE IF EXISTS weft_bench_trace").execute());
        await(admin.query("CREATE DATABASE weft_bench_trace TEMPLATE " + template + " STRATEGY FILE_COPY")
                .execute());
        String copy = url.replaceFirst("/[^/]*$", "/weft_bench_trace");
        Pool pool = pool(vertx, copy);
        try {
            WeftNode tracer = TestNodes.start(vertx, config(copy, ports, "evm"));
            CatchUp run = traceCatchUp(pool, last, devnet);
            await(tracer.stop());
            return new TracerRun(run, scalar(pool, "SELECT internal_txs FROM evm_internal_totals"));
        } finally {
            await(pool.close());
        }
    }

    /** Waits until the tracer's cursor reaches {@code last}, timed from now; {@code devnet}: the devnet it reads. */
    static CatchUp traceCatchUp(Pool pool, long last, Process devnet) {
        CpuShares.Span span = CpuShares.Span.start(devnet);
        long t0 = System.nanoTime();
        long[] atHalf = {0};
        Await.until("internal txs to " + last, IngestReadBench.BENCH_SECONDS, () -> {
            long at = scalar(pool, "SELECT coalesce((SELECT height FROM pipeline_cursor WHERE name = 'evm'), 0)");
            if (atHalf[0] == 0 && at >= last / 2) atHalf[0] = System.nanoTime();
            return at >= last;
        });
        long end = System.nanoTime();
        return new CatchUp((end - t0) / 1e9, (end - atHalf[0]) / 1e9, span.end());
    }

    static Pool pool(Vertx vertx, String url) {
        return PgBuilder.pool()
                .with(new PoolOptions().setMaxSize(2))
                .connectingTo(PgConnectOptions.fromUri(url))
                .using(vertx)
                .build();
    }

    static WeftConfig config(String dbUrl, int[] ports, String... roles) throws Exception {
        JsonObject conf = BenchWork.singleChainConf();
        conf.getJsonObject("node").put("roles", new JsonArray(List.of((Object[]) roles)));
        conf.getJsonObject("http").put("port", 0);
        conf.getJsonObject("database").put("url", dbUrl);
        conf.getJsonObject("bridge").put("tcp_enabled", false).put("sockjs_enabled", false);
        conf.getJsonObject("chain")
                .put("chain_id", IngestReadBench.CHAIN)
                .put("rpc", new JsonArray().add("http://127.0.0.1:" + ports[0]))
                .put("rest", new JsonArray().add("http://127.0.0.1:" + ports[1]))
                .put("json_rpc", new JsonArray().add("http://127.0.0.1:" + ports[2]));
        conf.put("log", new JsonObject().put("level", "warn"));
        return WeftConfig.from(ConfigSource.fileOnly(conf));
    }

    static long scalar(Pool pool, String sql) {
        return await(pool.query(sql).execute()).iterator().next().getLong(0);
    }
}
