package dev.weft.testsupport;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** CometBFT tx results of the devnet's relayer, which carries several packets per tx. */
public final class RelayedTxs {
    private RelayedTxs() {}

    private static final java.util.regex.Pattern PACKET_SEQUENCE =
            java.util.regex.Pattern.compile("(\\w+)\\.packet_sequence='(\\d+)'");
    private static final java.util.regex.Pattern PACKET_CHANNEL =
            java.util.regex.Pattern.compile("\\w+\\.(packet_(?:src|dst)_channel)='([^']+)'");

    /**
     * The relayer batches the packets of a block into one tx (as relayers do), so a tx found by a packet's sequence may
     * carry other tests' or the generated traffic's packets too: keep only the events of the message handling this
     * packet (same {@code msg_index}), and the tx-level ones.
     */
    public static JsonObject onlyMessageOfPacket(JsonObject tx, String query) {
        var seq = PACKET_SEQUENCE.matcher(query);
        if (!seq.find()) return tx;
        var channel = PACKET_CHANNEL.matcher(query);
        String channelKey = channel.find() ? channel.group(1) : null;
        JsonObject result = tx.getJsonObject("tx_result");
        String msgIndex = null;
        for (JsonObject e : attributes(result, seq.group(1))) {
            if (seq.group(2).equals(e.getString("packet_sequence"))
                    && (channelKey == null || channel.group(2).equals(e.getString(channelKey)))) {
                msgIndex = e.getString("msg_index");
            }
        }
        if (msgIndex == null) return tx;
        JsonArray kept = new JsonArray();
        for (Object o : result.getJsonArray("events")) {
            JsonObject e = (JsonObject) o;
            String mi = null;
            for (Object a : e.getJsonArray("attributes")) {
                if ("msg_index".equals(((JsonObject) a).getString("key"))) mi = ((JsonObject) a).getString("value");
            }
            if (mi == null || mi.equals(msgIndex)) kept.add(e);
        }
        JsonObject narrowed = tx.copy();
        narrowed.getJsonObject("tx_result").put("events", kept);
        return narrowed;
    }

    /** The attributes of each event of a type, as a key → value object. */
    public static List<JsonObject> attributes(JsonObject txResult, String type) {
        List<JsonObject> out = new ArrayList<>();
        for (Object o : txResult.getJsonArray("events")) {
            JsonObject e = (JsonObject) o;
            if (!e.getString("type").equals(type)) continue;
            JsonObject attrs = new JsonObject();
            for (Object a : e.getJsonArray("attributes")) {
                JsonObject kv = (JsonObject) a;
                attrs.put(kv.getString("key"), kv.getString("value"));
            }
            out.add(attrs);
        }
        return out;
    }
}
