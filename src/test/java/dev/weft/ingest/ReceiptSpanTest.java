package dev.weft.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.model.BlockReceipt;
import dev.weft.chain.model.NodeJson;
import dev.weft.testsupport.FixtureChain;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Receipts stored as the node sent them: a receipt is taken verbatim only where its bytes are exactly the record
 * written from its tree, and the fields ingestion reads from the scan are the tree's, over receipts written many ways.
 */
class ReceiptSpanTest {
    private static final AccountExtractor ACCOUNTS = new AccountExtractor(AccountExtractorTest.EVM);

    @Test
    @DisplayName(
            "a verbatim receipt is byte for byte the record written from its tree, with the same accounts and fields")
    void verbatimEqualsWritten() throws IOException {
        Random rnd = new Random(29);
        int verbatim = 0;
        int written = 0;
        for (int n = 0; n < 400; n++) {
            List<String> receipts = new ArrayList<>();
            int count = rnd.nextInt(4);
            for (int i = 0; i < count; i++) receipts.add(receipt(rnd, rnd.nextInt(3) == 0));
            List<BlockReceipt> read = read("[" + String.join(rnd.nextInt(8) == 0 ? ", " : ",", receipts) + "]");
            assertEquals(count, read.size());
            for (int i = 0; i < count; i++) {
                BlockReceipt r = read.get(i);
                JsonNode tree = r.tree();
                assertEquals(
                        NodeJson.parse(receipts.get(i).getBytes(StandardCharsets.UTF_8)),
                        tree,
                        "the span is the receipt");
                if (!r.verbatim()) {
                    written++;
                    continue;
                }
                verbatim++;
                byte[] span = java.util.Arrays.copyOfRange(r.source(), r.start(), r.end());
                assertArrayEquals(ReceiptJson.render(tree), span, receipts.get(i));
                assertEquals(
                        List.copyOf(ACCOUNTS.fromReceipt(tree).entrySet()),
                        List.copyOf(ACCOUNTS.fromReceipt(r).entrySet()),
                        receipts.get(i));
                for (String[] f : new String[][] {
                    {"blockNumber", r.blockNumber()},
                    {"transactionHash", r.transactionHash()},
                    {"transactionIndex", r.transactionIndex()},
                    {"from", r.from()}
                }) {
                    assertEquals(NodeJson.text(tree, f[0], null), f[1], f[0]);
                }
            }
        }
        assertTrue(verbatim > 150, "verbatim " + verbatim);
        assertTrue(written > 150, "written " + written);
    }

    @Test
    @DisplayName(
            "Anvil's receipts (fields rollytics drops) are written from their tree; a receipt that is not an object is refused")
    void anvilAndMalformed() throws IOException {
        String anvil = new io.vertx.core.json.JsonObject(FixtureChain.readText("evm-anvil/anvil_block9_receipts.json"))
                .getJsonArray("result")
                .encode();
        List<BlockReceipt> read = read(anvil);
        assertFalse(read.isEmpty());
        for (BlockReceipt r : read) assertFalse(r.verbatim());
        assertThrows(IllegalArgumentException.class, () -> read("[{\"blockHash\":\"0x1\"},null]"));
    }

