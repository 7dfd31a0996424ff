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
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The multi-chain benchmark ({@code bench/multichain.sh}): a devnet of three chains (its own JVM, its whole history
 * generated and kept before timing) ingested by one node, each chain alone into a fresh embedded PostgreSQL, then all
 * three at once into another. Prints each run's txs/s, the aggregate against the single-chain rates, each chain's lag
 * when the first chain of the joint run was caught up, and the peak heap of each run.
 *
 * <p>With {@code bench.dead_chain=<id>}: the two other chains alone, against the same two with the third configured
 * and its node dead (a port nothing listens on), and the ratio of their rates (goal ≥ 0.9).
 *
 * <p>Properties: {@code bench.blocks} (3000, every chain's history), {@code bench.txs_per_block} (20, every chain),
 * {@code bench.fsync} (true), {@code bench.dead_chain} (none).
 */
public final class MultiChainBench {
    static final List<String> CHAINS = List.of("weft-devnet-1", "weft-l1-1", "weft-move-1");
    static final double GOAL = 0.9;
    private static final long TIMEOUT_SECONDS = 3600;

    /** One chain of the devnet: where it listens. */
    record Chain(String id, int rpc, int rest, int jsonRpc) {
        String url(int port) {
            return "http://127.0.0.1:" + port;
        }

        String schema() {
            return id.equals(CHAINS.get(0)) ? "public" : "chain_" + id.replace('-', '_');
        }
    }

    /** A timed run: per chain its txs and the seconds until it was caught up, its lag when the first was; peak heap. */
    record Run(
            String name,
            Map<String, Long> txs,
            Map<String, Double> secs,
            Map<String, Long> lagAtFirst,
            long heap,
            CpuShares.Spent cpu) {
        double nodeCpuPerTx() {
            return 1e6 * cpu.cpu().nodeSecs() / totalTxs();
        }

        long totalTxs() {
            return txs.values().stream().mapToLong(Long::longValue).sum();
        }

        double wall() {
            return secs.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        }

        double rate() {
            return totalTxs() / wall();
        }
    }

    public static void main(String[] args) throws Exception {
        long blocks = Long.getLong("bench.blocks", 3000);
        int txsPerBlock = Integer.getInteger("bench.txs_per_block", 20);
        boolean fsync = Boolean.parseBoolean(System.getProperty("bench.fsync", "true"));
        String dead = System.getProperty("bench.dead_chain", "").trim();
        if (!dead.isEmpty() && !CHAINS.contains(dead))
            throw new IllegalArgumentException("bench.dead_chain must be one of " + CHAINS + " (got " + dead + ")");
        Path work = BenchWork.create("weft-bench-multichain");
        List<Chain> chains = List.of(
                new Chain(CHAINS.get(0), Ports.free(), Ports.free(), Ports.free()),
                new Chain(CHAINS.get(1), Ports.free(), Ports.free(), 0),
                new Chain(CHAINS.get(2), Ports.free(), Ports.free(), 0));
        Process devnet = startDevnet(work, blocks, txsPerBlock, chains);
        Vertx vertx = TestNodes.newVertx();
        try {
            long head = Long.MAX_VALUE;
            for (Chain c : chains) {
                IngestReadBench.waitFor(c.url(c.rpc) + "/status", 900);
                head = Math.min(head, headOf(c));
            }
            System.out.printf(
                    Locale.ROOT,
                    "weft multi-chain bench: 3 devnet chains × %d blocks (%d txs/block nominal), %d cores, PostgreSQL fsync %s, "
                            + "bench JVM heap max %d MB%n",
                    head,
                    txsPerBlock,
                    Runtime.getRuntime().availableProcessors(),
                    fsync ? "on" : "off",
                    Runtime.getRuntime().maxMemory() >> 20);
            for (Chain c : chains) warm(c, head);
            JsonObject base = new JsonObject(Files.readString(Path.of("conf/weft.json")));
            List<Run> runs = new ArrayList<>();
            if (dead.isEmpty()) {
                for (Chain c : chains)
                    runs.add(run(vertx, work, devnet, base, chains, List.of(c.id), null, head, fsync, false));
                runs.add(run(vertx, work, devnet, base, chains, CHAINS, null, head, fsync, false));
                printThree(runs);
            } else {
                List<String> live =
                        CHAINS.stream().filter(id -> !id.equals(dead)).toList();
                runs.add(run(vertx, work, devnet, base, chains, live, null, head, fsync, true));
                runs.add(run(vertx, work, devnet, base, chains, CHAINS, dead, head, fsync, true));
                double ratio = runs.get(1).rate() / runs.get(0).rate();
                System.out.printf(
                        Locale.ROOT,
                        "dead      %s and %s with %s's node dead / the two alone: %.0f / %.0f txs/s = %.2f (goal >= %.2f: %s)%n",
                        live.get(0),
                        live.get(1),
                        dead,
                        runs.get(1).rate(),
                        runs.get(0).rate(),
                        ratio,
                        GOAL,
                        ratio >= GOAL ? "ok" : "MISS");
            }
            System.out.println("load      " + uptime());
        } finally {
            await(vertx.close());
            devnet.destroy();
            devnet.waitFor();
            TestDatabase.deleteTree(work);
        }
    }

    private static void printThree(List<Run> runs) {
        double sumRates = 0, sumSecs = 0;
        long sumTxs = 0;
        for (int i = 0; i < 3; i++) {
            sumRates += runs.get(i).rate();
            sumSecs += runs.get(i).wall();
            sumTxs += runs.get(i).totalTxs();
        }
        Run all = runs.get(3);
        System.out.printf(
                Locale.ROOT,
                "aggregate %.0f txs/s together / %.0f txs/s (sum of the single-chain rates) = %.2f (goal >= %.2f: %s)%n",
                all.rate(),
                sumRates,
                all.rate() / sumRates,
                GOAL,
                all.rate() / sumRates >= GOAL ? "ok" : "MISS");
        double nodeCpuAlone = 0;
        for (int i = 0; i < 3; i++) nodeCpuAlone += runs.get(i).cpu().cpu().nodeSecs();
        System.out.printf(
                Locale.ROOT,
                "cpu       node CPU per tx together %.0f µs / alone (the three single runs' CPU over their txs) %.0f µs = %.2f"
                        + " (above 1: running them together costs the node more per tx)%n",
                all.nodeCpuPerTx(),
                1e6 * nodeCpuAlone / sumTxs,
                all.nodeCpuPerTx() / (1e6 * nodeCpuAlone / sumTxs));
        // what the literal ratio cannot show on a machine that one chain alone keeps busy: the txs per busy core-second
        // (wall × cores × the machine's busy share, every process counted), together against the single runs
        int cores = Runtime.getRuntime().availableProcessors();
        double busyAlone = 0;
        for (int i = 0; i < 3; i++)
            busyAlone += runs.get(i).wall() * cores * (1 - runs.get(i).cpu().idle());
        double busyTogether = all.wall() * cores * (1 - all.cpu().idle());
        double perBusyAlone = sumTxs / busyAlone;
        double perBusyTogether = all.totalTxs() / busyTogether;
        System.out.printf(
                Locale.ROOT,
                "busy      %.0f txs per busy core-second together / %.0f alone (the three single runs: %.1f busy"
                        + " core-seconds) = %.2f (below 1: running them together wastes some of the machine's work)%n",
                perBusyTogether,
                perBusyAlone,
                busyAlone,
                perBusyTogether / perBusyAlone);
        // the single runs each had the whole machine: one after another they did the same work in sumSecs
        double serial = sumTxs / sumSecs;
        System.out.printf(
                Locale.ROOT,
                "serial    %.0f txs/s together / %.0f txs/s (the three single runs one after another: %d txs in %.1f s) = %.2f%n",
                all.rate(),
                serial,
                sumTxs,
                sumSecs,
                all.rate() / serial);
    }

    /** One timed run: a node ingesting {@code own} (with {@code dead}'s node replaced by a dead port) into a fresh database. */
    private static Run run(
            Vertx vertx,
            Path work,
            Process devnet,
            JsonObject base,
            List<Chain> chains,
            List<String> own,
            String dead,
            long head,
            boolean fsync,
            boolean deadMode)
            throws Exception {
        String name = String.join("+", own) + (dead == null ? "" : " (" + dead + " dead)");
        List<String> live = own.stream().filter(id -> !id.equals(dead)).toList();
        EmbeddedPostgresServer pg =
                EmbeddedPostgresServer.start(work.resolve("pg-" + System.nanoTime()), 0, fsync, Map.of());
        try (Connection monitor = TestDatabase.jdbc(pg.url())) {
            HeapPeak heap = new HeapPeak();
            heap.start();
            CpuShares.Span span = CpuShares.Span.start(devnet);
            long started = System.nanoTime();
            WeftNode node = TestNodes.start(vertx, config(base, pg.url(), chains, own, dead));
            // from the node's start in a dead-chain comparison (the dead chain's failing first start is part of what
            // is measured, and both runs migrate the same schemas); otherwise once started, so that the single runs,
            // each migrating every configured schema, do not pay that three times against the joint run's once
            long t0 = deadMode ? started : System.nanoTime();
            Map<String, Double> secs = new LinkedHashMap<>();
            Map<String, Long> lagAtFirst = new LinkedHashMap<>();
            long deadline = t0 + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            while (secs.size() < live.size()) {
                if (System.nanoTime() > deadline) throw new IllegalStateException(name + ": not caught up in time");
                Map<String, Long> at = new LinkedHashMap<>();
                for (String id : live) at.put(id, cursor(monitor, schema(chains, id)));
                double now = (System.nanoTime() - t0) / 1e9;
                for (String id : live) if (at.get(id) >= head) secs.putIfAbsent(id, now);
                if (!secs.isEmpty() && lagAtFirst.isEmpty())
                    for (String id : live) lagAtFirst.put(id, head - at.get(id));
                Thread.sleep(50);
            }
            heap.stop();
            CpuShares.Spent spent = span.end();
            await(node.stop());
            Map<String, Long> txs = new LinkedHashMap<>();
            for (String id : live) txs.put(id, txs(monitor, schema(chains, id)));
            Run r = new Run(name, txs, secs, lagAtFirst, heap.peak(), spent);
            // PostgreSQL's CPU is left out: on a shared machine every engineer's postgres processes would count
            System.out.printf(
                    Locale.ROOT,
                    "run       %-45s %7d txs in %6.1f s: %6.0f txs/s, peak heap %d MB; machine idle %.0f %%, node CPU %.0f µs per tx,"
                            + " devnet %.0f µs per tx%n",
                    name,
                    r.totalTxs(),
                    r.wall(),
                    r.rate(),
                    r.heap() >> 20,
                    100 * spent.idle(),
                    r.nodeCpuPerTx(),
                    1e6 * spent.cpu().devnetSecs() / r.totalTxs());
            if (live.size() > 1)
                for (String id : live)
                    System.out.printf(
                            Locale.ROOT,
                            "          %-14s %7d txs, caught up at %6.1f s (%6.0f txs/s); lag when the first chain was caught up: %d blocks%n",
                            id,
                            txs.get(id),
                            secs.get(id),
                            txs.get(id) / secs.get(id),
                            lagAtFirst.get(id));
            return r;
        } finally {
            pg.close();
        }
    }

    private static String schema(List<Chain> chains, String id) {
        return chains.stream()
                .filter(c -> c.id.equals(id))
                .findFirst()
                .orElseThrow()
                .schema();
    }

    private static long cursor(Connection c, String schema) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT coalesce((SELECT height FROM " + schema
                        + ".pipeline_cursor WHERE name = 'ingest'), 0)")) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (java.sql.SQLException e) {
            return 0; // the schema is not there yet
        }
    }

    private static long txs(Connection c, String schema) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT txs FROM " + schema + ".ingest_totals")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** The node's configuration: the project's defaults, writer role ingest for {@code own}, every chain's URLs. */
    static WeftConfig config(JsonObject base, String url, List<Chain> chains, List<String> own, String dead) {
        JsonObject conf = base.copy();
        conf.getJsonObject("node").put("roles", new JsonArray().add("ingest")).put("chains", new JsonArray(own));
        conf.getJsonObject("http").put("port", 0);
        conf.getJsonObject("database").put("url", url);
        conf.getJsonObject("bridge").put("tcp_enabled", false).put("sockjs_enabled", false);
        String nowhere = "http://127.0.0.1:" + Ports.free();
        for (Chain c : chains) {
            boolean isDead = c.id.equals(dead);
            JsonObject entry = c.id.equals(CHAINS.get(0))
                    ? conf.getJsonObject("chain")
                    : conf.getJsonObject("chains").getJsonObject(c.id);
            entry.put("rpc", new JsonArray().add(isDead ? nowhere : c.url(c.rpc)))
                    .put("rest", new JsonArray().add(isDead ? nowhere : c.url(c.rest)));
            if (c.jsonRpc > 0) entry.put("json_rpc", new JsonArray().add(isDead ? nowhere : c.url(c.jsonRpc)));
        }
        conf.put("log", new JsonObject().put("level", "warn"));
        conf.put("rate_limit", new JsonObject().put("enabled", false));
        return WeftConfig.from(ConfigSource.fileOnly(conf));
    }

    /** The devnet's JVM: three chains in history mode, every chain's traffic over its whole history, kept in memory. */
    static Process startDevnet(Path work, long blocks, int txsPerBlock, List<Chain> chains) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                IngestReadBench.JVM_OPTIONS,
                "-Xmx" + (1024 + 3 * blocks / 5) + "m",
                "-XX:+UseParallelGC",
                "-Dweft.devnet.cached_blocks=" + (blocks + 1),
                "-Dweft.chain.chain_id=" + CHAINS.get(0),
                "-Dweft.devnet.mode=history",
                "-Dweft.devnet.history_blocks=" + blocks,
                "-Dweft.devnet.txs_per_block=" + txsPerBlock,
                "-Dweft.devnet.state_file=",
                "-Dweft.devnet.genesis_time=2026-01-01T00:00:00Z",
                "-Dweft.devnet.rpc_port=" + chains.get(0).rpc,
                "-Dweft.devnet.rest_port=" + chains.get(0).rest,
                "-Dweft.devnet.json_rpc_port=" + chains.get(0).jsonRpc,
                "-Dweft.bridge.tcp_enabled=false",
                "-Dweft.log.level=warn"));
        for (Chain c : chains.subList(1, 3)) {
            String p = "-Dweft.devnet.chains." + c.id + ".";
            cmd.addAll(List.of(
                    p + "rpc_port=" + c.rpc,
                    p + "rest_port=" + c.rest,
                    p + "traffic_blocks=" + blocks,
                    p + "txs_per_block=" + txsPerBlock));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.weft.Main", "--roles", "devnet"));
        Process devnet = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("devnet.log").toFile())
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(devnet::destroy, "bench-devnet-stop"));
        return devnet;
    }

    private static long headOf(Chain c) throws Exception {
        return Long.parseLong(new JsonObject(IngestReadBench.httpGet(c.url(c.rpc) + "/status"))
                .getJsonObject("result")
                .getJsonObject("sync_info")
                .getString("latest_block_height"));
    }

    /**
     * What an indexer reads at every height of a chain, asked once before timing: the devnet generates and keeps each
     * block then, and its JIT is warm, so the timed runs measure the node (as {@link IngestReadBench#warmDevnet}).
     */
    private static void warm(Chain c, long head) throws Exception {
        if (c.jsonRpc > 0) {
            IngestReadBench.warmDevnet(c.url(c.rpc), c.url(c.rest), c.url(c.jsonRpc), head, (int) head);
            return;
        }
        HttpClient client = HttpClient.newHttpClient();
        long t0 = System.nanoTime();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (long h = 1; h <= head; h++) {
                long height = h;
                done.add(pool.submit(() -> {
                    for (String uri : List.of(
                            c.url(c.rpc) + "/block?height=" + height,
                            c.url(c.rpc) + "/block_results?height=" + height,
                            c.url(c.rest) + "/cosmos/tx/v1beta1/txs/block/" + height))
                        IngestReadBench.send(
                                client, HttpRequest.newBuilder(URI.create(uri)).build());
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : done) f.get();
        } finally {
            pool.shutdownNow();
        }
        System.out.printf(
                Locale.ROOT,
                "devnet    %s warmed up (what an indexer reads at %d heights) in %.1f s, before timing%n",
                c.id,
                head,
                (System.nanoTime() - t0) / 1e9);
    }

    private static String uptime() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim() + " (/proc/loadavg: 1, 5, 15 min)";
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    /** The most heap this JVM (the node's) used during a run, sampled every 100 ms on a thread of its own. */
    static final class HeapPeak {
        private volatile boolean running;
        private volatile long peak;
        private Thread thread;

        void start() {
            running = true;
            thread = new Thread(
                    () -> {
                        var mem = ManagementFactory.getMemoryMXBean();
                        while (running) {
                            peak = Math.max(peak, mem.getHeapMemoryUsage().getUsed());
                            try {
                                Thread.sleep(100);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "bench-heap-peak");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
        }

        long peak() {
            return peak;
        }
    }
}
