package dev.weft.track.poll;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.weft.model.track.ObservedTx;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The one streaming reader of a tx's hash, height, ABCI code, log and tracked events, for both shapes the tracker
 * reads: a node's {@code tx_search} tx ({@code hash}, {@code height}, and {@code code}, {@code log}, {@code events}
 * inside {@code tx_result}, as CometBFT 0.38's RPC answers) and the index's tx record (the API's JSON: {@code txhash},
 * {@code height}, {@code code}, {@code raw_log}, {@code events} side by side). Everything else is skipped unread.
 */
final class TxEvents {
    /** The events the tracker reads. */
    static final Set<String> TRACKED = Set.of(
            "send_packet",
            "recv_packet",
            "write_acknowledgement",
            "acknowledge_packet",
            "timeout_packet",
            "fungible_token_packet",
            "initiate_token_deposit",
            "finalize_token_deposit",
            "initiate_token_withdrawal",
            "propose_output",
            "tx",
            // coin movements: what a swap on IBC arrival (ibc-hooks) paid the recipient
            "transfer");

    /** The ante handler's {@code tx} event is kept for its {@code acc_seq} (the signer, for watched addresses) only. */
    private static final String SIGNER_EVENT = "tx";

    /**
     * Where a shape keeps its fields: the hash's name, the object holding code, log and events (null: the tx itself)
     * and the log's name.
     */
    record Shape(String hash, String result, String log) {}

    /** A node's {@code tx_search} tx. */
    static final Shape SEARCH = new Shape("hash", "tx_result", "log");
    /** The index's tx record. */
    static final Shape RECORD = new Shape("txhash", null, "raw_log");

    private TxEvents() {}

    /** Reads one tx; the parser is on its START_OBJECT and ends on its END_OBJECT. Block time 0: the caller's. */
    static ObservedTx tx(String chainId, JsonParser p, Shape shape) throws IOException {
        Fields f = new Fields();
        fields(p, shape, f, true, shape.result() == null);
        return new ObservedTx(chainId, f.hash, f.height, 0, f.code, f.log, List.copyOf(f.events));
    }

    private static final class Fields {
        String hash = "";
        long height;
        int code;
        String log = "";
        final List<ObservedTx.Event> events = new ArrayList<>();
    }

    /** The fields of one object: {@code top} the tx itself, {@code result} the one holding code, log and events. */
    private static void fields(JsonParser p, Shape shape, Fields out, boolean top, boolean result) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (top && f.equals(shape.hash())) {
                out.hash = p.getValueAsString("").toUpperCase(Locale.ROOT);
            } else if (top && f.equals("height")) {
                out.height = Long.parseLong(p.getValueAsString("0"));
            } else if (top && f.equals(shape.result()) && t == JsonToken.START_OBJECT) {
                fields(p, shape, out, false, true);
            } else if (result && f.equals("code")) {
                out.code = p.getValueAsInt(0);
            } else if (result && f.equals(shape.log())) {
                out.log = t == JsonToken.VALUE_NULL ? "" : p.getValueAsString("");
            } else if (result && f.equals("events") && t == JsonToken.START_ARRAY) {
                while (p.nextToken() == JsonToken.START_OBJECT) event(p, out.events);
            } else {
                p.skipChildren();
            }
        }
    }

    /**
     * One event: kept when tracked (attributes in order, {@code msg_index} apart too), else skipped. Its fields may come
     * in any order (JSON objects are unordered; the recorded tendermint-rs answers list {@code attributes} first): the
     * attributes before a type are read and kept until it tells.
     */
    static void event(JsonParser p, List<ObservedTx.Event> out) throws IOException {
        String type = null;
        Map<String, String> attrs = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (f.equals("type")) {
                type = p.getValueAsString("");
            } else if (f.equals("attributes")
                    && t == JsonToken.START_ARRAY
                    && (type == null || TRACKED.contains(type))) {
                attrs = attributes(p, SIGNER_EVENT.equals(type));
            } else {
                p.skipChildren();
            }
        }
        if (type == null || attrs == null || !TRACKED.contains(type)) return;
        if (type.equals(SIGNER_EVENT)) attrs.keySet().removeIf(k -> !k.equals("acc_seq"));
        if (!attrs.isEmpty()) out.add(new ObservedTx.Event(type, attrs, attrs.get("msg_index")));
    }

    /** An event's attributes in order; of the ante handler's {@code tx} event ({@code signer}) only {@code acc_seq}. */
    private static Map<String, String> attributes(JsonParser p, boolean signer) throws IOException {
        Map<String, String> attrs = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.START_OBJECT) {
            String key = null;
            String value = "";
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String a = p.currentName();
                JsonToken at = p.nextToken();
                if (a.equals("key")) key = p.getValueAsString("");
                else if (a.equals("value")) value = at == JsonToken.VALUE_NULL ? "" : p.getValueAsString("");
                else p.skipChildren();
            }
            // its signatures and fee are most of its bytes and nothing the tracker reads
            if (key == null || (signer && !key.equals("acc_seq"))) continue;
            attrs.put(key, value);
        }
        return attrs;
    }
}
