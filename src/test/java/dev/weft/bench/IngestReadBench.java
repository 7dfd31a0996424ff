package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import dev.weft.api.PageResponse;
import dev.weft.chain.Hex;
import dev.weft.config.ConfigSource;
import dev.weft.config.WeftConfig;
import dev.weft.node.WeftNode;
import dev.weft.pipeline.CommitIdle;
import dev.weft.store.EmbeddedPostgresServer;
import dev.weft.store.TxStore;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The ingestion and read benchmark ({@code bench/ingest-read.sh}). A devnet in history mode runs in its own JVM; this
 * JVM indexes it into a fresh embedded PostgreSQL through the real node (ingest + api roles), then measures, in the
 * same run and on the same database: the raw bulk insert of the same rows (the ingest baseline), and the API against
 * the same SQL run directly on a pool (the read baseline), at 8 concurrent clients.
 *
 * <p>System properties: {@code bench.blocks} (history blocks, default 12000), {@code bench.txs_per_block} (20),
 * {@code bench.clients} (8), {@code bench.read_seconds} (10; 0: no reads), {@code bench.verify_blocks} (2000), {@code bench.fsync} (true), {@code bench.devnet_rpc},
 * {@code bench.devnet_rest}, {@code bench.devnet_json_rpc} (use a devnet already running instead of starting one).
 */
public final class IngestReadBench {
    static final String CHAIN = "weft-devnet-1";
    /** How long a bench waits for a pipeline to reach the end of the chain before it gives up. */
    static final int BENCH_SECONDS = 3600;
    /** The JVM options of every Weft process, for the JVMs a bench starts (the scripts run from the checkout's root). */
    static final String JVM_OPTIONS = "@conf/jvm.options";

