package dev.weft.pipeline;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A writer that works in steps, one at a time, each step its own transaction behind a position check (the rich list,
 * which reads its input from the database rather than from a node, so it has no fetch window). A wake-up during a step
 * runs another step after it; a step that moved the cursor runs the next at once; a failed step is retried with capped
 * backoff (at once when another writer moved the position); {@link #stop} lets a running step finish.
 *
 * <p>Confined to the event loop of the verticle that creates it.
 */
public final class StepLoop {
    private static final Logger LOG = LoggerFactory.getLogger(StepLoop.class);

    private final Vertx vertx;
    private final String name;
    private final RetryPolicy retry;
    /** One step: true when it moved the cursor (more may follow). */
    private final Supplier<Future<Boolean>> step;

    private boolean running;
    private boolean wakeAgain;
    private boolean stopped;
    private int failures;
    private Promise<Void> idle;

    public StepLoop(Vertx vertx, String name, RetryPolicy retry, Supplier<Future<Boolean>> step) {
        this.vertx = vertx;
        this.name = name;
        this.retry = retry;
        this.step = step;
    }

    public void wake() {
        if (stopped) return;
        if (running) {
            wakeAgain = true;
            return;
        }
        running = true;
        wakeAgain = false;
        step.get().onComplete(ar -> {
            running = false;
            if (stopped) {
                if (idle != null) idle.tryComplete();
                return;
            }
            if (ar.failed()) {
                failures++;
                long delay = retry.delayMs(failures, ar.cause());
                LOG.warn(
                        "{} step failed (attempt {}): {}; retrying in {} ms",
                        name,
                        failures,
                        ar.cause().getMessage(),
                        delay);
                vertx.setTimer(Math.max(1, delay), t -> wake());
                return;
            }
            failures = 0;
            if (ar.result() || wakeAgain) vertx.runOnContext(v -> wake());
        });
    }

    /** Completes once a running step has finished. */
    public Future<Void> stop() {
        stopped = true;
        return running ? (idle = Promise.promise()).future() : Future.succeededFuture();
    }
}
