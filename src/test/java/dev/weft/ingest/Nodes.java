package dev.weft.ingest;

import dev.weft.chain.model.AbciEvent;
import dev.weft.chain.model.BlockReceipt;
import dev.weft.chain.model.BlockResults;
import dev.weft.chain.model.NodeJson;
import dev.weft.chain.model.RestTx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Node answers built from JSON in tests, through the same parsers ingestion uses. */
final class Nodes {
    private Nodes() {}

    /** Events as {@code /block_results} would carry them. */
    static List<AbciEvent> events(JsonArray events) {
        JsonObject result = new JsonObject()
                .put("height", "1")
                .put(
                        "txs_results",
                        new JsonArray().add(new JsonObject().put("code", 0).put("events", events)));
        return BlockResults.parse(NodeJson.parse(result.toBuffer()))
                .txs()
                .get(0)
                .events();
    }

    /** The first tx result of a {@code /block_results} result object's bytes, read the way the RPC client reads it. */
    static BlockResults.TxResult txResult(byte[] resultJson) {
        try (var p = NodeJson.FACTORY.createParser(resultJson)) {
            p.nextToken();
            return BlockResults.read(p, resultJson).txs().get(0);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Receipts as an {@code eth_getBlockReceipts} answer carries them, read the way the JSON-RPC client reads them. */
    static List<BlockReceipt> receipts(List<JsonObject> receipts) {
        JsonArray a = new JsonArray();
        receipts.forEach(a::add);
        byte[] json = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", 1)
                .put("result", a)
                .toBuffer()
                .getBytes();
        try (var p = NodeJson.FACTORY.createParser(json)) {
            while (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_ARRAY) {
                // up to the result array, the only array of the envelope
            }
            return BlockReceipt.readAll(p, json);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** REST txs as a {@code GetBlockWithTxs} page would carry them. */
    static List<RestTx> restTxs(List<JsonObject> txs) {
        JsonArray a = new JsonArray();
        txs.forEach(a::add);
        return RestTx.scanPage(new JsonObject()
                        .put("txs", a)
                        .put("pagination", new JsonObject().putNull("next_key").put("total", "1"))
                        .toBuffer()
                        .getBytes())
                .txs();
    }

    static RestTx restTx(JsonObject tx) {
        return restTxs(List.of(tx)).get(0);
    }

    static List<RestTx> restTxs(JsonObject... txs) {
        return restTxs(new ArrayList<>(List.of(txs)));
    }
}
