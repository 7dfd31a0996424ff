package dev.weft.track;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * The log of an operation that is retried every poll and may keep failing: the first failure in a row is a warning,
 * the next ones at most one warning per {@code interval} saying how many were not logged since, and the first success
 * after failures one line at INFO with how many there were. So a dependency that stays down for an hour costs the log
 * some sixty lines, not one per poll. The decisions ({@link Limiter}) are apart from the logging, on an injected
 * clock.
 */
final class FailureLog {
    /** What a failure logs: nothing ({@code warn} false), or a warning after {@code suppressed} unlogged ones. */
    record Decision(boolean warn, long suppressed) {}

    private final Logger log;
    private final String what;
    private final Limiter limiter;

    /** {@code what}: the operation, as the log says it ("registering …"). */
    FailureLog(Logger log, String what) {
        this.log = log;
        this.what = what;
        this.limiter = new Limiter(Duration.ofMinutes(1), System::currentTimeMillis);
    }

    /** The decisions: which failures warn, on a clock of milliseconds. */
    static final class Limiter {
        private final long intervalMillis;
        private final LongSupplier clock;
        private long inARow;
        private long suppressed;
        private long warnedAt;

        Limiter(Duration interval, LongSupplier clock) {
            intervalMillis = interval.toMillis();
            this.clock = clock;
        }

        /** Notes a failure now: whether to warn, and how many failures went unlogged since the last warning. */
        Decision failure() {
            long now = clock.getAsLong();
            inARow++;
            if (inARow > 1 && now - warnedAt < intervalMillis) {
                suppressed++;
                return new Decision(false, suppressed);
            }
            Decision d = new Decision(true, suppressed);
            suppressed = 0;
            warnedAt = now;
            return d;
        }

        /** Notes a success: how many failures in a row it ends (0: none, nothing to log). */
        long success() {
            long ended = inARow;
            inARow = 0;
            suppressed = 0;
            return ended;
        }
    }

    /** Notes a failure and logs it if {@link Limiter#failure} says so. */
    void failed(Throwable e) {
        Decision d = limiter.failure();
        if (!d.warn()) return;
        if (d.suppressed() == 0) log.warn("{} failed (retried next cycle): {}", what, e.toString());
        else
            log.warn(
                    "{} failed (retried next cycle; {} more failures not logged since the last warning): {}",
                    what,
                    d.suppressed(),
                    e.toString());
    }

    /** Notes a success and logs the recovery after failures. */
    void succeeded() {
        long ended = limiter.success();
        if (ended > 0) log.info("{} succeeds again after {} failure(s) in a row", what, ended);
    }
}
