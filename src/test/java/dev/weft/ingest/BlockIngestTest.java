package dev.weft.ingest;

import static dev.weft.ingest.IngestDump.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.chain.Hex;
import dev.weft.chain.model.Rfc3339;
import dev.weft.node.VerticleKinds;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ingestion end to end against the fixture chain and a real PostgreSQL: stored rows, counters, the block indexed
 * event, live follow, faults (the result must equal a clean run row for row) and restarts.
 */
class BlockIngestTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String CHAIN = "fixture-1";
    static Vertx vertx;
    static Map<String, List<String>> clean;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
    }

    static TestConfig config(FixtureChain chain) {
        return chain.configure(weft.config().roles("ingest"))
                .set("ingest.poll_interval", "50ms")
                .set("ingest.retry_base", "5ms")
                .set("ingest.retry_max", "100ms")
                .set("ingest.window", 8)
                .set("ingest.commit_blocks", 5)
                .set("ingest.request_timeout", "2s");
    }

    static String url(TestConfig c) {
        return (String) c.get("database.url");
    }

    static synchronized Map<String, List<String>> cleanRun() throws Exception {
        if (clean != null) return clean;
        FixtureChain chain = FixtureChain.start(vertx, CHAIN, 40);
        TestConfig c = config(chain);
        WeftNode node = weft.start(c);
        try {
            Await.cursor(url(c), "ingest", 40, 60);
            clean = IngestDump.dump(url(c));
        } finally {
            weft.stop(node);
            chain.close();
        }
        return clean;
    }

    @Test
    @DisplayName("catch-up then live follow: every height once, in order, with exact rows, counters and events")
    void catchUpAndFollow() throws Exception {
        FixtureChain chain = FixtureChain.start(vertx, CHAIN, 25);
        List<Long> events = Collections.synchronizedList(new ArrayList<>());
        List<JsonObject> bodies = Collections.synchronizedList(new ArrayList<>());
        MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.BLOCK_INDEXED, m -> {
            events.add(m.body().getLong("height"));
            bodies.add(m.body());
        });
        TestNodes.await(consumer.completion());
        TestConfig c = config(chain);
        WeftNode node = weft.start(c);
        try {
            Await.cursor(url(c), "ingest", 25, 60);
            chain.head(40); // the chain moves on: the same loop follows it
            Await.cursor(url(c), "ingest", 40, 60);
            Await.until("40 events", 10, () -> events.size() >= 40);
            List<Long> expected = new ArrayList<>();
            for (long h = 1; h <= 40; h++) expected.add(h);
            assertEquals(expected, new ArrayList<>(events));
            JsonObject e7 = bodies.get(6);
            assertEquals(
                    new JsonObject()
                            .put("chain_id", CHAIN)
                            .put("height", 7L)
                            .put("hash", FixtureChain.blockHash(7))
                            .put("tx_count", 3)
                            .put("time", Rfc3339.nanos(FixtureChain.timeNs(7)))
                            // the block's event in the log, written in the same commit
                            .put(
                                    "sequence",
                                    scalar(
                                            url(c),
                                            "SELECT sequence FROM event_log WHERE topic = 'blocks' AND height = 7")),
                    e7);

            String url = url(c);
            IngestDump.assertConsistent(url);
            assertEquals(40, scalar(url, "SELECT count(*) FROM block"));
            assertEquals(FixtureChain.txsUpTo(40), scalar(url, "SELECT count(*) FROM tx"));
            IngestDump.assertSame(cleanRun(), IngestDump.dump(url));
            checkRows(chain, url);
        } finally {
            TestNodes.await(consumer.unregister());
            weft.stop(node);
            chain.close();
        }
    }

    /** Spot checks of the stored values against the chain's own data. */
    static void checkRows(FixtureChain chain, String url) throws Exception {
        try (Connection conn = dev.weft.testsupport.TestDatabase.jdbc(url);
                Statement st = conn.createStatement()) {
            // block 7: 3 txs, block_time 1.5 s after block 6, proposer resolved at ingest
            try (ResultSet rs = st.executeQuery("SELECT convert_from(json, 'UTF8') FROM block WHERE height = 7")) {
                rs.next();
                JsonObject b = new JsonObject(rs.getString(1));
                assertEquals(CHAIN, b.getString("chain_id"));
                assertEquals("7", b.getString("height"));
                assertEquals(FixtureChain.blockHash(7), b.getString("hash"));
                assertEquals(
                        Long.toString((FixtureChain.timeNs(7) - FixtureChain.timeNs(6)) / 1_000_000),
                        b.getString("block_time"));
                assertEquals("1499", b.getString("block_time"), "truncated like Go's Duration.Milliseconds");
                assertEquals(Rfc3339.seconds(FixtureChain.timeNs(7)), b.getString("timestamp"));
                assertEquals("3", b.getString("tx_count"));
                long gas = 0;
                long fee = 0;
                for (int i = 0; i < 3; i++) {
                    gas += 100_000 + 70 + i;
                    fee += 1000 + 70 + i;
                }
                assertEquals(Long.toString(gas), b.getString("gas_used"));
                assertEquals("600000", b.getString("gas_wanted"));
                assertEquals(
                        new JsonArray()
                                .add(new JsonObject().put("denom", "uinit").put("amount", Long.toString(fee))),
                        b.getJsonArray("total_fee"));
                assertEquals(
                        new JsonObject()
                                .put("moniker", FixtureChain.MONIKER)
                                .put("identity", "")
                                .put("operator_address", chain.operatorAddress()),
                        b.getJsonObject("proposer"));
            }
            try (ResultSet rs = st.executeQuery("SELECT convert_from(json, 'UTF8') FROM block WHERE height = 1")) {
                rs.next();
                assertEquals("0", new JsonObject(rs.getString(1)).getString("block_time"), "no previous block");
            }
            try (ResultSet rs = st.executeQuery("SELECT convert_from(json, 'UTF8') FROM block WHERE height = 4")) {
                rs.next();
                JsonObject b = new JsonObject(rs.getString(1));
                assertEquals("0", b.getString("tx_count"));
                assertEquals(new JsonArray(), b.getJsonArray("total_fee"), "an empty block has no fee");
            }
            // tx (5, 0): k = 50 → signer A, MsgCall + NUL event, ok
            try (ResultSet rs = st.executeQuery("SELECT convert_from(json, 'UTF8'), code FROM tx WHERE hash = decode('"
                    + chain.txHash(5, 0) + "', 'hex')")) {
                rs.next();
                JsonObject t = new JsonObject(rs.getString(1));
                assertEquals(chain.txHash(5, 0), t.getString("txhash"));
                assertEquals("5", t.getString("height"));
                assertEquals(chain.restTx(5, 0), t.getJsonObject("tx"));
                assertEquals(Rfc3339.nanos(FixtureChain.timeNs(5)), t.getString("timestamp"));
                assertEquals("100050", t.getString("gas_used"));
                JsonObject last = t.getJsonArray("events")
                        .getJsonObject(t.getJsonArray("events").size() - 1);
                assertEquals(
                        new JsonObject()
                                .put("type", "fixture")
                                .put(
                                        "attributes",
                                        new JsonArray()
                                                .add(new JsonObject()
                                                        .put("key", "note")
                                                        .put("value", "nul\uFFFDbyte"))),
                        last);
                assertEquals(
                        Hex.upper(java.util.Base64.getDecoder()
                                .decode(chain.txResult(5, 0).getString("data"))),
                        t.getString("data"));
            }
            // a failed tx keeps its code and codespace, and has no receipt
            try (ResultSet rs = st.executeQuery("SELECT convert_from(json, 'UTF8') FROM tx WHERE hash = decode('"
                    + chain.txHash(3, 2) + "', 'hex')")) {
                rs.next();
                JsonObject t = new JsonObject(rs.getString(1));
                assertEquals(FixtureChain.code(3, 2), t.getInteger("code"));
            }
            // the signers of every tx are flagged, and only them
            long signerRows = scalar(st, "SELECT count(*) FROM tx_account WHERE signer");
            assertEquals(FixtureChain.txsUpTo(40), signerRows);
            long bSigned = 0;
            long receipts = 0;
            for (long h = 1; h <= 40; h++) {
                for (int i = 0; i < FixtureChain.txCount(h); i++) {
                    if (FixtureChain.signerB(h, i)) bSigned++;
                    if (FixtureChain.hasReceipt(h, i)) receipts++;
                }
            }
            String b = Hex.lower(dev.weft.chain.AccountAddress.fromEthSecp256k1(
                            java.util.Base64.getDecoder().decode(FixtureChain.KEY_B))
                    .bytes());
            assertEquals(
                    bSigned,
                    scalar(
                            st,
                            "SELECT signer_txs FROM account_tx_stats s JOIN account a ON a.id = s.account_id WHERE a.address = decode('"
                                    + b + "', 'hex')"));
            assertEquals(
                    bSigned,
                    scalar(
                            st,
                            "SELECT count(*) FROM tx t JOIN account a ON a.id = t.signer_id WHERE a.address = decode('"
                                    + b + "', 'hex')"));
            assertEquals(receipts, scalar(st, "SELECT count(*) FROM evm_tx"));
            try (ResultSet rs =
                    st.executeQuery("SELECT convert_from(json, 'UTF8') FROM evm_tx ORDER BY sequence LIMIT 1")) {
                rs.next();
                JsonObject r = new JsonObject(rs.getString(1));
                assertTrue(r.getString("transactionHash").startsWith("0x"));
                assertTrue(!r.containsKey("blockTimestamp"));
            }
            assertEquals(2, scalar(st, "SELECT count(*) FROM msg_type"));
        }
    }

    @Test
    @DisplayName(
            "node faults (500s, cut connections, delays, short and reordered REST answers): the database equals a clean run's")
    void faults() throws Exception {
        Map<String, List<String>> expected = cleanRun();
        FixtureChain chain = FixtureChain.start(vertx, CHAIN, 40);
        chain.failRate = 0.15;
        chain.cutRate = 0.05;
        chain.delayMs = 2;
        chain.shortRestCalls = 2;
        chain.shuffleRest = true;
        TestConfig c = config(chain);
        WeftNode node = weft.start(c);
        try {
            Await.cursor(url(c), "ingest", 40, 60);
            assertTrue(chain.faults.get() > 0, "faults were injected");
            IngestDump.assertConsistent(url(c));
            IngestDump.assertSame(expected, IngestDump.dump(url(c)));
        } finally {
            weft.stop(node);
            chain.close();
        }
    }

    @Test
    @DisplayName(
            "a height's REST txs are asked together with its block, not one round trip after it (a far node costs one round trip per height, not two)")
    void restTxsAskedWithTheBlock() throws Exception {
        Map<String, List<String>> expected = cleanRun();
        FixtureChain chain = FixtureChain.start(vertx, CHAIN, 40);
        chain.holdBlockUntilRest = 6; // a block with 2 txs; its /block is answered once its REST txs were asked
        TestConfig c = config(chain);
        WeftNode node = weft.start(c);
        try {
            Await.cursor(url(c), "ingest", 40, 60);
            assertEquals(
                    List.of("rest", "block"),
                    chain.heldOrder,
                    "the REST txs of height 6 were asked before its block arrived");
            IngestDump.assertSame(expected, IngestDump.dump(url(c)));
        } finally {
            weft.stop(node);
            chain.close();
        }
    }

    @Test
    @DisplayName(
            "the verticle undeployed and redeployed mid-way resumes with no gap and no duplicate; every event once")
    void restart() throws Exception {
        Map<String, List<String>> expected = cleanRun();
        // the chain stands at 20 while the first run ingests, so the stop is mid-way however fast ingestion runs
        FixtureChain chain = FixtureChain.start(vertx, CHAIN, 20);
        chain.delayMs = 3;
        List<Long> events = Collections.synchronizedList(new ArrayList<>());
        MessageConsumer<JsonObject> consumer = vertx.eventBus()
                .consumer(Addresses.BLOCK_INDEXED, m -> events.add(m.body().getLong("height")));
        TestNodes.await(consumer.completion());
        TestConfig c = config(chain);
        WeftNode node = weft.start(c);
        try {
            Await.cursor(url(c), "ingest", 12, 60);
            String id = node.deployments().get("ingest").get(0);
            TestNodes.await(vertx.undeploy(id));
            long stoppedAt = Await.cursorHeight(url(c), "ingest");
            assertTrue(stoppedAt >= 12 && stoppedAt <= 20, "stopped mid-way, at " + stoppedAt);
            chain.head(40);
            TestNodes.await(node.deploy(VerticleKinds.byName("ingest").orElseThrow(), 1));
            Await.cursor(url(c), "ingest", 40, 60);
            IngestDump.assertConsistent(url(c));
            IngestDump.assertSame(expected, IngestDump.dump(url(c)));
            Await.until("40 events", 10, () -> events.size() >= 40);
            List<Long> want = new ArrayList<>();
            for (long h = 1; h <= 40; h++) want.add(h);
            assertEquals(want, new ArrayList<>(events));
        } finally {
            TestNodes.await(consumer.unregister());
            weft.stop(node);
            chain.close();
        }
    }
}
