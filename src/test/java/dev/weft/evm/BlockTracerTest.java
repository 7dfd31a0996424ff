package dev.weft.evm;

import static dev.weft.testsupport.Shapes.assertFields;
import static dev.weft.testsupport.Shapes.assertNumber;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.chain.Hex;
import dev.weft.chain.model.NodeJson;
import dev.weft.model.evm.TracedBlock;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Pairing a block's traces with its receipts, on the recorded Anvil block 9 (doEverything, a plain transfer, an ERC-20
 * transfer, an ERC-721 mint and a failed ERC-20 transfer) and the recorded minievm trace of a Cosmos tx.
 */
class BlockTracerTest {
    static final Path FIXTURES = dev.weft.testsupport.FixtureChain.FIXTURES;

    static JsonNode result(String file) throws Exception {
        return NodeJson.parse(Files.readAllBytes(FIXTURES.resolve(file))).get("result");
    }

    static ArrayNode traces() throws Exception {
        return (ArrayNode) result("evm-anvil/anvil_block9_trace_callTracer.json");
    }

    static List<JsonNode> receipts() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        result("evm-anvil/anvil_block9_receipts.json").forEach(out::add);
        return out;
    }

    static JsonNode cosmosEntry() throws Exception {
        return result("initia-minievm-tx-decoder-fixtures/rollytics_minievm_debug_traceBlock_cosmos_tx_error.json")
                .get(0);
    }

    @Test
    @DisplayName(
            "Anvil block 9: every tx's frames in block order, gas from the receipts, the failed tx kept with its error")
    void block9() throws Exception {
        List<JsonNode> receipts = receipts();
        TracedBlock b = BlockTracer.assemble(9, traces(), receipts, 5);
        assertEquals(9, b.height());
        assertEquals(5, b.txs());
        assertEquals(0, b.skipped());
        assertEquals(10 + 4, b.rows().size());
        List<String> order = new ArrayList<>();
        for (TracedBlock.Row r : b.rows()) {
            String hash = Hex.prefixed(r.txHash());
            if (order.isEmpty() || !order.get(order.size() - 1).equals(hash)) order.add(hash);
        }
        assertEquals(
                receipts.stream().map(r -> r.get("transactionHash").asText()).toList(), order, "txs in block order");
        // the top frame of every tx: the receipt's gasUsed, although Anvil's block trace reports it cumulatively
        int row = 0;
        for (JsonNode r : receipts) {
            TracedBlock.Row top = b.rows().get(row);
            assertEquals(0, top.frame().index());
            assertEquals(
                    CallFrames.hexBytes(r.get("gasUsed").asText()), top.frame().gasUsed());
            row += r.get("transactionHash").asText().equals(order.get(0)) ? 10 : 1;
        }
        TracedBlock.Row failed = b.rows().get(b.rows().size() - 1);
        assertEquals("execution reverted", failed.frame().error());
        JsonObject item = new JsonObject(new String(failed.json(), java.nio.charset.StandardCharsets.UTF_8));
        assertFields(
                item,
                "height",
                "hash",
                "parent_index",
                "index",
                "type",
                "from",
                "to",
                "input",
                "output",
                "value",
                "gas",
                "gasUsed",
                "error");
        assertEquals(9L, item.getLong("height"));
        assertNumber(item, "height");
        assertEquals(-1, item.getValue("parent_index"));
        assertEquals(0, item.getValue("index"));
        assertEquals("0x", item.getString("output"), "the top frame's output is blanked, even a revert's");
        assertEquals("0x6014", item.getString("gasUsed"));
        JsonObject ok = new JsonObject(new String(b.rows().get(10).json(), java.nio.charset.StandardCharsets.UTF_8));
        assertFields(
                ok,
                "height",
                "hash",
                "parent_index",
                "index",
                "type",
                "from",
                "to",
                "input",
                "output",
                "value",
                "gas",
                "gasUsed");
        assertEquals("0x5208", ok.getString("gasUsed"), "a plain transfer: 21000, not the cumulative 0x3f46f");
    }

    @Test
    @DisplayName("minievm: an entry whose top-level error says it is a Cosmos tx, without a receipt, is skipped")
    void cosmosTxSkipped() throws Exception {
        ArrayNode only = NodeJson.MAPPER.createArrayNode().add(cosmosEntry());
        TracedBlock empty = BlockTracer.assemble(7, only, List.of(), 0);
        assertEquals(0, empty.rows().size());
        assertEquals(1, empty.skipped());
        ArrayNode mixed = traces().deepCopy();
        mixed.insert(2, cosmosEntry());
        TracedBlock b = BlockTracer.assemble(9, mixed, receipts(), 5);
        assertEquals(14, b.rows().size());
        assertEquals(1, b.skipped());
    }

    @Test
    @DisplayName("traces and receipts that do not pair are refused (the tracer retries them), never half indexed")
    void mismatches() throws Exception {
        List<JsonNode> receipts = receipts();
        assertThrows(
                IllegalStateException.class,
                () -> BlockTracer.assemble(9, traces(), receipts, 4),
                "ingestion counted 4");
        assertThrows(
                IllegalStateException.class,
                () -> BlockTracer.assemble(9, traces(), receipts.subList(0, 4), -1),
                "a traced tx without receipt");
        ArrayNode fewer = traces().deepCopy();
        fewer.remove(1);
        assertThrows(
                IllegalStateException.class,
                () -> BlockTracer.assemble(9, fewer, receipts, 5),
                "a receipt without trace");
        assertThrows(
                IllegalStateException.class,
                () -> BlockTracer.assemble(9, NodeJson.MAPPER.nullNode(), receipts, 5),
                "no trace yet");
        assertThrows(
                IllegalStateException.class,
                () -> BlockTracer.assemble(10, traces(), receipts, 5),
                "receipts of another block");
        ArrayNode twice = traces().deepCopy();
        twice.add(twice.get(0).deepCopy());
        assertThrows(
                IllegalStateException.class, () -> BlockTracer.assemble(9, twice, receipts, 5), "a tx traced twice");

        // a successful tx whose trace failed is a trace failure, not a tx to skip
        ArrayNode failedTrace = traces().deepCopy();
        ObjectNode second = (ObjectNode) failedTrace.get(1);
        second.remove("result");
        second.put("error", "execution timeout");
        assertThrows(IllegalStateException.class, () -> BlockTracer.assemble(9, failedTrace, receipts, 5));
        // a failed tx (status 0x0) the node cannot trace is skipped, as rollytics#42 does
        ArrayNode failedTx = traces().deepCopy();
        ObjectNode last = (ObjectNode) failedTx.get(4);
        last.remove("result");
        last.put("error", "execution reverted");
        TracedBlock b = BlockTracer.assemble(9, failedTx, receipts, 5);
        assertEquals(13, b.rows().size());
        assertEquals(1, b.skipped());
        assertEquals(4, b.txs());

        ArrayNode badHex = traces().deepCopy();
        ((ObjectNode) badHex.get(1).get("result")).put("value", "0xzz");
        assertThrows(
                IllegalArgumentException.class,
                () -> BlockTracer.assemble(9, badHex, receipts, 5),
                "a value that is not hex");
    }
}
