package dev.weft.track.poll;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.weft.model.track.ObservedTx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tx records an indexed chain's {@code tx} table holds (the API's JSON: {@code txhash}, {@code height}, {@code code},
 * {@code raw_log}, {@code events}, …) read as the tracker's observed txs, the events filtered as a node's
 * {@code tx_search} answer is ({@link TxEvents}). Block times are attached by the caller.
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
            return TxEvents.tx(chainId, p, TxEvents.RECORD);
        } catch (IOException e) {
            throw new UncheckedIOException("a tx record of " + chainId + " cannot be read: " + e.getMessage(), e);
        }
    }
}
