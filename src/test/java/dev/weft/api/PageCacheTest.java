package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.micrometer.backends.BackendRegistries;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The HTTP instance's cache of encoded tx pages: kept between ingest commits, never older than the database. */
class PageCacheTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static double requests(String outcome) {
        double n = 0;
        for (Counter c : BackendRegistries.getDefaultNow()
                .find("weft_http_page_cache_requests_total")
                .tag("outcome", outcome)
                .counters()) n += c.count();
        return n;
    }

    /** The hashes of txs of heights 1..{@code height}, newest first. */
    private static List<String> newestFirst(FixtureChain chain, long height) {
        List<String> out = new ArrayList<>();
        for (long h = height; h >= 1; h--)
            for (int i = FixtureChain.txCount(h) - 1; i >= 0; i--) out.add(chain.txHash(h, i));
        return out;
    }

    @Test
    @DisplayName(
            "a first tx page asked again before the next ingest commit is answered from memory; after a commit the same request shows the new txs; later pages and a block's txs are always read")
    void keptUntilTheNextCommit() {
        IndexedChain ic = new IndexedChain(weft, 10);
        String uri = "/indexer/tx/v1/txs?pagination.limit=3";
        double hits = requests("hit");
        double misses = requests("miss");
        JsonObject first = ic.get(uri);
        assertEquals(
                newestFirst(ic.chain, 10).subList(0, 3), IndexedChain.map(rows(first), t -> t.getString("txhash")));
        assertEquals(first, ic.get(uri));
        assertEquals(first, ic.get(uri));
        assertEquals(first, ic.get(uri));
        assertEquals(
                2,
                requests("miss") - misses,
                "the first two requests read the page (a page is kept from its second request on)");
        assertEquals(2, requests("hit") - hits, "the next two were answered from memory");
        // another query string is another page
        assertEquals(
                newestFirst(ic.chain, 10).subList(0, 2),
                IndexedChain.map(rows(ic.get("/indexer/tx/v1/txs?pagination.limit=2")), t -> t.getString("txhash")));
        // a page further on (a key, or an offset) is read every time, outside the cache
        double keptBefore = requests("hit") + requests("miss");
        String next = "/indexer/tx/v1/txs?pagination.limit=3&pagination.key="
                + java.net.URLEncoder.encode(
                        first.getJsonObject("pagination").getString("next_key"),
                        java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(
                newestFirst(ic.chain, 10).subList(3, 6),
                IndexedChain.map(rows(ic.get(next)), t -> t.getString("txhash")));
        assertEquals(rows(ic.get(next)), rows(ic.get("/indexer/tx/v1/txs?pagination.limit=3&pagination.offset=3")));
        // a block's txs too
        for (int twice = 0; twice < 2; twice++) ic.get("/indexer/tx/v1/txs/by_height/10");
        assertEquals(
                keptBefore,
                requests("hit") + requests("miss"),
                "pages further on and a block's txs do not go through the cache");

        ic.chain.head(14);
        ic.awaitHeight(14);
        JsonObject after = ic.get(uri);
        assertEquals(
                newestFirst(ic.chain, 14).subList(0, 3),
                IndexedChain.map(rows(after), t -> t.getString("txhash")),
                "the page after the commits holds the new txs");
        assertEquals(
                String.valueOf(newestFirst(ic.chain, 14).size()),
                after.getJsonObject("pagination").getString("total"));
    }

    @Test
    @DisplayName(
            "the cache keeps pages from their second request, holds at most its bound in bytes (least recently used out first) and no page over a quarter of it")
    void bounded() {
        IndexedChain ic = new IndexedChain(weft, 2);
        PageCache cache = new PageCache(ic.node.context().pool(), 1000);
        for (int i = 0; i < 30; i++) {
            byte[] body = new byte[100 + i];
            for (int twice = 0; twice < 2; twice++)
                TestNodes.await(cache.page("/p" + i, p -> Future.succeededFuture(Buffer.buffer(body))));
            assertTrue(cache.bytes() <= 1000, "kept " + cache.bytes() + " bytes after page " + i);
        }
        assertTrue(cache.bytes() > 500, "pages asked twice are kept: " + cache.bytes());
        long kept = cache.bytes();
        TestNodes.await(cache.page("/once", p -> Future.succeededFuture(Buffer.buffer(new byte[10]))));
        assertEquals(kept, cache.bytes(), "a page asked once is not kept");
        double misses = requests("miss");
        TestNodes.await(cache.page("/p29", p -> Future.succeededFuture(Buffer.buffer(new byte[129]))));
        assertEquals(misses, requests("miss"), "the most recent page is kept");
        TestNodes.await(cache.page("/p0", p -> Future.succeededFuture(Buffer.buffer(new byte[100]))));
        assertEquals(misses + 1, requests("miss"), "the oldest page went first");
        long before = cache.bytes();
        for (int twice = 0; twice < 2; twice++)
            TestNodes.await(cache.page("/big", p -> Future.succeededFuture(Buffer.buffer(new byte[251]))));
        assertEquals(before, cache.bytes(), "a page over a quarter of the bound is not kept");
    }

    private static List<JsonObject> rows(JsonObject page) {
        List<JsonObject> out = new ArrayList<>();
        page.getJsonArray("txs").forEach(o -> out.add((JsonObject) o));
        return out;
    }
}
