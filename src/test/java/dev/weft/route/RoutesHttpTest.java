package dev.weft.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /v2/fungible/routes} and exact-out {@code /v2/fungible/route} over HTTP on a node with the api and route roles
 * (routes without a swap: no devnet's pools are read here).
 */
class RoutesHttpTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final LocalHttp http = new LocalHttp();
    static int port;

    @BeforeAll
    static void start() {
        WeftNode node = weft.start(weft.config().roles("api", "route"));
        port = TestNodes.httpPort(node);
    }

    @Test
    void routesAndExactOut() {
        JsonObject req =
                RouteFixtures.request("1000000", "weft-l1-1", "uinit", "weft-devnet-1", RouteFixtures.INIT_DEVNET);
        var route = http.post(port, "/v2/fungible/route", req.encode());
        assertEquals(200, route.statusCode(), route.body());
        var routes = http.post(
                port, "/v2/fungible/routes", req.copy().put("limit", 2).encode());
        assertEquals(200, routes.statusCode(), routes.body());
        JsonObject first = new JsonObject(routes.body()).getJsonArray("routes").getJsonObject(0);
        assertEquals(new JsonObject(route.body()), first.getJsonObject("route"));
        assertEquals(
                new JsonArray().add("BEST").add("MOST_OUTPUT").add("FEWEST_TXS").add("FASTEST"),
                first.getJsonArray("tags"));

        var bad = http.post(
                port, "/v2/fungible/routes", req.copy().put("limit", 11).encode());
        assertEquals(400, bad.statusCode(), bad.body());
        assertEquals(
                new JsonObject()
                        .put("code", 3)
                        .put("message", "limit must be an integer from 1 to 10 (got 11)")
                        .put("details", new JsonArray()),
                new JsonObject(bad.body()));

        JsonObject exactOut = req.copy().put("amount_out", "4242");
        exactOut.remove("amount_in");
        var out = http.post(port, "/v2/fungible/route", exactOut.encode());
        assertEquals(200, out.statusCode(), out.body());
        assertEquals("4242", new JsonObject(out.body()).getString("amount_in"));
        assertEquals("4242", new JsonObject(out.body()).getString("amount_out"));
    }
}
