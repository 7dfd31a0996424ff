package dev.weft.ingest;

import static dev.weft.ingest.IngestDump.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.WeftExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ingest writer prunes the event log in the background, by count, in bounded steps, never a newer event. */
class EventRetentionTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    @Test
    @DisplayName(
            "with events.retention_count set, the ingest node prunes the oldest events and keeps the newest, whole")
    void prunesInTheBackground() throws Exception {
        TestConfig c = weft.config()
                .roles("devnet", "ingest")
                .set("devnet.mode", "history")
                .set("devnet.history_blocks", 40)
                .set("devnet.genesis_time", "2025-06-01T00:00:00Z")
                .set("devnet.seed", 42)
                .set("devnet.txs_per_block", 4)
                .set("ingest.poll_interval", "50ms")
                .set("events.retention_count", 60)
                .set("events.prune_interval", "50ms")
                .set("events.prune_batch", 7);
        String url = (String) c.get("database.url");
        weft.start(c);
        Await.cursor(url, "ingest", 40, 90);
        long last = scalar(url, "SELECT max(sequence) FROM event_log");
        assertTrue(last > 200, last + " events");
        Await.until(
                "pruned down to the newest 60 sequences",
                30,
                () -> scalar(url, "SELECT pruned_through FROM event_retention") >= last - 60);
        long pruned = scalar(url, "SELECT pruned_through FROM event_retention");
        assertEquals(last - 60, pruned, "exactly the sequences beyond the newest 60");
        assertEquals(pruned + 1, scalar(url, "SELECT min(sequence) FROM event_log"));
        // the newest are all there: one writer, no gap in its sequences
        assertEquals(60, scalar(url, "SELECT count(*) FROM event_log WHERE sequence > " + pruned));
        assertEquals(last, scalar(url, "SELECT max(sequence) FROM event_log"));
    }
}
