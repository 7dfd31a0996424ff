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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The long-history benchmark ({@code bench/long-history.sh}): a devnet history (its own JVM) ingested from empty into a
 * fresh embedded PostgreSQL with the default configuration, then each follower role alone over the same blocks (the
 * EVM tracer, the rich list), then every list endpoint read at 8 clients against the same SQL on a pool. Prints the
 * rate by tenth of the chain (goal: the last tenth at least 0.85 of the 10–20 % tenth), the heap over time and the
 * peak heap of each role, the database bytes per tx next to the rows' raw size, the most PostgreSQL connections
 * against the pool size, the maximum of each queue and window gauge, and an estimate of the full-size run's duration.
 *
 * <p>Properties: {@code bench.blocks} (100000), {@code bench.txs_per_block} (20), {@code bench.follow_roles}
 * ({@code evm,richlist}; empty for none), {@code bench.clients} (8), {@code bench.read_seconds} (10; 0 skips the
 * reads), {@code bench.fsync} (true), {@code bench.full_blocks} (100000, the size the duration estimate is for).
 */
public final class LongHistoryBench {
    static final double FLAT_GOAL = 0.85;

    public static void main(String[] args) throws Exception {
        long blocks = Long.getLong("bench.blocks", 100_000);
        int txsPerBlock = Integer.getInteger("bench.txs_per_block", 20);
        int clients = Integer.getInteger("bench.clients", 8);
        long readMs = Long.getLong("bench.read_seconds", 10) * 1000;
        long fullBlocks = Long.getLong("bench.full_blocks", 100_000);
        boolean fsync = Boolean.parseBoolean(System.getProperty("bench.fsync", "true"));
        List<String> follow = new ArrayList<>();
        for (String r : System.getProperty("bench.follow_roles", "evm,richlist").split(","))
            if (!r.isBlank()) follow.add(r.trim());
        Path work = BenchWork.create("weft-bench-long");
        int[] ports = {Ports.free(), Ports.free(), Ports.free()};
        long started = System.nanoTime();
        Process devnet = IngestReadBench.startDevnet(work, blocks, txsPerBlock, ports);
        String rpc = "http://127.0.0.1:" + ports[0];
        EmbeddedPostgresServer pg = null;
        Vertx vertx = TestNodes.newVertx();
        try {
            IngestReadBench.waitFor(rpc + "/status", 600);
            long head = Long.parseLong(new JsonObject(IngestReadBench.httpGet(rpc + "/status"))
                    .getJsonObject("result")
                    .getJsonObject("sync_info")
                    .getString("latest_block_height"));
            double devnetStartSecs = (System.nanoTime() - started) / 1e9;
            IngestReadBench.warmDevnet(rpc, "http://127.0.0.1:" + ports[1], "http://127.0.0.1:" + ports[2], head);
            pg = EmbeddedPostgresServer.start(work.resolve("pg"), 0, fsync, Map.of());
            String url = pg.url();
            // one connection: the bench's own queries never take a share of the node's pool, and are excluded from the
            // count
            Pool monitor = PgBuilder.pool()
                    .with(new PoolOptions().setMaxSize(1).setName("bench-monitor"))
                    .connectingTo(PgConnectOptions.fromUri(url))
                    .using(vertx)
                    .build();
            JsonObject base = BenchWork.singleChainConf();
            int poolSize = base.getJsonObject("database").getInteger("pool_size");
            System.out.printf(
                    Locale.ROOT,
                    "weft long-history bench: %d history blocks (%d txs/block nominal), %d cores, PostgreSQL fsync %s, "
                            + "default configuration (database.pool_size %d), bench JVM heap max %d MB; the devnet answered after %.1f s%n",
                    head,
                    txsPerBlock,
                    Runtime.getRuntime().availableProcessors(),
                    fsync ? "on" : "off",
                    poolSize,
                    Runtime.getRuntime().maxMemory() >> 20,
                    devnetStartSecs);

            RunSampler sampler = new RunSampler(monitor);
            List<String> phases = new ArrayList<>();
            long devnetCpu0 = cpuNanos(devnet);
            var os = (com.sun.management.OperatingSystemMXBean)
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            sampler.phase("ingest");
            long nodeCpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            WeftNode ingest = TestNodes.start(vertx, config(base, url, ports, "ingest"));
            sampler.start();
            Await.until("ingestion to " + head, IngestReadBench.BENCH_SECONDS, () -> sampler.cursor("ingest") >= head);
            double ingestSecs = (System.nanoTime() - t0) / 1e9;
            RunSampler.printHistogram("at the end of ingestion", 12);
            await(ingest.stop());
            double devnetCpuSecs = (cpuNanos(devnet) - devnetCpu0) / 1e9;
            double nodeCpuSecs = (os.getProcessCpuTime() - nodeCpu0) / 1e9;
            phases.add(sampler.endPhase());
            Row totals = await(monitor.query("SELECT blocks, txs, evm_txs FROM ingest_totals")
                            .execute())
                    .iterator()
                    .next();
            long txs = totals.getLong(1);
            System.out.printf(
                    Locale.ROOT,
                    "ingest    %d blocks, %d txs (+%d EVM txs) in %.1f s: %.1f blocks/s, %.0f txs/s; the devnet's JVM used %.1f s of CPU "
                            + "(%.0f %% of one core over the run)%n",
                    totals.getLong(0),
                    txs,
                    totals.getLong(2),
                    ingestSecs,
                    totals.getLong(0) / ingestSecs,
                    txs / ingestSecs,
                    devnetCpuSecs,
                    100 * devnetCpuSecs / ingestSecs);
            // CPU per tx: what parsing, rendering and binding cost, whatever else shares the machine
            System.out.printf(
                    Locale.ROOT,
                    "cpu       the node's JVM used %.1f s of CPU: %.0f µs per tx (Cosmos and EVM txs: %.0f µs)%n",
                    nodeCpuSecs,
                    nodeCpuSecs * 1e6 / Math.max(1, txs),
                    nodeCpuSecs * 1e6 / Math.max(1, txs + totals.getLong(2)));
            double ratio = sampler.printTenths(head);
            System.out.printf(
                    Locale.ROOT,
                    "flat      rate over the last tenth / rate over 10–20 %%: %.2f (goal >= %.2f: %s)%n",
                    ratio,
                    FLAT_GOAL,
                    ratio >= FLAT_GOAL ? "ok" : "MISS");

            double followSecs = 0;
            for (String role : follow) {
                String cursor = role.equals("evm") ? "evm" : role;
                long target = role.equals("evm")
                        ? ListReads.scalar(monitor, "SELECT coalesce(max(height), 0) FROM block WHERE evm_tx_count > 0")
                        : head;
                sampler.phase(role);
                long t1 = System.nanoTime();
                WeftNode node = TestNodes.start(vertx, config(base, url, ports, role));
                Await.until(
                        role + " to " + target, IngestReadBench.BENCH_SECONDS, () -> sampler.cursor(cursor) >= target);
                double secs = (System.nanoTime() - t1) / 1e9;
                followSecs += secs;
                await(node.stop());
                phases.add(sampler.endPhase());
                System.out.printf(
                        Locale.ROOT,
                        "%-9s caught up with %d heights in %.1f s (%.1f blocks/s)%n",
                        role,
                        target,
                        secs,
                        target / secs);
            }
            sampler.stop();

            System.out.println(
                    "heap      per role (this JVM ran one role at a time, the bench's sampler besides; the heap used grows toward -Xmx "
                            + "as G1 defers collections; the floor after collections is the live heap, flat when the first and last tenths agree):");
            for (String p : phases) System.out.println("  " + p);
            System.out.printf(
                    Locale.ROOT,
                    "postgres  most connections of the node at once: %d (database.pool_size %d: %s)%n",
                    sampler.maxConnections(),
                    poolSize,
                    sampler.maxConnections() <= poolSize ? "within" : "OVER");
            System.out.println("queues    maximum of each queue and window gauge over the run:");
            sampler.printGaugeMaxima();
            long ts = System.nanoTime();
            StorageReport.print(monitor, txs);
            double storageSecs = (System.nanoTime() - ts) / 1e9;

            double readSecs = 0;
            if (readMs > 0) {
                long t2 = System.nanoTime();
                WeftNode api = TestNodes.start(vertx, config(base, url, ports, "api"));
                await(api.scale("api", Runtime.getRuntime().availableProcessors()));
                Pool readPool = ReadLoad.sqlPool(vertx, url, poolSize, "bench-sql");
                IngestReadBench.reads(vertx, TestNodes.httpPort(api), readPool, clients, readMs);
                await(readPool.close());
                await(api.stop());
                readSecs = (System.nanoTime() - t2) / 1e9;
            }
            await(monitor.close());

            double scale = (double) fullBlocks / head;
            double lastTenthSecsPerBlock = sampler.lastTenthSecondsPerBlock(head);
            double ingestEstimate = lastTenthSecsPerBlock > 0 ? lastTenthSecsPerBlock * fullBlocks : ingestSecs * scale;
            // the devnet generates a block when asked for it: its start does not grow with the history
            System.out.printf(
                    Locale.ROOT,
                    "estimate  at %d blocks: devnet start %s, ingestion %s (at this run's last-tenth rate; longer if the rate falls "
                            + "with the tables' size), followers %s, storage report ~%s, reads %s (fixed), total ~%s; this run took %s%n",
                    fullBlocks,
                    minutes(devnetStartSecs),
                    minutes(ingestEstimate),
                    minutes(followSecs * scale),
                    minutes(storageSecs * scale),
                    minutes(readSecs),
                    minutes(devnetStartSecs + ingestEstimate + followSecs * scale + storageSecs * scale + readSecs),
                    minutes((System.nanoTime() - started) / 1e9));
        } finally {
            await(vertx.close());
            if (pg != null) pg.close();
            devnet.destroy();
            devnet.waitFor();
            TestDatabase.deleteTree(work);
        }
    }

