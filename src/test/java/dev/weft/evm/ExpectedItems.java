package dev.weft.evm;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The API items a callTracer frame tree must give, written out here from rollytics' internal-tx items (api/handler/tx/internaltx.go in initia-labs/rollytics) independently
 * of {@link CallFrames}: pre-order, the top frame index 0 with parent -1, even-length lower-case hex, the top frame's
 * output blanked and its gasUsed the receipt's, no value for STATICCALL and DELEGATECALL, error and revertReason only
 * on failed frames.
 */
final class ExpectedItems {
    private ExpectedItems() {}

    static String even(String hex) {
        if (hex == null || hex.isEmpty() || hex.equals("0x")) return "0x";
        String h = hex.substring(2).toLowerCase(Locale.ROOT);
        return "0x" + (h.length() % 2 == 1 ? "0" : "") + h;
    }

    static List<JsonObject> of(long height, String txHash, JsonObject top, String receiptGasUsed) {
        List<JsonObject> out = new ArrayList<>();
        walk(height, txHash.toLowerCase(Locale.ROOT), top, -1, receiptGasUsed, out);
        return out;
    }

    private static void walk(
            long height, String hash, JsonObject f, int parent, String receiptGas, List<JsonObject> out) {
        int index = out.size();
        boolean top = index == 0;
        String type = f.getString("type");
        JsonObject o = new JsonObject()
                .put("height", height)
                .put("hash", hash)
                .put("parent_index", parent)
                .put("index", index)
                .put("type", type)
                .put("from", f.getString("from").toLowerCase(Locale.ROOT))
                .put("to", f.getString("to", "").toLowerCase(Locale.ROOT))
                .put("input", even(f.getString("input")))
                .put("output", top ? "0x" : even(f.getString("output")))
                .put("value", type.equals("DELEGATECALL") ? "0x" : even(f.getString("value")))
                .put("gas", even(f.getString("gas")))
                .put("gasUsed", even(top ? receiptGas : f.getString("gasUsed")));
        if (f.getString("error") != null) {
            o.put("error", f.getString("error"));
            if (f.getString("revertReason") != null) o.put("revertReason", f.getString("revertReason"));
        }
        out.add(o);
        for (Object c : f.getJsonArray("calls", new JsonArray()))
            walk(height, hash, (JsonObject) c, index, receiptGas, out);
    }
}
