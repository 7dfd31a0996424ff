package dev.weft.store;

import static dev.weft.testsupport.TestNodes.await;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of PostgreSQL that loses the answer to a {@code COMMIT}: once {@link #cutEvery} is set, every
 * n-th simple-query {@code COMMIT} is passed to the server, the client's connection is closed at once, and the server's
 * connection once the server has answered (so the transaction did commit). The client sees its commit fail although
 * it went through: the ambiguous outcome a writer must resolve without skipping or repeating anything. After each
 * cut, new connections can be refused for a while (the database unreachable just then).
 */
final class CommitCuttingProxy implements AutoCloseable {
    /** The wire bytes of the simple query "COMMIT": 'Q', length 11, the text and its NUL. */
    private static final byte[] COMMIT =
            concat(new byte[] {'Q', 0, 0, 0, 11}, "COMMIT\0".getBytes(StandardCharsets.US_ASCII));

    private final NetServer server;
    private final NetClient client;
    private final AtomicInteger commits = new AtomicInteger();
    private final AtomicInteger cuts = new AtomicInteger();
    private volatile int every;
    private volatile int maxCuts;
    private volatile long refuseMs;
    private volatile long refuseUntil;

    CommitCuttingProxy(Vertx vertx, String host, int port) {
        client = vertx.createNetClient();
        server = vertx.createNetServer().connectHandler(front -> {
            if (System.currentTimeMillis() < refuseUntil) {
                front.close();
                return;
            }
            front.pause();
            client.connect(port, host).onComplete(ar -> {
                if (ar.failed()) {
                    front.close();
                    return;
                }
                relay(front, ar.result());
                front.resume();
            });
        });
        await(server.listen(0, "127.0.0.1"));
    }

    int port() {
        return server.actualPort();
    }

    /** From now on, cut every n-th COMMIT, at most {@code max} of them, refusing new connections for {@code refuseMs} after each. */
    void cutEvery(int n, int max, long refuseMs) {
        commits.set(0);
        maxCuts = max;
        this.refuseMs = refuseMs;
        every = n;
    }

    int cuts() {
        return cuts.get();
    }

    private void relay(NetSocket front, NetSocket back) {
        boolean[] cut = {false};
        front.handler(buf -> {
            if (cut[0]) return;
            back.write(buf);
            if (every > 0 && contains(buf, COMMIT) && commits.incrementAndGet() % every == 0 && cuts.get() < maxCuts) {
                cuts.incrementAndGet();
                refuseUntil = System.currentTimeMillis() + refuseMs;
                cut[0] = true;
                front.close();
            }
        });
        back.handler(buf -> {
            if (cut[0]) {
                back.close();
                return;
            }
            front.write(buf);
        });
        front.closeHandler(v -> {
            if (!cut[0]) back.close();
        });
        back.closeHandler(v -> front.close());
    }

    private static boolean contains(Buffer buf, byte[] pattern) {
        byte[] b = buf.getBytes();
        outer:
        for (int i = 0; i + pattern.length <= b.length; i++) {
            for (int j = 0; j < pattern.length; j++) if (b[i + j] != pattern[j]) continue outer;
            return true;
        }
        return false;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Override
    public void close() {
        await(server.close());
        await(client.close());
    }
}
