package dev.weft.ingest;

import static dev.weft.testsupport.Shapes.assertFields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Hex;
import dev.weft.chain.model.BlockResults;
import dev.weft.chain.model.NodeJson;
import dev.weft.chain.model.RestTx;
import dev.weft.testsupport.FixtureChain;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The stored tx and receipt JSON against real recorded answers. */
class TxJsonTest {
    static final JsonObject BANK = FixtureChain.read("initia-minievm-tx-decoder-fixtures/bank-evm.json")
            .getJsonObject("bankSendWithEvmLogTxResponse");

    static BlockResults.TxResult result(JsonObject r) {
        return new BlockResults.TxResult(
                r.getInteger("code"),
                r.getString("codespace"),
                Base64.getEncoder().encodeToString(Hex.decode(r.getString("data"))),
                r.getString("raw_log"),
                r.getString("info"),
                r.getString("gas_wanted"),
                r.getString("gas_used"),
                Nodes.events(r.getJsonArray("events")));
    }

    @Test
    @DisplayName(
            "a real minievm tx_response is reproduced exactly: field order, types, hex data, events, tx without @type")
    void realTxResponse() {
        RestTx restTx = Nodes.restTx(BANK.getJsonObject("tx"));
        assertTrue(restTx.needsRewrite(), "the tx_response form has an @type wrapper");
        byte[] json = TxJson.render(BANK.getString("txhash"), 11671668, result(BANK), restTx, "2025-08-20T10:20:52Z");
        JsonObject out = new JsonObject(new String(json, StandardCharsets.UTF_8));
        assertFields(
                out,
                "txhash",
                "height",
                "codespace",
                "code",
                "data",
                "raw_log",
                "logs",
                "info",
                "gas_wanted",
                "gas_used",
                "tx",
                "timestamp",
                "events");
        JsonObject expected = BANK.copy();
        expected.getJsonObject("tx").remove("@type");
        assertEquals(expected, out);
        assertTrue(out.getValue("code") instanceof Number);
        assertTrue(out.getValue("height") instanceof String);
        assertEquals(
                "12260A242F636F736D6F732E62616E6B2E763162657461312E4D736753656E64526573706F6E7365",
                out.getString("data"));
        // the decoded tx keeps the node's own field order
        assertFields(out.getJsonObject("tx"), "auth_info", "body", "signatures");
        assertFields(
                out.getJsonArray("events")
                        .getJsonObject(0)
                        .getJsonArray("attributes")
                        .getJsonObject(0),
                "key",
                "value",
                "index");
    }

    @Test
    @DisplayName(
            "events are encoded like Go's abci.Event: empty type/key and false index omitted, null events → [], NUL → U+FFFD")
    void eventsLikeGo() {
        JsonArray events = new JsonArray()
                .add(new JsonObject()
                        .put("type", "t")
                        .put(
                                "attributes",
                                new JsonArray()
                                        .add(new JsonObject()
                                                .put("key", "k")
                                                .put("value", "a\u0000b")
                                                .put("index", false))
                                        .add(new JsonObject()
                                                .put("key", "")
                                                .put("value", "v")
                                                .put("index", true))))
                .add(new JsonObject().put("type", "").put("attributes", new JsonArray()))
                .add(new JsonObject().put("type", "empty").putNull("attributes"));
        BlockResults.TxResult r = new BlockResults.TxResult(0, "", "", "", "", "1", "1", Nodes.events(events));
        JsonObject out = new JsonObject(new String(
                TxJson.render("AB", 1, r, Nodes.restTx(new JsonObject().put("body", new JsonObject())), "t"),
                StandardCharsets.UTF_8));
        JsonArray ev = out.getJsonArray("events");
        assertEquals(
                new JsonObject()
                        .put("type", "t")
                        .put(
                                "attributes",
                                new JsonArray()
                                        .add(new JsonObject().put("key", "k").put("value", "a\uFFFDb"))
                                        .add(new JsonObject().put("value", "v").put("index", true))),
                ev.getJsonObject(0));
        assertEquals(new JsonObject(), ev.getJsonObject(1));
        assertEquals(new JsonObject().put("type", "empty"), ev.getJsonObject(2));
        assertEquals("", out.getString("data"));
        assertEquals(new JsonArray(), out.getJsonArray("logs"));

        BlockResults.TxResult none = new BlockResults.TxResult(0, "", "", "", "", "1", "1", Nodes.events(null));
        JsonObject out2 = new JsonObject(
                new String(TxJson.render("AB", 1, none, Nodes.restTx(new JsonObject()), "t"), StandardCharsets.UTF_8));
        assertEquals(new JsonArray(), out2.getJsonArray("events"));
    }

