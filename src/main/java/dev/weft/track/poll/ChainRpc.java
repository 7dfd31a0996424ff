package dev.weft.track.poll;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;

/** The two CometBFT RPC calls the tracker polls a chain with; futures hold the JSON-RPC {@code result}. */
public interface ChainRpc {
    /** {@code /blockchain?minHeight=&maxHeight=} (0, 0: the latest metas). */
    Future<JsonNode> blockchain(long minHeight, long maxHeight);

    /** {@code /tx_search?query=&page=&per_page=&order_by=}: one page, the txs without block times. */
    Future<SearchPage> txSearch(String query, int page, int perPage, boolean ascending);

    /** Whether requests queue (for a permit of the client, or at the node): more at once would only lengthen the queue. */
    default boolean queueing() {
        return false;
    }

    /** The client's bound on requests in flight. */
    default int maxInFlight() {
        return Integer.MAX_VALUE;
    }
}
