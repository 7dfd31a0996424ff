package dev.weft.ingest;

import dev.weft.config.WeftConfig;
import dev.weft.store.AccountStore;
import dev.weft.store.Database;
import dev.weft.store.IngestStore;
import dev.weft.store.MsgTypeStore;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The commit transaction: idempotent re-processing, no gaps, exact counters, block times across commits. */
class IngestStoreTest {
  Vertx vertx;
  Database db;
  String url;
  FixtureBlocks blocks;
  IngestStore store;

  @BeforeEach
  void start() {
    vertx = TestNodes.newVertx();
    TestConfig c = TestConfig.defaults();
    url = (String) c.get("database.url");
    WeftConfig config = c.build();
    db = TestNodes.await(Database.start(vertx, config.database()));
    blocks = new FixtureBlocks(FixtureChain.offline("fixture-1"), config.chain());
    store = new IngestStore(db.pool(), new AccountStore(1000), new MsgTypeStore());
  }

  @AfterEach
  void stop() {
    TestNodes.await(db.close());
    TestNodes.await(vertx.close());
  }

  @Test
  @DisplayName("committed heights are skipped (no duplicate, no double count); a gap is refused")
  void idempotent() throws Exception {
    assertEquals(5, TestNodes.await(store.commit(blocks.range(1, 5))).size());
    Map<String, List<String>> after5 = IngestDump.dump(url);
    assertEquals(0, TestNodes.await(store.commit(blocks.range(1, 5))).size());
    assertEquals(after5, IngestDump.dump(url));
    List<IngestStore.Committed> partial = TestNodes.await(store.commit(blocks.range(3, 8)));
    assertEquals(List.of(6L, 7L, 8L), partial.stream().map(IngestStore.Committed::height).toList());
    Exception gap = assertThrows(Exception.class, () -> TestNodes.await(store.commit(blocks.range(10, 11))));
    assertTrue(gap.getMessage().contains("gap"), gap.getMessage());
    IngestDump.assertConsistent(url);
    assertEquals(8, IngestDump.scalar(url, "SELECT height FROM pipeline_cursor WHERE name = 'ingest'"));
    // one block per commit or eight in one: the same database
    String other = TestDatabase.freshUrl();
    Database db2 = TestNodes.await(Database.start(vertx, TestConfig.defaults().set("database.url", other).build().database()));
    try {
      IngestStore s2 = new IngestStore(db2.pool(), new AccountStore(1000), new MsgTypeStore());
      TestNodes.await(s2.commit(blocks.range(1, 8)));
      IngestDump.assertSame(IngestDump.dump(url), IngestDump.dump(other));
    } finally {
      TestNodes.await(db2.close());
    }
  }

  @Test
  @DisplayName("a mid-chain start: the first block has block_time 0, the next ones the real interval, across commits")
  void midChainStart() throws Exception {
    TestNodes.await(store.commit(blocks.range(100, 101)));
    TestNodes.await(store.commit(blocks.range(102, 102)));
    assertEquals(0, IngestDump.scalar(url, "SELECT block_time_ms FROM block WHERE height = 100"));
    assertEquals((FixtureChain.timeNs(101) - FixtureChain.timeNs(100)) / 1_000_000, IngestDump.scalar(url, "SELECT block_time_ms FROM block WHERE height = 101"));
    assertEquals((FixtureChain.timeNs(102) - FixtureChain.timeNs(101)) / 1_000_000, IngestDump.scalar(url, "SELECT block_time_ms FROM block WHERE height = 102"));
    assertEquals(1, IngestDump.scalar(url, "SELECT min(sequence) FROM tx"));
    IngestDump.assertConsistent(url);
  }
}
