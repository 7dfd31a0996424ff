package dev.weft.track.poll;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.weft.model.track.ObservedTx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tx records an indexed chain's {@code tx} table holds (the API's JSON: {@code txhash}, {@code height}, {@code code},
 * {@code raw_log}, {@code events}, …) read as the tracker's observed txs, the events filtered as a node's
 * {@code tx_search} answer is ({@link SearchPage#event}). Block times are attached by the caller.
 */
final class IndexedTxs {
    private static final JsonFactory JSON = new JsonFactory();

    private IndexedTxs() {}

    static SearchPage page(String chainId, long total, List<byte[]> records) {
        List<ObservedTx> txs = new ArrayList<>(records.size());
        long bytes = 0;
        for (byte[] r : records) {
            ObservedTx tx = read(chainId, r);
            txs.add(tx);
            bytes += SearchPage.bytes(tx);
        }
        return new SearchPage(total, txs, bytes);
    }

    static ObservedTx read(String chainId, byte[] record) {
        try (JsonParser p = JSON.createParser(record)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new IOException("a tx record is an object");
            String hash = "";
            long height = 0;
            int code = 0;
            String log = "";
            List<ObservedTx.Event> events = new ArrayList<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken t = p.nextToken();
                switch (f) {
                    case "txhash" -> hash = p.getValueAsString("").toUpperCase(Locale.ROOT);
                    case "height" -> height = Long.parseLong(p.getValueAsString("0"));
                    case "code" -> code = p.getValueAsInt(0);
                    case "raw_log" -> log = t == JsonToken.VALUE_NULL ? "" : p.getValueAsString("");
                    case "events" -> {
                        if (t == JsonToken.START_ARRAY) {
                            while (p.nextToken() == JsonToken.START_OBJECT) SearchPage.event(p, events);
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            return new ObservedTx(chainId, hash, height, 0, code, log, List.copyOf(events));
        } catch (IOException e) {
            throw new UncheckedIOException("a tx record of " + chainId + " cannot be read: " + e.getMessage(), e);
        }
    }
}
