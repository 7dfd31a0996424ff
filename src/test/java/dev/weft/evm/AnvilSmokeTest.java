package dev.weft.evm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import dev.weft.model.evm.InternalTx;
import dev.weft.testsupport.AnvilNode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The real Anvil node and our own contracts produce every frame type; flattening them gives the expected tree. */
class AnvilSmokeTest {

    static String selector(String signature) {
        return Hex.lower(java.util.Arrays.copyOf(Hashes.keccak256(signature), 4));
    }

    static String word(String address) {
        return "0".repeat(24) + address.substring(2);
    }

    @Test
    @DisplayName("doEverything on Anvil: CALL, CREATE, value CALLs, STATICCALL, DELEGATECALL, caught revert, CREATE2")
    void traceOfOwnContracts() throws Exception {
        JsonObject contracts = AnvilNode.compileContracts();
        try (AnvilNode anvil = AnvilNode.start()) {
            String token = anvil.deploy(contracts.getJsonObject("Token").getString("bytecode"), null);
            String lib = anvil.deploy(contracts.getJsonObject("Lib").getString("bytecode"), null);
            String router =
                    anvil.deploy(contracts.getJsonObject("Router").getString("bytecode"), word(token) + word(lib));
            anvil.send(
                    AnvilNode.ACCOUNT0,
                    token,
                    "0x" + selector("transfer(address,uint256)") + word(router) + "%064x".formatted(1_000_000),
                    null);
            String tx = anvil.send(
                    AnvilNode.ACCOUNT0,
                    router,
                    "0x" + selector("doEverything(address)") + word(AnvilNode.ACCOUNT1),
                    "0x" + Long.toHexString(5_000_000_000L));
            JsonObject receipt = anvil.receipt(tx);
            JsonObject trace = (JsonObject) anvil.rpc(
                    "debug_traceTransaction",
                    new JsonArray().add(tx).add(new JsonObject().put("tracer", "callTracer")));
            assertEquals("0x1", receipt.getString("status"), trace.encodePrettily());
            List<InternalTx> rows = CallFrames.flatten(CallFramesTest.node(trace), receipt.getString("gasUsed"));
            assertEquals(
                    List.of(
                            "CALL",
                            "CREATE",
                            "CALL",
                            "CALL",
                            "STATICCALL",
                            "CALL",
                            "DELEGATECALL",
                            "STATICCALL",
                            "CREATE2",
                            "CALL"),
                    rows.stream().map(InternalTx::type).toList());
            assertEquals(
                    List.of(-1, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                    rows.stream().map(InternalTx::parentIndex).toList());
            assertEquals("execution reverted", rows.get(7).error());
            assertEquals("boom", rows.get(7).revertReason());
        }
    }
}
