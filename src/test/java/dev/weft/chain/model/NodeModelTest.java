package dev.weft.chain.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Hex;
import dev.weft.testsupport.FixtureChain;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Parsing real CometBFT 0.38 answers (tendermint-rs kvstore recordings). */
class NodeModelTest {
    static com.fasterxml.jackson.databind.JsonNode result(String file) {
        return NodeJson.parse(FixtureChain.readText("cometbft-v0.38-kvstore-tendermint-rs/" + file)
                        .getBytes())
                .get("result");
    }

    @Test
    @DisplayName("/block: height, chain, upper-hex block id hash, exact nanosecond time, proposer, empty txs")
    void block() {
        CometBlock b = CometBlock.parse(result("block_at_height_10.json"));
        assertEquals(10, b.height());
        assertEquals("dockerchain", b.chainId());
        assertEquals("00ECDAC463C201ECD4BDBBAAE4A53A4C80291D4051FD69ED97F6420CE1388BFE", Hex.upper(b.hash()));
        assertEquals("2023-05-17T14:12:53.088875124Z", Rfc3339.nanos(b.timeNs()));
        assertEquals("2DD9F44FD9067555C322243C3C913BA7B51D2BE0", Hex.upper(b.proposerAddress()));
        assertTrue(b.txs().isEmpty());
        CometBlock one = CometBlock.parse(result("block_at_height_1.json"));
        assertEquals(1, one.height());
    }

    @Test
    @DisplayName("/block_results: null txs_results and finalize_block_events read as empty")
    void blockResults() {
        BlockResults r = BlockResults.parse(result("block_results_at_height_10.json"));
        assertEquals(10, r.height());
        assertTrue(r.txs().isEmpty());
        assertTrue(r.finalizeBlockEvents().isEmpty());
    }

    @Test
    @DisplayName("/status: network and heights as strings")
    void status() {
        CometStatus s = CometStatus.parse(result("status.json"));
        assertEquals("dockerchain", s.network());
        assertEquals(232, s.latestHeight());
        assertEquals(1, s.earliestHeight());
    }

    @Test
    @DisplayName("timestamps are written the way Go writes RFC3339Nano and RFC3339")
    void timestamps() {
        assertEquals(
                "2023-05-17T14:12:53.088875124Z", Rfc3339.nanos(Rfc3339.parseNanos("2023-05-17T14:12:53.088875124Z")));
        assertEquals("2023-05-17T14:12:53.1Z", Rfc3339.nanos(Rfc3339.parseNanos("2023-05-17T14:12:53.100000000Z")));
        assertEquals("2025-08-20T10:20:52Z", Rfc3339.nanos(Rfc3339.parseNanos("2025-08-20T10:20:52Z")));
        assertEquals("2025-08-20T10:20:52Z", Rfc3339.seconds(Rfc3339.parseNanos("2025-08-20T10:20:52.999Z")));
        assertEquals(Rfc3339.parseNanos("2025-08-20T12:20:52+02:00"), Rfc3339.parseNanos("2025-08-20T10:20:52Z"));
        assertThrows(IllegalArgumentException.class, () -> Rfc3339.parseNanos("yesterday"));
    }

    @Test
    @DisplayName("JSON-RPC quantities and CometBFT string integers")
    void numbers() {
        assertEquals(0x1e240, NodeJson.quantity("0x1e240"));
        assertEquals(0, NodeJson.quantity("0x"));
        assertEquals(12, NodeJson.quantity("12"));
        var n = NodeJson.parse("{\"a\":\"5\",\"b\":7,\"c\":null}".getBytes());
        assertEquals(5, NodeJson.longValue(n, "a", 0));
        assertEquals(7, NodeJson.longValue(n, "b", 0));
        assertEquals(9, NodeJson.longValue(n, "c", 9));
        assertNull(NodeJson.text(n, "c", null));
        assertThrows(IllegalArgumentException.class, () -> NodeJson.requiredLong(n, "missing"));
    }
}
