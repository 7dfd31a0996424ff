package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import dev.weft.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A closed-loop load: {@code clients} callers, each sending its next request when the previous answered, for a warm-up
 * and then a measured period. Records every latency of the measured period.
 */
final class ReadLoad {
    /** Requests per second and latency percentiles of a measured period. */
    record Result(double perSecond, double p50Ms, double p99Ms, long count, long errors) {
        String row() {
            return String.format(java.util.Locale.ROOT, "%9.0f/s  p50 %6.2f ms  p99 %6.2f ms", perSecond, p50Ms, p99Ms);
        }
    }

    private ReadLoad() {}

    /** HTTP GETs of the URIs {@code next} produces, against the API on {@code port}. */
    static Result http(Vertx vertx, int port, int clients, long warmupMs, long measureMs, Supplier<String> next) {
        HttpClient client = vertx.createHttpClient(
                new HttpClientOptions().setKeepAlive(true).setDefaultPort(port).setDefaultHost("127.0.0.1"),
                new PoolOptions().setHttp1MaxSize(clients));
        try {
            // the body is consumed as it streams in (counted, not aggregated): the client should cost as little as
            // possible
            return run(
                    vertx,
                    clients,
                    warmupMs,
                    measureMs,
                    () -> client.request(HttpMethod.GET, next.get())
                            .compose(req -> req.send().compose(resp -> {
                                int[] n = {0};
                                resp.handler(b -> n[0] += b.length());
                                return resp.end().map(v -> {
                                    if (resp.statusCode() != 200)
                                        throw new IllegalStateException("HTTP " + resp.statusCode());
                                    return n[0];
                                });
                            })));
        } finally {
            await(client.close());
        }
    }

    /**
     * A pool for a bench's baselines (the SQL side of the reads, the raw insert) with the node's statement options: each
     * query is prepared once per connection, as the node's are (without them every execution is parsed and planned
     * again, which made the read baseline slower than the node's own queries).
     */
    static Pool sqlPool(Vertx vertx, String url, int size, String name) {
        return PgBuilder.pool()
                .with(new io.vertx.sqlclient.PoolOptions().setMaxSize(size).setName(name))
                .connectingTo(Database.withStatementCache(PgConnectOptions.fromUri(url)))
                .using(vertx)
                .build();
    }

    /** The same query as the API runs, straight on a pool: {@code next} gives its SQL parameters. */
    static Result sql(
            Vertx vertx, Pool pool, String sql, int clients, long warmupMs, long measureMs, Supplier<Tuple> next) {
        return run(
                vertx,
                clients,
                warmupMs,
                measureMs,
                () -> pool.preparedQuery(sql).execute(next.get()).map(rows -> {
                    long n = 0;
                    for (var r : rows) {
                        Object j = r.getValue(r.size() - 1);
                        if (j instanceof Buffer b) n += b.length();
                    }
                    return (int) n;
                }));
    }

    private static Result run(Vertx vertx, int clients, long warmupMs, long measureMs, Supplier<Future<Integer>> call) {
        long start = System.nanoTime();
        long measureFrom = start + warmupMs * 1_000_000L;
        long end = measureFrom + measureMs * 1_000_000L;
        long[][] latencies = new long[clients][];
        int[] counts = new int[clients];
        AtomicLong errors = new AtomicLong();
        List<Future<Void>> loops = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int id = c;
            latencies[id] = new long[1 << 16];
            Promise<Void> done = Promise.promise();
            vertx.runOnContext(v -> loop(id, call, measureFrom, end, latencies, counts, errors, done));
            loops.add(done.future());
        }
        await(Future.all(loops));
        int total = 0;
        for (int n : counts) total += n;
        long[] all = new long[total];
        int k = 0;
        for (int c = 0; c < clients; c++) {
            System.arraycopy(latencies[c], 0, all, k, counts[c]);
            k += counts[c];
        }
        Arrays.sort(all);
        double secs = measureMs / 1000.0;
        return new Result(total / secs, pct(all, 0.50), pct(all, 0.99), total, errors.get());
    }

    private static void loop(
            int id,
            Supplier<Future<Integer>> call,
            long measureFrom,
            long end,
            long[][] lat,
            int[] counts,
            AtomicLong errors,
            Promise<Void> done) {
        long t0 = System.nanoTime();
        if (t0 >= end) {
            done.complete();
            return;
        }
        call.get().onComplete(ar -> {
            long t1 = System.nanoTime();
            if (ar.failed()) errors.incrementAndGet();
            else if (t0 >= measureFrom && t1 <= end) {
                if (counts[id] == lat[id].length) lat[id] = Arrays.copyOf(lat[id], lat[id].length * 2);
                lat[id][counts[id]++] = t1 - t0;
            }
            loop(id, call, measureFrom, end, lat, counts, errors, done);
        });
    }

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) return Double.NaN;
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))] / 1e6;
    }
}
