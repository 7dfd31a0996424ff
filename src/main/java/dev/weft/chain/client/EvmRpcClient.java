package dev.weft.chain.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.chain.model.BlockReceipt;
import dev.weft.chain.model.NodeJson;
import dev.weft.config.NodeClientOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Ethereum JSON-RPC 2.0 over HTTP POST: single calls, batches, block receipts and block traces. */
public final class EvmRpcClient {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final NodeHttp http;
    private final AtomicLong ids = new AtomicLong();

    public EvmRpcClient(Vertx vertx, List<String> urls, NodeClientOptions opts) {
        this.http = new NodeHttp(vertx, "json_rpc", urls, opts);
    }

    public NodeHttp http() {
        return http;
    }

    /** One request of a batch. */
    public record Request(String method, ArrayNode params) {
        public static Request of(String method, Object... params) {
            return new Request(method, EvmRpcClient.params(params));
        }
    }

    /** One answer of a batch: {@code result}, or {@code error} (then result is null). */
    public record Result(JsonNode result, JsonNode error) {
        public boolean ok() {
            return error == null;
        }
    }

    /** Builds a params array from Java values (String, Number, Boolean, JsonNode, null). */
    public static ArrayNode params(Object... values) {
        ArrayNode a = NODES.arrayNode();
        for (Object v : values) {
            if (v == null) a.addNull();
            else if (v instanceof JsonNode n) a.add(n);
            else if (v instanceof Boolean b) a.add(b);
            else if (v instanceof Long l) a.add(l);
            else if (v instanceof Integer i) a.add(i);
            else a.add(String.valueOf(v));
        }
        return a;
    }

    public static String quantity(long n) {
        return "0x" + Long.toHexString(n);
    }

    /** A call; its {@code error} fails the future with a {@link NodeException} of kind RPC. */
    public Future<JsonNode> call(String method, ArrayNode params) {
        return call(method, params, http.options());
    }

    public Future<JsonNode> call(String method, ArrayNode params, NodeClientOptions opts) {
        ObjectNode req = request(method, params);
        return http.call(
                io.vertx.core.http.HttpMethod.POST,
                "",
                encode(req),
                buf -> {
                    JsonNode env = NodeJson.parse(buf);
                    JsonNode err = env.get("error");
                    if (err != null && !err.isNull())
                        throw NodeException.rpc(method, err.path("code").asInt(), NodeJson.text(err, "message", ""));
                    return env.get("result") == null ? NodeJson.MAPPER.nullNode() : env.get("result");
                },
                opts);
    }

    /** A batch; answers come back in request order whatever order the node used. */
    public Future<List<Result>> batch(List<Request> requests) {
        if (requests.isEmpty()) return Future.succeededFuture(List.of());
        ArrayNode body = NODES.arrayNode();
        // one block of ids reserved at once: the client is shared across threads, so ids taken one by one could
        // interleave
        long first = ids.getAndAdd(requests.size()) + 1;
        for (int i = 0; i < requests.size(); i++)
            body.add(
                    request(first + i, requests.get(i).method(), requests.get(i).params()));
        return http.call(
                io.vertx.core.http.HttpMethod.POST,
                "",
                encode(body),
                buf -> {
                    JsonNode env = NodeJson.parse(buf);
                    if (!env.isArray()) {
                        JsonNode err = env.get("error");
                        throw NodeException.rpc(
                                "batch",
                                err == null ? 0 : err.path("code").asInt(),
                                err == null ? "not a batch answer" : NodeJson.text(err, "message", ""));
                    }
                    Result[] out = new Result[requests.size()];
                    for (JsonNode a : env) {
                        long id = a.path("id").asLong(-1);
                        int i = (int) (id - first);
                        if (i < 0 || i >= out.length) continue;
                        JsonNode err = a.get("error");
                        out[i] = err != null && !err.isNull()
                                ? new Result(null, err)
                                : new Result(a.get("result"), null);
                    }
                    List<Result> list = new ArrayList<>(out.length);
                    for (Result r : out) {
                        if (r == null) throw NodeException.invalid("batch", "batch answer misses a request");
                        list.add(r);
                    }
                    return list;
                },
                http.options());
    }