    public static void main(String[] args) throws Exception {
        if (System.getProperty("bench.api_port") != null) {
            readsOnly();
            return;
        }
        long blocks = Long.getLong("bench.blocks", 12_000);
        int txsPerBlock = Integer.getInteger("bench.txs_per_block", 20);
        int clients = Integer.getInteger("bench.clients", 8);
        long readMs = Long.getLong("bench.read_seconds", 10) * 1000;
        boolean fsync = Boolean.parseBoolean(System.getProperty("bench.fsync", "true"));
        Path work = BenchWork.create("weft-bench");
        Process devnet = null;
        String rpc = System.getProperty("bench.devnet_rpc");
        String rest = System.getProperty("bench.devnet_rest");
        String jsonRpc = System.getProperty("bench.devnet_json_rpc");
        if (rpc == null) {
            int[] ports = {Ports.free(), Ports.free(), Ports.free()};
            // -Dbench.devnet_cache=true (default): the devnet keeps every block of its history once generated, and the
            // warm-up asks for all of them, so the timed run's devnet only renders and serves (a node on another
            // machine
            // costs this machine nothing); false: generated on demand during the run, as before, 400 heights warmed
            boolean cached = Boolean.parseBoolean(System.getProperty("bench.devnet_cache", "true"));
            devnet = startDevnet(work, blocks, txsPerBlock, ports, cached ? cacheAll(blocks) : List.of());
            rpc = "http://127.0.0.1:" + ports[0];
            rest = "http://127.0.0.1:" + ports[1];
            jsonRpc = "http://127.0.0.1:" + ports[2];
            waitFor(rpc + "/status", 120);
            warmDevnet(rpc, rest, jsonRpc, blocks, cached ? (int) blocks : 400);
        }
        long head = Long.parseLong(new JsonObject(httpGet(rpc + "/status"))
                .getJsonObject("result")
                .getJsonObject("sync_info")
                .getString("latest_block_height"));
        // -Dbench.pg_statements=true: pg_stat_statements loaded, and the statements costing the most server time of the
        // ingestion printed after it (a profile of where PostgreSQL spends its CPU)
        boolean pgStatements = Boolean.getBoolean("bench.pg_statements");
        // -Dbench.pg_settings=name=value,name=value: extra server settings (to try PostgreSQL tuning)
        Map<String, String> settings = new java.util.LinkedHashMap<>();
        if (pgStatements) settings.put("shared_preload_libraries", "pg_stat_statements");
        for (String kv : System.getProperty("bench.pg_settings", "").split(",")) {
            if (kv.contains("="))
                settings.put(
                        kv.substring(0, kv.indexOf('=')).trim(),
                        kv.substring(kv.indexOf('=') + 1).trim());
        }
        EmbeddedPostgresServer pg = EmbeddedPostgresServer.start(work.resolve("pg"), 0, fsync, settings);
        Vertx vertx = TestNodes.newVertx();
        try {
            String url = pg.url();
            JsonObject conf = BenchWork.singleChainConf();
            conf.getJsonObject("node")
                    .put("roles", new JsonArray().add("ingest").add("api"));
            conf.getJsonObject("http").put("port", 0);
            conf.getJsonObject("database").put("url", url);
            conf.getJsonObject("bridge").put("tcp_enabled", false).put("sockjs_enabled", false);
            conf.getJsonObject("chain")
                    .put("chain_id", CHAIN)
                    .put("rpc", new JsonArray().add(rpc))
                    .put("rest", new JsonArray().add(rest))
                    .put("json_rpc", new JsonArray().add(jsonRpc));
            conf.put("log", new JsonObject().put("level", "info"));
            // the read load comes from one address at thousands of requests/s: the per-client rate limit would answer
            // 429
            conf.put("rate_limit", new JsonObject().put("enabled", false));
            // -Dbench.page_cache_mb=0: every tx list request runs its page query (the default keeps repeated pages
            // between commits)
            Integer pageCacheMb = Integer.getInteger("bench.page_cache_mb");
            if (pageCacheMb != null) conf.getJsonObject("http").put("page_cache_mb", pageCacheMb);
            WeftConfig config = WeftConfig.from(ConfigSource.fileOnly(conf));

            System.out.printf(
                    Locale.ROOT,
                    "weft bench: %d history blocks (%d txs/block nominal), %d cores, PostgreSQL fsync %s, heap max %d MB%n",
                    head,
                    txsPerBlock,
                    Runtime.getRuntime().availableProcessors(),
                    fsync ? "on" : "off",
                    Runtime.getRuntime().maxMemory() >> 20);
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) p.resetPeakUsage();
            CpuShares cpuBefore = CpuShares.now(devnet);
            // -Dbench.backend_states=true: what the PostgreSQL backends do during the ingestion (running, waiting on
            // the node, the disk, a lock)
            BackendStates backends = Boolean.getBoolean("bench.backend_states") ? new BackendStates(url) : null;
            long t0 = System.nanoTime();
            WeftNode node = TestNodes.start(vertx, config);
            // the node's statement options, for the raw insert and the read baseline alike
            Pool pool = ReadLoad.sqlPool(vertx, url, 8, "bench-sql");
            long[] warm = {0, 0}; // nanos, txs at the first sample after 15 s (JIT warm)
            long[] half = {0, 0}; // nanos, txs at the first sample at half the chain
            CpuShares[] cpuHalf = {null};
            double[][] idleHalf = {null};
            Process devnetProcess = devnet;
            Await.until("ingestion to " + head, BENCH_SECONDS, () -> {
                long at = cursor(pool);
                if (warm[0] == 0 && System.nanoTime() - t0 > 15_000_000_000L) {
                    warm[0] = System.nanoTime();
                    warm[1] = txs(pool);
                }
                if (half[0] == 0 && at >= head / 2) {
                    half[0] = System.nanoTime();
                    half[1] = txs(pool);
                    cpuHalf[0] = CpuShares.now(devnetProcess);
                    idleHalf[0] = commitIdleSeconds();
                }
                return at >= head;
            });
            long warmNanos = warm[0];
            long warmTxs = warm[1];
            long halfNanos = half[0];
            long halfTxs = half[1];
            long doneNanos = System.nanoTime();
            CpuShares cpuAfter = CpuShares.now(devnet);
            if (backends != null) backends.close();
            double ingestSecs = (doneNanos - t0) / 1e9;
            long peakHeap = 0;
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
                if (p.getType() == MemoryType.HEAP) peakHeap += p.getPeakUsage().getUsed();
            Row totals = await(pool.query("SELECT blocks, txs, evm_txs FROM ingest_totals")
                            .execute())
                    .iterator()
                    .next();
            long txs = totals.getLong(1);
            double txsPerSec = txs / ingestSecs;
            System.out.printf(
                    Locale.ROOT,
                    "ingest   %d blocks, %d txs (+%d EVM receipts) in %.1f s: %.1f blocks/s, %.0f txs/s, peak heap %d MB%n",
                    totals.getLong(0),
                    txs,
                    totals.getLong(2),
                    ingestSecs,
                    totals.getLong(0) / ingestSecs,
                    txsPerSec,
                    peakHeap >> 20);
            if (warmNanos > 0) {
                System.out.printf(
                        Locale.ROOT,
                        "         after the first 15 s (JIT warm): %.0f txs/s%n",
                        (txs - warmTxs) / ((doneNanos - warmNanos) / 1e9));
            }
            if (halfNanos > 0) {
                // the JIT compiles for most of a short run (C2 threads took ~45 % of the node's CPU over 30 s): the
                // second
                // half of the chain shows the rate a long catch-up keeps
                System.out.printf(
                        Locale.ROOT,
                        "         second half of the chain (steady state): %.0f txs/s%n",
                        (txs - halfTxs) / ((doneNanos - halfNanos) / 1e9));
            }

            printCommitDuty(ingestSecs, idleHalf[0]);
            cpuAfter.minus(cpuBefore).print(ingestSecs, txs);
            if (halfNanos > 0)
                cpuAfter.minus(cpuHalf[0]).print("second half: ", (doneNanos - halfNanos) / 1e9, txs - halfTxs);
            if (backends != null) backends.print("the ingestion");
            if (pgStatements) printStatements(pool, ingestSecs);
            // before the raw baseline writes its copies of the tables: the history as ingestion left it
            StorageReport.print(pool, txs);
            printVerify(config, head, totals.getLong(0) / ingestSecs);
            double steadyTxsPerSec = halfNanos > 0 ? (txs - halfTxs) / ((doneNanos - halfNanos) / 1e9) : 0;
            // the main rows alone (block, tx, evm_tx and their account and message type edges: the earlier baseline),
            // then every table ingestion inserts rows into (like for like: the transfers, the account views' rows,
            // the NFT activity and the event log too)
            for (List<RawInsertBaseline.Table> tables : List.of(RawInsertBaseline.MAIN, RawInsertBaseline.EVERY)) {
                RawInsertBaseline.Result raw = RawInsertBaseline.run(
                        pool, tables, 1, head, config.ingest().commitBlocks());
                long rawNanos = raw.nanos();
                double rawTxsPerSec = txs / (rawNanos / 1e9);
                System.out.printf(
                        Locale.ROOT,
                        "baseline raw bulk insert of the same rows (%s; same tables, same PostgreSQL): %.1f s, %.0f txs/s → ingest/raw ratio %.2f%s%n",
                        tables == RawInsertBaseline.EVERY
                                ? "every table ingestion inserts into, " + tables.size() + " tables"
                                : "main rows, " + tables.size() + " tables",
                        rawNanos / 1e9,
                        rawTxsPerSec,
                        txsPerSec / rawTxsPerSec,
                        halfNanos > 0
                                ? String.format(Locale.ROOT, " (steady state %.2f)", steadyTxsPerSec / rawTxsPerSec)
                                : "");
                raw.cpu().print(rawNanos / 1e9, txs);
            }

            if (readMs > 0) {
                int apiInstances = Integer.getInteger(
                        "bench.api_instances", Runtime.getRuntime().availableProcessors());
                await(node.scale("api", apiInstances));
                System.out.printf(
                        Locale.ROOT,
                        "reads    the API runs %d HTTP verticle instances (POST /admin/scale), each with a page cache of %d MiB "
                                + "(http.page_cache_mb: a repeated tx page is read once per ingest commit; no commit runs during the reads)%n",
                        apiInstances,
                        config.http().pageCacheMb());
                reads(vertx, TestNodes.httpPort(node), pool, clients, readMs);
            }
            await(node.stop());
            await(pool.close());
        } finally {
            await(vertx.close());
            pg.close();
            if (devnet != null) {
                devnet.destroy();
                devnet.waitFor();
            }
            TestDatabase.deleteTree(work);
        }
    }

    /**
     * Only the read part, against a node already running ({@code bench.api_port}) and its database ({@code bench.db_url});
     * with {@code bench.node_pid}, the node's CPU per request apart from the clients'.
     */
    static void readsOnly() {
        Vertx vertx = TestNodes.newVertx();
        Pool pool = ReadLoad.sqlPool(vertx, System.getProperty("bench.db_url"), 8, "bench-sql");
        try {
            // bench.node_pid: the node's process, to tell its CPU per request from the clients'
            Long nodePid = Long.getLong("bench.node_pid");
            reads(
                    vertx,
                    Integer.getInteger("bench.api_port"),
                    pool,
                    Integer.getInteger("bench.clients", 8),
                    Long.getLong("bench.read_seconds", 10) * 1000,
                    nodePid == null ? null : new RouteBench.ProcessCpu(nodePid, 100));
        } finally {
            await(pool.close());
            await(vertx.close());
        }
    }

    static void reads(Vertx vertx, int port, Pool pool, int clients, long readMs) {
        reads(vertx, port, pool, clients, readMs, null);
    }

    /** The list reads and the single tx by hash; {@code node}: the node's process when it runs apart from this JVM. */
    static void reads(Vertx vertx, int port, Pool pool, int clients, long readMs, RouteBench.ProcessCpu node) {
        ListReads.run(vertx, port, pool, clients, readMs, node);
        AccountViewReads.run(vertx, port, pool, clients, readMs);
        List<byte[]> hashes = new ArrayList<>();
        await(pool.query("SELECT hash FROM tx TABLESAMPLE SYSTEM (5) LIMIT 20000")
                        .execute())
                .forEach(r -> hashes.add(r.getBuffer(0).getBytes()));
        if (hashes.isEmpty()) return;
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        String hashSql = TxStore.byHashSql(TxStore.Stream.COSMOS);
        for (String pass : new String[] {"warm-up", "measure"}) {
            bench(
                    vertx,
                    pool,
                    port,
                    clients,
                    readMs,
                    pass.equals("warm-up") ? null : "single tx by hash",
                    () -> "/indexer/tx/v1/txs/" + Hex.upper(hashes.get(rnd.nextInt(hashes.size()))),
                    hashSql,
                    () -> Tuple.of(Buffer.buffer(hashes.get(rnd.nextInt(hashes.size())))));
        }
    }

    static void bench(
            Vertx vertx,
            Pool pool,
            int port,
            int clients,
            long readMs,
            String name,
            java.util.function.Supplier<String> uri,
            String sql,
            java.util.function.Supplier<Tuple> params) {
        if (name == null) {
            ReadLoad.http(vertx, port, clients, 0, readMs / 2, uri);
            ReadLoad.sql(vertx, pool, sql, clients, 0, readMs / 2, params);
            return;
        }
        ReadLoad.Result api = ReadLoad.http(vertx, port, clients, readMs / 5, readMs, uri);
        ReadLoad.Result raw = ReadLoad.sql(vertx, pool, sql, clients, readMs / 5, readMs, params);
        System.out.printf(
                Locale.ROOT,
                "  %-24s API %s | SQL %s | API/SQL %.2f%s%n",
                name,
                api.row(),
                raw.row(),
                api.perSecond() / raw.perSecond(),
                api.errors() + raw.errors() > 0 ? "  (" + (api.errors() + raw.errors()) + " errors)" : "");
    }

    static String key(long sequence) {
        return java.net.URLEncoder.encode(
                PageResponse.encode("{\"sequence\":" + sequence + "}"), java.nio.charset.StandardCharsets.UTF_8);
    }

    static long txs(Pool pool) {
        return await(pool.query("SELECT txs FROM ingest_totals").execute())
                .iterator()
                .next()
                .getLong(0);
    }

    static long cursor(Pool pool) {
        return await(pool.query("SELECT height FROM pipeline_cursor WHERE name = 'ingest'")
                        .execute())
                .iterator()
                .next()
                .getLong(0);
    }

    static Process startDevnet(Path work, long blocks, int txsPerBlock, int[] ports) throws Exception {
        return startDevnet(work, blocks, txsPerBlock, ports, List.of());
    }

    /**
     * How much of the ingestion's wall time a commit was running (the commits are sequential: at 100 % the writing
     * connection is the limit, below it the commits wait for prepared runs), from the node's own commit timer.
     */
    static void printCommitDuty(double ingestSecs, double[] idleAtHalf) {
        io.micrometer.core.instrument.MeterRegistry registry =
                io.vertx.micrometer.backends.BackendRegistries.getDefaultNow();
        io.micrometer.core.instrument.Timer commits = registry == null
                ? null
                : registry.find("weft_ingest_commit_seconds")
                        .tag("chain_id", CHAIN)
                        .timer();
        if (commits == null) {
            System.out.println("         (no commit timer: metrics are off)");
            return;
        }
        double busy = commits.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS) / 1e9;
        System.out.printf(
                Locale.ROOT,
                "         commits: %d, %.1f ms each on average, running %.0f %% of the ingestion's wall time%n",
                commits.count(),
                1000 * busy / Math.max(1, commits.count()),
                100 * busy / ingestSecs);
        double[] idle = commitIdleSeconds();
        StringBuilder line = new StringBuilder("         between commits, waiting on:");
        CommitIdle.Waiting[] causes = CommitIdle.Waiting.values();
        for (int i = 0; i < causes.length; i++) {
            line.append(String.format(Locale.ROOT, "%s %s %.1f s", i == 0 ? "" : ",", causes[i].label(), idle[i]));
            if (idleAtHalf != null)
                line.append(String.format(Locale.ROOT, " (second half %.1f)", idle[i] - idleAtHalf[i]));
        }
        System.out.println(line);
    }

    /**
     * The node's idle time between commits so far by what the commit loop waited for ({@code weft_ingest_commit_idle_seconds}):
     * fetches (the node side is the limit), a run's preparation, the head, a retry; in {@link CommitIdle.Waiting} order.
     */
    static double[] commitIdleSeconds() {
        io.micrometer.core.instrument.MeterRegistry registry =
                io.vertx.micrometer.backends.BackendRegistries.getDefaultNow();
        CommitIdle.Waiting[] causes = CommitIdle.Waiting.values();
        double[] out = new double[causes.length];
        for (int i = 0; registry != null && i < causes.length; i++) {
            io.micrometer.core.instrument.FunctionCounter c = registry.find("weft_ingest_commit_idle_seconds")
                    .tag("chain_id", CHAIN)
                    .tag("waiting", causes[i].label())
                    .functionCounter();
            out[i] = c == null ? 0 : c.count();
        }
        return out;
    }

    /**
     * @param extra more options of the devnet's JVM (e.g. {@code -Dweft.devnet.faults.latency=50ms}), after the default
     *              {@code -Xmx1g}, so an {@code -Xmx} among them wins
     */
    static Process startDevnet(Path work, long blocks, int txsPerBlock, int[] ports, List<String> extra)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g",
                JVM_OPTIONS,
                "-Dweft.chain.chain_id=" + CHAIN,
                "-Dweft.devnet.mode=history",
                "-Dweft.devnet.history_blocks=" + blocks,
                "-Dweft.devnet.txs_per_block=" + txsPerBlock,
                "-Dweft.devnet.state_file=",
                "-Dweft.devnet.genesis_time=2026-01-01T00:00:00Z",
                "-Dweft.devnet.rpc_port=" + ports[0],
                "-Dweft.devnet.rest_port=" + ports[1],
                "-Dweft.devnet.json_rpc_port=" + ports[2],
                "-Dweft.bridge.tcp_enabled=false",
                "-Dweft.log.level=warn",
                // the devnet's other chains on free ports too, so a bench never collides with a running Weft or another
                // bench
                "-Dweft.devnet.chains.weft-l1-1.rpc_port=0",
                "-Dweft.devnet.chains.weft-l1-1.rest_port=0",
                "-Dweft.devnet.chains.weft-move-1.rpc_port=0",
                "-Dweft.devnet.chains.weft-move-1.rest_port=0",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.weft.Main",
                "--roles",
                "devnet"));
        cmd.addAll(2, extra);
        // -Dbench.devnet_java_opts="-XX:StartFlightRecording=..." profiles the devnet's JVM
        String opts = System.getProperty("bench.devnet_java_opts", "").trim();
        if (!opts.isEmpty()) cmd.addAll(1, List.of(opts.split("\\s+")));
        Process devnet = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("devnet.log").toFile())
                .start();
        // a bench stopped with SIGTERM or Ctrl-C stops its devnet too (a no-op once the bench has stopped it)
        Runtime.getRuntime().addShutdownHook(new Thread(devnet::destroy, "bench-devnet-stop"));
        return devnet;
    }

    /**
     * The devnet options that keep its whole history once generated (with the heap that takes). The parallel collector:
     * the cached history is a live set of gigabytes that never dies, which G1 marks again and again in concurrent cycles
     * (seconds of CPU on the timed cores) once it fills half the heap; the parallel collector's young collections skip it.
     */
    static List<String> cacheAll(long blocks) {
        long heapMb = 1024 + blocks / 5; // ~150 KB per cached block of 20 txs, with room
        return List.of("-Dweft.devnet.cached_blocks=" + (blocks + 1), "-Xmx" + heapMb + "m", "-XX:+UseParallelGC");
    }

    /** {@link #warmDevnet(String, String, String, long, int)} at 400 heights. */
    static void warmDevnet(String rpc, String rest, String jsonRpc, long head) throws Exception {
        warmDevnet(rpc, rest, jsonRpc, head, 400);
    }

    /**
     * Asks the devnet for what an indexer reads (block, results, REST txs, EVM receipts) at {@code most} heights spread
     * over its history (every height when {@code most} covers it), before anything is timed: its JVM compiles its block
     * generation and rendering then (the EVM signing of a cold JVM ran ~10× slower for its first thousands of txs, on the
     * cores the timed ingestion shares), as a node that has been running would have, and a devnet that keeps its whole
     * history ({@link #cacheAll}) has generated every block. The timed ingestion still pays Weft's own warm-up.
     */
    static void warmDevnet(String rpc, String rest, String jsonRpc, long head, int most) throws Exception {
        warmDevnet(rpc, rest, jsonRpc, head, most, 4);
    }

    /** {@link #warmDevnet(String, String, String, long, int)} with {@code threads} heights asked at once (a far devnet needs many). */
    static void warmDevnet(String rpc, String rest, String jsonRpc, long head, int most, int threads) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        int heights = (int) Math.min(head, most);
        long started = System.nanoTime();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int i = 0; i < heights; i++) {
                long h = 1 + i * head / heights;
                done.add(pool.submit(() -> {
                    send(
                            client,
                            HttpRequest.newBuilder(URI.create(rpc + "/block?height=" + h))
                                    .build());
                    send(
                            client,
                            HttpRequest.newBuilder(URI.create(rpc + "/block_results?height=" + h))
                                    .build());
                    send(
                            client,
                            HttpRequest.newBuilder(URI.create(rest + "/cosmos/tx/v1beta1/txs/block/" + h))
                                    .build());
                    send(
                            client,
                            HttpRequest.newBuilder(URI.create(jsonRpc))
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(
                                            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_getBlockReceipts\",\"params\":[\"0x"
                                                    + Long.toHexString(h) + "\"]}"))
                                    .build());
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : done) f.get();
        } finally {
            pool.shutdownNow();
        }
        System.out.printf(
                Locale.ROOT,
                "devnet   warmed up (what an indexer reads at %d heights) in %.1f s, before timing%n",
                heights,
                (System.nanoTime() - started) / 1e9);
    }

    /** A GET whose body is discarded; anything but 200 throws. */
    static void send(HttpClient client, HttpRequest request) throws Exception {
        HttpResponse<Void> r = client.send(request, HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() != 200) throw new IllegalStateException(request.uri() + " answered " + r.statusCode());
    }

    static void waitFor(String url, int seconds) {
        Await.until("the devnet answering " + url, seconds, () -> {
            httpGet(url);
            return true;
        });
    }

    static String httpGet(String url) throws Exception {
        return HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }

    /** The ten statements with the most server time so far, as a share of the ingestion's wall time. */
    /**
     * {@code verify} over the last {@code bench.verify_blocks} (2,000; 0: none) heights of the history, against the
     * ingestion's own blocks/s in this run (both fetch from the same devnet and write or read the same database).
     */
    private static void printVerify(WeftConfig config, long head, double ingestBlocksPerSec) {
        long n = Math.min(head, Long.getLong("bench.verify_blocks", 2_000));
        if (n <= 0) return;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        long t0 = System.nanoTime();
        int code = dev.weft.ingest.verify.RangeCommand.run(
                new String[] {"verify", "--from", String.valueOf(head - n + 1), "--to", String.valueOf(head)},
                config,
                new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
                Locale.ROOT,
                "verify   %d blocks in %.1f s: %.1f blocks/s (exit %d; %.2f × the ingestion's blocks/s)%n",
                n,
                secs,
                n / secs,
                code,
                n / secs / ingestBlocksPerSec);
    }

    private static void printStatements(Pool pool, double wallSecs) {
        await(pool.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements").execute());
        System.out.println("postgres statements by total server time during ingestion (share of its wall time):");
        for (Row r : await(
                pool.query("SELECT total_exec_time, calls, rows, regexp_replace(left(query, 110), '\\s+', ' ', 'g') "
                                + "FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 10")
                        .execute())) {
            System.out.printf(
                    Locale.ROOT,
                    "  %6.1f s %5.1f %%  %7d calls %9d rows  %s%n",
                    r.getDouble(0) / 1000,
                    r.getDouble(0) / 10 / wallSecs,
                    r.getLong(1),
                    r.getLong(2),
                    r.getString(3));
        }
    }
}
