package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import dev.weft.config.ConfigSource;
import dev.weft.config.WeftConfig;
import dev.weft.node.WeftNode;
import dev.weft.store.EmbeddedPostgresServer;
import dev.weft.store.TransferStore;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.micrometer.backends.BackendRegistries;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The transfer tracker catching up on a chain against a far node ({@code bench/track-latency.sh}): a tracker whose
 * scan cursor is {@code bench.blocks} blocks behind the head (a downtime; one open transfer on the chain, so the chain
 * is scanned) scans back to the head, from a devnet answering at once and from devnets with the same history that answer
 * after each of {@code bench.latencies} ms ({@code devnet.faults.latency}). Every devnet keeps its whole history,
 * generated and warmed before timing. Prints each run's blocks/s, over the whole run and from its first saved scan on
 * (the node's start and first round trips left out), their ratios to the last run at the first latency before it, the
 * share of the machine's CPU left idle during the run (the devnets run on the same cores: a run with idle CPU waited
 * on the node, one without was bound by the CPU), the CPU each process spent, the tracker's requests by method and
 * how long they took on average.
 * The node runs in this JVM: a first catch-up from each devnet, not counted, warms its JIT and theirs. Default
 * configuration but {@code track.lookback_blocks} (20: the one-off read of recent blocks a tracker makes when it starts
 * following a chain would otherwise add a fixed read to every run).
 * Properties: {@code bench.blocks} (24000), {@code bench.txs_per_block} (20), {@code bench.latencies} (ms, {@code 0,200,0,200,0,200}),
 * {@code bench.track.<key>} (any integer setting of the tracker, e.g. {@code own_max_in_flight}, {@code scan_window},
 * {@code scan_ahead_mb}, {@code max_blocks_per_poll}; default as configured).
 */
public final class TrackLatencyBench {
    private static final String CHAIN = IngestReadBench.CHAIN;
    private static final String UNSEEN = "AB".repeat(32);

    public static void main(String[] args) throws Exception {
        long blocks = Long.getLong("bench.blocks", 24_000);
        int txsPerBlock = Integer.getInteger("bench.txs_per_block", 20);
        List<Long> latencies = new ArrayList<>();
        for (String l :
                System.getProperty("bench.latencies", "0,200,0,200,0,200").split(","))
            latencies.add(Long.parseLong(l.trim()));
        System.out.printf(
                Locale.ROOT,
                "weft tracker latency bench: %d blocks × %d txs behind, %d cores, latencies %s ms%n",
                blocks,
                txsPerBlock,
                Runtime.getRuntime().availableProcessors(),
                latencies);
        Path work = BenchWork.create("weft-bench-track-latency");
        List<Process> devnets = new ArrayList<>();
        Map<Long, String> rpcs = new java.util.LinkedHashMap<>();
        Map<Long, Process> devnetOf = new java.util.HashMap<>();
        EmbeddedPostgresServer pg = null;
        Vertx vertx = TestNodes.newVertx();
        try {
            for (long latency : new java.util.TreeSet<>(latencies)) {
                int[] ports = {Ports.free(), Ports.free(), Ports.free()};
                List<String> opts = new ArrayList<>(IngestReadBench.cacheAll(blocks));
                opts.add("-Dweft.devnet.faults.latency=" + latency + "ms");
                Path dir = Files.createDirectories(work.resolve("devnet-" + latency));
                Process devnet = IngestReadBench.startDevnet(dir, blocks, txsPerBlock, ports, opts);
                devnets.add(devnet);
                devnetOf.put(latency, devnet);
                String rpc = "http://127.0.0.1:" + ports[0];
                IngestReadBench.waitFor(rpc + "/status", 120);
                warm(rpc, blocks);
                rpcs.put(latency, rpc);
            }
            long head = Long.parseLong(new JsonObject(
                            IngestReadBench.httpGet(rpcs.values().iterator().next() + "/status"))
                    .getJsonObject("result")
                    .getJsonObject("sync_info")
                    .getString("latest_block_height"));
            pg = EmbeddedPostgresServer.start(work.resolve("pg"), 0, true, Map.of());
            Pool pool = PgBuilder.pool()
                    .with(new PoolOptions().setMaxSize(2))
                    .connectingTo(PgConnectOptions.fromUri(pg.url()))
                    .using(vertx)
                    .build();
            long firstLatency = latencies.get(0);
            openTransfer(vertx, pg.url(), rpcs.get(firstLatency), pool);
            // a catch-up from every devnet, not counted: each devnet's JIT compiles what the tracker asks (the warm-up
            // requests
            // above differ in shape: the first far runs used to pay that on the timed cores), and the node's too
            for (long latency : rpcs.keySet()) {
                System.out.printf(Locale.ROOT, "warm-up (not counted): %d blocks, %d ms%n", head - 1, latency);
                catchUp(vertx, pg.url(), rpcs.get(latency), devnetOf.get(latency), pool, head, txsPerBlock);
            }
            // each run is compared with the last run at the first latency before it: the node's rates still drift
            // upwards over
            // the first runs (its JIT), so alternating sequences compare neighbours
            double[] base = null;
            List<String> ratios = new ArrayList<>();
            for (long latency : latencies) {
                double[] rate =
                        catchUp(vertx, pg.url(), rpcs.get(latency), devnetOf.get(latency), pool, head, txsPerBlock);
                if (latency == firstLatency) base = rate;
                System.out.printf(
                        Locale.ROOT,
                        "latency %4d ms: %.1f blocks/s → ratio to the last %d ms run %.2f; from its first scan on %.1f blocks/s → %.2f%n",
                        latency,
                        rate[0],
                        firstLatency,
                        rate[0] / base[0],
                        rate[1],
                        rate[1] / base[1]);
                if (latency != firstLatency)
                    ratios.add(String.format(
                            Locale.ROOT, "%d ms %.2f / %.2f", latency, rate[0] / base[0], rate[1] / base[1]));
            }
            System.out.println("ratios (whole run / from the first scan on): " + String.join(", ", ratios));
            await(pool.close());
        } finally {
            await(vertx.close());
            if (pg != null) pg.close();
            for (Process d : devnets) {
                d.destroy();
                d.waitFor();
            }
            TestDatabase.deleteTree(work);
        }
    }

