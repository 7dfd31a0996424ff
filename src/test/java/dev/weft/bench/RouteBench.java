package dev.weft.bench;

import dev.weft.bus.BusError;
import dev.weft.config.RouteConfig;
import dev.weft.route.RouteService;
import dev.weft.route.live.MarketState;
import dev.weft.route.live.MarketStateSource;
import dev.weft.route.registry.Asset;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Route computation speed over the whole mainnet registry.
 * <ol>
 *   <li>Direct calls on one thread: routes/s and per-route latency of {@link RouteService#route} (search + JSON) over a
 *       fixed mix of requests between random mainnet assets (seeded), including ones with no route.</li>
 *   <li>Through HTTP against a running node ({@code --url http://127.0.0.1:8080}): p50/p99 of
 *       {@code POST /v2/fungible/route} at a few concurrencies, next to the same figures for {@code GET /health} on the
 *       same server in the same run (the baseline), and their ratio.</li>
 * </ol>
 * With {@code --live} the direct calls compute the devnet's live mix over one snapshot of its L1 read from
 * {@code --rest} ({@link #liveDirect}), and the HTTP runs go to a node that reads that L1's pools live
 * ({@link #liveHttp}; skipped without {@code --url}).
 * With {@code --node-pid PID --clock-ticks N} (the node's process and the kernel's clock ticks per second) each HTTP run
 * also prints the node's CPU time per answered request, user and system, read from {@code /proc/PID/stat}: what a
 * request costs the server, a figure that moves less from run to run than a p99.
 * With {@code --floor} each concurrency also measures two requests that pay part of a route's way and none of its
 * search, against the same {@code /health}: the same route requests refused by their checks (the POST path alone, no
 * bus) and {@code GET /v2/info/chains} for one chain (a bus round trip to the route verticle with a small answer). Their
 * ratios are what any POST or any bus-served answer costs on this server and machine, before a route is computed.
 * Usage: {@code bench/route-bench.sh [seconds] [--live] [--floor]} (starts the node, runs this, stops the node).
 */
public final class RouteBench {
    private static final int[] CONCURRENCY = {1, 4, 16};
    /** The node's CPU time, read around each HTTP run (null without {@code --node-pid}). */
    private static ProcessCpu nodeCpu;
    /** This bench client's own CPU time, read around each HTTP run. */
    private static ProcessCpu clientCpu;
    /** Also measure the floor: a refused POST and a bus round trip ({@code --floor}). */
    private static boolean floor;

    public static void main(String[] args) throws Exception {
        String url = null;
        int seconds = 10;
        boolean live = false;
        String rest = null;
        long nodePid = -1;
        int clockTicks = 100;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--url")) url = args[++i];
            if (args[i].equals("--seconds")) seconds = Integer.parseInt(args[++i]);
            if (args[i].equals("--live")) live = true;
            if (args[i].equals("--rest")) rest = args[++i];
            if (args[i].equals("--node-pid")) nodePid = Long.parseLong(args[++i]);
            if (args[i].equals("--clock-ticks")) clockTicks = Integer.parseInt(args[++i]);
            if (args[i].equals("--floor")) floor = true;
        }
        if (nodePid >= 0) nodeCpu = new ProcessCpu(nodePid, clockTicks);
        clientCpu = new ProcessCpu(ProcessHandle.current().pid(), clockTicks);
        if (live) {
            if (rest != null) liveDirect(rest, seconds);
            if (url != null) liveHttp(URI.create(url), seconds);
            return;
        }
        RouteService service =
                RouteService.load(RouteConfig.defaults(List.of("conf/registry/mainnet.json")), Clock.systemUTC());
        System.out.printf(
                "registry: %d chains, %d assets, graph %d nodes / %d edges%n",
                service.registry().chains().size(),
                service.registry().assets().size(),
                service.graph().nodeCount(),
                service.graph().edgeCount());
        List<JsonObject> routable = mix(service, 2_000, true);
        List<JsonObject> unroutable = mix(service, 2_000, false);
        direct("routes found", service, routable, seconds);
        direct("no route (the search exhausts what the source reaches)", service, unroutable, seconds);
        if (url != null) http(URI.create(url), routable, exactOut(service, routable), seconds);
    }

    /** The same pairs asked exact-out: each for the amount its exact-in route delivers (so each has a route). */
    static List<JsonObject> exactOut(RouteService s, List<JsonObject> mix) {
        List<JsonObject> out = new ArrayList<>();
        for (JsonObject req : mix) {
            JsonObject q = req.copy();
            q.remove("amount_in");
            q.put("amount_out", s.route(req).getString("amount_out"));
            try {
                s.route(q);
                out.add(q);
            } catch (BusError e) {
                // no smallest input delivers it within the pools' limits: left out
            }
        }
        return out;
    }

    /**
     * Requests between random mainnet assets (fixed seed) with amounts of 1 to 10,000 tokens: the first {@code n} that
     * have a route ({@code routable}) or that have none.
     */
    static List<JsonObject> mix(RouteService s, int n, boolean routable) {
        List<Asset> assets = new ArrayList<>(s.registry().assets());
        Random rnd = new Random(routable ? 42 : 43);
        List<JsonObject> out = new ArrayList<>();
        while (out.size() < n) {
            Asset a = assets.get(rnd.nextInt(assets.size()));
            Asset b = assets.get(rnd.nextInt(assets.size()));
            if (a == b) continue;
            BigInteger amount = BigInteger.TEN.pow(a.decimals()).multiply(BigInteger.valueOf(1 + rnd.nextInt(10_000)));
            JsonObject req = new JsonObject()
                    .put("amount_in", amount.toString())
                    .put("source_asset_chain_id", a.chainId())
                    .put("source_asset_denom", a.denom())
                    .put("dest_asset_chain_id", b.chainId())
                    .put("dest_asset_denom", b.denom());
            boolean found;
            try {
                s.route(req);
                found = true;
            } catch (BusError e) {
                found = false;
            }
            if (found == routable) out.add(req);
        }
        return out;
    }

    private static void direct(String what, RouteService s, List<JsonObject> mix, int seconds) {
        direct(what, s, mix, seconds, false);
    }

    private static void direct(String what, RouteService s, List<JsonObject> mix, int seconds, boolean encode) {
        runDirect(s, mix, Math.max(2, seconds / 2), encode); // warm-up
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        long[] lat = runDirect(s, mix, seconds, encode);
        // the latency array's own growth is counted too: a few bytes per route
        double bytesPerRoute = (threads.getCurrentThreadAllocatedBytes() - allocatedBefore) / (double) lat.length;
        double perSecond = lat.length / (double) seconds;
        Arrays.sort(lat);
        System.out.printf(
                "direct, one thread, %s: %.0f routes/s, p50 %.1f µs, p99 %.1f µs, max %.1f µs, %.0f B allocated per route (%d routes)%n",
                what,
                perSecond,
                lat[lat.length / 2] / 1e3,
                lat[(int) (lat.length * 0.99)] / 1e3,
                lat[lat.length - 1] / 1e3,
                bytesPerRoute,
                lat.length);
    }

    private static long[] runDirect(RouteService s, List<JsonObject> mix, int seconds, boolean encode) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long[] lat = new long[1 << 20];
        int n = 0;
        int i = 0;
        while (System.nanoTime() < end) {
            JsonObject req = mix.get(i++ % mix.size());
            long t = System.nanoTime();
            try {
                JsonObject answer = s.route(req);
                if (encode) dev.weft.runtime.JsonBytes.encode(answer);
            } catch (BusError e) {
                // no route
            }
            if (n == lat.length) lat = Arrays.copyOf(lat, n * 2);
            lat[n++] = System.nanoTime() - t;
        }
        return Arrays.copyOf(lat, n);
    }

    private static void http(URI url, List<JsonObject> mix, List<JsonObject> exactOut, int seconds) throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            List<Buffer> bodies = mix.stream().map(JsonObject::toBuffer).toList();
            List<Buffer> routesBodies =
                    mix.stream().map(j -> j.copy().put("limit", 3).toBuffer()).toList();
            List<Buffer> exactOutBodies =
                    exactOut.stream().map(JsonObject::toBuffer).toList();
            System.out.printf(
                    "HTTP against %s, %d s per run (after a %d s warm-up)%n", url, seconds, Math.max(2, seconds / 2));
            load(vertx, url, HttpMethod.POST, "/v2/fungible/route", bodies, 16, Math.max(2, seconds / 2));
            for (int c : CONCURRENCY) {
                Result health = load(vertx, url, HttpMethod.GET, "/health", null, c, seconds);
                Result route = load(vertx, url, HttpMethod.POST, "/v2/fungible/route", bodies, c, seconds);
                System.out.printf(
                        "  concurrency %2d: route %6.0f req/s p50 %.2f ms p99 %.2f ms | baseline /health %6.0f req/s p50 %.2f ms p99 %.2f ms | p99 ratio %.2f%n",
                        c,
                        route.perSecond,
                        route.p50,
                        route.p99,
                        health.perSecond,
                        health.p50,
                        health.p99,
                        route.p99 / health.p99);
                if (route.cpu() != null && health.cpu() != null) {
                    System.out.printf(
                            "                  node CPU per request: route %.1f µs (system %.1f) | /health %.1f µs (system %.1f)%n",
                            route.cpu()[0], route.cpu()[1], health.cpu()[0], health.cpu()[1]);
                }
                System.out.printf(
                        "                  bench client CPU per request: route %.1f µs | /health %.1f µs; machine idle: route %.0f %% | /health %.0f %%%n",
                        route.clientCpu(), health.clientCpu(), 100 * route.idle(), 100 * health.idle());
                // the k best (limit 3) and exact-out, against /route's p99 of the same run
                Result routes = load(vertx, url, HttpMethod.POST, "/v2/fungible/routes", routesBodies, c, seconds);
                // the live mix has no exact-out requests: /route's own figures stand in
                Result out = exactOutBodies.isEmpty()
                        ? route
                        : load(vertx, url, HttpMethod.POST, "/v2/fungible/route", exactOutBodies, c, seconds);
                System.out.printf(
                        "                  /routes limit 3 %6.0f req/s p50 %.2f ms p99 %.2f ms (%.2f × /route p99) | exact-out /route %6.0f req/s p50 %.2f ms p99 %.2f ms (%.2f × /route p99)%n",
                        routes.perSecond,
                        routes.p50,
                        routes.p99,
                        routes.p99 / route.p99,
                        out.perSecond,
                        out.p50,
                        out.p99,
                        out.p99 / route.p99);
                if (floor) {
                    Result refused = load(vertx, url, HttpMethod.POST, "/v2/fungible/route", refused(mix), c, seconds);
                    String chain = mix.get(0).getString("source_asset_chain_id");
                    Result bus =
                            load(vertx, url, HttpMethod.GET, "/v2/info/chains?chain_ids=" + chain, null, c, seconds);
                    floorLine("refused POST (checks, 400, no bus)", refused, health);
                    floorLine("GET /v2/info/chains (bus, " + chain + ")", bus, health);
                }
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * The live mix computed directly on one thread over one snapshot of the devnet L1's pools and prices (read here
     * through the route role's own reader): the compute cost of a live quote without HTTP, then with the response's JSON
     * encoding, which the API's event loop does.
     */
    private static void liveDirect(String l1Rest, int seconds) throws Exception {
        JsonObject conf = new JsonObject()
                .put(
                        "route",
                        new JsonObject()
                                .put("registries", new io.vertx.core.json.JsonArray().add("conf/registry/devnet.json"))
                                .put("rest", new JsonObject().put("weft-l1-1", l1Rest)));
        RouteConfig config = RouteConfig.from(dev.weft.config.ConfigSource.fileOnly(conf));
        Clock clock = Clock.systemUTC();
        RouteService base = RouteService.load(config, clock);
        Vertx vertx = Vertx.vertx();
        try {
            java.util.concurrent.CompletableFuture<MarketState> first = new java.util.concurrent.CompletableFuture<>();
            MarketStateSource[] source = new MarketStateSource[1];
            vertx.runOnContext(v -> {
                source[0] = new MarketStateSource(vertx, config, base.registry(), clock, m -> {
                    if (!m.venues().isEmpty() && !m.prices().isEmpty()) first.complete(m);
                });
                source[0].start();
            });
            MarketState market = first.get(30, TimeUnit.SECONDS);
            // one snapshot: no background reads while the runs are timed
            vertx.runOnContext(v -> source[0].stop());
            RouteService service = RouteService.withMarket(base.registry(), config, clock, market);
            List<JsonObject> mix = liveMix();
            direct("live devnet state, route", service, mix, seconds, false);
            direct("live devnet state, route + JSON encoding", service, mix, seconds, true);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /** The mix with each amount made invalid: the API refuses every request before the bus. */
    private static List<Buffer> refused(List<JsonObject> mix) {
        return mix.stream()
                .map(r -> r.copy()
                        .put("amount_in", "x" + r.getString("amount_in"))
                        .toBuffer())
                .toList();
    }

    private static void floorLine(String what, Result r, Result health) {
        System.out.printf(
                "           floor: %-38s %6.0f req/s p99 %.2f ms, ratio %.2f%s, client %.1f µs, idle %.0f %%%n",
                what,
                r.perSecond,
                r.p99,
                r.p99 / health.p99,
                r.cpu() == null ? "" : String.format(" | node CPU %.1f µs (system %.1f)", r.cpu()[0], r.cpu()[1]),
                r.clientCpu(),
                100 * r.idle());
    }

    /**
     * Routes over the devnet registry whose InitiaDEX pools the node reads live from the devnet L1: swaps on the L1 (one
     * and two pools), a transfer then a swap on arrival, plain transfers. Around the runs, the L1 requests the route role
     * sent to keep that state fresh ({@code weft_node_request_seconds_count} of its {@code route-dex} and
     * {@code route-oracle} clients) per L1 block (the quotes' {@code swap_state_height}).
     */
    private static void liveHttp(URI url, int seconds) throws Exception {
        List<JsonObject> mix = liveMix();
        java.net.http.HttpClient plain = java.net.http.HttpClient.newHttpClient();
        long[] before = liveCounters(plain, url, mix.get(0));
        long started = System.nanoTime();
        http(url, mix, List.of(), seconds);
        long[] after = liveCounters(plain, url, mix.get(0));
        double blocks = after[1] - before[1];
        System.out.printf(
                "L1 state upkeep: %d requests over %d L1 blocks in %.0f s: %.2f requests per block%n",
                after[0] - before[0],
                after[1] - before[1],
                (System.nanoTime() - started) / 1e9,
                blocks > 0 ? (after[0] - before[0]) / blocks : Double.NaN);
    }

    /** Swaps through one and two pools, a transfer then a swap on arrival, plain transfers: 500 requests, fixed seed. */
    private static List<JsonObject> liveMix() {
        String usdcOnRollup = dev.weft.route.registry.Denoms.ibc("transfer/channel-0/uusdc");
        String initOnRollup = dev.weft.route.registry.Denoms.ibc("transfer/channel-0/uinit");
        List<JsonObject> mix = new ArrayList<>();
        String[][] pairs = {
            {"weft-l1-1", "uusdc", "weft-l1-1", "uinit"},
            {"weft-l1-1", "uinit", "weft-l1-1", "uusdc"},
            {"weft-l1-1", "uusdc", "weft-l1-1", "ueth"},
            {"weft-devnet-1", usdcOnRollup, "weft-l1-1", "uinit"},
            {"weft-l1-1", "uinit", "weft-devnet-1", initOnRollup}
        };
        Random rnd = new Random(42);
        for (int i = 0; i < 500; i++) {
            String[] p = pairs[i % pairs.length];
            mix.add(new JsonObject()
                    .put("amount_in", Long.toString(1_000L * (1 + rnd.nextInt(10_000))))
                    .put("source_asset_chain_id", p[0])
                    .put("source_asset_denom", p[1])
                    .put("dest_asset_chain_id", p[2])
                    .put("dest_asset_denom", p[3]));
        }
        return mix;
    }

    /** (route role's L1 requests so far, the L1 height of the pool state) from {@code /metrics} and a swap quote. */
    private static long[] liveCounters(java.net.http.HttpClient plain, URI url, JsonObject swapRequest)
            throws Exception {
        String metrics = plain.send(
                        java.net.http.HttpRequest.newBuilder(url.resolve("/metrics"))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString())
                .body();
        long requests = 0;
        for (String line : metrics.split("\n")) {
            if (line.startsWith("weft_node_request_seconds_count")
                    && (line.contains("api=\"route-dex\"") || line.contains("api=\"route-oracle\""))) {
                requests += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        String route = plain.send(
                        java.net.http.HttpRequest.newBuilder(url.resolve("/v2/fungible/route"))
                                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(swapRequest.encode()))
                                .header("content-type", "application/json")
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString())
                .body();
        String height = new JsonObject(route).getString("swap_state_height");
        if (height == null) throw new IllegalStateException("the swap quote carries no swap_state_height: " + route);
        return new long[] {requests, Long.parseLong(height)};
    }

    /**
     * @param cpu the node's CPU µs per answered request, total and system (null without {@code --node-pid})
     * @param clientCpu this bench client's CPU µs per answered request (it shares the machine's cores with the node)
     * @param idle the share of the machine's CPU time left idle during the run (0 when every core was busy)
     */
    record Result(double perSecond, double p50, double p99, double[] cpu, double clientCpu, double idle) {}

    /** {idle, total} clock ticks of every core so far, from the first line of {@code /proc/stat}. */
    static long[] machineTicks() {
        try {
            String[] f = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat"))
                    .get(0)
                    .trim()
                    .split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length; i++) total += Long.parseLong(f[i]);
            return new long[] {Long.parseLong(f[4]) + Long.parseLong(f[5]), total};
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("/proc/stat is unreadable", e);
        }
    }

    /** The share of the machine's CPU time left idle between two {@link #machineTicks} readings (0 when every core was busy). */
    static double idleShare(long[] before, long[] after) {
        return (after[0] - before[0]) / (double) Math.max(1, after[1] - before[1]);
    }

    /** The CPU time of a process from {@code /proc/PID/stat} (utime and stime, in clock ticks). */
    record ProcessCpu(long pid, int ticksPerSecond) {
        /** {user + system, system} in microseconds so far. */
        long[] micros() {
            try {
                String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
                // the fields after the command name, which is in parentheses and may hold spaces: utime and stime are
                // 14 and 15
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long user = Long.parseLong(f[11]);
                long system = Long.parseLong(f[12]);
                return new long[] {(user + system) * 1_000_000 / ticksPerSecond, system * 1_000_000 / ticksPerSecond};
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("the node's CPU time is unreadable", e);
            }
        }
    }

    private static Result load(
            Vertx vertx, URI url, HttpMethod method, String path, List<Buffer> bodies, int concurrency, int seconds)
            throws Exception {
        // a client per run, as many connections as loops: no connection idles between runs, where a pooled connection
        // expiring (keep-alive) or closed by the server (idle timeout) as a request takes it left that request waiting
        HttpClient client = vertx.createHttpClient(
                new HttpClientOptions()
                        .setDefaultHost(url.getHost())
                        .setDefaultPort(url.getPort())
                        .setKeepAlive(true),
                new io.vertx.core.http.PoolOptions().setHttp1MaxSize(concurrency));
        try {
            return load(client, method, path, bodies, concurrency, seconds);
        } finally {
            client.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /** {@code concurrency} loops, each sending its next request when the previous answer arrived, for {@code seconds}. */
    private static Result load(
            HttpClient client, HttpMethod method, String path, List<Buffer> bodies, int concurrency, int seconds)
            throws Exception {
        long[] cpuBefore = nodeCpu == null ? null : nodeCpu.micros();
        long[] clientBefore = clientCpu.micros();
        long[] ticksBefore = machineTicks();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<long[]> perLoop = new ArrayList<>();
        List<Future<Void>> loops = new ArrayList<>();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        for (int i = 0; i < concurrency; i++) {
            long[][] box = {new long[1 << 16], {0}};
            Promise<Void> done = Promise.promise();
            loops.add(done.future());
            perLoop.add(null);
            int slot = i;
            Runnable[] step = new Runnable[1];
            step[0] = () -> {
                if (System.nanoTime() >= end) {
                    perLoop.set(slot, Arrays.copyOf(box[0], (int) box[1][0]));
                    done.complete();
                    return;
                }
                long t = System.nanoTime();
                Buffer body = bodies == null ? null : bodies.get(next.getAndIncrement() % bodies.size());
                // a request left unanswered is a counted failure with its cause, not a bench that hangs
                RequestOptions o =
                        new RequestOptions().setMethod(method).setURI(path).setIdleTimeout(20_000);
                if (body != null) o.putHeader("content-type", "application/json");
                client.request(o)
                        .compose(req -> body == null ? req.send() : req.send(body))
                        .compose(resp -> resp.body().map(resp.statusCode()))
                        .onComplete(ar -> {
                            if (ar.failed() || ar.result() >= 500) {
                                if (errors.incrementAndGet() == 1)
                                    System.out.println("  first failure on " + path + ": "
                                            + (ar.failed() ? ar.cause() : "HTTP " + ar.result()));
                                step[0].run();
                                return;
                            }
                            int n = (int) box[1][0];
                            if (n == box[0].length) box[0] = Arrays.copyOf(box[0], n * 2);
                            box[0][n] = System.nanoTime() - t;
                            box[1][0] = n + 1;
                            step[0].run();
                        });
            };
            step[0].run();
        }
        Future.all(loops).toCompletionStage().toCompletableFuture().get(seconds + 60L, TimeUnit.SECONDS);
        long[] cpuAfter = nodeCpu == null ? null : nodeCpu.micros();
        long[] clientAfter = clientCpu.micros();
        long[] ticksAfter = machineTicks();
        long[] all = perLoop.stream().flatMapToLong(Arrays::stream).toArray();
        Arrays.sort(all);
        if (errors.get() > 0)
            System.out.println("  (" + errors.get() + " failed requests on " + path + ", not counted)");
        if (all.length == 0) return new Result(0, Double.NaN, Double.NaN, null, Double.NaN, Double.NaN);
        double[] cpu = cpuBefore == null
                ? null
                : new double[] {
                    (cpuAfter[0] - cpuBefore[0]) / (double) all.length,
                    (cpuAfter[1] - cpuBefore[1]) / (double) all.length
                };
        double idle = idleShare(ticksBefore, ticksAfter);
        return new Result(
                all.length / (double) seconds,
                all[all.length / 2] / 1e6,
                all[(int) (all.length * 0.99)] / 1e6,
                cpu,
                (clientAfter[0] - clientBefore[0]) / (double) all.length,
                idle);
    }
}
