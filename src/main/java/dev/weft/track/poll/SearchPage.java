package dev.weft.track.poll;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.weft.model.track.ObservedTx;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One page of a CometBFT 0.38 {@code tx_search} result, read with a streaming parser: per tx its hash, height, ABCI
 * code and log and the events the tracker reads ({@link TxEvents}; the raw tx and the other events, most of a busy
 * tx's bytes, are skipped). Block times are not in a tx_search answer: they are attached later ({@code timeNanos} 0 here).
 * {@code bytes} estimates the heap the kept txs hold.
 */
record SearchPage(long totalCount, List<ObservedTx> txs, long bytes) {
    /** Heap of a kept tx without its log and events: the record, its hash string, its list. */
    private static final int TX_BYTES = 200;
    /** Heap of a kept event without its attributes, and of one attribute without its characters (two strings, a map node). */
    private static final int EVENT_BYTES = 120;

    private static final int ATTRIBUTE_BYTES = 130;

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
                while (p.nextToken() == JsonToken.START_OBJECT) txs.add(TxEvents.tx(chainId, p, TxEvents.SEARCH));
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
}
