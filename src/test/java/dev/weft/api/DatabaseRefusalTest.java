package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.weft.bus.BusError;
import dev.weft.runtime.BuildInfo;
import dev.weft.runtime.NodeContext;
import dev.weft.runtime.NodeInfo;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A database error a request's value causes is never a 500: at the store/API boundary PostgreSQL's data exceptions
 * (SQLSTATE class 22) and program limits (class 54) become a 400 with the JSON error body, logged at WARN; any other
 * database error stays a 500 logged at ERROR. The errors come from a real PostgreSQL, through the real HTTP verticle.
 */
class DatabaseRefusalTest {
    /** A statement and the parameter PostgreSQL refuses in it. */
    private record Refused(String sql, String parameter) {}

    /** By the SQLSTATE they fail with. */
    private static final Map<String, Refused> REFUSED = Map.of(
            "22P02", new Refused("SELECT $1::text::int", "x"),
            "22003", new Refused("SELECT $1::text::bigint * 10", "922337203685477581"),
            "22021", new Refused("SELECT length($1::text)", "a\u0000b"),
            // checked before anything is allocated: 4 GB of text is over PostgreSQL's 1 GB value limit
            "54000", new Refused("SELECT length(repeat($1::text, 2000000000))", "xy"),
            "42P01", new Refused("SELECT * FROM no_such_table WHERE $1::text IS NOT NULL", "x"));

    static Vertx vertx;
    static Pool pool;
    static int port;
    static final ListAppender<ILoggingEvent> log = new ListAppender<>();

    /** The planted store: {@code /refused/{state}} runs the statement refusing its parameter; 42P01 names no table. */
    private static final ApiModule PLANTED =
            router -> router.get("/refused/:state").handler(rc -> {
                String state = rc.pathParam("state");
                Refused refused = REFUSED.get(rc.pathParam("state"));
                pool.preparedQuery(refused.sql())
                        .execute(Tuple.of(refused.parameter()))
                        .onSuccess(rows -> Responses.json(rc, new JsonObject()))
                        .onFailure(rc::fail);
            });

    @BeforeAll
    static void start() {
        vertx = TestNodes.newVertx();
        pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(TestDatabase.freshUrl()))
                .using(vertx)
                .build();
        NodeContext ctx = new NodeContext(
                vertx,
                TestConfig.defaults().roles("api").build(),
                pool,
                null,
                BuildInfo.load(),
                "refusal",
                false,
                new NodeInfo(),
                new dev.weft.runtime.ChainContexts());
        AdminApi admin = new AdminApi(ctx, List.of());
        TestNodes.await(vertx.deployVerticle(new HttpApiVerticle(ctx, List.of(admin, PLANTED))));
        port = ctx.info().httpPort();
        log.start();
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(HttpApiVerticle.class)).addAppender(log);
    }

    @AfterAll
    static void stop() {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(HttpApiVerticle.class)).detachAppender(log);
        TestNodes.await(pool.close());
        TestNodes.await(vertx.close());
    }

    private static RawHttp.Response get(String target) throws Exception {
        try (RawHttp c = new RawHttp(port)) {
            return c.write("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .read();
        }
    }

    @Test
    @DisplayName(
            "SQLSTATE 22P02, 22003, 22021 and 54000 caused by a request: 400 with the JSON error body, WARN; 42P01: 500, ERROR")
    void refusedValuesAreBadRequests() throws Exception {
        Map<String, String> messages = Map.of(
                "22P02", "a request value is not valid for its type (SQLSTATE 22P02)",
                "22003", "a request value is out of range (SQLSTATE 22003)",
                "22021", "a request value holds a character the database cannot store (SQLSTATE 22021)",
                "54000", "a request value is too large for the database (SQLSTATE 54000)");
        for (Map.Entry<String, String> m : messages.entrySet()) {
            log.list.clear();
            RawHttp.Response r = get("/refused/" + m.getKey());
            assertEquals(400, r.status(), m.getKey() + ": " + r.body());
            assertEquals(
                    new JsonObject()
                            .put("code", 3)
                            .put("message", m.getValue())
                            .put("details", new io.vertx.core.json.JsonArray()),
                    r.json());
            List<ILoggingEvent> events = List.copyOf(log.list);
            assertEquals(1, events.size(), m.getKey() + ": " + events);
            assertEquals(Level.WARN, events.get(0).getLevel());
            assertTrue(
                    events.get(0).getFormattedMessage().contains(m.getKey()),
                    events.get(0).getFormattedMessage());
        }
        log.list.clear();
        RawHttp.Response r = get("/refused/42P01");
        assertEquals(500, r.status(), r.body());
        assertEquals("internal server error", r.json().getString("message"));
        assertEquals(Level.ERROR, log.list.get(0).getLevel());
    }

    @Test
    @DisplayName("a service answering over the bus maps the same errors: a 400 for a refused value, else a 500")
    void serviceErrors() {
        Throwable refused =
                TestNodes.await(pool.preparedQuery(REFUSED.get("22021").sql())
                        .execute(Tuple.of(REFUSED.get("22021").parameter()))
                        .<Throwable>map(rows -> null)
                        .otherwise(e -> e));
        BusError e = Responses.serviceError(refused, "a service");
        assertEquals(400, e.httpStatus());
        assertEquals("a request value holds a character the database cannot store (SQLSTATE 22021)", e.getMessage());
        assertEquals(
                500,
                Responses.serviceError(new IllegalStateException("x"), "a service")
                        .httpStatus());
        BusError own = BusError.notFound("n");
        assertEquals(own, Responses.serviceError(own, "a service"));
    }
}
