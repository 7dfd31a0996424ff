package dev.weft.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.store.Database;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The fixture itself: what it hands out, that each scope's things are closed when it ends, failed or not. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WeftExtensionTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static WeftNode classNode;
    static final List<String> perTestDatabases = new ArrayList<>();
    static Database testDatabase;
    static ClosedProbe testVertx;
    String database;

    /** Tells when the Vert.x it is deployed on closes: closing undeploys every verticle. */
    static final class ClosedProbe extends VerticleBase {
        final AtomicBoolean closed = new AtomicBoolean();

        static ClosedProbe on(Vertx vertx) {
            ClosedProbe p = new ClosedProbe();
            TestNodes.await(vertx.deployVerticle(p));
            return p;
        }

        @Override
        public Future<?> stop() {
            closed.set(true);
            return Future.succeededFuture();
        }
    }

    @BeforeAll
    static void start() {
        classNode = weft.start("api");
    }

    @BeforeEach
    void freshDatabase() {
        database = (String) weft.config().get("database.url");
        perTestDatabases.add(database);
    }

    @Test
    @Order(1)
    @DisplayName("a node started in @BeforeAll runs on the class's Vert.x and answers on its HTTP port")
    void classNode() {
        assertSame(weft.vertx(), classNode.vertx());
        var r = TestNodes.get(WebClient.create(weft.vertx()), TestNodes.httpPort(classNode), "/health");
        assertEquals(200, r.statusCode());
    }

    @Test
    @Order(2)
    @DisplayName("what a test asks for lives in the test: a Vert.x of its own and a database on it")
    void testScoped() {
        Vertx own = weft.newVertx();
        assertNotSame(weft.vertx(), own);
        testVertx = ClosedProbe.on(own);
        testDatabase = weft.database(weft.config());
        TestNodes.await(testDatabase.pool().query("SELECT 1").execute());
    }

    @Test
    @Order(3)
    @DisplayName("after the test, its database and Vert.x are closed; the class's node still runs")
    void testScopeClosed() {
        assertTrue(testVertx.closed.get(), "the test's Vert.x is closed");
        assertThrows(
                RuntimeException.class,
                () -> TestNodes.await(testDatabase.pool().query("SELECT 1").execute()));
        assertEquals(
                200,
                TestNodes.get(WebClient.create(weft.vertx()), TestNodes.httpPort(classNode), "/health")
                        .statusCode());
    }

    @Test
    @Order(4)
    @DisplayName("two tests asking for a configuration in @BeforeEach get two fresh databases")
    void freshDatabasePerTest() throws Exception {
        assertEquals(4, perTestDatabases.size());
        assertEquals(4, perTestDatabases.stream().distinct().count(), perTestDatabases.toString());
        try (var c = TestDatabase.jdbc(database);
                var rs = c.createStatement()
                        .executeQuery("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "a fresh database is empty");
        }
    }

    @Test
    @Order(5)
    @DisplayName("a failing cleanup fails the scope but the node is still stopped and the Vert.x still closed")
    void cleanupOnFailure() {
        WeftExtension fixture = new WeftExtension();
        assertThrows(IllegalStateException.class, fixture::vertx, "outside a scope");
        fixture.open("class");
        Vertx vertx = fixture.vertx();
        ClosedProbe probe = ClosedProbe.on(vertx);
        IllegalStateException boom = new IllegalStateException("boom");
        fixture.closeAfter(() -> {
            throw boom;
        });
        WeftNode node = fixture.start("api");
        assertNotEquals(0, node.deployments().size());
        Exception thrown = assertThrows(Exception.class, () -> fixture.close("class"));
        assertSame(boom, thrown);
        assertEquals(0, node.deployments().size(), "the node is stopped");
        assertTrue(probe.closed.get(), "the Vert.x is closed");
    }

    @Test
    @Order(6)
    @DisplayName("a scope whose before-callback never ran closes nothing; a Vert.x first asked in a test ends with it")
    void scopes() throws Exception {
        WeftExtension fixture = new WeftExtension();
        fixture.open("class");
        fixture.open("test");
        ClosedProbe probe = ClosedProbe.on(fixture.vertx());
        fixture.close("another test");
        assertFalse(probe.closed.get(), "another test's end leaves this test's Vert.x");
        fixture.close("test");
        assertTrue(probe.closed.get(), "the test's end closes it");
        fixture.close("class");
        assertThrows(IllegalStateException.class, () -> fixture.start("api"), "outside a scope");
    }
}