    private static List<BlockReceipt> read(String array) throws IOException {
        byte[] json = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" + array + "}").getBytes(StandardCharsets.UTF_8);
        try (JsonParser p = NodeJson.FACTORY.createParser(json)) {
            p.nextToken();
            while (!"result".equals(p.currentName())) p.nextToken();
            p.nextToken();
            return BlockReceipt.readAll(p, json);
        }
    }

    /** A receipt as go-ethereum writes it ({@code canonical}), or with one of the changes a node may make. */
    private static String receipt(Random rnd, boolean canonical) {
        List<String[]> fields = new ArrayList<>();
        fields.add(new String[] {"blockHash", str(hex(rnd, 32))});
        fields.add(new String[] {"blockNumber", str("0x1a")});
        fields.add(new String[] {"contractAddress", rnd.nextInt(4) == 0 ? str(hex(rnd, 20)) : "null"});
        fields.add(new String[] {"cumulativeGasUsed", str("0x5208")});
        fields.add(new String[] {"effectiveGasPrice", str("0x3b9aca00")});
        fields.add(new String[] {"from", str(address(rnd))});
        fields.add(new String[] {"gasUsed", str("0x5208")});
        List<String> logs = new ArrayList<>();
        int n = rnd.nextInt(3);
        for (int i = 0; i < n; i++) logs.add(log(rnd, canonical));
        fields.add(new String[] {"logs", "[" + String.join(",", logs) + "]"});
        fields.add(new String[] {"logsBloom", str(hex(rnd, 256))});
        fields.add(new String[] {"status", str("0x1")});
        fields.add(new String[] {"to", str(address(rnd))});
        fields.add(new String[] {"transactionHash", str(hex(rnd, 32))});
        fields.add(new String[] {"transactionIndex", str("0x" + rnd.nextInt(20))});
        fields.add(new String[] {"type", str("0x2")});
        if (!canonical) {
            switch (rnd.nextInt(8)) {
                case 0 -> fields.add(new String[] {"blockTimestamp", str("0x5")});
                case 1 -> fields.remove(rnd.nextInt(fields.size()));
                case 2 -> fields.add(0, fields.remove(rnd.nextInt(fields.size())));
                case 3 -> fields.set(10, new String[] {"to", "null"});
                case 4 -> fields.set(9, new String[] {"status", "1"});
                case 5 ->
                    fields.set(5, new String[] {
                        "from", str(address(rnd).toUpperCase().replace("0X", "0x")) + " "
                    });
                case 6 -> fields.set(7, new String[] {"logs", "null"});
                default -> fields.set(2, new String[] {"contractAddress", str("a\\u003cb")});
            }
        }
        return object(fields);
    }

    private static String log(Random rnd, boolean canonical) {
        List<String> topics = new ArrayList<>();
        int n = rnd.nextInt(4);
        for (int i = 0; i < n; i++)
            topics.add(str(
                    rnd.nextBoolean()
                            ? "0x000000000000000000000000" + hex(rnd, 20).substring(2)
                            : hex(rnd, 32)));
        String[][] fields = {
            {"address", str(address(rnd))},
            {"topics", "[" + String.join(",", topics) + "]"},
            {"data", str("0x")},
            {"blockNumber", str("0x1a")},
            {"transactionHash", str(hex(rnd, 32))},
            {"transactionIndex", str("0x0")},
            {"blockHash", str(hex(rnd, 32))},
            {"logIndex", str("0x" + rnd.nextInt(9))},
            {"removed", "false"}
        };
        if (!canonical && rnd.nextInt(3) == 0) {
            switch (rnd.nextInt(4)) {
                case 0 -> fields[1][1] = "null";
                case 1 -> fields[8][1] = "\"false\"";
                case 2 -> fields[1][1] = "[null]";
                default -> fields[0][0] = "Address";
            }
        }
        return object(List.of(fields));
    }

    /** A compact JSON object of name / raw value pairs, in their order. */
    private static String object(List<String[]> fields) {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) b.append(',');
            b.append('"').append(fields.get(i)[0]).append("\":").append(fields.get(i)[1]);
        }
        return b.append('}').toString();
    }

    private static String address(Random rnd) {
        return rnd.nextInt(10) == 0 ? "0x0000000000000000000000000000000000000000" : hex(rnd, 20);
    }

    private static String hex(Random rnd, int bytes) {
        StringBuilder b = new StringBuilder("0x");
        for (int i = 0; i < bytes; i++) b.append(String.format("%02x", rnd.nextInt(256)));
        return b.toString();
    }

    private static String str(String s) {
        return "\"" + s + "\"";
    }
}
