package dev.weft.api;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;

/**
 * {@code GET /metrics}: the Prometheus text scrape. Rendering one takes ~20 ms on a busy node (thousands of series),
 * too long for the event loop that serves every other request, and its ~250 KB answer is a lot to send for a
 * 100-byte request: it is rendered on a worker thread, at most once per {@code maxAge}, and the same bytes (gzipped
 * once for the clients that accept gzip, as Prometheus does) answer every scrape meanwhile. A scraper sees values at
 * most {@code maxAge} old; many scrapers, or one client asking in a loop, cost one rendering per {@code maxAge}.
 */
final class MetricsScrape {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** One rendering: when it began ({@code nanos}), its text and the same text gzipped. */
    record Rendered(long startedNanos, Buffer plain, Buffer gzipped) {}

    private final Vertx vertx;
    private final Supplier<String> render;
    private final long maxAgeNanos;
    private final LongSupplier nanos;
    private Rendered last;
    private Future<Rendered> rendering;

    /** {@code render}: the scrape (thread-safe: it runs on a worker thread); {@code nanos}: the clock of the ages. */
    MetricsScrape(Vertx vertx, Supplier<String> render, Duration maxAge, LongSupplier nanos) {
        this.vertx = vertx;
        this.render = render;
        this.maxAgeNanos = maxAge.toNanos();
        this.nanos = nanos;
    }

    void handle(RoutingContext rc) {
        boolean gzip = acceptsGzip(rc.request().getHeader("accept-encoding"));
        current().onComplete(ar -> {
            if (ar.failed()) {
                rc.fail(ar.cause());
                return;
            }
            HttpServerResponse response =
                    rc.response().putHeader("content-type", CONTENT_TYPE).putHeader("vary", "accept-encoding");
            // a content-encoding already set keeps the server's own compression off this answer
            if (gzip) response.putHeader("content-encoding", "gzip");
            response.end(gzip ? ar.result().gzipped() : ar.result().plain());
        });
    }

    /** The latest rendering while it is younger than {@code maxAge}, else the one under way, else a new one. */
    Future<Rendered> current() {
        long now = nanos.getAsLong();
        if (last != null && now - last.startedNanos() < maxAgeNanos) return Future.succeededFuture(last);
        if (rendering == null) {
            rendering = vertx.executeBlocking(
                            () -> {
                                byte[] text = render.get().getBytes(StandardCharsets.UTF_8);
                                return new Rendered(now, Buffer.buffer(text), Buffer.buffer(gzip(text)));
                            },
                            false)
                    .andThen(ar -> {
                        rendering = null;
                        if (ar.succeeded()) last = ar.result();
                    });
        }
        return rendering;
    }

    static boolean acceptsGzip(String acceptEncoding) {
        if (acceptEncoding == null) return false;
        for (String part : acceptEncoding.toLowerCase(Locale.ROOT).split(",")) {
            String[] p = part.trim().split(";");
            if (!p[0].trim().equals("gzip")) continue;
            // gzip;q=0 refuses it
            return p.length < 2 || !p[1].trim().matches("q\\s*=\\s*0(\\.0*)?");
        }
        return false;
    }

    private static byte[] gzip(byte[] text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length / 6 + 64);
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
