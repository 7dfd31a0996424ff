package dev.weft.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.node.WeftNode;
import dev.weft.route.RouteFixtures;
import dev.weft.testsupport.DevnetAccounts;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code POST /v2/info/balances} over real HTTP and the event bus, against one node standing in for weft-l1-1's REST
 * (bank module) and 31337's JSON-RPC (the registry points both chains at it); every request it receives is recorded.
 */
class BalancesApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String EVM_ACCOUNT = "0x1b1a3f4c5e6d7a8b9c0d1e2f3a4b5c6d7e8f9a0b";
    static Vertx vertx;
    static WeftNode node;
    static HttpServer chainNode;
    static final List<String> requests = new CopyOnWriteArrayList<>();
    static final LocalHttp http = new LocalHttp();
    static int port;

    @BeforeAll
    static void start() throws Exception {
        vertx = weft.vertx();
        chainNode = vertx.createHttpServer()
                .requestHandler(req -> req.body().onSuccess(body -> {
                    if (req.path().startsWith("/cosmos/bank/v1beta1/balances/")) {
                        requests.add("GET " + req.uri());
                        req.response()
                                .putHeader("content-type", "application/json")
                                .end(new JsonObject()
                                        .put(
                                                "balances",
                                                new JsonArray()
                                                        .add(new JsonObject()
                                                                .put("denom", "uinit")
                                                                .put("amount", "2500000"))
                                                        .add(new JsonObject()
                                                                .put("denom", "uusdc")
                                                                .put("amount", "7")))
                                        .put(
                                                "pagination",
                                                new JsonObject()
                                                        .putNull("next_key")
                                                        .put("total", "2"))
                                        .encode());
                        return;
                    }
                    JsonObject rpc = body.toJsonObject();
                    requests.add(rpc.getString("method") + " "
                            + rpc.getJsonArray("params").encode());
                    Object result = switch (rpc.getString("method")) {
                        case "eth_getBalance" -> "0xde0b6b3a7640000";
                        case "eth_call" -> "0x" + "0".repeat(58) + "4c4b40";
                        default -> null;
                    };
                    req.response()
                            .putHeader("content-type", "application/json")
                            .end(new JsonObject()
                                    .put("jsonrpc", "2.0")
                                    .put("id", rpc.getValue("id"))
                                    .put("result", result)
                                    .encode());
                }))
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get();
        String url = "http://127.0.0.1:" + chainNode.actualPort();
        Path registry = RouteFixtures.devnetCopy();
        JsonObject r = new JsonObject(Files.readString(registry));
        for (Object o : r.getJsonArray("chains")) {
            JsonObject c = (JsonObject) o;
            if (c.getString("chain_id").equals("weft-l1-1"))
                c.getJsonObject("apis").put("rest", url);
            if (c.getString("chain_id").equals("31337")) c.getJsonObject("apis").put("json_rpc", url);
        }
        Files.writeString(registry, r.encodePrettily());
        node = weft.start(weft.config()
                .roles("api", "route")
                .set("route.registries", new JsonArray().add(registry.toString()))
                .set("route.reload_scan_interval", "0"));
        port = TestNodes.httpPort(node);
    }

    private static JsonObject entry(String amount, int decimals, String formatted, String price, String value) {
        JsonObject o =
                new JsonObject().put("amount", amount).put("decimals", decimals).put("formatted_amount", formatted);
        return price == null ? o : o.put("price", price).put("value_usd", value);
    }

    @Test
    @DisplayName(
            "bank balances of a Cosmos account (one request), gas token and ERC-20 of an EVM account (one request each), Skip's shape")
    void balances() {
        requests.clear();
        JsonObject req = new JsonObject()
                .put(
                        "chains",
                        new JsonObject()
                                .put(
                                        "weft-l1-1",
                                        new JsonObject()
                                                .put("address", DevnetAccounts.ALICE)
                                                .put(
                                                        "denoms",
                                                        new JsonArray()
                                                                .add("uinit")
                                                                .add("uusdc")
                                                                .add("ibc/NOPE")))
                                .put(
                                        "31337",
                                        new JsonObject()
                                                .put("address", EVM_ACCOUNT)
                                                .put(
                                                        "denoms",
                                                        new JsonArray()
                                                                .add("weft-ext-evm-native")
                                                                .add(RouteFixtures.USDC_EXT))));
        var r = http.post(port, "/v2/info/balances", req.encode());
        assertEquals(200, r.statusCode(), r.body());
        JsonObject expected = new JsonObject()
                .put(
                        "chains",
                        new JsonObject()
                                .put(
                                        "weft-l1-1",
                                        new JsonObject()
                                                .put(
                                                        "denoms",
                                                        new JsonObject()
                                                                .put(
                                                                        "uinit",
                                                                        entry("2500000", 6, "2.5", "0.50", "1.25"))
                                                                .put("uusdc", entry("7", 6, "0.000007", "1.00", "0.00"))
                                                                .put(
                                                                        "ibc/NOPE",
                                                                        new JsonObject()
                                                                                .put("amount", "0")
                                                                                .put("formatted_amount", "0"))))
                                .put(
                                        "31337",
                                        new JsonObject()
                                                .put(
                                                        "denoms",
                                                        new JsonObject()
                                                                .put(
                                                                        "weft-ext-evm-native",
                                                                        entry(
                                                                                "1000000000000000000",
                                                                                18,
                                                                                "1",
                                                                                "3000.00",
                                                                                "3000.00"))
                                                                .put(
                                                                        RouteFixtures.USDC_EXT,
                                                                        entry("5000000", 6, "5", "1.00", "5.00")))));
        assertEquals(expected, new JsonObject(r.body()));
        assertEquals(
                List.of(
                        "GET /cosmos/bank/v1beta1/balances/" + DevnetAccounts.ALICE + "?pagination.limit=200",
                        "eth_getBalance [\""
                                + dev.weft.chain.AccountAddress.parse(EVM_ACCOUNT, "")
                                        .checksumHex() + "\",\"latest\"]"),
                requests.stream()
                        .filter(x -> !x.startsWith("eth_call"))
                        .sorted()
                        .toList());
        assertEquals(1, requests.stream().filter(x -> x.startsWith("eth_call")).count());
    }

    @Test
    @DisplayName(
            "the node requests of one call are bounded: more than 10 chains or 100 balances is a 400; bad addresses and unknown chains are JSON errors")
    void bounds() {
        JsonObject many = new JsonObject();
        for (int i = 0; i < 11; i++) many.put("chain-" + i, new JsonObject().put("address", DevnetAccounts.ALICE));
        var tooManyChains = http.post(
                port, "/v2/info/balances", new JsonObject().put("chains", many).encode());
        assertEquals(400, tooManyChains.statusCode());
        assertEquals(
                "chains names 11 chains, at most 10 per request",
                new JsonObject(tooManyChains.body()).getString("message"));
        JsonArray denoms = new JsonArray();
        for (int i = 0; i < 101; i++) denoms.add("0x" + String.format("%040x", i));
        var tooManyDenoms = http.post(
                port,
                "/v2/info/balances",
                new JsonObject()
                        .put(
                                "chains",
                                new JsonObject()
                                        .put(
                                                "31337",
                                                new JsonObject()
                                                        .put("address", EVM_ACCOUNT)
                                                        .put("denoms", denoms)))
                        .encode());
        assertEquals(400, tooManyDenoms.statusCode());
        assertEquals(
                "the request asks for more than 100 balances",
                new JsonObject(tooManyDenoms.body()).getString("message"));
        var badAddress = http.post(
                port,
                "/v2/info/balances",
                new JsonObject()
                        .put(
                                "chains",
                                new JsonObject()
                                        .put(
                                                "weft-l1-1",
                                                new JsonObject().put("address", EVM_ACCOUNT.substring(0, 20))))
                        .encode());
        assertEquals(400, badAddress.statusCode());
        assertEquals(3, new JsonObject(badAddress.body()).getInteger("code"));
        var unknown = http.post(
                port,
                "/v2/info/balances",
                new JsonObject()
                        .put(
                                "chains",
                                new JsonObject()
                                        .put("cosmoshub-4", new JsonObject().put("address", DevnetAccounts.ALICE)))
                        .encode());
        assertEquals(404, unknown.statusCode());
        assertEquals("chain cosmoshub-4 is not supported", new JsonObject(unknown.body()).getString("message"));
    }
}
