package dev.weft.nft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.client.CosmosRestClient;
import dev.weft.chain.client.EthCalls;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.config.ChainConfig;
import dev.weft.config.NodeClientOptions;
import dev.weft.model.nft.NftEvent;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * NFT metadata read from a (fake) node at the block's height: ERC-721 names and token URIs in one batch, reverted
 * {@code name()} = not a collection (dropped, remembered), Move resources, Wasm contract info, soft failures when a
 * node does not serve a query, and hard failures (the block is fetched again) otherwise.
 */
class NftMetadataTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String HEIGHT = "x-cosmos-block-height";
    Vertx vertx;
    HttpServer server;
    String base;
    /** eth_call answers by "to/data": a hex result, or a JsonObject error. */
    final Map<String, Object> calls = new ConcurrentHashMap<>();
    /** REST answers by path and query: a JSON body (200), an Integer status, or a String message (500). */
    final Map<String, Object> rest = new ConcurrentHashMap<>();

    final List<String> asked = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        vertx = weft.vertx();
        server = TestNodes.await(
                vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1"));
        base = "http://127.0.0.1:" + server.actualPort();
    }

    void handle(HttpServerRequest req) {
        if (req.method().name().equals("POST")) {
            req.body().onSuccess(b -> {
                JsonArray batch = b.toJsonArray();
                JsonArray out = new JsonArray();
                for (Object o : batch) {
                    JsonObject c = (JsonObject) o;
                    JsonObject tx = c.getJsonArray("params").getJsonObject(0);
                    String key = tx.getString("to") + "/" + tx.getString("data");
                    asked.add(key + "@" + c.getJsonArray("params").getString(1));
                    Object a = calls.getOrDefault(
                            key, new JsonObject().put("code", -32000).put("message", "execution reverted"));
                    JsonObject r = new JsonObject().put("jsonrpc", "2.0").put("id", c.getValue("id"));
                    out.add(a instanceof JsonObject err ? r.put("error", err) : r.put("result", a));
                }
                req.response().putHeader("content-type", "application/json").end(out.encode());
            });
            return;
        }
        asked.add(req.uri() + "@" + req.getHeader(HEIGHT));
        Object a = rest.get(req.uri());
        if (a instanceof JsonObject body)
            req.response().putHeader("content-type", "application/json").end(body.encode());
        else if (a instanceof String text)
            req.response()
                    .setStatusCode(500)
                    .end(new JsonObject().put("code", 2).put("message", text).encode());
        else
            req.response()
                    .setStatusCode(a == null ? 404 : (Integer) a)
                    .end(new JsonObject()
                            .put("code", 5)
                            .put("message", "not found")
                            .encode());
    }

    NftMetadata metadata(ChainConfig.Vm vm) {
        NodeClientOptions o = NodeClientOptions.defaults().withAttempts(2);
        o = new NodeClientOptions(
                o.maxRequests(),
                Duration.ofSeconds(5),
                2,
                Duration.ofMillis(5),
                Duration.ofMillis(10),
                100,
                Duration.ofSeconds(1));
        ChainConfig chain = new ChainConfig("c-1", vm, "init", "public", List.of(base), List.of(base), List.of(base));
        return new NftMetadata(
                chain,
                vm == ChainConfig.Vm.EVM ? new EvmRpcClient(vertx, List.of(base), o) : null,
                new CosmosRestClient(vertx, List.of(base), o));
    }

    static String abiString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        String data = HexFormat.of().formatHex(b);
        data = data + "0".repeat((64 - data.length() % 64) % 64);
        return "0x" + EthCalls.word(BigInteger.valueOf(32)) + EthCalls.word(BigInteger.valueOf(b.length)) + data;
    }

    static AccountAddress a20(String hex2) {
        return AccountAddress.parse("0x" + hex2.repeat(20), "init");
    }

    @Test
    @DisplayName(
            "EVM: name() of new collections and tokenURI of mints and transfers in one batch at the height; a reverted name() drops the contract for good")
    void evm() {
        AccountAddress cats = a20("c0");
        AccountAddress notNft = a20("ee");
        AccountAddress alice = a20("a1");
        calls.put(cats.hex() + "/" + EthCalls.NAME, abiString("Fancy Cats"));
        calls.put(cats.hex() + "/" + EthCalls.tokenUri(BigInteger.valueOf(7)), abiString("ipfs://cat/7"));
        NftMetadata m = metadata(ChainConfig.Vm.EVM);
        List<NftEvent> parsed = List.of(
                NftEvent.mint(0, cats, "7", null, alice, null),
                NftEvent.mint(1, cats, "8", null, alice, null),
                NftEvent.transfer(2, notNft, "1", null, alice));
        List<NftEvent> out = TestNodes.await(m.resolve(12, parsed));
        assertEquals(
                List.of(
                        NftEvent.collection(0, cats, null, "Fancy Cats"),
                        NftEvent.mint(0, cats, "7", null, alice, "ipfs://cat/7"),
                        NftEvent.mint(1, cats, "8", null, alice, "")),
                out,
                "token 8's tokenURI reverts: an empty URI");
        assertEquals(5, asked.size(), "2 names, 3 token URIs (the transfer's too, its contract not known yet)");
        assertTrue(asked.stream().allMatch(a -> a.endsWith("@0xc")), "every call at height 12: " + asked);
        asked.clear();
        List<NftEvent> again = TestNodes.await(m.resolve(
                13,
                List.of(NftEvent.transfer(0, notNft, "2", null, alice), NftEvent.transfer(0, cats, "7", null, alice))));
        assertEquals(
                List.of(
                        NftEvent.collection(0, cats, null, "Fancy Cats"),
                        NftEvent.transfer(0, cats, "7", null, alice).withText("ipfs://cat/7")),
                again,
                "a transfer carries the token's URI at its height (its token may be first seen here)");
        assertEquals(
                List.of(cats.hex() + "/" + EthCalls.tokenUri(BigInteger.valueOf(7)) + "@0xd"),
                asked,
                "both contracts are remembered: only the transfer's tokenURI is asked");
        calls.put(
                a20("dd").hex() + "/" + EthCalls.NAME,
                new JsonObject().put("code", -32603).put("message", "header not found"));
        assertThrows(
                RuntimeException.class,
                () -> TestNodes.await(m.resolve(14, List.of(NftEvent.mint(0, a20("dd"), "1", null, alice, null)))),
                "a node failure is not a revert: the block is fetched again");
    }

    static JsonObject resource(String type, JsonObject data) {
        return new JsonObject()
                .put(
                        "resource",
                        new JsonObject()
                                .put("address", "0x1")
                                .put("struct_tag", type)
                                .put(
                                        "move_resource",
                                        new JsonObject()
                                                .put("type", type)
                                                .put("data", data)
                                                .encode())
                                .put("raw_bytes", ""));
    }

    @Test
    @DisplayName(
            "Move: token id and URI from the Nft resource at the height, a collection from before the history from its resource; 404s fail soft")
    void move() {
        AccountAddress coll = AccountAddress.parse("0x" + "11".repeat(32), "init");
        AccountAddress known = AccountAddress.parse("0x" + "12".repeat(32), "init");
        AccountAddress obj = AccountAddress.parse("0x" + "22".repeat(32), "init");
        AccountAddress lost = AccountAddress.parse("0x" + "23".repeat(32), "init");
        rest.put(
                "/initia/move/v1/accounts/" + obj.hex() + "/resources/by_struct_tag?struct_tag=0x1::nft::Nft",
                resource(
                        "0x1::nft::Nft",
                        new JsonObject()
                                .put("collection", new JsonObject().put("inner", coll.hex()))
                                .put("description", "")
                                .put("token_id", "badge-42")
                                .put("uri", "ipfs://42")));
        rest.put(
                "/initia/move/v1/accounts/" + coll.hex()
                        + "/resources/by_struct_tag?struct_tag=0x1::collection::Collection",
                resource(
                        "0x1::collection::Collection",
                        new JsonObject()
                                .put("creator", "0x" + "0".repeat(24) + "ca".repeat(20))
                                .put("name", "Old Badges")));
        NftMetadata m = metadata(ChainConfig.Vm.MOVE);
        List<NftEvent> out = TestNodes.await(m.resolve(
                99,
                List.of(
                        NftEvent.collection(0, known, null, "New Badges"),
                        NftEvent.mint(0, known, "7", lost, null, null),
                        NftEvent.mint(1, coll, "0", obj, null, null),
                        NftEvent.uri(2, lost, null))));
        assertEquals(
                List.of(
                        NftEvent.collection(0, known, null, "New Badges"),
                        NftEvent.collection(
                                1, coll, AccountAddress.parse("0x" + "ca".repeat(20), "init"), "Old Badges"),
                        NftEvent.mint(0, known, "7", lost, null, ""),
                        NftEvent.mint(1, coll, "badge-42", obj, null, "ipfs://42")),
                out,
                "the lost object's resource is not served: its mint keeps the event's id, its URI change is dropped");
        assertTrue(asked.stream().allMatch(a -> a.endsWith("@99")), asked.toString());
    }

    @Test
    @DisplayName(
            "Wasm: name from contract_info and creator from the contract at the height, a transferred token's URI from nft_info; a contract without contract_info is not a collection")
    void wasm() {
        AccountAddress cw = AccountAddress.parse("0x" + "ab".repeat(32), "init");
        AccountAddress other = AccountAddress.parse("0x" + "ac".repeat(32), "init");
        AccountAddress alice = a20("a1");
        String q =
                java.util.Base64.getEncoder().encodeToString("{\"contract_info\":{}}".getBytes(StandardCharsets.UTF_8));
        rest.put(
                "/cosmwasm/wasm/v1/contract/" + cw.bech32("init") + "/smart/" + q,
                new JsonObject()
                        .put("data", new JsonObject().put("name", "Wasm Punks").put("symbol", "WP")));
        rest.put(
                "/cosmwasm/wasm/v1/contract/" + cw.bech32("init"),
                new JsonObject()
                        .put("address", cw.bech32("init"))
                        .put(
                                "contract_info",
                                new JsonObject().put("code_id", "1").put("creator", alice.bech32("init"))));
        rest.put("/cosmwasm/wasm/v1/contract/" + other.bech32("init") + "/smart/" + q, 400);
        NftMetadata m = metadata(ChainConfig.Vm.WASM);
        List<NftEvent> out = TestNodes.await(m.resolve(
                5,
                List.of(
                        NftEvent.collection(0, cw, null, null),
                        NftEvent.mint(0, cw, "t1", null, alice, ""),
                        NftEvent.mint(1, other, "x", null, alice, ""))));
        assertEquals(
                List.of(
                        NftEvent.collection(0, cw, alice, "Wasm Punks"),
                        NftEvent.collection(1, other, null, ""),
                        NftEvent.mint(0, cw, "t1", null, alice, ""),
                        NftEvent.mint(1, other, "x", null, alice, "")),
                out,
                "a contract_info the node refuses (400) fails soft: a collection without a name");
        AccountAddress cw20 = AccountAddress.parse("0x" + "ae".repeat(32), "init");
        rest.put(
                "/cosmwasm/wasm/v1/contract/" + cw20.bech32("init") + "/smart/" + q,
                "Error parsing into type cw20::msg::QueryMsg: unknown variant `contract_info`, expected one of `balance`, `token_info`");
        assertEquals(
                List.of(),
                TestNodes.await(m.resolve(6, List.of(NftEvent.mint(0, cw20, "1", null, alice, "")))),
                "not a cw721: dropped");
        // a token first seen in a transfer (minted before the indexed history): its token_uri from nft_info at the
        // height
        String info = java.util.Base64.getUrlEncoder()
                .encodeToString("{\"nft_info\":{\"token_id\":\"t/9?\"}}".getBytes(StandardCharsets.UTF_8));
        rest.put(
                "/cosmwasm/wasm/v1/contract/" + cw.bech32("init") + "/smart/" + info,
                new JsonObject()
                        .put(
                                "data",
                                new JsonObject()
                                        .put("token_uri", "ipfs://punk/9")
                                        .put("extension", new JsonObject())));
        asked.clear();
        assertEquals(
                List.of(
                        NftEvent.collection(0, cw, alice, "Wasm Punks"),
                        NftEvent.transfer(0, cw, "t/9?", null, alice).withText("ipfs://punk/9")),
                TestNodes.await(m.resolve(7, List.of(NftEvent.transfer(0, cw, "t/9?", null, alice)))));
        assertEquals(List.of("/cosmwasm/wasm/v1/contract/" + cw.bech32("init") + "/smart/" + info + "@7"), asked);
        rest.put("/cosmwasm/wasm/v1/contract/" + a20("ad").bech32("init") + "/smart/" + q, 500);
        List<String> before = new ArrayList<>(asked);
        assertThrows(
                RuntimeException.class,
                () -> TestNodes.await(m.resolve(6, List.of(NftEvent.mint(0, a20("ad"), "1", null, alice, "")))));
        assertTrue(asked.size() > before.size());
    }
}
