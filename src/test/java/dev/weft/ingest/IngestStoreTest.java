package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.config.WeftConfig;
import dev.weft.model.ingest.IndexedBlock;
import dev.weft.store.Database;
import dev.weft.store.IngestStore;
import dev.weft.store.PositionMovedException;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The commit transaction: the position check, exact counters, the same rows whatever the batch sizes, block times. */
class IngestStoreTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    Vertx vertx;
    Database db;
    String url;
    FixtureBlocks blocks;
    IngestStore store;

    @BeforeEach
    void start() {
        vertx = weft.vertx();
        TestConfig c = weft.config();
        url = (String) c.get("database.url");
        WeftConfig config = c.build();
        db = weft.database(c);
        blocks = new FixtureBlocks(FixtureChain.offline("fixture-1"), config.chain());
        store = new IngestStore(db.pool(), 1000, "test-1");
    }

    /** A run prepared as ingestion prepares it: its account ids resolved first. */
    static IngestStore.Batch prepared(IngestStore s, List<IndexedBlock> run, IngestStore.Position before) {
        return s.prepare(run, before, TestNodes.await(s.ids(run)));
    }

    IngestStore.Position commit(IngestStore s, long from, long to, IngestStore.Position before) {
        IngestStore.Batch b = prepared(s, blocks.range(from, to), before);
        TestNodes.await(s.commit(b));
        return b.after();
    }

    @Test
    @DisplayName(
            "a commit from a stale position is refused and changes nothing (no duplicate, no double count); gaps are refused")
    void positionCheck() throws Exception {
        IngestStore.Position p0 = TestNodes.await(store.position());
        assertEquals(new IngestStore.Position(0, null, 0, 0, 0, null), p0);
        // two writers preparing the same heights (a lease that changed hands): only the one that committed sees its
        // position
        IngestStore.Batch lost = prepared(new IngestStore(db.pool(), 1000, "test-1"), blocks.range(1, 5), p0);
        IngestStore.Position p5 = commit(store, 1, 5, p0);
        assertEquals(p5, TestNodes.await(store.position()));
        assertEquals(lost.after().height(), p5.height());
        assertEquals(lost.after().txs(), p5.txs());
        assertNotEquals(lost.after(), p5, "another writer's commit of the same heights is not this one's");
        Map<String, List<String>> after5 = IngestDump.dump(url);
        Exception again = assertThrows(
                Exception.class, () -> TestNodes.await(store.commit(prepared(store, blocks.range(1, 5), p0))));
        assertInstanceOf(PositionMovedException.class, again);
        assertEquals(after5, IngestDump.dump(url));
        assertThrows(IllegalArgumentException.class, () -> prepared(store, blocks.range(7, 8), p5), "a gap");
        // a second writer's stale view: refused even when the heights follow
        IngestStore other = new IngestStore(db.pool(), 1000, "test-1");
        IngestStore.Position p8 = commit(store, 6, 8, p5);
        assertThrows(
                PositionMovedException.class,
                () -> TestNodes.await(other.commit(prepared(other, blocks.range(6, 8), p5))));
        assertEquals(8, p8.height());
        IngestDump.assertConsistent(url);
    }

    @Test
    @DisplayName("one block per commit or eight in one: the same database, row for row")
    void batchSizes() throws Exception {
        IngestStore.Position p = TestNodes.await(store.position());
        for (long h = 1; h <= 8; h++) p = commit(store, h, h, p);
        String other = TestDatabase.freshUrl();
        Database db2 = TestNodes.await(Database.start(
                vertx, weft.config().set("database.url", other).build().database()));
        try {
            IngestStore s2 = new IngestStore(db2.pool(), 1000, "test-1");
            commit(s2, 1, 8, TestNodes.await(s2.position()));
            IngestDump.assertSame(IngestDump.dump(url), IngestDump.dump(other));
            IngestDump.assertConsistent(other);
        } finally {
            TestNodes.await(db2.close());
        }
    }

    @Test
    @DisplayName(
            "dictionary ids: an address the dictionary holds (added by another writer) keeps its id, a new address or message type is added once")
    void accountIds() throws Exception {
        List<IndexedBlock> run = blocks.range(1, 3);
        AccountAddress known =
                run.get(0).txs().get(0).accounts().keySet().iterator().next();
        long knownId;
        try (java.sql.Connection c = TestDatabase.jdbc(url);
                java.sql.Statement st = c.createStatement()) {
            st.execute("INSERT INTO account (address) VALUES ('\\x00ff'), ('\\x" + Hex.lower(known.bytes()) + "')");
            knownId = IngestDump.scalar(
                    st, "SELECT id FROM account WHERE address = '\\x" + Hex.lower(known.bytes()) + "'");
        }
        Map<AccountAddress, Long> ids = TestNodes.await(store.ids(run)).accounts();
        assertEquals(knownId, ids.get(known));
        Set<AccountAddress> involved = new HashSet<>();
        for (IndexedBlock b : run) {
            for (IndexedBlock.Tx t : b.txs()) {
                involved.addAll(t.accounts().keySet());
                if (t.signer() != null) involved.add(t.signer());
            }
            for (IndexedBlock.EvmTx t : b.evmTxs()) {
                involved.addAll(t.accounts().keySet());
                if (t.from() != null) involved.add(t.from());
            }
        }
        assertEquals(involved, ids.keySet());
        assertEquals(involved.size(), new HashSet<>(ids.values()).size(), "one id per address");
        commit(store, 1, 3, TestNodes.await(store.position()));
        // a second store (a restarted node, an empty cache) reads the same ids back without adding rows
        assertEquals(
                ids,
                TestNodes.await(new IngestStore(db.pool(), 1000, "test-1").ids(run))
                        .accounts());
        assertEquals(involved.size() + 1, IngestDump.scalar(url, "SELECT count(*) FROM account"));
        Set<String> types = new HashSet<>();
        run.forEach(b -> b.txs().forEach(t -> types.addAll(t.msgTypes())));
        Map<String, Integer> typeIds = TestNodes.await(store.ids(run)).msgTypes();
        assertEquals(types, typeIds.keySet());
        assertEquals(types.size(), IngestDump.scalar(url, "SELECT count(*) FROM msg_type"));
        assertEquals(
                IngestDump.scalar(
                        url,
                        "SELECT count(*) FROM tx_account x JOIN tx t USING (sequence) WHERE t.height <= 3 AND x.account_id = "
                                + knownId),
                run.stream()
                        .flatMap(b -> b.txs().stream())
                        .filter(t -> t.accounts().containsKey(known))
                        .count());
        IngestDump.assertConsistent(url);
    }

    @Test
    @DisplayName("a mid-chain start: the first block has block_time 0, the next ones the real interval, across commits")
    void midChainStart() throws Exception {
        IngestStore.Position p = commit(store, 100, 101, TestNodes.await(store.position()));
        commit(store, 102, 102, TestNodes.await(store.position()));
        assertEquals(101, p.height());
        assertEquals(0, IngestDump.scalar(url, "SELECT block_time_ms FROM block WHERE height = 100"));
        assertEquals(
                (FixtureChain.timeNs(101) - FixtureChain.timeNs(100)) / 1_000_000,
                IngestDump.scalar(url, "SELECT block_time_ms FROM block WHERE height = 101"));
        assertEquals(
                (FixtureChain.timeNs(102) - FixtureChain.timeNs(101)) / 1_000_000,
                IngestDump.scalar(url, "SELECT block_time_ms FROM block WHERE height = 102"));
        assertEquals(1, IngestDump.scalar(url, "SELECT min(sequence) FROM tx"));
        IngestDump.assertConsistent(url);
    }
}
