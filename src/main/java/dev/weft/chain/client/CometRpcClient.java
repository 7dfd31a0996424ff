package dev.weft.chain.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.model.BlockResults;
import dev.weft.chain.model.CometBlock;
import dev.weft.chain.model.CometStatus;
import dev.weft.chain.model.NodeJson;
import dev.weft.config.NodeClientOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

/**
 * CometBFT JSON-RPC over HTTP (the GET URI form, {@code /block?height=10}). Every answer is an envelope
 * {@code {"jsonrpc","id","result"|"error"}}; an {@code error} is a retryable {@link NodeException} (asking for a
 * height above the node's head is one, and the next attempt may succeed).
 */
public final class CometRpcClient {
    private final NodeHttp http;

    public CometRpcClient(Vertx vertx, List<String> urls, NodeClientOptions opts) {
        this.http = new NodeHttp(vertx, "rpc", urls, opts);
    }

    public NodeHttp http() {
        return http;
    }

    public Future<CometStatus> status() {
        return get("/status", CometStatus::parse);
    }

    /** {@code /block}, parsed with a streaming parser (the raw txs are decoded, the commit signatures skipped). */
    public Future<CometBlock> block(long height) {
        String path = "/block?height=" + height;
        return http.get(path, buf -> streamResult(path, buf, CometBlock::read));
    }

    /** {@code /block_results}, parsed with a streaming parser (no tree: events are most of a block's bytes). */
    public Future<BlockResults> blockResults(long height) {
        String path = "/block_results?height=" + height;
        return http.get(path, buf -> {
            byte[] json = NodeJson.bytes(buf);
            return streamResult(path, json, p -> BlockResults.read(p, json));
        });
    }

    private <T> T streamResult(String path, Buffer buf, BlockResults.Reader<T> reader) {
        return streamResult(path, NodeJson.bytes(buf), reader);
    }

    /** Streams an envelope: {@code reader} reads the {@code result} object; an {@code error} becomes a NodeException. */
    private <T> T streamResult(String path, byte[] json, BlockResults.Reader<T> reader) {
        try (com.fasterxml.jackson.core.JsonParser p = NodeJson.FACTORY.createParser(json)) {
            if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT)
                throw NodeException.invalid(http.api() + path, "not a JSON object");
            T out = null;
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String f = p.currentName();
                com.fasterxml.jackson.core.JsonToken t = p.nextToken();
                if (f.equals("result") && t == com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                    out = reader.read(p);
                } else if (f.equals("error") && t == com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                    JsonNode err = NodeJson.MAPPER.readTree(p);
                    String msg = NodeJson.text(err, "message", "")
                            + (err.hasNonNull("data") ? ": " + err.get("data").asText() : "");
                    throw NodeException.rpc(http.api() + path, err.path("code").asInt(), msg);
                } else {
                    p.skipChildren();
                }
            }
            if (out == null) throw NodeException.invalid(http.api() + path, "answer without result");
            return out;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("not JSON: " + e.getMessage(), e);
        }
    }

    /** {@code /tx_search} with an event query such as {@code tx.height=5} or {@code send_packet.packet_sequence='3'}. */
    public Future<JsonNode> txSearch(String query, int page, int perPage, boolean ascending) {
        return get(
                "/tx_search?query=" + quoted(query) + "&page=" + page + "&per_page=" + perPage + "&order_by="
                        + quoted(ascending ? "asc" : "desc"),
                r -> r);
    }

    /**
     * {@code /tx_search}, its {@code result} read by a streaming reader (no tree: a page of busy txs is large, and the
     * reader can skip what it does not need, such as the raw txs).
     */
    public <T> Future<T> txSearch(
            String query, int page, int perPage, boolean ascending, BlockResults.Reader<T> reader) {
        String path = "/tx_search?query=" + quoted(query) + "&page=" + page + "&per_page=" + perPage + "&order_by="
                + quoted(ascending ? "asc" : "desc");
        return http.get(path, buf -> streamResult(path, buf, reader));
    }

    /** {@code /blockchain?minHeight=&maxHeight=}: block metas, newest first, at most 20 ({@code 0, 0}: the latest ones). */
    public Future<JsonNode> blockchain(long minHeight, long maxHeight) {
        return get("/blockchain?minHeight=" + minHeight + "&maxHeight=" + maxHeight, r -> r);
    }

    /** {@code /tx?hash=0x…} of an upper- or lower-case hex hash. */
    public Future<JsonNode> tx(String hashHex) {
        return get("/tx?hash=0x" + hashHex, r -> r);
    }

    /** Any method in the URI form, e.g. {@code call("/validators?height=5")}; the future holds {@code result}. */
    public <T> Future<T> get(String pathAndQuery, Function<JsonNode, T> parseResult) {
        return http.get(pathAndQuery, buf -> parseResult.apply(result(http, pathAndQuery, buf)));
    }

    static JsonNode result(NodeHttp http, String path, Buffer buf) {
        JsonNode env = NodeJson.parse(buf);
        JsonNode err = env.get("error");
        if (err != null && !err.isNull()) {
            String msg = NodeJson.text(err, "message", "")
                    + (err.hasNonNull("data") ? ": " + err.get("data").asText() : "");
            throw NodeException.rpc(http.api() + path, err.path("code").asInt(), msg);
        }
        JsonNode res = env.get("result");
        if (res == null || res.isNull()) throw NodeException.invalid(http.api() + path, "answer without result");
        return res;
    }

    private static String quoted(String s) {
        return URLEncoder.encode("\"" + s + "\"", StandardCharsets.UTF_8);
    }

    public Future<Void> close() {
        return http.close();
    }
}
