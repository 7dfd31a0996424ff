package dev.weft.devnet.rest;

import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.http.DevnetServer.Request;
import dev.weft.devnet.http.Reply;
import dev.weft.devnet.rpc.TxSearch;
import java.util.List;

/**
 * {@code GET /cosmos/tx/v1beta1/txs} (GetTxsEvent, what initia.js {@code tx.search} and cosmjs call): the CometBFT
 * query in {@code query} (SDK 0.50), or the older repeated {@code events} joined by {@code AND}; {@code page} (from 1)
 * and {@code limit} (default 100, at most 100 as CometBFT caps it), {@code order_by} {@code ORDER_BY_ASC} /
 * {@code ORDER_BY_DESC}. The answer is SDK 0.50's {@code {txs, tx_responses, pagination: null, total}}; node errors
 * (a bad query, a page out of range) are code 13, as the SDK wraps them.
 */
final class RestTxSearch {
    private static final int MAX_LIMIT = 100;

    private final TxSearch search;

    RestTxSearch(DevnetChain chain, int window) {
        this.search = new TxSearch(chain, window);
    }

    Reply search(Request r) {
        String query = r.param("query");
        if (query == null || query.isBlank()) {
            List<String> events = r.params().getAll("events");
            query = events.isEmpty() ? null : String.join(" AND ", events);
        }
        if (query == null || query.isBlank()) throw CosmosRestServer.RestError.invalid("query cannot be empty");
        long page = CosmosRestServer.longParam(r, "page", 0);
        long limit = CosmosRestServer.longParam(r, "limit", 0);
        if (page <= 0) page = 1;
        if (limit <= 0) limit = MAX_LIMIT;
        limit = Math.min(limit, MAX_LIMIT);
        List<DevnetChain.TxRef> found;
        try {
            found = search.find(query, order(r.param("order_by")));
        } catch (IllegalArgumentException e) {
            throw new CosmosRestServer.RestError(500, 13, e.getMessage());
        }
        long pages = Math.max(1, (found.size() + limit - 1) / limit);
        if (page > pages)
            throw new CosmosRestServer.RestError(
                    500, 13, "page should be within [1, " + pages + "] range, given " + page);
        int from = (int) Math.min(found.size(), (page - 1) * limit);
        List<DevnetChain.TxRef> slice = found.subList(from, (int) Math.min(found.size(), from + limit));
        int total = found.size();
        return Reply.json(200, g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("txs");
            for (DevnetChain.TxRef t : slice) RestJson.tx(g, t.tx(), false);
            g.writeEndArray();
            g.writeArrayFieldStart("tx_responses");
            for (DevnetChain.TxRef t : slice) RestJson.txResponse(g, t.block(), t.tx());
            g.writeEndArray();
            g.writeNullField("pagination");
            g.writeStringField("total", Integer.toString(total));
            g.writeEndObject();
        });
    }

    /** The SDK's {@code parseOrderBy}: the enum by name or number; anything else is the node's default (ascending). */
    private static String order(String s) {
        if (s == null) return "";
        return switch (s) {
            case "ORDER_BY_ASC", "1" -> "asc";
            case "ORDER_BY_DESC", "2" -> "desc";
            default -> "";
        };
    }
}
