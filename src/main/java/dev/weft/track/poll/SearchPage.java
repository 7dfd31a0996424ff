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
 * One page of a CometBFT 0.38 {@code tx_search} result, read with a streaming parser: per tx its hash, height, ABCI
 * code and log and the events the tracker reads (the raw tx and the other events, most of a busy tx's bytes, are
 * skipped). Block times are not in a tx_search answer: they are attached later ({@code timeNanos} 0 here).
 * {@code bytes} estimates the heap the kept txs hold.
 */
record SearchPage(long totalCount, List<ObservedTx> txs, long bytes) {
    /** Heap of a kept tx without its log and events: the record, its hash string, its list. */
    private static final int TX_BYTES = 200;
    /** Heap of a kept event without its attributes, and of one attribute without its characters (two strings, a map node). */
    private static final int EVENT_BYTES = 120;

    private static final int ATTRIBUTE_BYTES = 130;

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

    /** Reads the {@code result} object of a chain's tx_search; the parser is on its START_OBJECT. */
    static SearchPage read(String chainId, JsonParser p) throws IOException {
        long total = 0;
        List<ObservedTx> txs = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (f.equals("total_count")) {
                total = Long.parseLong(p.getValueAsString("0"));
            } else if (f.equals("txs") && t == JsonToken.START_ARRAY) {
                while (p.nextToken() == JsonToken.START_OBJECT) txs.add(tx(chainId, p));
            } else {
                p.skipChildren();
            }
        }
        long bytes = 0;
        for (ObservedTx tx : txs) bytes += bytes(tx);
        return new SearchPage(total, txs, bytes);
    }

    /** The approximate heap a kept tx holds. */
    static long bytes(ObservedTx tx) {
        long n = TX_BYTES + tx.log().length();
        for (ObservedTx.Event e : tx.events()) {
            n += EVENT_BYTES;
            for (Map.Entry<String, String> a : e.attrs().entrySet())
                n += ATTRIBUTE_BYTES + a.getKey().length() + a.getValue().length();
        }
        return n;
    }

    private static ObservedTx tx(String chainId, JsonParser p) throws IOException {
        String hash = "";
        long height = 0;
        int code = 0;
        String log = "";
        List<ObservedTx.Event> events = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            switch (f) {
                case "hash" -> hash = p.getValueAsString("").toUpperCase(Locale.ROOT);
                case "height" -> height = Long.parseLong(p.getValueAsString("0"));
                case "tx_result" -> {
                    if (t != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        continue;
                    }
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String r = p.currentName();
                        JsonToken rt = p.nextToken();
                        switch (r) {
                            case "code" -> code = p.getValueAsInt(0);
                            case "log" -> log = rt == JsonToken.VALUE_NULL ? "" : p.getValueAsString("");
                            case "events" -> {
                                if (rt == JsonToken.START_ARRAY) {
                                    while (p.nextToken() == JsonToken.START_OBJECT) event(p, events);
                                } else {
                                    p.skipChildren();
                                }
                            }
                            default -> p.skipChildren();
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
        return new ObservedTx(chainId, hash, height, 0, code, log, List.copyOf(events));
    }

    /** One event: kept when tracked (attributes in order, {@code msg_index} apart too), else skipped. */
    static void event(JsonParser p, List<ObservedTx.Event> out) throws IOException {
        String type = null;
        Map<String, String> attrs = null;
        String msgIndex = null;
        boolean skip = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if (f.equals("type")) {
                type = p.getValueAsString("");
                skip = !TRACKED.contains(type);
            } else if (f.equals("attributes") && t == JsonToken.START_ARRAY && !skip) {
                attrs = new LinkedHashMap<>();
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
                    if (key == null) continue;
                    // its signatures and fee are most of its bytes and nothing the tracker reads
                    if (type.equals(SIGNER_EVENT) && !key.equals("acc_seq")) continue;
                    if (key.equals("msg_index")) msgIndex = value;
                    attrs.put(key, value);
                }
            } else {
                p.skipChildren();
            }
        }
        if (type != null && !skip && attrs != null && !attrs.isEmpty())
            out.add(new ObservedTx.Event(type, attrs, msgIndex));
    }
}
