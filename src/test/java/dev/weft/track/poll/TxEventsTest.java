package dev.weft.track.poll;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.model.track.ObservedTx;
import dev.weft.testsupport.FixtureChain;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one tx reader of the tracker ({@link TxEvents}) on a recorded CometBFT 0.38 {@code tx_search} answer (the
 * tendermint-rs kvstore fixture, see the fixtures' PROVENANCE.md), and on the same tx as the index's record holds it.
 */
class TxEventsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static byte[] fixture() throws Exception {
        return Files.readAllBytes(
                FixtureChain.FIXTURES.resolve("cometbft-v0.38-kvstore-tendermint-rs/tx_search_no_prove.json"));
    }

    private static SearchPage search(byte[] answer) throws Exception {
        try (JsonParser p = JSON.getFactory().createParser(answer)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new AssertionError("an answer is an object");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                JsonToken t = p.nextToken();
                if (p.currentName().equals("result") && t == JsonToken.START_OBJECT) return SearchPage.read("kv", p);
                p.skipChildren();
            }
            throw new AssertionError("no result");
        }
    }

    @Test
    void readsTheRecordedTxSearch() throws Exception {
        SearchPage page = search(fixture());
        assertEquals(9, page.totalCount());
        assertEquals(9, page.txs().size());
        ObservedTx first = page.txs().get(0);
        // the kvstore's "app" events are none the tracker reads: skipped, as the raw tx is
        assertEquals(
                new ObservedTx(
                        "kv",
                        "9F28904F9C0F3AB74A81CBA48E39124DA1C680B47FBFCBA0126870DB722BCC30",
                        223,
                        0,
                        0,
                        "",
                        List.of()),
                first);
        assertEquals(
                List.of(223L, 225L, 227L, 243L, 245L, 247L, 249L, 251L, 253L),
                page.txs().stream().map(ObservedTx::height).toList());
        assertEquals(200L * 9, page.bytes(), "nine txs without log or events");
    }

    @Test
    void theSearchAndTheIndexShapesReadAlike() throws Exception {
        ObjectNode answer = (ObjectNode) JSON.readTree(fixture());
        ObjectNode tx = (ObjectNode) answer.path("result").path("txs").get(0);
        ObjectNode result = (ObjectNode) tx.path("tx_result");
        // the recorded events made tracked ones: a packet event, and the ante handler's tx event of which only
        // acc_seq is kept
        ArrayNode events = (ArrayNode) result.path("events");
        ((ObjectNode) events.get(0)).put("type", "send_packet");
        ((ArrayNode) events.get(0).path("attributes"))
                .addObject()
                .put("key", "msg_index")
                .put("value", "0");
        ObjectNode signer = events.addObject().put("type", "tx");
        signer.putArray("attributes")
                .add(JSON.createObjectNode().put("key", "acc_seq").put("value", "init1xyz/7"))
                .add(JSON.createObjectNode().put("key", "signature").put("value", "c2ln"));
        result.put("code", 5).put("log", "out of gas");
        tx.put("hash", tx.path("hash").asText().toLowerCase());

        ObservedTx searched = search(JSON.writeValueAsBytes(answer)).txs().get(0);
        Map<String, String> packet = new LinkedHashMap<>();
        packet.put("creator", "Cosmoshi Netowoko");
        packet.put("key", "async-key");
        packet.put("index_key", "index is working");
        packet.put("noindex_key", "index is working");
        packet.put("msg_index", "0");
        assertEquals(
                new ObservedTx(
                        "kv",
                        "9F28904F9C0F3AB74A81CBA48E39124DA1C680B47FBFCBA0126870DB722BCC30",
                        223,
                        0,
                        5,
                        "out of gas",
                        List.of(
                                new ObservedTx.Event("send_packet", packet, "0"),
                                new ObservedTx.Event("tx", Map.of("acc_seq", "init1xyz/7"), null))),
                searched);
        assertEquals(
                List.copyOf(packet.keySet()),
                List.copyOf(searched.events().get(0).attrs().keySet()),
                "attributes in order");

        // the index's record of the same tx: its fields side by side, the API's names
        ObjectNode record = JSON.createObjectNode()
                .put("txhash", tx.path("hash").asText())
                .put("height", "223")
                .put("code", 5)
                .put("raw_log", "out of gas");
        record.set("tx", JSON.createObjectNode().put("body", "skipped"));
        record.set("events", events);
        assertEquals(searched, IndexedTxs.read("kv", JSON.writeValueAsBytes(record)));
    }

    @Test
    void anEventsFieldsInAnyOrder() throws Exception {
        // type after the attributes, as the recorded answers list them; a "tx" event keeps acc_seq only either way
        String record = "{\"txhash\":\"ab\",\"height\":\"3\",\"events\":["
                + "{\"attributes\":[{\"key\":\"fee\",\"value\":\"1uinit\"},{\"key\":\"acc_seq\",\"value\":\"a/1\"}],"
                + "\"type\":\"tx\"},"
                + "{\"attributes\":[{\"key\":\"amount\",\"value\":\"5\"},{\"key\":\"msg_index\",\"value\":\"1\"}],"
                + "\"type\":\"transfer\"},"
                + "{\"attributes\":[{\"key\":\"k\",\"value\":\"v\"}],\"type\":\"message\"}]}";
        Map<String, String> transfer = new LinkedHashMap<>();
        transfer.put("amount", "5");
        transfer.put("msg_index", "1");
        assertEquals(
                List.of(
                        new ObservedTx.Event("tx", Map.of("acc_seq", "a/1"), null),
                        new ObservedTx.Event("transfer", transfer, "1")),
                IndexedTxs.read("kv", record.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                        .events());
    }

    @Test
    void aNullLogIsEmpty() throws Exception {
        JsonNode record = JSON.readTree("{\"txhash\":\"ab\",\"height\":\"3\",\"raw_log\":null,\"events\":null}");
        assertEquals(
                new ObservedTx("kv", "AB", 3, 0, 0, "", List.of()),
                IndexedTxs.read("kv", JSON.writeValueAsBytes(record)));
    }
}
