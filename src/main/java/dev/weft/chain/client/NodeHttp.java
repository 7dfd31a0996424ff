package dev.weft.chain.client;

import dev.weft.config.NodeClientOptions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.micrometer.backends.BackendRegistries;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP calls to one node API (several URLs): a bounded number in flight, a timeout per request, and failed calls
 * retried with capped exponential backoff and jitter, rotating away from a URL that keeps failing. The answer is
 * checked by a parse function (for large bodies on one of {@link #PARSERS}' threads), so a malformed answer or a
 * JSON-RPC error in a 200 is retried like a transport failure.
 */
public final class NodeHttp {
    private static final Logger LOG = LoggerFactory.getLogger(NodeHttp.class);
    private static final int PARSE_ON_WORKER_BYTES = 32 * 1024;
    /**
     * The worker pool that parses large answers, shared by every node client, with as many threads as cores. Parsing is
     * CPU work: on Vert.x's 20-thread worker pool a burst of answers was parsed 20 at a time, and the event loops that
     * read the next answers and send the next requests got a small share of the cores meanwhile (a tracker catching up
     * 200 ms from its node ran ~8 % faster with two parse threads on two cores, its near runs no slower:
     * bench/README.md as of commit 65f06a3, 2026-11-29 ninth session).
     */
    static final String PARSERS = "weft-node-parse";

    private final Vertx vertx;
    private final WorkerExecutor parsers;
    private final String api;
    private final HttpClient client;
    private final Endpoints endpoints;
    private final NodeClientOptions opts;
    private final AsyncLimiter limiter;
    private final RoundTrips roundTrips = new RoundTrips(1_000_000_000L);
    private final Counter retries;
    private final Counter failures;
    private final Timer latency;

    public NodeHttp(Vertx vertx, String api, List<String> urls, NodeClientOptions opts) {
        this.vertx = vertx;
        this.parsers =
                vertx.createSharedWorkerExecutor(PARSERS, Runtime.getRuntime().availableProcessors());
        this.api = api;
        this.opts = opts;
        this.endpoints =
                new Endpoints(urls, opts.unhealthyAfter(), opts.unhealthyFor().toMillis(), System::currentTimeMillis);
        this.limiter = new AsyncLimiter(opts.maxRequests());
        this.client = vertx.createHttpClient(
                new HttpClientOptions()
                        .setKeepAlive(true)
                        .setDecompressionSupported(true)
                        .setConnectTimeout((int) Math.min(
                                Integer.MAX_VALUE, opts.requestTimeout().toMillis())),
                new PoolOptions().setHttp1MaxSize(opts.maxRequests()).setMaxWaitQueueSize(-1));
        MeterRegistry registry = BackendRegistries.getDefaultNow();
        // tagged with the node's URLs too: each chain's node has its own counts, so one chain's dead node shows on its
        // own series, not mixed with every other chain's client of the same API
        String node = String.join(",", urls);
        if (registry != null) {
            retries = Counter.builder("weft_node_retries_total")
                    .description("node requests retried")
                    .tag("api", api)
                    .tag("node", node)
                    .register(registry);
            failures = Counter.builder("weft_node_failures_total")
                    .description("node calls that failed after every attempt")
                    .tag("api", api)
                    .tag("node", node)
                    .register(registry);
            latency = Timer.builder("weft_node_request_seconds")
                    .description("latency of successful node requests")
                    .tag("api", api)
                    .tag("node", node)
                    .register(registry);
        } else {
            retries = null;
            failures = null;
            latency = null;
        }
    }

    public String api() {
        return api;
    }

    public Endpoints endpoints() {
        return endpoints;
    }

    public NodeClientOptions options() {
        return opts;
    }

    /** Requests waiting for a permit plus those in flight (for occupancy metrics). */
    public int inFlight() {
        return limiter.running();
    }

    /**
     * Whether requests queue: waiting for a permit of {@code max_requests} (this client's own queue), or answered in
     * over twice the least time of the last second or two (a queue at the node, or in this process before the answers
     * are read). More requests at once would only lengthen either queue.
     */
    public boolean queueing() {
        return limiter.waiting() > 0 || roundTrips.queueing(System.nanoTime());
    }

    public <T> Future<T> get(String pathAndQuery, Function<Buffer, T> parse) {
        return call(HttpMethod.GET, pathAndQuery, null, parse, opts);
    }

    public <T> Future<T> post(String path, Buffer body, Function<Buffer, T> parse) {
        return call(HttpMethod.POST, path, body, parse, opts);
    }

    /**
     * One call: up to {@code o.attempts()} requests. {@code parse} turns a 2xx body into the result and may throw a
     * {@link NodeException} (retried when {@link NodeException#retryable()}).
     */
    public <T> Future<T> call(
            HttpMethod method, String pathAndQuery, Buffer body, Function<Buffer, T> parse, NodeClientOptions o) {
        return call(method, pathAndQuery, body, parse, o, null);
    }

    /** {@link #call} with extra request headers (e.g. {@code x-cosmos-block-height}); null for none. */
    public <T> Future<T> call(
            HttpMethod method,
            String pathAndQuery,
            Buffer body,
            Function<Buffer, T> parse,
            NodeClientOptions o,
            MultiMap headers) {
        Promise<T> p = Promise.promise();
        // the body handler must be set in the same event-loop turn as the response arrives: a call from outside an
        // event
        // loop (a test, a bench, a worker) moves to one, else its response could end before the handler is set and be
        // read as a transport failure, and retried
        io.vertx.core.Context ctx = Vertx.currentContext();
        if (ctx != null && ctx.isEventLoopContext()) attempt(1, method, pathAndQuery, body, headers, parse, o, p);
        else
            ((io.vertx.core.internal.VertxInternal) vertx)
                    .createEventLoopContext()
                    .runOnContext(v -> attempt(1, method, pathAndQuery, body, headers, parse, o, p));
        return p.future();
    }

    private <T> void attempt(
            int n,
            HttpMethod method,
            String path,
            Buffer body,
            MultiMap headers,
            Function<Buffer, T> parse,
            NodeClientOptions o,
            Promise<T> result) {
        String base = endpoints.pick();
        String url = base + path;
        long start = System.nanoTime();
        limiter.run(() -> send(method, url, body, headers, o))
                .compose(buf -> parseBody(url, buf, parse))
                .onComplete(ar -> {
                    if (ar.succeeded()) {
                        endpoints.success(base);
                        if (latency != null) latency.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                        result.complete(ar.result());
                        return;
                    }
                    NodeException e = classify(url, ar.cause());
                    if (!e.retryable() || n >= o.attempts()) {
                        if (e.retryable()) {
                            if (endpoints.failure(base))
                                LOG.warn("{} node {} set aside after repeated failures", api, base);
                            if (failures != null) failures.increment();
                        }
                        result.fail(e);
                        return;
                    }
                    if (endpoints.failure(base))
                        LOG.warn("{} node {} set aside after repeated failures: {}", api, base, e.getMessage());
                    if (retries != null) retries.increment();
                    long delay = Backoff.delayMs(n, o.retryBase(), o.retryMax());
                    LOG.debug("{} attempt {} failed ({}), retrying in {} ms", api, n, e.getMessage(), delay);
                    vertx.setTimer(delay, t -> attempt(n + 1, method, path, body, headers, parse, o, result));
                });
    }

    private Future<Buffer> send(HttpMethod method, String url, Buffer body, MultiMap headers, NodeClientOptions o) {
        RequestOptions ro = new RequestOptions()
                .setMethod(method)
                .setAbsoluteURI(url)
                .setIdleTimeout(o.requestTimeout().toMillis());
        if (headers != null) ro.setHeaders(headers);
        if (body != null) ro.putHeader("content-type", "application/json");
        long deadline = o.requestTimeout().toMillis();
        long sent = System.nanoTime();
        Future<Buffer> f = client.request(ro)
                .compose(req -> body == null ? req.send() : req.send(body))
                .compose(resp -> {
                    // read into a buffer of the announced size: no regrowth copies for answers of hundreds of KB
                    String len = resp.getHeader("content-length");
                    Buffer b = Buffer.buffer(
                            len == null
                                    ? 8192
                                    : (int) Math.min(Integer.MAX_VALUE - 8, Math.max(0, Long.parseLong(len))));
                    resp.handler(b::appendBuffer);
                    return resp.end().compose(v -> {
                        if (resp.statusCode() < 200 || resp.statusCode() >= 300) {
                            String text = b.length() > 2000 ? b.getString(0, 2000) : b.toString();
                            return Future.failedFuture(NodeException.http(url, resp.statusCode(), text));
                        }
                        long now = System.nanoTime();
                        roundTrips.answered(now - sent, now);
                        return Future.succeededFuture(b);
                    });
                });
        return f.timeout(deadline, java.util.concurrent.TimeUnit.MILLISECONDS)
                .transform(ar -> ar.succeeded()
                        ? Future.succeededFuture(ar.result())
                        : Future.failedFuture(
                                ar.cause() instanceof NodeException ne
                                        ? ne
                                        : NodeException.transport(url, ar.cause())));
    }

    private <T> Future<T> parseBody(String url, Buffer buf, Function<Buffer, T> parse) {
        if (buf.length() < PARSE_ON_WORKER_BYTES) {
            try {
                return Future.succeededFuture(parse.apply(buf));
            } catch (RuntimeException e) {
                return Future.failedFuture(e);
            }
        }
        return parsers.executeBlocking(() -> parse.apply(buf), false);
    }

    private static NodeException classify(String url, Throwable t) {
        if (t instanceof NodeException ne) return ne;
        if (t instanceof java.io.UncheckedIOException
                || t instanceof com.fasterxml.jackson.core.JacksonException
                || t instanceof IllegalArgumentException
                || t instanceof NullPointerException
                || t instanceof ClassCastException) {
            return NodeException.invalid(url, "malformed answer: " + t.getMessage());
        }
        return NodeException.transport(url, t);
    }

    public Future<Void> close() {
        return Future.join(client.close(), parsers.close()).mapEmpty();
    }
}
