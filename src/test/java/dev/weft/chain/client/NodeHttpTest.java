package dev.weft.chain.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.config.NodeClientOptions;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Retries, rotation away from an unhealthy URL, non-retryable answers and the in-flight bound, on real HTTP. */
class NodeHttpTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    Vertx vertx;
    HttpServer server;
    final AtomicInteger hits = new AtomicInteger();
    final AtomicInteger concurrent = new AtomicInteger();
    final AtomicInteger maxConcurrent = new AtomicInteger();
    volatile int failFirst;
    final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());

    static NodeClientOptions opts(int attempts) {
        return opts(attempts, 4);
    }

    static NodeClientOptions opts(int attempts, int maxRequests) {
        return new NodeClientOptions(
                maxRequests,
                Duration.ofSeconds(30),
                attempts,
                Duration.ofMillis(1),
                Duration.ofMillis(10),
                2,
                Duration.ofMinutes(5));
    }

    @BeforeEach
    void start() {
        vertx = weft.vertx();
        server = TestNodes.await(vertx.createHttpServer()
                .requestHandler(req -> {
                    // count only this test's paths: a stray client elsewhere in the JVM may hit a reused port
                    if (!List.of("/a", "/missing", "/slow", "/x", "/p", "/big").contains(req.path())) {
                        req.response().setStatusCode(404).end();
                        return;
                    }
                    int n = hits.incrementAndGet();
                    log.add(req.method() + " " + req.path() + " from " + req.remoteAddress() + " at "
                            + System.nanoTime() / 1_000_000);
                    switch (req.path()) {
                        case "/missing" -> req.response().setStatusCode(404).end("{\"code\":5}");
                        case "/big" -> req.response().end("x".repeat(64 * 1024));
                        case "/slow" -> {
                            int c = concurrent.incrementAndGet();
                            maxConcurrent.accumulateAndGet(c, Math::max);
                            vertx.setTimer(20, t -> {
                                concurrent.decrementAndGet();
                                req.response().end("ok");
                            });
                        }
                        default -> {
                            if (n <= failFirst)
                                req.response().setStatusCode(503).end("busy");
                            else req.response().end("ok " + req.path());
                        }
                    }
                })
                .listen(0, "127.0.0.1"));
    }

    String good() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    @Test
    @DisplayName("5xx answers are retried with backoff until one succeeds")
    void retries() {
        failFirst = 3;
        NodeHttp http = new NodeHttp(vertx, "t", List.of(good()), opts(5));
        assertEquals("ok /a", TestNodes.await(http.get("/a", Buffer::toString)));
        assertEquals(4, hits.get());
    }

    @Test
    @DisplayName("after every attempt fails, the call fails with the last error; a 404 is not retried")
    void givesUp() {
        failFirst = 100;
        NodeHttp http = new NodeHttp(vertx, "t", List.of(good()), opts(3));
        NodeException e = assertInstanceOf(
                NodeException.class,
                assertThrows(RuntimeException.class, () -> TestNodes.await(http.get("/a", Buffer::toString))));
        assertEquals(503, e.status());
        assertEquals(3, hits.get());
        hits.set(1000);
        NodeException nf = assertInstanceOf(
                NodeException.class,
                assertThrows(RuntimeException.class, () -> TestNodes.await(http.get("/missing", Buffer::toString))));
        assertTrue(nf.notFound());
        assertFalse(nf.retryable());
        assertEquals(1001, hits.get(), () -> String.join("\n", log));
    }

    @Test
    @DisplayName("a dead URL is set aside and the calls go to the healthy one")
    void rotation() {
        String dead = "http://127.0.0.1:" + Ports.free();
        NodeHttp http = new NodeHttp(vertx, "t", List.of(dead, good()), opts(5));
        for (int i = 0; i < 5; i++) assertEquals("ok /x", TestNodes.await(http.get("/x", Buffer::toString)));
        assertFalse(http.endpoints().healthy(dead));
        assertTrue(http.endpoints().healthy(good()));
        assertEquals(good(), http.endpoints().pick());
        assertEquals(5, hits.get());
    }

    @Test
    @DisplayName("a parse failure (a malformed answer) is retried like a transport failure")
    void malformed() {
        AtomicInteger parses = new AtomicInteger();
        NodeHttp http = new NodeHttp(vertx, "t", List.of(good()), opts(4));
        String out = TestNodes.await(http.get("/p", b -> {
            if (parses.incrementAndGet() < 3) throw new IllegalArgumentException("missing field");
            return b.toString();
        }));
        assertEquals("ok /p", out);
        assertEquals(3, parses.get());
    }

    @Test
    @DisplayName(
            "large answers are parsed on the shared parse pool, at most as many at once as cores; small ones on the event loop")
    void parsePool() {
        AtomicInteger parsing = new AtomicInteger();
        AtomicInteger maxParsing = new AtomicInteger();
        NodeHttp http = new NodeHttp(vertx, "t", List.of(good()), opts(1, 16));
        List<Future<String>> all = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            all.add(http.get("/big", b -> {
                maxParsing.accumulateAndGet(parsing.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(20); // a worker thread: parses overlap unless the pool holds them back
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                parsing.decrementAndGet();
                return Thread.currentThread().getName() + " " + b.length();
            }));
        }
        TestNodes.await(Future.all(all));
        for (Future<String> f : all)
            assertTrue(
                    f.result().startsWith(NodeHttp.PARSERS + "-") && f.result().endsWith(" 65536"), f.result());
        assertTrue(
                maxParsing.get() <= Runtime.getRuntime().availableProcessors(), "parses at once: " + maxParsing.get());
        String small =
                TestNodes.await(http.get("/a", b -> Thread.currentThread().getName()));
        assertTrue(small.startsWith("vert.x-eventloop-thread"), small);
        TestNodes.await(http.close());
    }

    @Test
    @DisplayName("never more requests in flight than max_requests")
    void bounded() {
        NodeHttp http = new NodeHttp(vertx, "t", List.of(good()), opts(1));
        List<Future<String>> all = new ArrayList<>();
        for (int i = 0; i < 40; i++) all.add(http.get("/slow", Buffer::toString));
        TestNodes.await(Future.all(all));
        assertEquals(4, maxConcurrent.get());
    }

    @Test
    @DisplayName("backoff doubles from the base, is capped and jittered; endpoints pause and come back")
    void backoffAndEndpoints() {
        for (int i = 0; i < 50; i++) {
            long d1 = Backoff.delayMs(1, Duration.ofMillis(100), Duration.ofSeconds(1));
            long d3 = Backoff.delayMs(3, Duration.ofMillis(100), Duration.ofSeconds(1));
            long d20 = Backoff.delayMs(20, Duration.ofMillis(100), Duration.ofSeconds(1));
            assertTrue(d1 >= 75 && d1 <= 125, "d1 " + d1);
            assertTrue(d3 >= 300 && d3 <= 500, "d3 " + d3);
            assertTrue(d20 >= 750 && d20 <= 1000, "d20 " + d20);
        }
        long[] now = {0};
        Endpoints e = new Endpoints(List.of("http://a", "http://b/"), 2, 1000, () -> now[0]);
        assertEquals("http://a", e.pick());
        assertFalse(e.failure("http://a"));
        e.success("http://a");
        assertFalse(e.failure("http://a"));
        assertTrue(e.failure("http://a"));
        assertEquals("http://b", e.pick());
        e.failure("http://b");
        e.failure("http://b");
        assertEquals("http://a", e.pick(), "both paused: the one whose pause ends first");
        now[0] = 5000;
        assertTrue(e.healthy("http://a") && e.healthy("http://b"));
    }
}
