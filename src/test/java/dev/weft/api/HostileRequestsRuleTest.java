package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The hostile-input fuzz can fail: a planted handler that forwards its path, query, cursor and body text to PostgreSQL
 * unchecked, and answers a database error with a 500 (what Weft did before issue 58), is reported by
 * {@link HostileRequests} with the exact requests; the same handler behind the {@link TextGate} and the cursor checks
 * of {@link PageRequest} is not.
 */
class HostileRequestsRuleTest {
    /** The planted operations: text in the path, the query, a cursor and a body, each sent to the database. */
    private static final JsonObject DOC = new JsonObject("""
      {"paths": {
        "/planted/{name}": {"get": {"parameters": [
          {"name": "name", "in": "path", "schema": {"type": "string"}},
          {"name": "q", "in": "query", "schema": {"type": "string"}},
          {"name": "pagination.key", "in": "query", "schema": {"type": "string"}}]}},
        "/planted": {"post": {"requestBody": {"content": {"application/json": {"schema": {
          "type": "object", "properties": {"text": {"type": "string"}}}}}}}}}}""");

    static Vertx vertx;
    static Pool pool;

    @BeforeAll
    static void start() {
        vertx = TestNodes.newVertx();
        pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(TestDatabase.freshUrl()))
                .using(vertx)
                .build();
    }

    @AfterAll
    static void stop() {
        TestNodes.await(pool.close());
        TestNodes.await(vertx.close());
    }

    /** A server whose planted handlers forward their text to the database, with or without the gate in front. */
    private static int plantedServer(boolean gated) {
        Router router = Router.router(vertx);
        router.route().handler(BodyHandler.create(false).setBodyLimit(1 << 20));
        if (gated) {
            router.route().handler(rc -> {
                if (rc.request().method() == io.vertx.core.http.HttpMethod.POST) StrictJson.read(rc);
                else rc.next();
            });
            router.route().handler(new TextGate(DOC)::check);
        }
        router.get("/planted/:name").handler(rc -> {
            String cursorText = null;
            if (gated) {
                PageRequest page = PageRequest.parse(rc);
                cursorText = page.cursorString("token_id");
            } else if (rc.queryParams().get("pagination.key") != null) {
                // the planted decoder: base64 JSON, its token_id taken as it is
                try {
                    cursorText = new JsonObject(new String(
                                    java.util.Base64.getDecoder()
                                            .decode(rc.queryParams().get("pagination.key")),
                                    java.nio.charset.StandardCharsets.UTF_8))
                            .getString("token_id");
                } catch (RuntimeException e) {
                    rc.response().setStatusCode(400).end(BAD_REQUEST);
                    return;
                }
            }
            forward(rc, rc.pathParam("name") + "|" + rc.queryParams().get("q") + "|" + cursorText);
        });
        router.post("/planted").handler(rc -> {
            Object text;
            try {
                text = rc.body().asJsonObject().getValue("text");
            } catch (RuntimeException e) {
                rc.response().setStatusCode(400).end(BAD_REQUEST);
                return;
            }
            forward(rc, String.valueOf(text));
        });
        for (int status : new int[] {404, 405})
            router.errorHandler(
                    status, rc -> rc.response().setStatusCode(status).end(BAD_REQUEST));
        router.route().failureHandler(rc -> {
            int status = rc.failure() instanceof dev.weft.bus.BusError e ? e.httpStatus() : 500;
            rc.response()
                    .setStatusCode(status)
                    .end(new JsonObject()
                            .put("code", 2)
                            .put("message", String.valueOf(rc.failure()))
                            .put("details", new io.vertx.core.json.JsonArray())
                            .encode());
        });
        HttpServer server = TestNodes.await(vertx.createHttpServer()
                .invalidRequestHandler(req -> req.response()
                        .setStatusCode(400)
                        .putHeader("connection", "close")
                        .end(BAD_REQUEST))
                .requestHandler(router)
                .listen(0, "127.0.0.1"));
        return server.actualPort();
    }

    private static final String BAD_REQUEST = "{\"code\":3,\"message\":\"bad request\",\"details\":[]}";

    /** The planted store: the text goes to PostgreSQL as it is; any database error is a 500. */
    private static void forward(RoutingContext rc, String text) {
        pool.preparedQuery("SELECT length($1::text)")
                .execute(Tuple.of(text))
                .onSuccess(rows -> rc.response().end("{\"ok\":true}"))
                .onFailure(e -> rc.response()
                        .setStatusCode(500)
                        .end(new JsonObject()
                                .put("code", 2)
                                .put("message", "internal server error")
                                .put("details", new io.vertx.core.json.JsonArray())
                                .encode()));
    }

    @Test
    @DisplayName(
            "a planted handler forwarding NUL to the database fails the fuzz, naming the requests; behind the gate it passes")
    void fuzzCatchesPlantedNulForwarding() throws Exception {
        List<HostileRequests.Request> requests = HostileRequests.of(DOC);
        List<String> ungated = HostileRequests.failures(plantedServer(false), requests);
        for (String family :
                List.of("name = NUL", "q = NUL inside", "pagination.key token_id = NUL inside", "body text = NUL")) {
            assertTrue(
                    ungated.stream().anyMatch(f -> f.contains("[" + family + "] → 500")),
                    family + " is reported: " + ungated);
        }
        assertTrue(
                ungated.contains("GET /planted/x?q=a%00b [q = NUL inside] → 500 "
                        + "{\"code\":2,\"message\":\"internal server error\",\"details\":[]}"),
                "the exact request is reported: " + ungated);
        assertEquals(List.of(), HostileRequests.failures(plantedServer(true), requests), "behind the gate");
    }
}
