package dev.weft.evm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.ingest.IngestDump;
import dev.weft.model.evm.TracedBlock;
import dev.weft.store.Database;
import dev.weft.store.InternalTxStore;
import dev.weft.store.PositionMovedException;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The tracer's commit: the position check refuses a replay or a second writer; counters stay exact. */
class InternalTxStoreTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    Database db;
    String url;
    InternalTxStore store;

    @BeforeEach
    void start() {
        TestConfig c = weft.config();
        url = (String) c.get("database.url");
        db = weft.database(c);
        store = new InternalTxStore(db.pool(), 1000, "test-1");
    }

    /** Anvil's block 9 as if it stood at another height (same txs, same frames). */
    static TracedBlock block9At(long height) throws Exception {
        List<JsonNode> receipts = BlockTracerTest.receipts().stream()
                .map(r -> (JsonNode) ((ObjectNode) r.deepCopy()).put("blockNumber", "0x" + Long.toHexString(height)))
                .toList();
        return BlockTracer.assemble(height, BlockTracerTest.traces(), receipts, 5);
    }

    String dump() throws Exception {
        return IngestDump.scalar(url, "SELECT count(*) FROM evm_internal_tx") + "/"
                + IngestDump.scalar(url, "SELECT count(*) FROM evm_internal_tx_account") + "/"
                + IngestDump.scalar(url, "SELECT coalesce(sum(internal_txs), 0) FROM account_internal_tx_stats") + "/"
                + IngestDump.scalar(url, "SELECT internal_txs FROM evm_internal_totals") + "/"
                + IngestDump.scalar(url, "SELECT height FROM pipeline_cursor WHERE name = 'evm'");
    }

    @Test
    @DisplayName(
            "a replayed or stale commit is refused and changes nothing; heights must rise; a second writer cannot skip or repeat")
    void positionCheck() throws Exception {
        InternalTxStore.Position p0 = TestNodes.await(store.position());
        assertEquals(new InternalTxStore.Position(0, 0, null), p0);
        InternalTxStore.Batch first = store.prepare(List.of(block9At(3), block9At(5)), p0);
        TestNodes.await(store.commit(first));
        assertEquals(new InternalTxStore.Position(5, 28, first.after().commit()), TestNodes.await(store.position()));
        String after5 = dump();
        assertEquals("28/", after5.substring(0, 3));

        // the same run again (a replay after a lost answer), or re-prepared from the old position: refused, nothing
        // written
        Exception again = assertThrows(Exception.class, () -> TestNodes.await(store.commit(first)));
        assertInstanceOf(PositionMovedException.class, again);
        assertThrows(
                PositionMovedException.class,
                () -> TestNodes.await(store.commit(store.prepare(List.of(block9At(5)), p0))));
        assertEquals(after5, dump());
        assertThrows(
                IllegalArgumentException.class,
                () -> store.prepare(List.of(block9At(5)), first.after()),
                "a committed height");
        assertThrows(
                IllegalArgumentException.class,
                () -> store.prepare(List.of(block9At(8), block9At(7)), first.after()),
                "out of order");

        // a second writer with a stale view, even of a following height
        InternalTxStore other = new InternalTxStore(db.pool(), 1000, "test-1");
        InternalTxStore.Batch next = store.prepare(List.of(block9At(6)), first.after());
        TestNodes.await(store.commit(next));
        assertThrows(
                PositionMovedException.class,
                () -> TestNodes.await(other.commit(other.prepare(List.of(block9At(7)), first.after()))));
        assertEquals(new InternalTxStore.Position(6, 42, next.after().commit()), TestNodes.await(store.position()));
        assertEquals(
                0,
                IngestDump.scalar(
                        url,
                        "SELECT count(*) FROM (SELECT sequence, row_number() OVER (ORDER BY sequence) r FROM evm_internal_tx) x WHERE sequence <> r"));
        assertEquals(
                IngestDump.scalar(url, "SELECT count(*) FROM evm_internal_tx_account"),
                IngestDump.scalar(url, "SELECT sum(internal_txs) FROM account_internal_tx_stats"));

        // an empty height (no EVM tx, or only Cosmos txs) moves the cursor and nothing else
        InternalTxStore.Batch empty = store.prepare(List.of(new TracedBlock(9, List.of(), 0, 1)), next.after());
        TestNodes.await(store.commit(empty));
        assertEquals(new InternalTxStore.Position(9, 42, empty.after().commit()), TestNodes.await(store.position()));
    }
}
