package dev.weft.evm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.model.NodeJson;
import dev.weft.model.evm.InternalTx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Flattening on the callTracer outputs recorded from a real Anvil node (src/test/resources/fixtures/evm-anvil). */
class CallFramesTest {
    static final Path DIR = dev.weft.testsupport.FixtureChain.FIXTURES.resolve("evm-anvil");

    static JsonObject read(String f) throws Exception {
        return new JsonObject(Files.readString(DIR.resolve(f)));
    }

    static JsonNode node(JsonObject o) {
        return NodeJson.parse(o.toBuffer());
    }

    @Test
    @DisplayName("doEverything: every frame type in pre-order with contiguous indexes and direct parents")
    void doEverything() throws Exception {
        List<InternalTx> rows = CallFrames.flatten(
                node(read("anvil_tx_doEverything_callTracer.json").getJsonObject("result")), "0x3a267");
        assertEquals(
                List.of(
                        "CALL",
                        "CREATE",
                        "CALL",
                        "CALL",
                        "STATICCALL",
                        "CALL",
                        "CALL",
                        "DELEGATECALL",
                        "STATICCALL",
                        "CALL"),
                rows.stream().map(InternalTx::type).toList());
        for (int i = 0; i < rows.size(); i++) assertEquals(i, rows.get(i).index());
        assertEquals(
                List.of(-1, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                rows.stream().map(InternalTx::parentIndex).toList());
        InternalTx top = rows.get(0);
        assertEquals("0x", top.output(), "the top frame's output is blanked");
        assertEquals("0x03a267", top.gasUsed());
        assertEquals("0x0de0b6b3a7640000", top.value());
        assertEquals("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", top.from());
        InternalTx staticCall = rows.get(4);
        assertEquals("0x", staticCall.value(), "STATICCALL carries no value");
        InternalTx delegate = rows.get(7);
        assertEquals("0x", delegate.value(), "DELEGATECALL repeats the caller's value: not a transfer");
        InternalTx reverted = rows.get(8);
        assertEquals("execution reverted", reverted.error());
        assertEquals("boom", reverted.revertReason());
        assertNull(rows.get(1).error());
        assertEquals("0x08fc", rows.get(3).gas(), "2300 stipend, even-length hex");
    }

    @Test
    @DisplayName("nested calls: A(B(C), D) gives A0(-1) B1(0) C2(1) D3(0)")
    void nesting() {
        JsonObject c = new JsonObject()
                .put("type", "CALL")
                .put("from", "0x2")
                .put("to", "0x3")
                .put("value", "0x0");
        JsonObject b = new JsonObject()
                .put("type", "CALL")
                .put("from", "0x1")
                .put("to", "0x2")
                .put("calls", new JsonArray().add(c));
        JsonObject d = new JsonObject()
                .put("type", "CREATE2")
                .put("from", "0x1")
                .put("to", "0x4")
                .put("value", "0x100");
        JsonObject a = new JsonObject()
                .put("type", "CALL")
                .put("from", "0xA")
                .put("to", "0x1")
                .put("output", "0xdead")
                .put("gasUsed", "0x5208")
                .put("calls", new JsonArray().add(b).add(d));
        List<InternalTx> rows = CallFrames.flatten(node(a), null);
        assertEquals(List.of(0, 1, 2, 3), rows.stream().map(InternalTx::index).toList());
        assertEquals(
                List.of(-1, 0, 1, 0), rows.stream().map(InternalTx::parentIndex).toList());
        assertEquals("0x00", rows.get(2).value());
        assertEquals("0x0100", rows.get(3).value());
        assertEquals("0x", rows.get(1).value(), "absent value");
        assertEquals("0x5208", rows.get(0).gasUsed(), "kept from the trace when no receipt is given");
        assertEquals("0x0000000000000000000000000000000000000003", rows.get(2).to());
    }

    @Test
    @DisplayName("block trace: the second tx's top gasUsed is cumulative in Anvil; the receipt's value replaces it")
    void receiptGas() throws Exception {
        JsonArray traces = read("anvil_block9_trace_callTracer.json").getJsonArray("result");
        JsonArray receipts = read("anvil_block9_receipts.json").getJsonArray("result");
        assertEquals(receipts.size(), traces.size());
        JsonObject second = traces.getJsonObject(1);
        String receiptGas = receipts.getJsonObject(1).getString("gasUsed");
        assertEquals(second.getString("txHash"), receipts.getJsonObject(1).getString("transactionHash"));
        List<InternalTx> rows = CallFrames.flatten(node(second.getJsonObject("result")), receiptGas);
        assertEquals(CallFrames.hexBytes(receiptGas), rows.get(0).gasUsed());
        assertEquals("0x5208", rows.get(0).gasUsed(), "a plain transfer uses 21000 gas");
    }
}
