package dev.weft.bench;

import dev.weft.bus.Addresses;
import dev.weft.chain.AccountAddress;
import dev.weft.chain.CosmosTx;
import dev.weft.node.WeftNode;
import dev.weft.route.registry.Denoms;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.RouteTxs;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.micrometer.backends.BackendRegistries;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Transfer tracking at scale on the multi-chain devnet: {@code transfers} txs (60 % direct IBC weft-l1-1 →
 * weft-devnet-1, 20 % two-hop PFM weft-devnet-1 → weft-l1-1 → weft-move-1, 20 % OP deposits weft-l1-1 → weft-devnet-1)
 * are broadcast, then all tracked at once, and followed until final. It reports:
 * <ul>
 *   <li>the requests the tracker sent to the chains ({@code weft_track_node_requests_total}) per block, while the
 *   transfers were in flight, next to the number of transfers followed;</li>
 *   <li>for each transfer, the delay between the moment its final on-chain event became visible (the wall time a
 *   watcher polling {@code /status} every 10 ms first saw the block holding it; or the moment its track request was
 *   answered, when later: the tracker cannot know before) and the moment its status turned final (the
 *   {@code transfer updated} event, published right after the state is saved), next to the poll interval.</li>
 * </ul>
 * <p>Two shapes: {@code steady} (the default) broadcasts at {@code rate} txs/s, tracking each tx right after its
 * broadcast as a wallet does, with a relayer and executor delay long enough that all of them are in flight at once;
 * {@code burst} broadcasts everything as fast as it can and only then tracks all of it (txs already on chain, found
 * by the tracker's lookback searches).
 * <p>{@code unknown_hashes} random hashes (never on chain) are tracked on weft-l1-1 first, alongside: the requests per
 * block must not grow with them (the tracker looks new hashes up in its index of recent blocks, not one by one).
 * Usage: {@code bench/track-bench.sh [transfers=5000] [shape=steady|burst] [rate=250] [block_interval_ms=1000]
 * [poll_interval_ms=block interval] [relayer_delay_ms=20000] [unknown_hashes=0]}.
 */
public final class TrackBench {
    static final String L1 = "weft-l1-1", EVM = "weft-devnet-1", MOVE = "weft-move-1";
    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    record Sent(String chain, String hash, String kind) {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        boolean burst = args.length > 1 && args[1].equals("burst");
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 250;
        long block = args.length > 3 ? Long.parseLong(args[3]) : 1000;
        long poll = args.length > 4 ? Long.parseLong(args[4]) : block;
        long delay = args.length > 5 ? Long.parseLong(args[5]) : burst ? 2 * block : 20_000;
        int unknown = args.length > 6 ? Integer.parseInt(args[6]) : 0;
        System.out.printf(
                "track bench: %d transfers, %s, block interval %d ms, relayer/executor delay %d ms, poll interval %d ms, %d cores, load average %.1f%n",
                n,
                burst
                        ? "burst (broadcast all, then track all)"
                        : "steady (" + rate + " txs/s, each tracked right after its broadcast)",
                block,
                delay,
                poll,
                Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        .getSystemLoadAverage());
        TestConfig config = TestConfig.defaults()
                .roles("devnet", "track", "api")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 20)
                .set("devnet.block_interval", block + "ms")
                .set("devnet.relayer.delay", delay + "ms")
                .set("devnet.opinit.delay", delay + "ms")
                .set("devnet.opinit.output_interval", (10 * block) + "ms")
                .set("devnet.max_block_txs", 5000)
                // thousands of distinct senders without keys: the one bench that needs the devnet to skip signature
                // checks
                .set("devnet.verify_signatures", false)
                .set("track.poll_interval", poll + "ms")
                .set("track.stall_timeout", "10m")
                .set("track.registrations_per_client", 10_000_000)
                .set("track.max_open", 10_000_000)
                .set("database.pool_size", 8)
                .set("route.registries", new JsonArray().add("conf/registry/devnet.json"));
        Vertx vertx = TestNodes.newVertx();
        WeftNode node = TestNodes.start(vertx, config.build());
        try {
            trackUnknown(TestNodes.httpPort(node), unknown);
            run(node, vertx, n, poll, burst, rate);
        } finally {
            TestNodes.await(node.stop());
            TestNodes.await(vertx.close());
        }
    }

    /** Tracks {@code count} random hashes on weft-l1-1 that never appear on chain (they stay SUBMITTED meanwhile). */
    private static void trackUnknown(int api, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            String body = new JsonObject()
                    .put("tx_hash", String.format("%064X", 0xDEAD0000000L + i))
                    .put("chain_id", L1)
                    .encode();
            HTTP.send(
                    java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create("http://127.0.0.1:" + api + "/v2/tx/track"))
                            .header("content-type", "application/json")
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.discarding());
        }
        if (count > 0) System.out.printf("tracking %d random hashes on %s that never appear%n", count, L1);
    }

    private static void run(WeftNode node, Vertx vertx, int n, long poll, boolean burst, int rate) throws Exception {
        int api = TestNodes.httpPort(node);
        Map<String, Integer> rpc = Map.of(L1, port(node, L1), EVM, port(node, EVM), MOVE, port(node, MOVE));
        HeadWatcher heads = new HeadWatcher(rpc);
        heads.start();
        Await.until("a head of every chain", 60, () -> heads.heads().size() >= 3);
        Map<String, Long> finalAt = new ConcurrentHashMap<>();
        Map<String, Long> trackedAt = new ConcurrentHashMap<>();
        vertx.eventBus().<JsonObject>consumer(Addresses.TRANSFER_UPDATED, m -> {
            String s = m.body().getString("state");
            if (s.startsWith("STATE_COMPLETED") || s.equals("STATE_ABANDONED"))
                finalAt.putIfAbsent(m.body().getString("tx_hash"), System.nanoTime());
        });

        // ---- broadcast (steady: each tracked right after) ----
        Map<String, Long> before = requests();
        Map<String, Long> headsBefore = heads.heads();
        java.util.concurrent.atomic.AtomicInteger tracked = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger peak = new java.util.concurrent.atomic.AtomicInteger();
        long t0 = System.nanoTime();
        List<Sent> sent = Collections.synchronizedList(new ArrayList<>());
        Semaphore inFlight = new Semaphore(32);
        List<CompletableFuture<?>> all = new ArrayList<>();
        String initIbc = Denoms.ibc("transfer/channel-0/uinit");
        long timeout = (System.currentTimeMillis() + 600_000) * 1_000_000L;
        for (int i = 0; i < n; i++) {
            String a = addr(1, i), b = addr(2, i), c = addr(3, i);
            String kind;
            String chain;
            CosmosTx.Any msg;
            if (i % 5 < 3) {
                kind = "ibc";
                chain = L1;
                msg = RouteTxs.any(
                        "/ibc.applications.transfer.v1.MsgTransfer",
                        RouteTxs.transferJson("channel-0", "uinit", Integer.toString(1000 + i), a, b, timeout, ""));
            } else if (i % 5 == 3) {
                kind = "pfm";
                chain = EVM;
                String memo = new JsonObject()
                        .put(
                                "forward",
                                new JsonObject()
                                        .put("receiver", c)
                                        .put("port", "transfer")
                                        .put("channel", "channel-1")
                                        .put("timeout", "10m")
                                        .put("retries", 2))
                        .encode();
                msg = RouteTxs.any(
                        "/ibc.applications.transfer.v1.MsgTransfer",
                        RouteTxs.transferJson("channel-0", initIbc, Integer.toString(1000 + i), b, a, timeout, memo));
            } else {
                kind = "deposit";
                chain = L1;
                msg = RouteTxs.any(
                        "/opinit.ophost.v1.MsgInitiateTokenDeposit",
                        new JsonObject()
                                .put("sender", a)
                                .put("bridge_id", "1")
                                .put("to", b)
                                .put(
                                        "amount",
                                        new JsonObject()
                                                .put("denom", "uinit")
                                                .put("amount", Integer.toString(1000 + i)))
                                .put("data", ""));
            }
            byte[] raw = RouteTxs.unsigned(List.of(msg), chain.equals(L1) ? "uinit" : null);
            JsonObject req = new JsonObject()
                    .put("jsonrpc", "2.0")
                    .put("id", i)
                    .put("method", "broadcast_tx_sync")
                    .put("params", new JsonObject().put("tx", RouteTxs.base64(raw)));
            if (!burst) {
                long due = t0 + (long) (i * 1e9 / rate);
                long wait = due - System.nanoTime();
                if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
            }
            inFlight.acquire();
            String k = kind;
            all.add(postAsync(rpc.get(chain), "/", req)
                    .thenCompose(r -> {
                        JsonObject res = new JsonObject(r.body()).getJsonObject("result");
                        if (res == null || res.getInteger("code") != 0) {
                            System.out.println("broadcast failed: " + r.body());
                            return CompletableFuture.completedFuture(null);
                        }
                        Sent one = new Sent(chain, res.getString("hash"), k);
                        sent.add(one);
                        if (burst) return CompletableFuture.completedFuture(null);
                        return postAsync(
                                        api,
                                        "/v2/tx/track",
                                        new JsonObject()
                                                .put("tx_hash", one.hash())
                                                .put("chain_id", one.chain()))
                                .thenAccept(t -> {
                                    trackedAt.put(one.hash(), System.nanoTime());
                                    if (t.statusCode() != 200) System.out.println("track failed: " + t.body());
                                    peak.accumulateAndGet(tracked.incrementAndGet() - finalAt.size(), Math::max);
                                });
                    })
                    .whenComplete((r, e) -> {
                        inFlight.release();
                        if (e != null) System.out.println("broadcast failed: " + e);
                    }));
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).get(10, TimeUnit.MINUTES);
        System.out.printf(
                "broadcast  %d txs in %.1f s%s%n",
                sent.size(),
                (System.nanoTime() - t0) / 1e9,
                burst
                        ? ""
                        : ", each tracked right after; at most " + peak.get()
                                + " transfers tracked and not final at once");

        // ---- track (burst: all at once now) ----
        long t1 = burst ? System.nanoTime() : t0;
        if (burst) {
            before = requests();
            headsBefore = heads.heads();
            all.clear();
            for (Sent s : sent) {
                inFlight.acquire();
                all.add(postAsync(
                                api,
                                "/v2/tx/track",
                                new JsonObject().put("tx_hash", s.hash()).put("chain_id", s.chain()))
                        .whenComplete((r, e) -> {
                            trackedAt.put(s.hash(), System.nanoTime());
                            inFlight.release();
                            if (r == null || r.statusCode() != 200)
                                System.out.println("track failed: " + (r == null ? e : r.body()));
                        }));
            }
            CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).get(10, TimeUnit.MINUTES);
            System.out.printf(
                    "track      %d POST /v2/tx/track in %.1f s%n", sent.size(), (System.nanoTime() - t1) / 1e9);
        }
        try {
            Await.until("every transfer final", 15 * 60, () -> finalAt.size() >= sent.size());
        } catch (AssertionError timedOut) {
            // the report below says how many became final
        }
        long t2 = System.nanoTime();
        Map<String, Long> after = requests();
        Map<String, Long> headsAfter = heads.heads();
        System.out.printf(
                "final      %d of %d transfers final %.1f s after the first track request%n",
                finalAt.size(), sent.size(), (t2 - t1) / 1e9);

        // ---- requests per block ----
        long blocks = headsAfter.get(L1) - headsBefore.get(L1);
        long total = 0;
        StringBuilder per = new StringBuilder();
        for (String chain : List.of(L1, EVM, MOVE)) {
            long meta = after.getOrDefault(chain + " blockchain", 0L) - before.getOrDefault(chain + " blockchain", 0L);
            long search = after.getOrDefault(chain + " tx_search", 0L) - before.getOrDefault(chain + " tx_search", 0L);
            total += meta + search;
            per.append(String.format(
                    "  %-14s /blockchain %6d  /tx_search %6d  → %.2f requests per block%n",
                    chain, meta, search, (meta + search) / (double) blocks));
        }
        System.out.printf(
                "requests   %d blocks per chain while %d transfers were followed (%.1f s); tracker requests to the chains:%n%s"
                        + "  all chains     %d requests → %.2f per block (%.2f per block per chain), %.3f per transfer%n",
                blocks,
                sent.size(),
                (t2 - t1) / 1e9,
                per,
                total,
                total / (double) blocks,
                total / (double) blocks / 3,
                total / (double) sent.size());

        // ---- delay from the final on-chain event to the final status ----
        heads.stop();
        List<Long> delays = new ArrayList<>();
        Map<String, List<Long>> byKind = new ConcurrentHashMap<>();
        for (Sent s : sent) {
            Long fin = finalAt.get(s.hash());
            if (fin == null) continue;
            JsonObject status = new JsonObject(get(api, "/v2/tx/status?tx_hash=" + s.hash() + "&chain_id=" + s.chain())
                    .body());
            JsonObject last = finalTx(status);
            if (last == null) continue;
            JsonObject tx = new JsonObject(
                            get(rpc.get(last.getString("chain_id")), "/tx?hash=0x" + last.getString("tx_hash"))
                                    .body())
                    .getJsonObject("result");
            Long seen = heads.seenAt(last.getString("chain_id"), Long.parseLong(tx.getString("height")));
            if (seen == null) continue;
            long d = fin
                    - Math.max(seen, trackedAt.getOrDefault(s.hash(), seen)); // the tracker cannot know before either
            delays.add(d);
            byKind.computeIfAbsent(s.kind(), k -> Collections.synchronizedList(new ArrayList<>()))
                    .add(d);
        }
        System.out.printf(
                "latency    final on-chain event visible (or the track request answered, when later) → status final, poll interval %d ms:%n",
                poll);
        System.out.println("  all            " + summary(delays, poll));
        for (String k : List.of("ibc", "pfm", "deposit"))
            System.out.printf("  %-14s %s%n", k, summary(byKind.getOrDefault(k, List.of()), poll));
    }

    /** The tx whose observation made the transfer final: the first hop's ack (IBC; PFM acks it last) or the deposit's finalization. */
    static JsonObject finalTx(JsonObject status) {
        JsonArray seq = status.getJsonArray("transfer_sequence");
        if (seq.isEmpty()) return null;
        JsonObject hop = seq.getJsonObject(0);
        if (hop.containsKey("ibc_transfer")) {
            JsonObject txs = hop.getJsonObject("ibc_transfer").getJsonObject("packet_txs");
            return txs.getJsonObject("acknowledge_tx") != null
                    ? txs.getJsonObject("acknowledge_tx")
                    : txs.getJsonObject("timeout_tx");
        }
        return hop.getJsonObject("op_init_transfer").getJsonObject("txs").getJsonObject("receive_tx");
    }

    static String summary(List<Long> nanos, long pollMs) {
        if (nanos.isEmpty()) return "no sample";
        List<Long> s = new ArrayList<>(nanos);
        Collections.sort(s);
        long within = s.stream().filter(d -> d <= pollMs * 1_000_000L).count();
        return String.format(
                "n=%d  p50 %4d ms  p90 %4d ms  p99 %4d ms  max %4d ms  within one poll interval: %.1f %%",
                s.size(),
                ms(s, 0.5),
                ms(s, 0.9),
                ms(s, 0.99),
                s.get(s.size() - 1) / 1_000_000,
                100.0 * within / s.size());
    }

    private static long ms(List<Long> sorted, double q) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(q * sorted.size()))) / 1_000_000;
    }

    /** Tracker requests so far, by "chain method". */
    static Map<String, Long> requests() {
        Map<String, Long> out = new ConcurrentHashMap<>();
        MeterRegistry r = BackendRegistries.getDefaultNow();
        if (r == null) return out;
        for (Counter c : r.find("weft_track_node_requests_total").counters()) {
            out.merge(c.getId().getTag("chain_id") + " " + c.getId().getTag("method"), (long) c.count(), Long::sum);
        }
        return out;
    }

    static String addr(int role, int i) {
        byte[] a = new byte[20];
        a[0] = (byte) role;
        a[16] = (byte) (i >>> 24);
        a[17] = (byte) (i >>> 16);
        a[18] = (byte) (i >>> 8);
        a[19] = (byte) i;
        return AccountAddress.of(a).bech32("init");
    }

    static int port(WeftNode node, String chain) {
        return dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .chain(chain)
                .orElseThrow()
                .rpcPort();
    }

    static CompletableFuture<HttpResponse<String>> postAsync(int port, String path, JsonObject body) {
        return HTTP.sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(60))
                        .header("content-type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body.encode()))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> get(int port, String pathAndQuery) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                        .timeout(Duration.ofSeconds(60))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Polls each chain's {@code /status} every 10 ms and records when each height was first seen (wall clock, ns). */
    static final class HeadWatcher {
        private final Map<String, Integer> rpc;
        private final Map<String, Map<Long, Long>> seen = new ConcurrentHashMap<>();
        private final Map<String, Long> head = new ConcurrentHashMap<>();
        private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "head-watcher");
            t.setDaemon(true);
            return t;
        });

        HeadWatcher(Map<String, Integer> rpc) {
            this.rpc = rpc;
        }

        /** Samples every chain's head 10 ms after the previous sample finished: when each height was first seen. */
        void start() {
            sampler.scheduleWithFixedDelay(this::sample, 0, 10, TimeUnit.MILLISECONDS);
        }

        private void sample() {
            for (var e : rpc.entrySet()) {
                try {
                    long now = System.nanoTime();
                    JsonObject s = new JsonObject(get(e.getValue(), "/status").body())
                            .getJsonObject("result")
                            .getJsonObject("sync_info");
                    long h = Long.parseLong(s.getString("latest_block_height"));
                    Map<Long, Long> m = seen.computeIfAbsent(e.getKey(), k -> new ConcurrentHashMap<>());
                    long prev = head.getOrDefault(e.getKey(), h);
                    for (long x = prev + 1; x <= h; x++) m.putIfAbsent(x, now);
                    m.putIfAbsent(h, now);
                    head.put(e.getKey(), h);
                } catch (Exception ex) {
                    // a missed sample only widens the next one
                }
            }
        }

        Map<String, Long> heads() {
            return Map.copyOf(head);
        }

        Long seenAt(String chain, long height) {
            Map<Long, Long> m = seen.get(chain);
            return m == null ? null : m.get(height);
        }

        void stop() {
            sampler.shutdownNow();
        }
    }
}
