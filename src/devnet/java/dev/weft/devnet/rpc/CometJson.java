package dev.weft.devnet.rpc;

import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.Event;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.gen.Validator;
import dev.weft.devnet.json.JsonOut;
import java.util.Base64;
import java.util.List;

/**
 * CometBFT 0.38 RPC JSON, fields in the Go struct order: int64 as strings, int32 as numbers, header hashes upper-case
 * hex, raw bytes base64, nil slices {@code null}, times RFC3339Nano.
 */
public final class CometJson {
    static final String BLOCK_PROTOCOL = "11";
    private static final Base64.Encoder B64 = Base64.getEncoder();

    private CometJson() {}

    /** {@code /block} result: block_id, then the block with its raw txs (base64) and last commit. */
    public static void block(JsonOut g, Block b, String chainId) {
        g.writeStartObject();
        g.writeFieldName("block_id");
        BlockJson.COMET.blockId(g, b.hash, b.partsHash);
        g.writeFieldName("block");
        BlockJson.COMET.block(g, b, chainId, null);
        g.writeEndObject();
    }

    public static void events(JsonOut g, List<Event> events) {
        g.writeStartArray();
        for (Event e : events) {
            g.writeStartObject();
            g.writeSafeStringField("type", e.type());
            g.writeArrayFieldStart("attributes");
            for (Event.Attr a : e.attributes()) {
                g.writeStartObject();
                g.writeSafeStringField("key", a.key());
                g.writeStringField("value", a.value());
                g.writeBooleanField("index", a.index());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** An ExecTxResult: code, data (base64 or null), log, info, gas_wanted, gas_used, events, codespace. */
    public static void txResult(JsonOut g, Tx tx) {
        g.writeStartObject();
        g.writeNumberField("code", tx.code);
        if (tx.data == null) g.writeNullField("data");
        else g.writeSafeStringField("data", B64.encodeToString(tx.data));
        g.writeStringField("log", tx.log);
        g.writeSafeStringField("info", "");
        g.writeSafeStringField("gas_wanted", Long.toString(tx.gasLimit));
        g.writeSafeStringField("gas_used", Long.toString(tx.gasUsed));
        g.writeFieldName("events");
        events(g, tx.events);
        g.writeSafeStringField("codespace", tx.codespace);
        g.writeEndObject();
    }

    /** {@code /block_results}: {@code txs_results} is null for an empty block (a nil slice), aligned with the txs otherwise. */
    public static void blockResults(JsonOut g, Block b) {
        g.writeStartObject();
        g.writeSafeStringField("height", Long.toString(b.height));
        if (b.txs.isEmpty()) {
            g.writeNullField("txs_results");
        } else {
            g.writeArrayFieldStart("txs_results");
            for (Tx tx : b.txs) txResult(g, tx);
            g.writeEndArray();
        }
        g.writeFieldName("finalize_block_events");
        events(g, b.finalizeEvents);
        g.writeNullField("validator_updates");
        g.writeFieldName("consensus_param_updates"); // Cosmos SDK 0.50 returns the current parameters every block
        g.writeRawValue(
                "{\"block\":{\"max_bytes\":\"22020096\",\"max_gas\":\"-1\"},"
                        + "\"evidence\":{\"max_age_num_blocks\":\"100000\",\"max_age_duration\":\"172800000000000\",\"max_bytes\":\"1048576\"},"
                        + "\"validator\":{\"pub_key_types\":[\"ed25519\"]},\"version\":{},\"abci\":{\"vote_extensions_enable_height\":\"0\"}}");
        g.writeSafeStringField("app_hash", B64.encodeToString(b.resultsAppHash));
        g.writeEndObject();
    }

    /** A ResultTx of {@code /tx} and {@code /tx_search}: hash, height, index, tx_result, tx. */
    public static void resultTx(JsonOut g, Block b, Tx tx) {
        g.writeStartObject();
        g.writeSafeStringField("hash", tx.hash);
        g.writeSafeStringField("height", Long.toString(b.height));
        g.writeNumberField("index", tx.index);
        g.writeFieldName("tx_result");
        txResult(g, tx);
        g.writeSafeStringField("tx", tx.rawBase64);
        g.writeEndObject();
    }

    public static void pubKey(JsonOut g, Validator v) {
        g.writeObjectFieldStart("pub_key");
        g.writeSafeStringField("type", "tendermint/PubKeyEd25519");
        g.writeSafeStringField("value", v.pubKeyBase64());
        g.writeEndObject();
    }
}
