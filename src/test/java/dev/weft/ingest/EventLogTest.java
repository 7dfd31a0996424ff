package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.config.WeftConfig;
import dev.weft.store.Database;
import dev.weft.store.EventStore;
import dev.weft.store.IngestStore;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The durable event log as the ingest commit writes it, read by sequence, pruned by retention. */
class EventLogTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    Database db;
    String url;
    FixtureBlocks blocks;
    IngestStore store;
    EventStore events;

    @BeforeEach
    void start() {
        TestConfig c = weft.config();
        url = (String) c.get("database.url");
        WeftConfig config = c.build();
        db = weft.database(c);
        blocks = new FixtureBlocks(FixtureChain.offline("fixture-1"), config.chain());
        store = new IngestStore(db.pool(), 1000, "fixture-1");
        events = new EventStore(db.pool());
    }

    IngestStore.Batch commit(long from, long to, IngestStore.Position before) {
        IngestStore.Batch b =
                store.prepare(blocks.range(from, to), before, TestNodes.await(store.ids(blocks.range(from, to))));
        TestNodes.await(store.commit(b));
        return b;
    }

    List<EventStore.Event> all(long after) {
        return TestNodes.await(events.after(new EventStore.Query(after, 100_000, null, null, null, null, null)))
                .events();
    }

    @Test
    @DisplayName(
            "each commit writes one block event per block and one tx event per involved account, in the same transaction, in order; the commit knows their sequences")
    void writtenWithTheData() throws Exception {
        IngestStore.Position p = TestNodes.await(store.position());
        IngestStore.Batch a = commit(1, 4, p);
        IngestStore.Batch b = commit(5, 9, a.after());
        IngestDump.assertConsistent(url);
        List<EventStore.Event> log = all(0);
        assertEquals(log.get(log.size() - 1).sequence(), b.lastSequence());
        assertTrue(a.lastSequence() < b.committed().get(0).sequence());
        for (IngestStore.Committed c : b.committed()) {
            EventStore.Event e = log.stream()
                    .filter(x -> x.sequence() == c.sequence())
                    .findFirst()
                    .orElseThrow();
            assertEquals(EventStore.BLOCKS, e.topic());
            assertEquals(c.height(), e.height());
            assertEquals("fixture-1", e.payload().getString("chain_id"));
            assertEquals(c.height(), e.payload().getLong("height"));
        }
        for (int i = 1; i < log.size(); i++)
            assertTrue(log.get(i).sequence() > log.get(i - 1).sequence());
        assertTrue(log.stream().anyMatch(e -> e.topic().equals(EventStore.TXS) && e.account() != null));
    }

    @Test
    @DisplayName(
            "retention prunes the oldest events in bounded steps, by count and by age, never a newer one; a read below it says it is gone")
    void retention() throws Exception {
        IngestStore.Position p = TestNodes.await(store.position());
        commit(1, 12, p);
        List<EventStore.Event> before = all(0);
        int n = before.size();
        assertTrue(n > 30, n + " events");
        long last = before.get(n - 1).sequence();
        // by count: keep the newest 10 sequences, at most 7 rows a step
        int steps = 0;
        int deleted;
        int total = 0;
        while ((deleted = TestNodes.await(events.pruneStep(10, Duration.ofDays(1), 7))) > 0) {
            assertTrue(deleted <= 7, deleted + " rows in one step");
            total += deleted;
            steps++;
        }
        assertTrue(steps >= 2, steps + " steps");
        List<EventStore.Event> kept = all(0);
        assertEquals(n - total, kept.size());
        for (int i = 0; i < kept.size(); i++)
            assertEquals(before.get(total + i).sequence(), kept.get(i).sequence());
        assertTrue(kept.get(0).sequence() > last - 10, "only sequences beyond the newest 10 pruned");
        EventStore.Bounds bounds = TestNodes.await(events.bounds());
        assertEquals(before.get(total - 1).sequence(), bounds.prunedThrough());
        assertEquals(last, bounds.last());
        EventStore.Page old = TestNodes.await(events.after(new EventStore.Query(0, 10, null, null, null, null, null)));
        assertTrue(old.gone(0), "events after 0 were pruned");
        assertFalse(old.gone(bounds.prunedThrough()), "after the last pruned: nothing missing");
        // by age: events older than an hour (backdated), whatever the count
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            st.execute("UPDATE event_log SET created = now() - interval '2 hours' WHERE sequence <= "
                    + (bounds.prunedThrough() + 5));
        }
        while (TestNodes.await(events.pruneStep(1_000_000, Duration.ofHours(1), 100)) > 0) {}
        List<EventStore.Event> aged = all(0);
        assertEquals(kept.size() - 5, aged.size());
        assertEquals(kept.get(5).sequence(), aged.get(0).sequence());
        assertEquals(last, aged.get(aged.size() - 1).sequence());
    }
}
