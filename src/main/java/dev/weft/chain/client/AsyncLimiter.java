package dev.weft.chain.client;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.function.Supplier;

/** Bounds the number of concurrently running asynchronous operations; the others wait in FIFO order. */
public final class AsyncLimiter {
    private final int permits;
    private int running;
    private final ArrayDeque<Promise<Void>> waiting = new ArrayDeque<>();

    public AsyncLimiter(int permits) {
        this.permits = Math.max(1, permits);
    }

    /** Runs {@code op} once a permit is free and releases the permit when its future completes. */
    public <T> Future<T> run(Supplier<Future<T>> op) {
        return acquire().compose(v -> {
            Future<T> f;
            try {
                f = op.get();
            } catch (RuntimeException e) {
                f = Future.failedFuture(e);
            }
            return f.andThen(ar -> release());
        });
    }

    public synchronized int running() {
        return running;
    }

    public synchronized int waiting() {
        return waiting.size();
    }

    private Future<Void> acquire() {
        synchronized (this) {
            if (running < permits) {
                running++;
                return Future.succeededFuture();
            }
            Promise<Void> p = Promise.promise();
            waiting.add(p);
            return p.future();
        }
    }

    private void release() {
        Promise<Void> next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) running--;
        }
        if (next != null) next.complete();
    }
}
