package dev.weft.ingest;

import static dev.weft.ingest.IngestDump.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ingestion of a chain as a plain Cosmos SDK 0.50 node serves it: no OPinit module (its routes answer 501 Not
 * Implemented), and pruned below a height (CometBFT {@code earliest_block_height}).
 */
class PlainChainIngestTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
    }

    /** The stored block records, by height. */
    static List<JsonObject> blocks(String url) throws Exception {
        List<JsonObject> out = new ArrayList<>();
        try (Connection conn = TestDatabase.jdbc(url);
                Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery("SELECT convert_from(json, 'UTF8') FROM block ORDER BY height")) {
            while (rs.next()) out.add(new JsonObject(rs.getString(1)));
        }
        return out;
    }

    @Test
    @DisplayName("no opchild, pruned below 5: starts at the earliest block and indexes every block from the first poll")
    void prunedChainWithoutOpchild() throws Exception {
        FixtureChain chain = FixtureChain.start(vertx, BlockIngestTest.CHAIN, 12);
        chain.opchild = false;
        chain.staking = true;
        chain.earliest = 5;
        TestConfig c = BlockIngestTest.config(chain);
        String url = BlockIngestTest.url(c);
        WeftNode node = weft.start(c);
        try {
            Await.cursor(url, "ingest", 12, 120);
            assertEquals(8, scalar(url, "SELECT count(*) FROM block"), "heights 5..12");
            assertEquals(5, scalar(url, "SELECT min(height) FROM block"));
            for (JsonObject b : blocks(url)) {
                long h = Long.parseLong(b.getString("height"));
                // the node has no header below its earliest block: the first block's interval is unknown
                String interval =
                        h == 5 ? "0" : Long.toString((FixtureChain.timeNs(h) - FixtureChain.timeNs(h - 1)) / 1_000_000);
                assertEquals(interval, b.getString("block_time"), "block_time of " + h);
                assertEquals(
                        new JsonObject()
                                .put("moniker", FixtureChain.MONIKER)
                                .put("identity", "")
                                .put("operator_address", chain.operatorAddress()),
                        b.getJsonObject("proposer"),
                        "from x/staking");
            }
        } finally {
            weft.stop(node);
            chain.close();
        }
    }

    @Test
    @DisplayName(
            "the first block of an empty database above the earliest one reads the header before it: its block_time is the real interval")
    void firstBlockTime() throws Exception {
        FixtureChain chain = FixtureChain.start(vertx, BlockIngestTest.CHAIN, 9);
        chain.earliest = 5;
        TestConfig c = BlockIngestTest.config(chain).set("ingest.start_height", 7);
        String url = BlockIngestTest.url(c);
        WeftNode node = weft.start(c);
        try {
            Await.cursor(url, "ingest", 9, 120);
            assertEquals(3, scalar(url, "SELECT count(*) FROM block"), "heights 7..9");
            assertEquals(
                    (FixtureChain.timeNs(7) - FixtureChain.timeNs(6)) / 1_000_000,
                    scalar(url, "SELECT block_time_ms FROM block WHERE height = 7"));
            assertEquals("1499", blocks(url).get(0).getString("block_time"));
        } finally {
            weft.stop(node);
            chain.close();
        }
    }

    @Test
    @DisplayName("no validator module at all: blocks are indexed with the proposer's valoper and an empty moniker")
    void noValidatorModule() throws Exception {
        FixtureChain chain = FixtureChain.start(vertx, BlockIngestTest.CHAIN, 6);
        chain.opchild = false;
        TestConfig c = BlockIngestTest.config(chain);
        String url = BlockIngestTest.url(c);
        WeftNode node = weft.start(c);
        try {
            Await.cursor(url, "ingest", 6, 120);
            assertEquals(6, scalar(url, "SELECT count(*) FROM block"));
            JsonObject b = blocks(url).get(0);
            assertEquals(
                    new JsonObject().put("moniker", "").put("identity", "").put("operator_address", chain.valoper()),
                    b.getJsonObject("proposer"));
            assertEquals("0", b.getString("block_time"), "height 1 has no block before it");
        } finally {
            weft.stop(node);
            chain.close();
        }
    }

    @Test
    @DisplayName(
            "an explicit ingest.start_height below the node's earliest block stops the chain's writer with an error naming the key")
    void explicitStartBelowEarliest() {
        FixtureChain chain = FixtureChain.start(vertx, BlockIngestTest.CHAIN, 12);
        chain.earliest = 5;
        try {
            TestConfig c = BlockIngestTest.config(chain).set("ingest.start_height", 2);
            // the node starts without its chain's node: the setting is found wrong once the node answered
            WeftNode node = weft.start(c);
            String error = Await.value(
                    "the ingest writer's error",
                    60,
                    () -> node.describe()
                            .getJsonObject("kinds")
                            .getJsonObject("ingest")
                            .getJsonObject("chains")
                            .getJsonObject(BlockIngestTest.CHAIN)
                            .getString("error"));
            assertEquals(
                    "configuration key 'ingest.start_height': 2 is below the node's earliest available block 5 (a pruned node):"
                            + " set it to 5 or above, or to 0 to start at the earliest block",
                    error);
            assertFalse(
                    node.describe()
                            .getJsonObject("kinds")
                            .getJsonObject("ingest")
                            .getBoolean("active"),
                    "the writer stopped");
        } finally {
            chain.close();
        }
    }
}
