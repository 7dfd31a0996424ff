package dev.weft.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.bus.BusError;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The route verticle on a node with only the route role (no database): bus protocol, file-change reload, failed reloads. */
class RouteComputeVerticleTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WeftNode node;
    static Path dir;
    static Path devnet;

    @BeforeAll
    static void start() throws Exception {
        devnet = RouteFixtures.devnetCopy();
        dir = devnet.getParent();
        weft.closeAfter(() -> TestDatabase.deleteTree(dir)); // after the node that reads it
        vertx = weft.vertx();
        node = weft.start(weft.config()
                .roles("route")
                .set("route.registries", new JsonArray().add(devnet.toString()))
                .set("route.reload_scan_interval", "100ms"));
    }

    private static JsonObject quote() {
        JsonObject req = RouteFixtures.request("1000000", "weft-l1-1", "uusdc", "weft-l1-1", "uinit");
        return TestNodes.await(vertx.eventBus().<JsonObject>request(Addresses.ROUTE_COMPUTE, req))
                .body();
    }

    @Test
    @DisplayName(
            "a node with only the route role needs no database and answers over the bus; failures carry status, message and details")
    void busProtocol() {
        assertNull(node.database());
        assertEquals("1993996", quote().getString("amount_out"));
        JsonObject unsafe = RouteFixtures.request("400000000000", "weft-l1-1", "uusdc", "weft-l1-1", "uinit")
                .put("allow_unsafe", false);
        ReplyException failure = assertThrows(
                ReplyException.class,
                () -> TestNodes.<Message<JsonObject>>await(vertx.eventBus().request(Addresses.ROUTE_COMPUTE, unsafe)));
        assertEquals(400, failure.failureCode());
        BusError e = BusError.fromBus(failure, "route");
        assertEquals(400, e.httpStatus());
        assertEquals(
                "BAD_PRICE_ERROR",
                e.toJson().getJsonArray("details").getJsonObject(0).getString("reason"));
        JsonObject chains = TestNodes.await(vertx.eventBus()
                        .<JsonObject>request(
                                Addresses.ROUTE_CHAINS,
                                new JsonObject().put("include_evm", true).put("only_testnets", true)))
                .body();
        assertEquals(
                4,
                chains.getJsonArray("chains").size(),
                "the devnet's chains are testnets: listed with only_testnets, as Skip");
    }

    @Test
    @DisplayName(
            "a request with the encoded-reply header gets the same answer as encoded JSON bytes (what the HTTP API writes as is)")
    void encodedReply() {
        JsonObject req = RouteFixtures.request("1000000", "weft-l1-1", "uusdc", "weft-l1-1", "uinit");
        DeliveryOptions encoded = new DeliveryOptions().addHeader(Addresses.REPLY_FORMAT, Addresses.ENCODED_REPLY);
        Object body = TestNodes.await(vertx.eventBus().request(Addresses.ROUTE_COMPUTE, req, encoded))
                .body();
        Buffer bytes = assertInstanceOf(Buffer.class, body);
        assertEquals(quote(), new JsonObject(bytes));
        assertEquals("1993996", new JsonObject(bytes).getString("amount_out"));
    }

    @Test
    @DisplayName(
            "the file-change scan reloads an edited registry; a reload of an invalid file fails and keeps the previous registry")
    void scanReload() throws Exception {
        String original = Files.readString(devnet);
        try {
            JsonObject registry = new JsonObject(original);
            registry.getJsonArray("swap_venues")
                    .getJsonObject(0)
                    .getJsonArray("pools")
                    .getJsonObject(0)
                    .put("reserve_a", "2000000000000");
            Files.writeString(devnet, registry.encodePrettily());
            Files.setLastModifiedTime(
                    devnet, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 2_000));
            awaitAmount("3987992");
            Files.writeString(devnet, "{ not json");
            ReplyException failed = assertThrows(
                    ReplyException.class,
                    () -> TestNodes.await(vertx.eventBus().request(Addresses.ROUTE_RELOAD, new JsonObject())));
            assertEquals(500, failed.failureCode());
            BusError reported = BusError.fromBus(failed, "route");
            assertTrue(
                    reported.getMessage()
                            .startsWith("registry reload failed: registry file " + devnet + " is not valid JSON"),
                    reported.getMessage());
            assertEquals("3987992", quote().getString("amount_out"));
        } finally {
            Files.writeString(devnet, original);
            Files.setLastModifiedTime(
                    devnet, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 6_000));
            awaitAmount("1993996");
        }
    }

    /** The periodic file scan reloads on its own schedule: wait until a quote shows the edited registry. */
    private static void awaitAmount(String expected) {
        Await.until("amount_out " + expected, 30, () -> expected.equals(quote().getString("amount_out")));
    }
}
