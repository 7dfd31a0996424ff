package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The scrape's sharing, on a test clock: one rendering per max age, however many scrapes ask meanwhile. */
@ExtendWith(VertxExtension.class)
class MetricsScrapeTest {
    static <T> T onContext(Vertx vertx, Supplier<Future<T>> s) throws Exception {
        Promise<T> p = Promise.promise();
        vertx.runOnContext(v -> s.get().onComplete(p));
        return p.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void oneRenderingAnswersEveryScrapeUntilItIsMaxAgeOld(Vertx vertx) throws Exception {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        AtomicInteger renderings = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        MetricsScrape scrape = new MetricsScrape(
                vertx,
                () -> {
                    int n = renderings.incrementAndGet();
                    try {
                        assertTrue(release.await(10, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return "# rendering " + n + "\n";
                },
                Duration.ofSeconds(1),
                now::get);
        // two scrapes while the first rendering runs share it
        Promise<Future<MetricsScrape.Rendered>[]> both = Promise.promise();
        vertx.runOnContext(v -> {
            @SuppressWarnings("unchecked")
            Future<MetricsScrape.Rendered>[] f = new Future[] {scrape.current(), scrape.current()};
            both.complete(f);
        });
        Future<MetricsScrape.Rendered>[] f =
                both.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertSame(f[0], f[1], "a second scrape waits for the rendering under way");
        release.countDown();
        MetricsScrape.Rendered first =
                f[0].toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals("# rendering 1\n", first.plain().toString());
        try (var in = new java.util.zip.GZIPInputStream(
                new java.io.ByteArrayInputStream(first.gzipped().getBytes()))) {
            assertEquals("# rendering 1\n", new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
        // younger than the max age: the same bytes, no new rendering
        now.addAndGet(Duration.ofMillis(999).toNanos());
        assertSame(first, onContext(vertx, scrape::current));
        assertEquals(1, renderings.get());
        // as old as the max age: rendered again
        now.addAndGet(Duration.ofMillis(1).toNanos());
        assertEquals(
                "# rendering 2\n", onContext(vertx, scrape::current).plain().toString());
        assertEquals(2, renderings.get());
    }

    @Test
    void gzipOnlyForAClientThatAcceptsIt() {
        assertTrue(MetricsScrape.acceptsGzip("gzip"));
        assertTrue(MetricsScrape.acceptsGzip("deflate, GZIP;q=0.5"));
        assertTrue(MetricsScrape.acceptsGzip("gzip, deflate, br"));
        assertFalse(MetricsScrape.acceptsGzip(null));
        assertFalse(MetricsScrape.acceptsGzip("identity"));
        assertFalse(MetricsScrape.acceptsGzip("gzip;q=0"));
        assertFalse(MetricsScrape.acceptsGzip("br, gzip; q=0.0"));
        assertFalse(MetricsScrape.acceptsGzip("x-gzip2"));
    }
}