    public Future<Long> blockNumber() {
        return call("eth_blockNumber", params()).map(n -> NodeJson.quantity(n.asText()));
    }

    /**
     * {@code eth_getBlockReceipts} of a height. A {@code null} result (the node does not have the block yet) is a
     * retryable failure, never an empty block.
     */
    public Future<List<JsonNode>> blockReceipts(long height) {
        return call("eth_getBlockReceipts", params(quantity(height))).map(r -> {
            if (r == null || r.isNull())
                throw NodeException.rpc("eth_getBlockReceipts", 0, "block " + height + " not available yet");
            if (!r.isArray()) throw NodeException.invalid("eth_getBlockReceipts", "result is not an array");
            List<JsonNode> out = new ArrayList<>(r.size());
            r.forEach(out::add);
            return out;
        });
    }

    /**
     * {@code eth_getBlockReceipts} of a height as ingestion reads it: each receipt's span of the answer, streamed (no
     * tree), with its fields when the span is the stored record ({@link BlockReceipt}). A {@code null} result is a
     * retryable failure, as in {@link #blockReceipts}.
     */
    public Future<List<BlockReceipt>> blockReceiptSpans(long height) {
        String method = "eth_getBlockReceipts";
        return http.call(
                io.vertx.core.http.HttpMethod.POST,
                "",
                encode(request(method, params(quantity(height)))),
                buf -> {
                    byte[] json = NodeJson.bytes(buf);
                    try (JsonParser p = NodeJson.FACTORY.createParser(json)) {
                        if (p.nextToken() != JsonToken.START_OBJECT)
                            throw NodeException.invalid(method, "not a JSON object");
                        List<BlockReceipt> receipts = null;
                        JsonNode error = null;
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String f = p.currentName();
                            JsonToken t = p.nextToken();
                            if (f.equals("error") && t != JsonToken.VALUE_NULL) {
                                error = NodeJson.MAPPER.readTree(p);
                            } else if (f.equals("result") && t == JsonToken.START_ARRAY) {
                                receipts = BlockReceipt.readAll(p, json);
                            } else if (f.equals("result") && t != JsonToken.VALUE_NULL) {
                                throw NodeException.invalid(method, "result is not an array");
                            } else {
                                p.skipChildren();
                            }
                        }
                        if (error != null)
                            throw NodeException.rpc(
                                    method, error.path("code").asInt(), NodeJson.text(error, "message", ""));
                        if (receipts == null)
                            throw NodeException.rpc(method, 0, "block " + height + " not available yet");
                        return receipts;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                http.options());
    }

    /** {@code debug_traceBlockByNumber} with a tracer ({@code callTracer}) and the node-side timeout. */
    public Future<JsonNode> traceBlock(long height, String tracer, Duration timeout) {
        ObjectNode cfg = NODES.objectNode().put("tracer", tracer).put("timeout", timeout.toSeconds() + "s");
        return call(
                "debug_traceBlockByNumber",
                params(quantity(height), cfg),
                http.options().withRequestTimeout(timeout.plusSeconds(5)));
    }

    private ObjectNode request(String method, ArrayNode params) {
        return request(ids.incrementAndGet(), method, params);
    }

    private static ObjectNode request(long id, String method, ArrayNode params) {
        return NODES.objectNode()
                .put("jsonrpc", "2.0")
                .put("id", id)
                .put("method", method)
                .set("params", params == null ? NODES.arrayNode() : params);
    }

    private static Buffer encode(JsonNode n) {
        try {
            return Buffer.buffer(NodeJson.MAPPER.writeValueAsBytes(n));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Future<Void> close() {
        return http.close();
    }
}
