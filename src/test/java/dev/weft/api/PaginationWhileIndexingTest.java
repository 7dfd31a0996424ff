package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Walking a list while ingestion commits new blocks: no row twice, none skipped. */
class PaginationWhileIndexingTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    @Test
    @DisplayName(
            "next_key walks stay exact while blocks are committed: ascending reaches new rows in order, descending is stable")
    void walkDuringIngest() {
        IndexedChain ic = new IndexedChain(weft, 10);
        List<String> chainOrder = new ArrayList<>();
        for (long h = 1; h <= 120; h++)
            for (int i = 0; i < FixtureChain.txCount(h); i++) chainOrder.add(ic.chain.txHash(h, i));
        ic.chain.delayMs = 4;
        ic.chain.head(120);
        JsonObject first = ic.get("/indexer/tx/v1/txs?pagination.limit=2");
        int topAtStart = Integer.parseInt(first.getJsonObject("pagination").getString("total"));
        List<String> asc = IndexedChain.map(
                ic.walk("/indexer/tx/v1/txs?pagination.reverse=false", "txs", 2), t -> t.getString("txhash"));
        List<String> desc = IndexedChain.map(ic.walk("/indexer/tx/v1/txs", "txs", 2), t -> t.getString("txhash"));
        assertTrue(asc.size() >= topAtStart, "ascending walk saw " + asc.size() + " of at least " + topAtStart);
        assertEquals(chainOrder.subList(0, asc.size()), asc, "ascending: a prefix of the chain, no duplicate, no gap");
        List<String> expectedDesc = new ArrayList<>(chainOrder.subList(0, desc.size()));
        java.util.Collections.reverse(expectedDesc);
        assertEquals(expectedDesc, desc, "descending: from the top at its first page down to the first tx");
        ic.awaitHeight(120);
        assertEquals(
                chainOrder,
                IndexedChain.map(
                        ic.walk("/indexer/tx/v1/txs?pagination.reverse=false", "txs", 50), t -> t.getString("txhash")));
    }
}
