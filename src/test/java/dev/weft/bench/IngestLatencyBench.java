package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import dev.weft.config.ConfigSource;
import dev.weft.config.WeftConfig;
import dev.weft.node.WeftNode;
import dev.weft.store.EmbeddedPostgresServer;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Latency-bound catch-up ({@code bench/ingest-latency.sh}): the same devnet history ingested from empty once per node
 * round trip ({@code devnet.faults.latency} added to every answer of the devnet's HTTP servers), each into a fresh
 * embedded PostgreSQL, with the default configuration (the adaptive fetch window). Prints each run's rate and its ratio
 * to the first (no added latency), whole and over the second half of the chain. The node runs in this JVM, so a first
 * run of its own, not counted, warms the JIT up: without it the first measured run paid the compilation the later ones
 * were spared, which flattered their ratios.
 * Each run's devnet generates its whole history before timing and keeps it ({@code bench.devnet_cache}, true by
 * default; false: generated while timed, its JVM cold, as before 2026-11-28): its block generation and its JIT then
 * share neither run's cores, and a far run's devnet no longer generates in bursts what the near run's generated as asked.
 * Properties: {@code bench.blocks} (3000), {@code bench.txs_per_block} (20), {@code bench.latencies} (ms,
 * {@code 0,50,200}), {@code bench.fsync} (true), {@code bench.warmup_blocks} (as many as {@code bench.blocks}; 0: none),
 * {@code bench.devnet_cache} (true).
 */
public final class IngestLatencyBench {
    public static void main(String[] args) throws Exception {
        long blocks = Long.getLong("bench.blocks", 3_000);
        int txsPerBlock = Integer.getInteger("bench.txs_per_block", 20);
        boolean fsync = Boolean.parseBoolean(System.getProperty("bench.fsync", "true"));
        List<Long> latencies = new ArrayList<>();
        for (String l : System.getProperty("bench.latencies", "0,50,200").split(","))
            latencies.add(Long.parseLong(l.trim()));
        System.out.printf(
                Locale.ROOT,
                "weft ingest latency bench: %d history blocks × %d txs, %d cores, PostgreSQL fsync %s, latencies %s ms%n",
                blocks,
                txsPerBlock,
                Runtime.getRuntime().availableProcessors(),
                fsync ? "on" : "off",
                latencies);
        long warmup = Long.getLong("bench.warmup_blocks", blocks);
        if (warmup > 0) {
            System.out.printf(Locale.ROOT, "warm-up (not counted): %d blocks, no added latency%n", warmup);
            run(warmup, txsPerBlock, fsync, 0);
        }
        double[] base = null;
        for (long latency : latencies) {
            double[] rate = run(blocks, txsPerBlock, fsync, latency);
            if (base == null) base = rate;
            System.out.printf(
                    Locale.ROOT,
                    "latency %4d ms: %.1f blocks/s → ratio to the first run %.2f; second half %.1f blocks/s → %.2f%n",
                    latency,
                    rate[0],
                    rate[0] / base[0],
                    rate[1],
                    rate[1] / base[1]);
        }
    }

