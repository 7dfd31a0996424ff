package dev.weft.route.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.weft.config.ConfigSource;
import dev.weft.config.RouteConfig;
import dev.weft.route.registry.Registry;
import dev.weft.route.registry.RegistryLoader;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * A chain whose REST endpoint does not answer (nothing listens on its port): each feed of the devnet registry (the
 * InitiaDEX pools and the Connect prices of weft-l1-1) warns at its first failure, then reads again only once the
 * backoff delay is over, whatever the refresh timer does, and warns at the 1st, 2nd, 4th… failure in a row only. The
 * feeds' clock is a test clock: the delays run out when the test moves it, not with the wall clock.
 */
@ExtendWith(VertxExtension.class)
class MarketStateSourceTest {
    /** A clock the test moves. */
    static final class TestClock extends Clock {
        private volatile long millis;

        TestClock(Instant start) {
            millis = start.toEpochMilli();
        }

        void advance(Duration d) {
            millis += d.toMillis();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }
    }

    /** The source's log events, kept from whichever thread logs them. */
    static final class Events extends AppenderBase<ILoggingEvent> {
        final List<ILoggingEvent> events = new CopyOnWriteArrayList<>();

        @Override
        protected void append(ILoggingEvent e) {
            events.add(e);
        }

        List<String> at(Level level) {
            return events.stream()
                    .filter(e -> e.getLevel() == level)
                    .map(ILoggingEvent::getFormattedMessage)
                    .toList();
        }
    }

    static <T> T onContext(Context ctx, Supplier<T> s) {
        Promise<T> p = Promise.promise();
        ctx.runOnContext(v -> p.complete(s.get()));
        return TestNodes.await(p.future());
    }

    @Test
    void aChainThatDoesNotAnswerIsAskedLessAndLessOftenAndWarnedAboutAtDoublingCounts(Vertx vertx) {
        RouteConfig config = RouteConfig.from(ConfigSource.fileOnly(new JsonObject()
                .put(
                        "route",
                        new JsonObject()
                                .put("registries", new JsonArray().add("conf/registry/devnet.json"))
                                .put(
                                        "rest",
                                        new JsonObject()
                                                .put(
                                                        "weft-l1-1",
                                                        new JsonArray().add("http://127.0.0.1:" + Ports.free())))
                                .put("pool_refresh", "100ms")
                                .put("state_timeout", "1s"))));
        Registry registry = RegistryLoader.load(config.registries(), config.finalizationPeriods());
        TestClock clock = new TestClock(Instant.parse("2026-11-27T12:00:00Z"));
        Logger logger = (Logger) LoggerFactory.getLogger(MarketStateSource.class);
        Level level = logger.getLevel();
        Events log = new Events();
        log.start();
        logger.addAppender(log);
        logger.setLevel(Level.DEBUG);
        Context ctx = vertx.getOrCreateContext();
        MarketStateSource source = onContext(ctx, () -> {
            MarketStateSource s = new MarketStateSource(vertx, config, registry, clock, m -> {});
            s.start();
            return s;
        });
        try {
            Await.until(
                    "each feed's first failure", 30, () -> log.at(Level.WARN).size() == 2);
            assertTrue(
                    log.at(Level.WARN).stream()
                            .allMatch(m -> m.contains("(failure 1 in a row; warned again at failure 2)")
                                    && m.contains("Connection refused")),
                    log.at(Level.WARN).toString());
            assertTrue(
                    log.at(Level.WARN).stream()
                            .anyMatch(m -> m.startsWith("pool state of initia-dex on weft-l1-1 not read")),
                    log.at(Level.WARN).toString());
            assertTrue(
                    log.at(Level.WARN).stream().anyMatch(m -> m.startsWith("oracle prices of weft-l1-1 not read")),
                    log.at(Level.WARN).toString());

            // the refresh timer keeps ticking, but no feed reads before its delay is over (the test clock stands still)
            long requests = onContext(ctx, source::requests);
            long rounds = onContext(ctx, source::refreshes);
            Await.until("five more refresh rounds", 30, () -> onContext(ctx, source::refreshes) >= rounds + 5);
            assertEquals(requests, onContext(ctx, source::requests), "requests while every feed waits out its delay");

            clock.advance(MarketStateSource.RETRY_MAX.plusSeconds(1));
            Await.until(
                    "each feed's second failure", 30, () -> log.at(Level.WARN).size() == 4);
            assertTrue(onContext(ctx, source::requests) > requests, "each feed read again once its delay was over");
            assertEquals(
                    2,
                    log.at(Level.WARN).stream()
                            .filter(m -> m.contains("(failure 2 in a row; warned again at failure 4)"))
                            .count());

            // the third failure in a row is only a debug line; the fourth warns
            clock.advance(MarketStateSource.RETRY_MAX.plusSeconds(1));
            Await.until(
                    "each feed's third failure",
                    30,
                    () -> log.at(Level.DEBUG).stream()
                                    .filter(m -> m.contains("(failure 3 in a row)"))
                                    .count()
                            == 2);
            assertEquals(4, log.at(Level.WARN).size(), "no warning for a third failure");
            clock.advance(MarketStateSource.RETRY_MAX.plusSeconds(1));
            Await.until(
                    "each feed's fourth failure", 30, () -> log.at(Level.WARN).size() == 6);
            for (String m : log.at(Level.WARN).subList(4, 6)) {
                assertTrue(m.contains("(failure 4 in a row; warned again at failure 8)"), m);
                long next = Long.parseLong(m.substring(m.lastIndexOf("next read in ") + 13, m.lastIndexOf(" ms")));
                // the refresh interval (100 ms) doubled three times, ±25 %
                assertTrue(next >= 600 && next <= 1_000, m);
            }
        } finally {
            onContext(ctx, source::stop);
            logger.detachAppender(log);
            logger.setLevel(level);
        }
    }
}
