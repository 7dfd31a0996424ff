package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.internal.buffer.BufferInternal;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Response bodies made of many buffers go out through one direct buffer of their own, released after the write. */
class DirectBodyTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static HttpClient client;

    /** Direct buffers it hands out, kept to check that each was released. */
    static final class Tracking extends AbstractByteBufAllocator {
        final List<ByteBuf> made = new CopyOnWriteArrayList<>();

        Tracking() {
            super(true);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return Unpooled.buffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            ByteBuf b = Unpooled.directBuffer(initialCapacity, maxCapacity);
            made.add(b);
            return b;
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        client = vertx.createHttpClient();
    }

    /** A list page's shape: 300 parts of 1–4 KB joined by one-byte commas (~750 KB), as one composite buffer. */
    private static Buffer pageOfParts(byte[] expected) {
        CompositeByteBuf out = Unpooled.compositeBuffer(1000);
        Random rnd = new Random(11);
        rnd.nextBytes(expected);
        int at = 0;
        while (at < expected.length) {
            int n = Math.min(expected.length - at, 1 + rnd.nextInt(4096));
            out.addComponent(true, Unpooled.wrappedBuffer(expected, at, n));
            at += n;
        }
        return BufferInternal.buffer(out);
    }

    /** A fresh server answering with {@code handler}. */
    private static HttpServer serve(Consumer<HttpServerRequest> handler) {
        return serve(new HttpServerOptions(), handler);
    }

    private static HttpServer serve(HttpServerOptions options, Consumer<HttpServerRequest> handler) {
        return TestNodes.await(
                vertx.createHttpServer(options).requestHandler(handler::accept).listen(0, "127.0.0.1"));
    }

    /** {@code alloc} handed out {@code copies} direct buffers, each released since. */
    private static void assertReleased(Tracking alloc, int copies) {
        assertEquals(copies, alloc.made.size(), "direct copies made");
        for (ByteBuf b : alloc.made) assertEquals(0, b.refCnt(), "a copy not released");
    }

    private static byte[] get(int port) {
        return TestNodes.await(client.request(HttpMethod.GET, port, "127.0.0.1", "/")
                        .compose(req -> req.send().compose(resp -> resp.body())))
                .getBytes();
    }

    @Test
    @DisplayName(
            "a body of many parts reaches the client byte for byte, from one direct buffer that is released once written")
    void manyParts() {
        byte[] expected = new byte[750_000];
        Buffer body = pageOfParts(expected);
        Tracking alloc = new Tracking();
        Promise<Void> written = Promise.promise();
        HttpServer server =
                serve(req -> DirectBody.end(req.response(), body, alloc).onComplete(written));
        try {
            assertArrayEquals(expected, get(server.actualPort()));
            TestNodes.await(written.future());
            assertReleased(alloc, 1);
            assertTrue(alloc.made.get(0).isDirect());
            assertEquals(expected.length, alloc.made.get(0).capacity(), "one direct buffer for the whole body");
            // the body itself is untouched: it can be written again (a kept page)
            assertEquals(expected.length, body.length());
            assertArrayEquals(expected, body.getBytes());
        } finally {
            TestNodes.await(server.close());
        }
    }

    @Test
    @DisplayName(
            "a client that accepts gzip gets the same body compressed from the copy, which is released once written")
    void gzipped() throws Exception {
        byte[] expected = new byte[750_000];
        Buffer body = pageOfParts(expected);
        Tracking alloc = new Tracking();
        Promise<Void> written = Promise.promise();
        HttpServer server = serve(
                new HttpServerOptions().setCompressionSupported(true),
                req -> DirectBody.end(req.response(), body, alloc).onComplete(written));
        try {
            io.vertx.core.http.HttpClientResponse[] response = {null};
            byte[] zipped = TestNodes.await(client.request(HttpMethod.GET, server.actualPort(), "127.0.0.1", "/")
                            .compose(req -> req.putHeader("accept-encoding", "gzip")
                                    .send()
                                    .compose(resp -> {
                                        response[0] = resp;
                                        return resp.body();
                                    })))
                    .getBytes();
            assertEquals("gzip", response[0].getHeader("content-encoding"));
            try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(zipped))) {
                assertArrayEquals(expected, in.readAllBytes());
            }
            TestNodes.await(written.future());
            assertReleased(alloc, 1);
        } finally {
            TestNodes.await(server.close());
        }
    }

    @Test
    @DisplayName("a body in one array is written as it is, with no copy")
    void oneArray() {
        byte[] expected = new byte[200_000];
        new Random(3).nextBytes(expected);
        Tracking alloc = new Tracking();
        HttpServer server = serve(req -> DirectBody.end(req.response(), Buffer.buffer(expected), alloc));
        try {
            assertArrayEquals(expected, get(server.actualPort()));
            assertReleased(alloc, 0);
        } finally {
            TestNodes.await(server.close());
        }
    }

    @Test
    @DisplayName("a client gone before its answer is written: the copy is released all the same")
    void clientGone() throws Exception {
        byte[] expected = new byte[750_000];
        Buffer body = pageOfParts(expected);
        Tracking alloc = new Tracking();
        Promise<Void> tried = Promise.promise();
        HttpServer server = serve(req -> req.connection().closeHandler(v -> {
            try {
                DirectBody.end(req.response(), body, alloc).onComplete(ar -> tried.complete());
            } catch (RuntimeException e) {
                tried.complete();
            }
        }));
        try {
            try (RawHttp c = new RawHttp(server.actualPort())) {
                c.write("GET / HTTP/1.1\r\nhost: x\r\n\r\n");
            }
            TestNodes.await(tried.future());
            assertReleased(alloc, 1);
        } finally {
            TestNodes.await(server.close());
        }
    }

    @Test
    @DisplayName("a response ended twice: the second body's copy is released although it is refused")
    void endedTwice() {
        byte[] expected = new byte[300_000];
        Buffer body = pageOfParts(expected);
        Tracking alloc = new Tracking();
        Promise<Void> second = Promise.promise();
        HttpServer server = serve(req -> {
            DirectBody.end(req.response(), body, alloc);
            try {
                DirectBody.end(req.response(), body, alloc).onComplete(ar -> second.complete());
            } catch (RuntimeException e) {
                second.complete();
            }
        });
        try {
            assertArrayEquals(expected, get(server.actualPort()));
            TestNodes.await(second.future());
            assertReleased(alloc, 2);
        } finally {
            TestNodes.await(server.close());
        }
    }
}
