package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.Shapes.assertFields;
import static dev.weft.testsupport.Shapes.assertNull;
import static dev.weft.testsupport.Shapes.assertString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.weft.devnet.registry.ChainDenoms;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kvindexer's endpoints Weft serves besides the rollytics ones ({@code /indexer/tx/v1/txs/count},
 * {@code /indexer/pair/v1/pairs}, {@code /indexer/version}, {@code /indexer/vmtype}) on a node that indexed the devnet's
 * history (an EVM rollup, {@code weft-devnet-1}, bridged to {@code weft-l1-1} by OPinit bridge 1).
 */
class KvIndexerApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long BLOCKS = 40;
    static WebClient client;
    static WeftNode node;
    static int port;

    @BeforeAll
    static void start() {
        client = WebClient.create(weft.vertx());
        TestConfig c = weft.config()
                .roles("devnet", "ingest", "api")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", BLOCKS)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 7)
                .set("devnet.txs_per_block", 5)
                .set("ingest.poll_interval", "50ms");
        node = weft.start(c);
        port = TestNodes.httpPort(node);
        Await.until("indexed height " + BLOCKS, 120, () -> get("/status").getLong("height") >= BLOCKS);
    }

    static JsonObject get(String uri) {
        var r = TestNodes.get(client, port, uri);
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    static JsonObject fail(String uri, int status) {
        var r = TestNodes.get(client, port, uri);
        assertEquals(status, r.statusCode(), uri + " → " + r.bodyAsString());
        assertEquals("application/json", r.getHeader("content-type"), uri);
        return r.bodyAsJsonObject();
    }

    @Test
    @DisplayName("txs/count: {\"count\":\"N\"}, equal to the /txs total and to the sum of the blocks' tx_count")
    void txCount() {
        JsonObject body = get("/indexer/tx/v1/txs/count");
        assertFields(body, "count");
        assertString(body, "count");
        long count = Long.parseLong(body.getString("count"));
        assertEquals(
                body.getString("count"),
                get("/indexer/tx/v1/txs?pagination.limit=1")
                        .getJsonObject("pagination")
                        .getString("total"));
        long sum = 0;
        for (Object o : get("/indexer/block/v1/blocks?pagination.limit=1000").getJsonArray("blocks"))
            sum += Long.parseLong(((JsonObject) o).getString("tx_count"));
        assertEquals(sum, count, "the blocks' tx counts");
        // and the rows themselves: every tx, walked page by page
        long rows = 0;
        String key = null;
        do {
            JsonObject page = get("/indexer/tx/v1/txs?pagination.limit=1000&pagination.count_total=false"
                    + (key == null
                            ? ""
                            : "&pagination.key="
                                    + java.net.URLEncoder.encode(key, java.nio.charset.StandardCharsets.UTF_8)));
            rows += page.getJsonArray("txs").size();
            key = page.getJsonObject("pagination").getString("next_key");
        } while (key != null);
        assertEquals(rows, count, "the tx rows");
        assertEquals(true, count > 0, "the history has txs");
    }

    @Test
    @DisplayName("vmtype and version: kvindexer's shapes for an EVM rollup")
    void info() {
        JsonObject vm = get("/indexer/vmtype");
        assertFields(vm, "vmtype");
        assertEquals("evm", vm.getString("vmtype"));
        JsonObject v = get("/indexer/version");
        assertFields(v, "versions");
        JsonArray versions = v.getJsonArray("versions");
        List<String> names = new ArrayList<>();
        for (Object o : versions) {
            JsonObject s = (JsonObject) o;
            assertFields(s, "submodule", "version");
            assertString(s, "version");
            names.add(s.getString("submodule"));
        }
        assertEquals(List.of("block", "tx", "pair", "evm-nft"), names);
    }

    @Test
    @DisplayName("pairs: the bridge's op_denoms with the denoms the devnet's own OPinit derivation mints, in l2 order")
    void pairs() {
        // the devnet registry: weft-devnet-1's bridge 1 carries uinit and uusdc
        List<JsonObject> expected = new ArrayList<>();
        for (String l1 : List.of("uinit", "uusdc"))
            expected.add(new JsonObject().put("l1", l1).put("l2", ChainDenoms.opDeposit(1, l1)));
        expected.sort(Comparator.comparing(o -> o.getString("l2")));

        JsonObject body = get("/indexer/pair/v1/pairs");
        assertFields(body, "pairs", "pagination");
        assertEquals(new JsonArray(expected), body.getJsonArray("pairs"));
        for (Object o : body.getJsonArray("pairs")) assertFields((JsonObject) o, "l1", "l2");
        JsonObject p = body.getJsonObject("pagination");
        assertFields(p, "previous_key", "next_key", "total");
        assertNull(p, "next_key");
        assertEquals("2", p.getString("total"));

        // one a page, both directions
        JsonObject first = get("/indexer/pair/v1/pairs?pagination.limit=1");
        assertEquals(new JsonArray(expected.subList(0, 1)), first.getJsonArray("pairs"));
        String next = first.getJsonObject("pagination").getString("next_key");
        assertNotNull(next);
        JsonObject second = get("/indexer/pair/v1/pairs?pagination.limit=1&pagination.key="
                + java.net.URLEncoder.encode(next, java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(new JsonArray(expected.subList(1, 2)), second.getJsonArray("pairs"));
        assertNull(second.getJsonObject("pagination"), "next_key");
        List<JsonObject> reversed = new ArrayList<>(expected);
        java.util.Collections.reverse(reversed);
        assertEquals(
                new JsonArray(reversed),
                get("/indexer/pair/v1/pairs?pagination.reverse=true").getJsonArray("pairs"));
        assertEquals(
                new JsonArray(),
                get("/indexer/pair/v1/pairs?pagination.offset=5").getJsonArray("pairs"));

        JsonObject nft = get("/indexer/pair/v1/pairs?is_non_fungible=true");
        assertEquals(new JsonArray(), nft.getJsonArray("pairs"));
        assertEquals("0", nft.getJsonObject("pagination").getString("total"));
    }

    @Test
    @DisplayName("bad parameters are JSON 400s")
    void errors() {
        assertError(fail("/indexer/pair/v1/pairs?is_non_fungible=maybe", 400), 3);
        assertError(fail("/indexer/pair/v1/pairs?pagination.limit=0", 400), 3);
        assertError(fail("/indexer/pair/v1/pairs?pagination.reverse=x", 400), 3);
        String cursor = java.util.Base64.getEncoder().encodeToString("{\"height\":3}".getBytes());
        assertError(fail("/indexer/pair/v1/pairs?pagination.key=" + cursor, 400), 3);
    }
}