    @Test
    @DisplayName(
            "a zero-fee tx: CometBFT 0.38 drops the empty fee value; the stored event has \"value\": \"\" (and an empty one stays)")
    void emptyAttributeValues() {
        // the tx event of a zero-fee tx exactly as a CometBFT 0.38 node encodes it (omitempty drops the empty value)
        JsonArray events = new JsonArray()
                .add(new JsonObject()
                        .put("type", "tx")
                        .put(
                                "attributes",
                                new JsonArray()
                                        .add(new JsonObject().put("key", "fee").put("index", true))
                                        .add(new JsonObject()
                                                .put("key", "fee_payer")
                                                .put("value", "init1x")
                                                .put("index", true))
                                        .add(new JsonObject().put("key", "memo").put("value", ""))));
        BlockResults.TxResult r = new BlockResults.TxResult(0, "", "", "", "", "1", "1", Nodes.events(events));
        JsonObject out = new JsonObject(
                new String(TxJson.render("AB", 1, r, Nodes.restTx(new JsonObject()), "t"), StandardCharsets.UTF_8));
        assertEquals(
                new JsonArray()
                        .add(new JsonObject().put("key", "fee").put("value", "").put("index", true))
                        .add(new JsonObject()
                                .put("key", "fee_payer")
                                .put("value", "init1x")
                                .put("index", true))
                        .add(new JsonObject().put("key", "memo").put("value", "")),
                out.getJsonArray("events").getJsonObject(0).getJsonArray("attributes"));
        assertFields(
                out.getJsonArray("events")
                        .getJsonObject(0)
                        .getJsonArray("attributes")
                        .getJsonObject(0),
                "key",
                "value",
                "index");
    }

    @Test
    @DisplayName("a REST tx without @type or NUL is copied byte for byte; one with a NUL is rewritten with U+FFFD")
    void verbatimCopy() {
        JsonObject tx = new JsonObject()
                .put(
                        "body",
                        new JsonObject()
                                .put("memo", "héllo \"q\" <>")
                                .put(
                                        "messages",
                                        new JsonArray()
                                                .add(new JsonObject()
                                                        .put("@type", "/x.Msg")
                                                        .put("n", 1.50))))
                .put("signatures", new JsonArray().add("c2ln"));
        String page = "{\"txs\":[ " + tx.encode() + " ,\n" + tx.encode().replace("héllo", "a\\u0000b")
                + "],\"pagination\":{\"next_key\":null,\"total\":\"2\"}}";
        var txs = dev.weft.chain.model.RestTx.scanPage(page.getBytes(StandardCharsets.UTF_8))
                .txs();
        assertEquals(2, txs.size());
        assertFalse(txs.get(0).needsRewrite());
        assertTrue(txs.get(1).needsRewrite());
        assertEquals(java.util.List.of("c2ln"), txs.get(0).signatures());
        assertEquals(java.util.List.of("/x.Msg"), txs.get(0).msgTypes());
        BlockResults.TxResult r = new BlockResults.TxResult(0, "", "", "", "", "1", "1", Nodes.events(null));
        String out = new String(TxJson.render("AB", 1, r, txs.get(0), "t"), StandardCharsets.UTF_8);
        assertTrue(out.contains("\"tx\":" + tx.encode() + ",\"timestamp\""), out);
        JsonObject rewritten =
                new JsonObject(new String(TxJson.render("AB", 1, r, txs.get(1), "t"), StandardCharsets.UTF_8));
        assertEquals(
                "a\uFFFDb \"q\" <>",
                rewritten.getJsonObject("tx").getJsonObject("body").getString("memo"));
    }

    @Test
    @DisplayName("EVM receipts keep exactly the rollytics subset, in its order; Anvil's extra fields are dropped")
    void receipts() {
        JsonArray anvil =
                new JsonObject(FixtureChain.readText("evm-anvil/anvil_block9_receipts.json")).getJsonArray("result");
        for (int i = 0; i < anvil.size(); i++) {
            JsonObject in = anvil.getJsonObject(i);
            JsonObject out = new JsonObject(
                    new String(ReceiptJson.render(NodeJson.parse(in.toBuffer())), StandardCharsets.UTF_8));
            assertFields(
                    out,
                    "blockHash",
                    "blockNumber",
                    "contractAddress",
                    "cumulativeGasUsed",
                    "effectiveGasPrice",
                    "from",
                    "gasUsed",
                    "logs",
                    "logsBloom",
                    "status",
                    "to",
                    "transactionHash",
                    "transactionIndex",
                    "type");
            for (String f : out.fieldNames()) if (!f.equals("logs")) assertEquals(in.getValue(f), out.getValue(f), f);
            assertFalse(out.containsKey("blockTimestamp"));
            for (int j = 0; j < out.getJsonArray("logs").size(); j++) {
                JsonObject log = out.getJsonArray("logs").getJsonObject(j);
                JsonObject inLog = in.getJsonArray("logs").getJsonObject(j);
                assertFields(
                        log,
                        "address",
                        "topics",
                        "data",
                        "blockNumber",
                        "transactionHash",
                        "transactionIndex",
                        "blockHash",
                        "logIndex",
                        "removed");
                for (String f : log.fieldNames()) assertEquals(inLog.getValue(f), log.getValue(f), f);
            }
        }
        JsonObject creation = new JsonObject(
                        FixtureChain.readText("evm-anvil/anvil_block1_receipts_contract_creation.json"))
                .getJsonArray("result")
                .getJsonObject(0);
        JsonObject out = new JsonObject(
                new String(ReceiptJson.render(NodeJson.parse(creation.toBuffer())), StandardCharsets.UTF_8));
        assertTrue(
                creation.containsKey("to") && creation.getValue("to") == null,
                "the node's creation receipt has to: null");
        assertEquals(
                "",
                out.getValue("to"),
                "a creation answers to: \"\" (a Go string in rollytics; Celatone rejects null)");
        assertEquals(creation.getString("contractAddress"), out.getString("contractAddress"));
    }
}