    /**
     * One catch-up from empty against a devnet answering after {@code latencyMs}: its blocks per second over the whole run
     * and over the second half of the chain (the window adapted, the first block's bulk behind).
     */
    static double[] run(long blocks, int txsPerBlock, boolean fsync, long latencyMs) throws Exception {
        Path work = BenchWork.create("weft-bench-latency");
        int[] ports = {Ports.free(), Ports.free(), Ports.free()};
        boolean cached = Boolean.parseBoolean(System.getProperty("bench.devnet_cache", "true"));
        List<String> opts = new ArrayList<>(cached ? IngestReadBench.cacheAll(blocks) : List.of());
        opts.add("-Dweft.devnet.faults.latency=" + latencyMs + "ms");
        Process devnet = IngestReadBench.startDevnet(work, blocks, txsPerBlock, ports, opts);
        EmbeddedPostgresServer pg = null;
        Vertx vertx = TestNodes.newVertx();
        try {
            String rpc = "http://127.0.0.1:" + ports[0];
            IngestReadBench.waitFor(rpc + "/status", 120);
            // every height asked before timing: 256 at once, so a far devnet is warmed in tens of seconds, not hours
            if (cached)
                IngestReadBench.warmDevnet(
                        rpc, "http://127.0.0.1:" + ports[1], "http://127.0.0.1:" + ports[2], blocks, (int) blocks, 256);
            long head = Long.parseLong(new JsonObject(IngestReadBench.httpGet(rpc + "/status"))
                    .getJsonObject("result")
                    .getJsonObject("sync_info")
                    .getString("latest_block_height"));
            pg = EmbeddedPostgresServer.start(work.resolve("pg"), 0, fsync, Map.of());
            JsonObject conf = BenchWork.singleChainConf();
            conf.getJsonObject("node").put("roles", new JsonArray().add("ingest"));
            conf.getJsonObject("http").put("port", 0);
            conf.getJsonObject("database").put("url", pg.url());
            conf.getJsonObject("bridge").put("tcp_enabled", false).put("sockjs_enabled", false);
            conf.getJsonObject("chain")
                    .put("chain_id", IngestReadBench.CHAIN)
                    .put("rpc", new JsonArray().add(rpc))
                    .put("rest", new JsonArray().add("http://127.0.0.1:" + ports[1]))
                    .put("json_rpc", new JsonArray().add("http://127.0.0.1:" + ports[2]));
            conf.put("log", new JsonObject().put("level", "info"));
            WeftConfig config = WeftConfig.from(ConfigSource.fileOnly(conf));
            CpuShares.Span span = CpuShares.Span.start(devnet);
            long t0 = System.nanoTime();
            WeftNode node = TestNodes.start(vertx, config);
            Pool pool = PgBuilder.pool()
                    .with(new PoolOptions().setMaxSize(2))
                    .connectingTo(PgConnectOptions.fromUri(pg.url()))
                    .using(vertx)
                    .build();
            long half = -1;
            double[] idleAtHalf = null;
            for (long at; (at = IngestReadBench.cursor(pool)) < head; Thread.sleep(100)) {
                if (half < 0 && at >= head / 2) {
                    half = System.nanoTime();
                    idleAtHalf = IngestReadBench.commitIdleSeconds();
                }
            }
            long end = System.nanoTime();
            CpuShares.Spent spent = span.end();
            if (half < 0) half = end;
            double secs = (end - t0) / 1e9;
            Row totals = await(
                            pool.query("SELECT blocks, txs FROM ingest_totals").execute())
                    .iterator()
                    .next();
            double secondHalf = (head - head / 2) / Math.max(1e-9, (end - half) / 1e9);
            System.out.printf(
                    Locale.ROOT,
                    "  %d ms: %d blocks, %d txs in %.1f s: %.1f blocks/s, %.0f txs/s; second half of the chain %.1f blocks/s; CPU idle %.0f %%%n",
                    latencyMs,
                    totals.getLong(0),
                    totals.getLong(1),
                    secs,
                    totals.getLong(0) / secs,
                    totals.getLong(1) / secs,
                    secondHalf,
                    100 * spent.idle());
            spent.cpu().print(secs, totals.getLong(1));
            // the commits run one after another: near 100 % of the wall time, the database (or the CPU it gets) sets
            // the pace
            IngestReadBench.printCommitDuty(secs, idleAtHalf);
            await(node.stop());
            await(pool.close());
            return new double[] {totals.getLong(0) / secs, secondHalf};
        } finally {
            await(vertx.close());
            if (pg != null) pg.close();
            devnet.destroy();
            devnet.waitFor();
            TestDatabase.deleteTree(work);
        }
    }
}
