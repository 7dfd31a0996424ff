package dev.weft.api;

import static dev.weft.route.RouteFixtures.INIT_ADDR;
import static dev.weft.route.RouteFixtures.NOBLE_ADDR;
import static dev.weft.route.RouteFixtures.USDC_INITIA;
import static dev.weft.route.RouteFixtures.request;
import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.Shapes.assertFields;
import static dev.weft.testsupport.TestNodes.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.node.WeftNode;
import dev.weft.route.ExpectedJson;
import dev.weft.route.RouteFixtures;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The routing API over real HTTP and the real event bus: a node with roles api and route on a fresh database. */
class RoutingApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WeftNode node;
    static WebClient client;
    static int port;
    static Path dir;
    static Path devnet;

    @BeforeAll
    static void start() throws Exception {
        devnet = RouteFixtures.devnetCopy();
        dir = devnet.getParent();
        weft.closeAfter(() -> TestDatabase.deleteTree(dir)); // after the node that reads it
        vertx = weft.vertx();
        node = weft.start(weft.config()
                .roles("api", "route")
                .set(
                        "route.registries",
                        new JsonArray()
                                .add(RouteFixtures.mainnetCopy(dir).toString())
                                .add(devnet.toString()))
                .set("route.reload_scan_interval", "0"));
        port = TestNodes.httpPort(node);
        client = WebClient.create(vertx);
    }

    private static HttpResponse<Buffer> post(String uri, JsonObject body) {
        return TestNodes.call(client, port, HttpMethod.POST, uri, body);
    }

    private static HttpResponse<Buffer> postRaw(String uri, String body) {
        return TestNodes.await(client.post(port, "127.0.0.1", uri)
                .putHeader("content-type", "application/json")
                .sendBuffer(Buffer.buffer(body)));
    }

    @Test
    @DisplayName("POST /v2/fungible/route answers the exact route JSON through the bus")
    void route() {
        var r = post("/v2/fungible/route", request("1000000", "noble-1", "uusdc", "interwoven-1", USDC_INITIA));
        assertEquals(200, r.statusCode());
        assertEquals("application/json", r.getHeader("content-type"));
        ExpectedJson.assertExact("route-direct-ibc", r.bodyAsJsonObject());
    }

    @Test
    @DisplayName(
            "route → msgs round trip: the operations sent back verbatim give the signable MsgTransfer with a timeout 5 minutes ahead")
    void msgsRoundTrip() {
        JsonObject req = request("1000000", "noble-1", "uusdc", "echelon-1", RouteFixtures.USDC_ECHELON);
        JsonObject route = post("/v2/fungible/route", req).bodyAsJsonObject();
        long before = Instant.now().getEpochSecond();
        var r = post(
                "/v2/fungible/msgs",
                req.copy()
                        .put("address_list", new JsonArray(List.of(NOBLE_ADDR, INIT_ADDR, INIT_ADDR)))
                        .put("operations", route.getJsonArray("operations"))
                        .put("slippage_tolerance_percent", "1"));
        long after = Instant.now().getEpochSecond();
        assertEquals(200, r.statusCode(), r.bodyAsString());
        JsonObject body = r.bodyAsJsonObject();
        assertFields(body, "txs", "msgs", "min_amount_out", "estimated_fees");
        JsonObject tx = body.getJsonArray("txs").getJsonObject(0);
        assertFields(tx, "cosmos_tx", "operations_indices");
        assertFields(tx.getJsonObject("cosmos_tx"), "chain_id", "path", "signer_address", "msgs", "fee");
        JsonObject msg = new JsonObject(tx.getJsonObject("cosmos_tx")
                .getJsonArray("msgs")
                .getJsonObject(0)
                .getString("msg"));
        long timeout = msg.getLong("timeout_timestamp");
        assertTrue(
                timeout >= (before + 300) * 1_000_000_000L && timeout <= (after + 300) * 1_000_000_000L,
                Long.toString(timeout));
        assertEquals(
                "channel-35",
                new JsonObject(msg.getString("memo")).getJsonObject("forward").getString("channel"));
        assertEquals("1000000", body.getString("min_amount_out"), "no swap: slippage does not lower it");

        JsonObject wrong = req.copy()
                .put("address_list", new JsonArray(List.of(NOBLE_ADDR, INIT_ADDR)))
                .put("operations", route.getJsonArray("operations"));
        var bad = post("/v2/fungible/msgs", wrong);
        assertEquals(400, bad.statusCode());
        assertError(bad.bodyAsJsonObject(), 3);
        assertEquals(
                "address_list has 2 addresses, the route needs 3 (one per required_chain_addresses entry: noble-1, interwoven-1, echelon-1)",
                bad.bodyAsJsonObject().getString("message"));
        var noOps = post("/v2/fungible/msgs", req.copy().put("address_list", new JsonArray()));
        assertEquals(
                "operations is required (the operations of the route, as /v2/fungible/route returned them)",
                noOps.bodyAsJsonObject().getString("message"));
    }

    @Test
    @DisplayName("POST /op-hook: 200 with the hook, 400 when the route has none")
    void opHook() {
        JsonObject req = new JsonObject()
                .put("source_address", INIT_ADDR)
                .put("source_asset_chain_id", "weft-l1-1")
                .put("source_asset_denom", "uinit")
                .put("dest_address", INIT_ADDR)
                .put("dest_asset_chain_id", "weft-devnet-1")
                .put("dest_asset_denom", RouteFixtures.WINIT_DEVNET);
        var ok = post("/op-hook", req);
        assertEquals(200, ok.statusCode(), ok.bodyAsString());
        assertFields(ok.bodyAsJsonObject(), "chain_id", "hook");
        assertEquals(
                "/minievm.evm.v1.MsgCall",
                ok.bodyAsJsonObject().getJsonArray("hook").getJsonObject(0).getString("msg_type_url"));
        var none = post("/op-hook", req.copy().put("dest_asset_denom", RouteFixtures.INIT_DEVNET));
        assertEquals(400, none.statusCode());
        assertError(none.bodyAsJsonObject(), 3);
    }

    @Test
    @DisplayName("errors through HTTP: bad JSON, bad amount, unknown chain, no route, BAD_PRICE_ERROR details")
    void errors() {
        var malformed = postRaw("/v2/fungible/route", "{\"amount_in\":");
        assertEquals(400, malformed.statusCode());
        assertEquals(
                new JsonObject()
                        .put("code", 3)
                        .put("message", "request body is not valid JSON")
                        .put("details", new JsonArray()),
                malformed.bodyAsJsonObject());
        var array = postRaw("/v2/fungible/route", "[1,2]");
        assertEquals(
                "request body must be a JSON object", array.bodyAsJsonObject().getString("message"));
        var amount = post("/v2/fungible/route", request("1.5", "noble-1", "uusdc", "interwoven-1", USDC_INITIA));
        assertEquals(400, amount.statusCode());
        assertEquals(
                new JsonObject()
                        .put("code", 3)
                        .put("message", "amount_in must be a positive integer in base units (got \"1.5\")")
                        .put("details", new JsonArray()),
                amount.bodyAsJsonObject());
        var chain = post("/v2/fungible/route", request("1", "nowhere-1", "uusdc", "interwoven-1", USDC_INITIA));
        assertEquals(404, chain.statusCode());
        assertEquals(
                new JsonObject()
                        .put("code", 5)
                        .put("message", "source chain nowhere-1 is not supported")
                        .put("details", new JsonArray()),
                chain.bodyAsJsonObject());
        // an error quoting a request value stays short whatever the value's length
        var longChain =
                post("/v2/fungible/route", request("1", "x".repeat(5000), "uusdc", "interwoven-1", USDC_INITIA));
        assertEquals(404, longChain.statusCode());
        assertEquals(
                "source chain " + "x".repeat(987) + "… (5030 characters)",
                longChain.bodyAsJsonObject().getString("message"));
        var noRoute = post("/v2/fungible/route", request("1000", "weft-l1-1", "uinit", "interwoven-1", "uinit"));
        assertEquals(404, noRoute.statusCode());
        assertError(noRoute.bodyAsJsonObject(), 5);
        var unsafe = post(
                "/v2/fungible/route",
                request("400000000000", "interwoven-1", USDC_INITIA, "interwoven-1", "uinit")
                        .put("allow_unsafe", false));
        assertEquals(400, unsafe.statusCode());
        JsonObject body = unsafe.bodyAsJsonObject();
        assertError(body, 3);
        assertEquals("swap price impact of 7.6647% is above 5% and allow_unsafe is false", body.getString("message"));
        assertEquals(
                new JsonObject()
                        .put("@type", "type.googleapis.com/google.rpc.ErrorInfo")
                        .put("reason", "BAD_PRICE_ERROR")
                        .put("domain", "weft")
                        .put("metadata", new JsonObject().put("price_impact_percent", "7.6647")),
                body.getJsonArray("details").getJsonObject(0));
    }

    @Test
    @DisplayName(
            "GET /v2/info/chains: Skip Chain shape with Initia's evm_fee_asset and hidden, mainnets unless only_testnets, EVM chains only with include_evm, chain_ids comma-separated or repeated")
    void chains() {
        JsonArray all = get(client, port, "/v2/info/chains").bodyAsJsonObject().getJsonArray("chains");
        assertEquals(17, all.size());
        assertTrue(
                all.stream().noneMatch(c -> ((JsonObject) c).getBoolean("is_testnet")),
                "mainnets only by default, as Skip");
        JsonArray testnets = get(client, port, "/v2/info/chains?only_testnets=true")
                .bodyAsJsonObject()
                .getJsonArray("chains");
        assertEquals(
                List.of("weft-l1-1", "weft-devnet-1", "weft-move-1"),
                testnets.stream()
                        .map(c -> ((JsonObject) c).getString("chain_id"))
                        .toList());
        assertEquals(
                17,
                get(client, port, "/v2/info/chains?include_evm=true")
                        .bodyAsJsonObject()
                        .getJsonArray("chains")
                        .size());
        JsonArray two = get(client, port, "/v2/info/chains?chain_ids=weft-l1-1,31337")
                .bodyAsJsonObject()
                .getJsonArray("chains");
        assertEquals(2, two.size());
        assertEquals(
                two,
                get(client, port, "/v2/info/chains?chain_ids=weft-l1-1&chain_ids=31337")
                        .bodyAsJsonObject()
                        .getJsonArray("chains"));
        JsonObject l1 = two.getJsonObject(0);
        JsonObject fees = new JsonObject()
                .put("denom", "uinit")
                .put(
                        "gas_price",
                        new JsonObject()
                                .put("low", "0.015")
                                .put("average", "0.015")
                                .put("high", "0.04"));
        ExpectedJson.assertExact(
                new JsonObject()
                        .put("chain_name", "weft-l1")
                        .put("chain_id", "weft-l1-1")
                        .put("pretty_name", "Weft L1")
                        .put("chain_type", "cosmos")
                        .put("bech32_prefix", "init")
                        .put("logo_uri", null)
                        .put("is_testnet", true)
                        .put("pfm_enabled", true)
                        .put("supports_memo", true)
                        .put(
                                "cosmos_module_support",
                                new JsonObject().put("authz", false).put("feegrant", false))
                        .put(
                                "ibc_capabilities",
                                new JsonObject()
                                        .put("cosmos_pfm", true)
                                        .put("cosmos_ibc_hooks", true)
                                        .put("cosmos_memo", true)
                                        .put("cosmos_autopilot", false))
                        .put("fee_assets", new JsonArray().add(fees))
                        .put("evm_chain_id", null)
                        .put("rest", null)
                        .put("rpc", null)
                        .put("evm_fee_asset", null)
                        .put("hidden", false),
                l1);
        assertEquals(
                new JsonObject().put("name", "Ether").put("symbol", "ETH").put("decimals", 18),
                two.getJsonObject(1).getJsonObject("evm_fee_asset"));
        JsonObject rollup = get(client, port, "/v2/info/chains?chain_ids=weft-devnet-1")
                .bodyAsJsonObject()
                .getJsonArray("chains")
                .getJsonObject(0);
        assertEquals(
                new JsonObject()
                        .put("name", "Initia Native Token")
                        .put("symbol", "INIT")
                        .put("decimals", 18),
                rollup.getJsonObject("evm_fee_asset"));
        assertEquals(
                4,
                get(client, port, "/v2/info/chains?only_testnets=true&include_evm=true")
                        .bodyAsJsonObject()
                        .getJsonArray("chains")
                        .size());
        var bad = get(client, port, "/v2/info/chains?include_evm=maybe");
        assertEquals(400, bad.statusCode());
        assertEquals(
                "[INVALID_VALUE] invalid value for include_evm: maybe (must be true or false)",
                bad.bodyAsJsonObject().getString("message"));
    }

    @Test
    @DisplayName("GET /v2/fungible/assets: chain_to_assets_map, native_only, Skip Asset shape")
    void assets() {
        JsonObject map = get(client, port, "/v2/fungible/assets?chain_ids=weft-l1-1&native_only=true")
                .bodyAsJsonObject()
                .getJsonObject("chain_to_assets_map");
        assertEquals(List.of("weft-l1-1"), List.copyOf(map.fieldNames()));
        JsonArray assets = map.getJsonObject("weft-l1-1").getJsonArray("assets");
        assertEquals(
                List.of("uinit", "uusdc", "ueth"),
                assets.stream().map(a -> ((JsonObject) a).getString("denom")).toList());
        assertFields(
                assets.getJsonObject(0),
                "denom",
                "chain_id",
                "origin_denom",
                "origin_chain_id",
                "trace",
                "is_cw20",
                "is_evm",
                "is_svm",
                "symbol",
                "name",
                "logo_uri",
                "decimals",
                "token_contract",
                "description",
                "coingecko_id",
                "recommended_symbol",
                "hidden");
        JsonObject echelon = get(client, port, "/v2/fungible/assets?chain_ids=echelon-1")
                .bodyAsJsonObject()
                .getJsonObject("chain_to_assets_map")
                .getJsonObject("echelon-1");
        JsonObject usdc = echelon.getJsonArray("assets").stream()
                .map(a -> (JsonObject) a)
                .filter(a -> a.getString("denom").equals(RouteFixtures.USDC_ECHELON))
                .findFirst()
                .orElseThrow();
        assertEquals("noble-1", usdc.getString("origin_chain_id"));
        assertEquals("transfer/channel-0/transfer/channel-3", usdc.getString("trace"));
        JsonObject everything =
                get(client, port, "/v2/fungible/assets").bodyAsJsonObject().getJsonObject("chain_to_assets_map");
        assertTrue(
                !everything.containsKey("31337")
                        && everything.containsKey("interwoven-1")
                        && !everything.containsKey("weft-l1-1"),
                everything.fieldNames().toString());
        assertEquals(false, assets.getJsonObject(0).getBoolean("hidden"));
        JsonObject testnets = get(client, port, "/v2/fungible/assets?only_testnets=true&include_evm_assets=true")
                .bodyAsJsonObject()
                .getJsonObject("chain_to_assets_map");
        assertEquals(List.of("weft-l1-1", "weft-devnet-1", "weft-move-1", "31337"), List.copyOf(testnets.fieldNames()));
        JsonObject usdcExt =
                testnets.getJsonObject("31337").getJsonArray("assets").getJsonObject(1);
        assertEquals(
                RouteFixtures.OFT_ADAPTER_EXT,
                usdcExt.getString("oftOwner"),
                "the OFT adapter its LayerZero lane sends it through");
    }

    @Test
    @DisplayName(
            "every listed asset is routable: the 18-decimal ERC-20 INIT of a minievm rollup is listed where the registry names its wrapper (routes reach it through it), else not")
    void listedAssetsAreRoutable() {
        JsonArray devnetAssets = get(client, port, "/v2/fungible/assets?chain_ids=weft-devnet-1")
                .bodyAsJsonObject()
                .getJsonObject("chain_to_assets_map")
                .getJsonObject("weft-devnet-1")
                .getJsonArray("assets");
        assertTrue(devnetAssets.stream()
                .anyMatch(a -> ((JsonObject) a).getString("denom").equals(RouteFixtures.WINIT_DEVNET)));
        assertEquals(
                200,
                post(
                                "/v2/fungible/route",
                                request("5000000", "weft-l1-1", "uinit", "weft-devnet-1", RouteFixtures.WINIT_DEVNET))
                        .statusCode());
        // yominet-1's ERC-20 INIT (18 decimals): no wrapper in the registry, no route from INIT reaches it
        String yominetInit = "evm/856aB2c9F35B9187aB3eB0Fcd11DCc6160427e96";
        assertEquals(
                404,
                post("/v2/fungible/route", request("5000000", "interwoven-1", "uinit", "yominet-1", yominetInit))
                        .statusCode());
        JsonArray yominet = get(client, port, "/v2/fungible/assets?chain_ids=yominet-1&include_evm_assets=true")
                .bodyAsJsonObject()
                .getJsonObject("chain_to_assets_map")
                .getJsonObject("yominet-1")
                .getJsonArray("assets");
        assertTrue(
                yominet.stream()
                        .noneMatch(a -> ((JsonObject) a).getString("denom").equals(yominetInit)),
                yominet.encode());
        assertTrue(
                yominet.stream()
                        .anyMatch(a -> ((JsonObject) a).getString("symbol").equals("INIT")),
                "the 6-decimal bridged INIT stays");
    }

    @Test
    @DisplayName("GET /v2/fungible/venues and /v2/info/bridges: Skip shapes, venues of mainnets unless only_testnets")
    void venuesAndBridges() {
        JsonArray mainnet =
                get(client, port, "/v2/fungible/venues").bodyAsJsonObject().getJsonArray("venues");
        assertTrue(
                mainnet.stream()
                        .allMatch(v -> ((JsonObject) v).getString("chain_id").equals("interwoven-1")),
                mainnet.encode());
        JsonObject devnetVenue = get(client, port, "/v2/fungible/venues?only_testnets=true")
                .bodyAsJsonObject()
                .getJsonArray("venues")
                .getJsonObject(0);
        assertEquals(
                new JsonObject()
                        .put("name", "initia-dex")
                        .put("chain_id", "weft-l1-1")
                        .putNull("logo_uri"),
                devnetVenue);
        assertEquals(
                new JsonObject()
                        .put(
                                "bridges",
                                new JsonArray()
                                        .add(new JsonObject()
                                                .put("id", "IBC")
                                                .put("name", "IBC")
                                                .putNull("logo_uri"))
                                        .add(new JsonObject()
                                                .put("id", "OPINIT")
                                                .put("name", "OPInit")
                                                .putNull("logo_uri"))
                                        .add(new JsonObject()
                                                .put("id", "LAYER_ZERO")
                                                .put("name", "LayerZero")
                                                .putNull("logo_uri"))),
                get(client, port, "/v2/info/bridges").bodyAsJsonObject());
    }

    @Test
    @DisplayName(
            "POST /v2/fungible/msgs_direct: the route and its msgs in one call, addresses picked from chain_ids_to_addresses")
    void msgsDirect() {
        JsonObject req = request("1000000", "noble-1", "uusdc", "echelon-1", RouteFixtures.USDC_ECHELON);
        JsonObject route = post("/v2/fungible/route", req).bodyAsJsonObject();
        JsonObject msgs = post(
                        "/v2/fungible/msgs",
                        req.copy()
                                .put("address_list", new JsonArray(List.of(NOBLE_ADDR, INIT_ADDR, INIT_ADDR)))
                                .put("operations", route.getJsonArray("operations"))
                                .put("slippage_tolerance_percent", "1"))
                .bodyAsJsonObject();
        JsonObject addresses = new JsonObject()
                .put("noble-1", NOBLE_ADDR)
                .put("interwoven-1", INIT_ADDR)
                .put("echelon-1", INIT_ADDR)
                .put("osmosis-1", "osmo1unused");
        var r = post(
                "/v2/fungible/msgs_direct",
                req.copy().put("chain_ids_to_addresses", addresses).put("slippage_tolerance_percent", "1"));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        JsonObject body = r.bodyAsJsonObject();
        assertEquals(List.of("msgs", "txs", "min_amount_out", "route"), List.copyOf(body.fieldNames()));
        assertEquals(route, body.getJsonObject("route"));
        JsonObject tx = body.getJsonArray("txs").getJsonObject(0).getJsonObject("cosmos_tx");
        JsonObject expected = msgs.getJsonArray("txs").getJsonObject(0).getJsonObject("cosmos_tx");
        assertEquals(expected.getString("signer_address"), tx.getString("signer_address"));
        assertEquals(
                new JsonObject(expected.getJsonArray("msgs").getJsonObject(0).getString("msg")).getString("memo"),
                new JsonObject(tx.getJsonArray("msgs").getJsonObject(0).getString("msg")).getString("memo"));
        assertEquals("1000000", body.getString("min_amount_out"));
        var missing = post(
                "/v2/fungible/msgs_direct",
                req.copy().put("chain_ids_to_addresses", new JsonObject().put("noble-1", NOBLE_ADDR)));
        assertEquals(400, missing.statusCode());
        assertEquals(
                "chain_ids_to_addresses has no address for interwoven-1 (the route needs one for each of noble-1, interwoven-1, echelon-1)",
                missing.bodyAsJsonObject().getString("message"));
    }

    @Test
    @DisplayName("a published reload re-reads the registry files: a changed pool reserve changes the next quote")
    void reload() throws Exception {
        JsonObject req = request("1000000", "weft-l1-1", "uusdc", "weft-l1-1", "uinit");
        String before = post("/v2/fungible/route", req).bodyAsJsonObject().getString("amount_out");
        JsonObject registry = new JsonObject(Files.readString(devnet));
        registry.getJsonArray("swap_venues")
                .getJsonObject(0)
                .getJsonArray("pools")
                .getJsonObject(0)
                .put("reserve_a", "2000000000000");
        Files.writeString(devnet, registry.encodePrettily());
        vertx.eventBus().publish(Addresses.ROUTE_RELOAD, new JsonObject());
        // every route verticle reloads on its own: the quote changes once the one answering has
        String after = Await.value("a quote from the reloaded registry", 30, () -> {
            String now = post("/v2/fungible/route", req).bodyAsJsonObject().getString("amount_out");
            return now.equals(before) ? null : now;
        });
        assertEquals(
                "1993996", before); // ⌊1e12·997000/(5e11+997000)⌋: 1 USDC buys ~2 INIT at 1,000,000 INIT / 500,000 USDC
        assertEquals("3987992", after); // ⌊2e12·997000/(5e11+997000)⌋ once the pool holds 2,000,000 INIT
    }

    @Test
    @DisplayName("without a route verticle in the cluster the API answers 503 code 14")
    void routeRoleMissing() {
        Vertx other = weft.newVertx(); // its own event bus: no route verticle answers
        WeftNode apiOnly = weft.start(other, weft.config().roles("api"));
        var r = TestNodes.call(
                WebClient.create(other),
                TestNodes.httpPort(apiOnly),
                HttpMethod.POST,
                "/v2/fungible/route",
                request("1", "noble-1", "uusdc", "interwoven-1", USDC_INITIA));
        assertEquals(503, r.statusCode());
        assertEquals(
                new JsonObject()
                        .put("code", 14)
                        .put("message", "route computation is not running on any node")
                        .put("details", new JsonArray()),
                r.bodyAsJsonObject());
    }
}
