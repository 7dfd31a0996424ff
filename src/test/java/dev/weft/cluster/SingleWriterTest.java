package dev.weft.cluster;

import static dev.weft.testsupport.TestNodes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.weft.config.Role;
import dev.weft.node.WeftNode;
import dev.weft.runtime.VerticleKind;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.junit5.Checkpoint;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.sql.Connection;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Exactly one holder of a single-writer lease; a standby takes over when the holder stops or loses its session. */
@ExtendWith(VertxExtension.class)
class SingleWriterTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();

    /** A stand-in writer that records when it starts and stops, and tells {@code started} after it started. */
    static final class Recorder extends VerticleBase {
        private final String name;
        private final Runnable started;

        Recorder(String name) {
            this(name, () -> {});
        }

        Recorder(String name, Runnable started) {
            this.name = name;
            this.started = started;
        }

        @Override
        public Future<?> start() {
            events.add("start " + name);
            started.run();
            return Future.succeededFuture();
        }

        @Override
        public Future<?> stop() {
            events.add("stop " + name);
            return Future.succeededFuture();
        }
    }

    Vertx vertx;
    WeftNode nodeA;
    WeftNode nodeB;
    String dbUrl;

    @BeforeEach
    void start() {
        events.clear();
        vertx = weft.vertx();
        TestConfig cfg = weft.config().roles("api").set("cluster.standby_poll", "100ms");
        dbUrl = (String) cfg.get("database.url");
        nodeA = weft.start(cfg.set("node.name", "a"));
        nodeB = weft.start(cfg.set("node.name", "b"));
    }

    @Test
    @DisplayName("two nodes run a single-writer kind: one is active, the standby takes over when it stops")
    void failoverOnStop(VertxTestContext test) throws Exception {
        Checkpoint bTookOver = test.checkpoint();
        VerticleKind a = new VerticleKind("writer", Role.INGEST, 1, true, ctx -> new Recorder("a"));
        VerticleKind b = new VerticleKind(
                "writer",
                Role.INGEST,
                1,
                true,
                ctx -> new Recorder(
                        "b",
                        () -> test.verify(() -> {
                            assertEquals(
                                    java.util.List.of("start a", "stop a", "start b"), java.util.List.copyOf(events));
                            bTookOver.flag();
                        })));
        SingleWriterVerticle wa = new SingleWriterVerticle(a, nodeA.context(), 100);
        String ida = await(vertx.deployVerticle(wa));
        Await.until("a active", 30, wa::active);
        SingleWriterVerticle wb = new SingleWriterVerticle(b, nodeB.context(), 100);
        await(vertx.deployVerticle(wb));
        int deployed = wb.attempts();
        Await.until(
                "five standby polls of b",
                30,
                () -> wb.attempts() >= deployed + 5); // b must stay passive while a holds the lease
        assertFalse(wb.active());
        assertEquals(java.util.List.of("start a"), java.util.List.copyOf(events));

        vertx.undeploy(ida).onComplete(test.succeeding(v -> {})); // the test completes when b has started (bTookOver)
    }

    @Test
    @DisplayName("a holder whose database session dies stops writing, and the standby takes over")
    void failoverOnLostSession() throws Exception {
        VerticleKind a = new VerticleKind("writer", Role.INGEST, 1, true, ctx -> new Recorder("a"));
        VerticleKind b = new VerticleKind("writer", Role.INGEST, 1, true, ctx -> new Recorder("b"));
        SingleWriterVerticle wa = new SingleWriterVerticle(a, nodeA.context(), 100);
        await(vertx.deployVerticle(wa));
        Await.until("a active", 30, wa::active);
        SingleWriterVerticle wb = new SingleWriterVerticle(b, nodeB.context(), 100);
        await(vertx.deployVerticle(wb));
        try (Connection c = TestDatabase.jdbc(dbUrl)) {
            c.createStatement()
                    .execute(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'weft lease % writer.%'"
                                    + " AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)");
        }
        Await.until(
                "a stopped and b active after a lost its session",
                30,
                () -> wb.active() && !wa.active() && events.contains("stop a"));
        // b may take the freed lease before a notices its loss, so "stop a" and "start b" come in either order
        java.util.List<String> seen = java.util.List.copyOf(events);
        assertEquals(3, seen.size(), seen.toString());
        assertEquals("start a", seen.get(0));
        assertEquals(java.util.Set.of("stop a", "start b"), java.util.Set.copyOf(seen.subList(1, 3)));
    }
}
