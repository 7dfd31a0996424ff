package dev.weft.api;

import static dev.weft.testsupport.Shapes.assertError;
import static dev.weft.testsupport.Shapes.assertFields;
import static dev.weft.testsupport.Shapes.assertNull;
import static dev.weft.testsupport.Shapes.assertString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.model.Rfc3339;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code /indexer/block/v1/*} on a node that indexed the fixture chain. */
class BlockApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long HEIGHT = 30;
    static IndexedChain ic;

    @BeforeAll
    static void start() {
        ic = new IndexedChain(weft, HEIGHT);
    }

    @Test
    @DisplayName("a block: exact fields in order, int64 as strings, upper-hex hash, RFC 3339 seconds, fee, proposer")
    void one() {
        IndexedChain.Response r = ic.call("/indexer/block/v1/blocks/7");
        assertEquals(200, r.status());
        assertEquals("application/json", r.contentType());
        assertFields(r.body(), "block");
        JsonObject b = r.body().getJsonObject("block");
        assertFields(
                b,
                "chain_id",
                "height",
                "hash",
                "block_time",
                "timestamp",
                "gas_used",
                "gas_wanted",
                "tx_count",
                "total_fee",
                "proposer");
        for (String f :
                List.of("chain_id", "height", "hash", "block_time", "timestamp", "gas_used", "gas_wanted", "tx_count"))
            assertString(b, f);
        assertEquals("7", b.getString("height"));
        assertEquals(FixtureChain.blockHash(7), b.getString("hash"));
        assertEquals(Rfc3339.seconds(FixtureChain.timeNs(7)), b.getString("timestamp"));
        assertEquals("3", b.getString("tx_count"));
        assertFields(b.getJsonArray("total_fee").getJsonObject(0), "denom", "amount");
        assertFields(b.getJsonObject("proposer"), "moniker", "identity", "operator_address");
        assertEquals(FixtureChain.MONIKER, b.getJsonObject("proposer").getString("moniker"));
        assertEquals("", b.getJsonObject("proposer").getString("identity"));
        assertEquals(
                new JsonArray(),
                ic.get("/indexer/block/v1/blocks/8").getJsonObject("block").getJsonArray("total_fee"));
    }

    @Test
    @DisplayName("bad and unknown heights: 400 with rollytics wording, 404 not found")
    void badHeights() {
        assertBad(
                "/indexer/block/v1/blocks/abc",
                "[INVALID_VALUE] invalid value for height: abc (must be a valid integer)");
        assertBad(
                "/indexer/block/v1/blocks/0",
                "[INVALID_VALUE] invalid value for height: 0 (must be a positive integer)");
        assertBad(
                "/indexer/block/v1/blocks/-5",
                "[INVALID_VALUE] invalid value for height: -5 (must be a positive integer)");
        assertBad(
                "/indexer/block/v1/blocks/1.5",
                "[INVALID_VALUE] invalid value for height: 1.5 (must be a valid integer)");
        IndexedChain.Response r = ic.call("/indexer/block/v1/blocks/" + (HEIGHT + 100));
        assertEquals(404, r.status());
        assertError(r.body(), 5);
        assertEquals("[NOT_FOUND] block not found", r.body().getString("message"));
    }

    @Test
    @DisplayName("the list: newest first, height cursor, exact count total, every block exactly once both ways")
    void list() {
        JsonObject page = ic.get("/indexer/block/v1/blocks?pagination.limit=5");
        assertFields(page, "blocks", "pagination");
        JsonObject p = page.getJsonObject("pagination");
        assertFields(p, "previous_key", "next_key", "total");
        assertNull(p, "previous_key");
        assertEquals(Long.toString(HEIGHT), p.getString("total"));
        assertEquals("{\"height\":" + (HEIGHT - 4) + "}", IndexedChain.decodeKey(p.getString("next_key")));
        assertEquals(
                String.valueOf(HEIGHT),
                page.getJsonArray("blocks").getJsonObject(0).getString("height"));
        assertEquals(
                ic.get("/indexer/block/v1/blocks/" + HEIGHT).getJsonObject("block"),
                page.getJsonArray("blocks").getJsonObject(0));

        List<Long> desc = new ArrayList<>();
        List<Long> asc = new ArrayList<>();
        for (long h = HEIGHT; h >= 1; h--) desc.add(h);
        for (long h = 1; h <= HEIGHT; h++) asc.add(h);
        for (int limit : new int[] {1, 7, 10, 30, 1000}) {
            assertEquals(
                    desc,
                    IndexedChain.map(
                            ic.walk("/indexer/block/v1/blocks", "blocks", limit),
                            b -> Long.parseLong(b.getString("height"))));
            assertEquals(
                    asc,
                    IndexedChain.map(
                            ic.walk("/indexer/block/v1/blocks?pagination.reverse=false", "blocks", limit),
                            b -> Long.parseLong(b.getString("height"))));
        }
        // offset without a key still returns a height cursor; count_total=false still fills the block count (rollytics
        // and
        // kvindexer fill /blocks' total whatever count_total says)
        JsonObject off =
                ic.get("/indexer/block/v1/blocks?pagination.offset=3&pagination.limit=2&pagination.count_total=false");
        assertEquals(
                List.of(HEIGHT - 3, HEIGHT - 4),
                IndexedChain.map(jsonList(off.getJsonArray("blocks")), b -> Long.parseLong(b.getString("height"))));
        assertEquals(Long.toString(HEIGHT), off.getJsonObject("pagination").getString("total"));
        assertEquals(
                new JsonObject()
                        .putNull("previous_key")
                        .put("next_key", PageResponse.encode("{\"height\":" + (HEIGHT - 3) + "}"))
                        .put("total", Long.toString(HEIGHT)),
                ic.get("/indexer/block/v1/blocks?pagination.limit=4&pagination.count_total=false")
                        .getJsonObject("pagination"));
        // Go's short boolean forms, as rollytics reads them
        assertEquals(
                ic.get("/indexer/block/v1/blocks?pagination.reverse=false&pagination.limit=2"),
                ic.get("/indexer/block/v1/blocks?pagination.reverse=f&pagination.limit=2"));
        // empty parameters are absent ones, as in rollytics: the default first page
        assertEquals(
                ic.get("/indexer/block/v1/blocks"),
                ic.get("/indexer/block/v1/blocks?pagination.limit=&pagination.offset="));
        assertEquals(
                "{\"height\":" + (HEIGHT - 4) + "}",
                IndexedChain.decodeKey(off.getJsonObject("pagination").getString("next_key")));
        // the last page has no next key (no phantom page)
        assertNull(
                ic.get("/indexer/block/v1/blocks?pagination.limit=" + HEIGHT).getJsonObject("pagination"), "next_key");
        JsonObject beyond = ic.get("/indexer/block/v1/blocks?pagination.offset=" + (HEIGHT + 5));
        assertEquals(new JsonArray(), beyond.getJsonArray("blocks"));
        assertNull(beyond.getJsonObject("pagination"), "next_key");
    }

    @Test
    @DisplayName("avg_blocktime: float seconds over the last 100 blocks")
    void average() {
        JsonObject a = ic.get("/indexer/block/v1/avg_blocktime");
        assertFields(a, "avg_block_time");
        double expected = (FixtureChain.timeNs(HEIGHT) - FixtureChain.timeNs(1)) / 1e9 / (HEIGHT - 1);
        assertEquals(expected, a.getDouble("avg_block_time"), 1e-9);
    }

    @Test
    @DisplayName("/status height is the ingest cursor; /metrics has the ingestion metrics")
    void statusAndMetrics() {
        assertEquals(HEIGHT, ic.get("/status").getLong("height"));
        String metrics = dev.weft.testsupport.TestNodes.get(ic.client, ic.port, "/metrics")
                .bodyAsString();
        for (String m : List.of(
                "weft_ingest_blocks_total",
                "weft_ingest_txs_total",
                "weft_ingest_height",
                "weft_ingest_head_height",
                "weft_ingest_fetch_seconds",
                "weft_ingest_commit_seconds",
                "weft_ingest_window_blocks",
                "weft_node_request_seconds")) {
            org.junit.jupiter.api.Assertions.assertTrue(metrics.contains(m), m + " missing from /metrics");
        }
    }

    @Test
    @DisplayName("every bad pagination parameter is a 400 JSON error")
    void badPagination() {
        assertBad("/indexer/block/v1/blocks?pagination.limit=0", "pagination.limit must be between 1 and 1000");
        assertBad("/indexer/block/v1/blocks?pagination.limit=1001", "pagination.limit must be between 1 and 1000");
        assertBad("/indexer/block/v1/blocks?pagination.offset=-1", "pagination.offset cannot be negative");
        assertBad(
                "/indexer/block/v1/blocks?pagination.key=%25%25%25",
                "pagination.key must be a valid base64 encoded string");
        assertBad(
                "/indexer/block/v1/blocks?pagination.key=eyJzZXF1ZW5jZSI6MTJ9",
                null); // a sequence cursor on a height list
        assertBad("/indexer/block/v1/blocks?pagination.reverse=sideways", "pagination.reverse must be true or false");
        assertBad(
                "/indexer/block/v1/blocks?pagination.count_total=maybe",
                "pagination.count_total must be true or false");
    }

    static void assertBad(String uri, String message) {
        IndexedChain.Response r = ic.call(uri);
        assertEquals(400, r.status(), uri + " → " + r.body());
        assertError(r.body(), 3);
        if (message != null) assertEquals(message, r.body().getString("message"), uri);
    }

    static List<JsonObject> jsonList(JsonArray a) {
        List<JsonObject> out = new ArrayList<>();
        a.forEach(o -> out.add((JsonObject) o));
        return out;
    }
}