    /** Registers a hash never on chain through the API, so the tracker follows the chain, and waits for its first scan. */
    private static void openTransfer(Vertx vertx, String db, String rpc, Pool pool) throws Exception {
        WeftNode node = TestNodes.start(vertx, config(db, rpc, "api", "track"));
        try {
            HttpResponse<String> r = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(
                                            URI.create("http://127.0.0.1:" + TestNodes.httpPort(node) + "/v2/tx/track"))
                                    .header("content-type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(new JsonObject()
                                            .put("tx_hash", UNSEEN)
                                            .put("chain_id", CHAIN)
                                            .encode()))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200)
                throw new IllegalStateException("track: HTTP " + r.statusCode() + " " + r.body());
            Await.until("the tracker's first scan of " + CHAIN, 120, () -> cursor(pool) != null);
        } finally {
            await(node.stop());
        }
    }

    /**
     * Moves the scan cursor back to height 1 and runs a tracker alone until its cursor is at {@code head}: its blocks per
     * second over the whole run (the node's start and its first round trips included) and from its first saved scan on.
     * (Not over the second half of the chain: the read-ahead holds up to thousands of blocks ahead of the cursor, so the
     * second half was mostly read during the first and its rate measured the read-ahead's head start.)
     */
    private static double[] catchUp(
            Vertx vertx, String db, String rpc, Process devnet, Pool pool, long head, int txsPerBlock)
            throws Exception {
        await(pool.query("UPDATE track_cursor SET height = 1 WHERE chain_id = '" + CHAIN + "'")
                .execute());
        CpuShares.Span span = CpuShares.Span.start(devnet);
        Map<String, Long> requestsBefore = TrackBench.requests();
        double[] roundTripsBefore = roundTrips();
        long t0 = System.nanoTime();
        WeftNode node = TestNodes.start(vertx, config(db, rpc, "track"));
        long firstAt = -1;
        long first = -1;
        for (Long at; (at = cursor(pool)) == null || at < head; Thread.sleep(20)) {
            if (first < 0 && at != null && at > 1) {
                first = System.nanoTime();
                firstAt = at;
            }
        }
        long end = System.nanoTime();
        CpuShares.Spent spent = span.end();
        await(node.stop());
        double secs = (end - t0) / 1e9;
        double fromFirst = first < 0 || head == firstAt ? 0 : (head - firstAt) / Math.max(1e-9, (end - first) / 1e9);
        System.out.printf(
                Locale.ROOT,
                "  %s: %d blocks in %.1f s: %.1f blocks/s; from its first scan on (%.2f s after its start) %.1f blocks/s; CPU idle %.0f %%%n",
                rpc,
                head - 1,
                secs,
                (head - 1) / secs,
                first < 0 ? secs : (first - t0) / 1e9,
                fromFirst,
                100 * spent.idle());
        spent.cpu().print(secs, (head - 1) * txsPerBlock);
        printRequests(requestsBefore, TrackBench.requests(), head - 1);
        printRoundTrips(roundTripsBefore, roundTrips(), secs);
        return new double[] {(head - 1) / secs, fromFirst};
    }

    /** The tracker's requests to the chain during a run, by method, and per block (a run that asked more shows here). */
    private static void printRequests(Map<String, Long> before, Map<String, Long> after, long blocks) {
        StringBuilder line = new StringBuilder("         requests:");
        long total = 0;
        for (var e : new TreeMap<>(after).entrySet()) {
            long n = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            if (n == 0) continue;
            total += n;
            line.append(String.format(
                    Locale.ROOT, " %s %d,", e.getKey().substring(e.getKey().indexOf(' ') + 1), n));
        }
        System.out.println(
                line.append(String.format(Locale.ROOT, " %.3f per block", total / (double) Math.max(1, blocks))));
    }

    /** The node's answered RPC requests so far and the seconds they took ({@code weft_node_request_seconds{api="rpc"}}). */
    private static double[] roundTrips() {
        MeterRegistry r = BackendRegistries.getDefaultNow();
        double[] out = new double[2];
        if (r == null) return out;
        for (Timer t : r.find("weft_node_request_seconds").tag("api", "rpc").timers()) {
            out[0] += t.count();
            out[1] += t.totalTime(TimeUnit.SECONDS);
        }
        return out;
    }

    /**
     * How long the run's requests took on average, from the tracker's call to its parsed answer, and how many were in
     * flight on average (Little's law: answered per second × that time): a far run whose requests take the latency plus
     * the near run's time, with as many in flight as the client allows, is bound by its requests in flight.
     */
    private static void printRoundTrips(double[] before, double[] after, double secs) {
        double n = after[0] - before[0];
        double took = after[1] - before[1];
        System.out.printf(
                Locale.ROOT,
                "         answered: %.0f requests, %.1f ms each on average, %.0f in flight on average%n",
                n,
                1000 * took / Math.max(1, n),
                took / Math.max(1e-9, secs));
    }

    /**
     * Asks the devnet for every block and for what the tracker reads of them ({@code tx_search} pages over runs of five
     * blocks), 256 requests at a time (a far devnet answers each after its latency): its whole history generated and its
     * rendering compiled before anything is timed.
     */
    private static void warm(String rpc, long head) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        long started = System.nanoTime();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(256);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (long h = 1; h <= head; h++) {
                long height = h;
                String q = java.net.URLEncoder.encode(
                        "\"tx.height>=" + h + " AND tx.height<=" + (h + 4) + "\"",
                        java.nio.charset.StandardCharsets.UTF_8);
                done.add(threads.submit(() -> {
                    IngestReadBench.send(
                            client,
                            HttpRequest.newBuilder(URI.create(rpc + "/block?height=" + height))
                                    .build());
                    if (height % 5 == 1)
                        IngestReadBench.send(
                                client,
                                HttpRequest.newBuilder(URI.create(rpc + "/tx_search?query=" + q + "&per_page=100"))
                                        .build());
                    return null;
                }));
            }
            for (var f : done) f.get();
        } finally {
            threads.shutdownNow();
        }
        System.out.printf(
                Locale.ROOT,
                "devnet   %s warmed up (every block, and tx_search over runs of 5 blocks) in %.1f s, before timing%n",
                rpc,
                (System.nanoTime() - started) / 1e9);
    }

    private static WeftConfig config(String db, String rpc, String... roles) throws Exception {
        JsonObject conf = BenchWork.singleChainConf();
        conf.getJsonObject("node").put("roles", new JsonArray(List.of((Object[]) roles)));
        conf.getJsonObject("http").put("port", 0);
        conf.getJsonObject("database").put("url", db);
        conf.getJsonObject("bridge").put("tcp_enabled", false).put("sockjs_enabled", false);
        conf.getJsonObject("chain").put("chain_id", CHAIN).put("rpc", new JsonArray().add(rpc));
        JsonObject track = conf.getJsonObject("track");
        track.put("lookback_blocks", 20).put("nodes", new JsonObject().put(CHAIN, new JsonArray().add(rpc)));
        // -Dbench.track.<key>=<integer>: a tracker setting other than the default (e.g. own_max_in_flight, scan_window)
        for (String key : List.copyOf(track.fieldNames())) {
            Integer v = Integer.getInteger("bench.track." + key);
            if (v != null) track.put(key, v);
        }
        conf.put("log", new JsonObject().put("level", "info"));
        return WeftConfig.from(ConfigSource.fileOnly(conf));
    }

    /** The tracker's saved scan cursor of the chain, or null before its first save. */
    private static Long cursor(Pool pool) {
        TransferStore.Cursor c = await(new TransferStore(pool).cursors()).get(CHAIN);
        return c == null ? null : c.height();
    }
}
