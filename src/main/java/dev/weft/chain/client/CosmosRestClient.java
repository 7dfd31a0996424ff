package dev.weft.chain.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.model.NodeJson;
import dev.weft.chain.model.RestTx;
import dev.weft.config.NodeClientOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The Cosmos SDK REST API (gRPC gateway): decoded txs of a block, latest height, accounts, any other GET. */
public final class CosmosRestClient {
    /** Page size of {@code /txs/block}: the SDK's default and the size rollytics asks for. */
    public static final int TXS_PAGE = 100;

    private static final int ACCOUNTS_PAGE = 1000;
    private final NodeHttp http;

    public CosmosRestClient(Vertx vertx, List<String> urls, NodeClientOptions opts) {
        this.http = new NodeHttp(vertx, "rest", urls, opts);
    }

    public NodeHttp http() {
        return http;
    }

    /** One page of {@code GetBlockWithTxs}: the decoded txs from {@code offset} (as byte spans) and the node's pagination. */
    public Future<RestTx.Page> txsByBlockPage(long height, long offset, int limit) {
        return http.get(
                "/cosmos/tx/v1beta1/txs/block/" + height + "?pagination.offset=" + offset + "&pagination.limit="
                        + limit,
                buf -> RestTx.scanPage(NodeJson.bytes(buf)));
    }

    /**
     * The decoded txs of a block, paging by offset until the node's {@code pagination.total} (or {@code expected}, when
     * known) is reached. A node may end early (a short page, a premature {@code next_key: null}): the list can then be
     * shorter than the block, and callers compare it with the block's raw txs (rollytics#52).
     *
     * @param expected the block's tx count, or -1 when unknown
     */
    public Future<List<RestTx>> txsByBlock(long height, int expected) {
        List<RestTx> out = new ArrayList<>();
        return nextPage(height, expected, out).map(out);
    }

    private Future<Void> nextPage(long height, int expected, List<RestTx> out) {
        return txsByBlockPage(height, out.size(), TXS_PAGE).transform(ar -> {
            if (ar.failed()) {
                // a node that answered short rejects the next offset as "out of range" (a 400): keep what it gave
                boolean outOfRange = !out.isEmpty() && ar.cause() instanceof NodeException ne && !ne.retryable();
                return outOfRange ? Future.succeededFuture() : Future.failedFuture(ar.cause());
            }
            RestTx.Page page = ar.result();
            out.addAll(page.txs());
            long want = expected >= 0 ? expected : page.total();
            if (page.txs().isEmpty() || out.size() >= want) return Future.succeededFuture();
            return nextPage(height, expected, out);
        });
    }

    /** The latest height the REST node knows ({@code /cosmos/base/tendermint/v1beta1/blocks/latest}). */
    public Future<Long> latestHeight() {
        return get(
                "/cosmos/base/tendermint/v1beta1/blocks/latest",
                root -> NodeJson.requiredLong(root.path("block").path("header"), "height"));
    }

    /**
     * A GET of the state at a height ({@code x-cosmos-block-height}); attempts as configured (a 4xx is not retried).
     */
    public <T> Future<T> getAtHeight(String pathAndQuery, long height, Function<JsonNode, T> parse) {
        return http.call(
                HttpMethod.GET,
                pathAndQuery,
                null,
                buf -> parse.apply(NodeJson.parse(buf)),
                http.options(),
                io.vertx.core.MultiMap.caseInsensitiveMultiMap().add("x-cosmos-block-height", Long.toString(height)));
    }

    /**
     * Every account x/auth lists at a height ({@code /cosmos/auth/v1beta1/accounts}, paged by {@code next_key}): the
     * bech32 address of each (a {@code BaseAccount}'s {@code address}, or the {@code base_account} of module and contract
     * accounts), in the node's order.
     */
    public Future<List<String>> accountAddresses(long height) {
        List<String> out = new ArrayList<>();
        return accountPage(height, null, out).map(out);
    }

    private Future<Void> accountPage(long height, String key, List<String> out) {
        String q = "/cosmos/auth/v1beta1/accounts?pagination.limit=" + ACCOUNTS_PAGE
                + (key == null ? "" : "&pagination.key=" + URLEncoder.encode(key, StandardCharsets.UTF_8));
        return getAtHeight(q, height, root -> {
                    for (JsonNode a : NodeJson.array(root, "accounts")) {
                        JsonNode base = a.has("base_account") ? a.path("base_account") : a;
                        String address = base.path("address").asText("");
                        if (!address.isEmpty()) out.add(address);
                    }
                    JsonNode next = root.path("pagination").path("next_key");
                    return next.isTextual() && !next.asText().isEmpty() ? next.asText() : null;
                })
                .compose(next -> next == null ? Future.succeededFuture() : accountPage(height, next, out));
    }

    /** Any GET; the future holds the parsed body. */
    public <T> Future<T> get(String pathAndQuery, Function<JsonNode, T> parse) {
        return http.get(pathAndQuery, buf -> parse.apply(NodeJson.parse(buf)));
    }

    public Future<Void> close() {
        return http.close();
    }
}
