package dev.weft.track;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The decisions of {@link FailureLog.Limiter} on a clock the test moves: no sleeps. */
class FailureLogTest {
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final FailureLog.Limiter log = new FailureLog.Limiter(Duration.ofMinutes(1), now::get);

    private static FailureLog.Decision warn(long suppressed) {
        return new FailureLog.Decision(true, suppressed);
    }

    private static FailureLog.Decision quiet(long suppressed) {
        return new FailureLog.Decision(false, suppressed);
    }

    @Test
    void firstFailureWarnsThenOneAMinuteWithTheCountSuppressed() {
        assertEquals(warn(0), log.failure(), "the first failure in a row warns");
        for (int i = 1; i <= 599; i++) {
            now.addAndGet(100); // a poll every 100 ms
            assertEquals(quiet(i), log.failure(), "within the minute: not logged");
        }
        now.addAndGet(100); // one minute after the first warning
        assertEquals(warn(599), log.failure(), "a minute on: one warning counting the 599 not logged");
        now.addAndGet(59_999);
        assertEquals(quiet(1), log.failure());
        now.addAndGet(1);
        assertEquals(warn(1), log.failure());
        now.addAndGet(600_000); // a long gap: the next failure warns at once, nothing suppressed meanwhile
        assertEquals(warn(0), log.failure());
    }

    @Test
    void recoveryIsToldOnceWithTheFailuresItEnds() {
        assertEquals(0, log.success(), "a success without failures before: nothing to tell");
        log.failure();
        now.addAndGet(10);
        log.failure();
        now.addAndGet(10);
        log.failure();
        assertEquals(3, log.success(), "the recovery counts the failures in a row");
        assertEquals(0, log.success(), "told once");
        now.addAndGet(10);
        assertEquals(warn(0), log.failure(), "a failure after a recovery is the first of a new row: it warns");
        now.addAndGet(10);
        assertEquals(quiet(1), log.failure());
    }

    @Test
    void theLoggingCallsTakeTheDecisions() {
        ch.qos.logback.classic.Logger logger =
                (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("dev.weft.track.FailureLogTest.logged");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        try {
            FailureLog logged = new FailureLog(logger, "registering the EVM sends");
            for (int i = 0; i < 5; i++) logged.failed(new IllegalStateException("node down"));
            logged.succeeded();
            logged.succeeded();
            assertEquals(
                    List.of(
                            "WARN registering the EVM sends failed (retried next cycle): java.lang.IllegalStateException: node down",
                            "INFO registering the EVM sends succeeds again after 5 failure(s) in a row"),
                    lines.list.stream()
                            .map(e -> e.getLevel() + " " + e.getFormattedMessage())
                            .toList(),
                    "within a minute: one warning for five failures, one line for the recovery");
        } finally {
            logger.detachAppender(lines);
        }
    }
}