    static WeftConfig config(JsonObject base, String url, int[] ports, String... roles) {
        JsonObject conf = base.copy();
        conf.getJsonObject("node").put("roles", new JsonArray(List.of((Object[]) roles)));
        conf.getJsonObject("http").put("port", 0);
        conf.getJsonObject("database").put("url", url);
        conf.getJsonObject("bridge").put("tcp_enabled", false).put("sockjs_enabled", false);
        conf.getJsonObject("chain")
                .put("chain_id", IngestReadBench.CHAIN)
                .put("rpc", new JsonArray().add("http://127.0.0.1:" + ports[0]))
                .put("rest", new JsonArray().add("http://127.0.0.1:" + ports[1]))
                .put("json_rpc", new JsonArray().add("http://127.0.0.1:" + ports[2]));
        conf.put("log", new JsonObject().put("level", "info"));
        // the read load comes from one address at thousands of requests/s: the per-client rate limit would answer 429
        conf.put("rate_limit", new JsonObject().put("enabled", false));
        return WeftConfig.from(ConfigSource.fileOnly(conf));
    }

    private static long cpuNanos(Process p) {
        return p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    private static String minutes(double secs) {
        return secs < 120
                ? String.format(Locale.ROOT, "%.0f s", secs)
                : String.format(Locale.ROOT, "%.0f min", secs / 60);
    }
}
