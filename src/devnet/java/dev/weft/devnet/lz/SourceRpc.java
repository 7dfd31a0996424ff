package dev.weft.devnet.lz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.net.URI;

/**
 * The devnet's own JSON-RPC 2.0 client of the LayerZero source chain (one URL, one request at a time, a timeout per
 * request; the watcher retries a failed read itself). Written from the JSON-RPC 2.0 specification, apart from the
 * product's node clients, so the devnet tests the product's clients instead of sharing them.
 */
final class SourceRpc {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_MS = 10_000;

    private final HttpClient http;
    private final URI url;
    private long ids;

    SourceRpc(Vertx vertx, String url) {
        this.url = URI.create(url);
        this.http = vertx.createHttpClient(
                new HttpClientOptions().setKeepAlive(true), new io.vertx.core.http.PoolOptions().setHttp1MaxSize(1));
    }

    /** The {@code result} of a call, failed on a transport error, a non-200 answer or a JSON-RPC {@code error}. */
    Future<JsonNode> call(String method, ArrayNode params) {
        Buffer body;
        try {
            body = Buffer.buffer(JSON.writeValueAsBytes(JSON.createObjectNode()
                    .put("jsonrpc", "2.0")
                    .put("id", ++ids)
                    .put("method", method)
                    .set("params", params)));
        } catch (IOException e) {
            return Future.failedFuture(e);
        }
        int port = url.getPort() > 0 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setHost(url.getHost())
                .setPort(port)
                .setSsl("https".equals(url.getScheme()))
                .setURI(path)
                .setTimeout(TIMEOUT_MS)
                .putHeader("content-type", "application/json");
        return http.request(options)
                .compose(req -> req.send(body))
                .compose(resp -> resp.body().map(b -> {
                    if (resp.statusCode() != 200)
                        throw new IllegalStateException(method + ": HTTP " + resp.statusCode());
                    return b;
                }))
                .map(b -> {
                    try {
                        JsonNode answer = JSON.readTree(b.getBytes());
                        if (answer.hasNonNull("error"))
                            throw new IllegalStateException(method + ": " + answer.get("error"));
                        return answer.path("result");
                    } catch (IOException e) {
                        throw new IllegalStateException(method + ": not JSON", e);
                    }
                });
    }

    /** {@code eth_blockNumber} as a number. */
    Future<Long> blockNumber() {
        return call("eth_blockNumber", JSON.createArrayNode()).map(r -> Long.decode(r.asText()));
    }

    static String quantity(long n) {
        return "0x" + Long.toHexString(n);
    }

    static ArrayNode params(JsonNode... values) {
        ArrayNode a = JSON.createArrayNode();
        for (JsonNode v : values) a.add(v);
        return a;
    }

    Future<Void> close() {
        return http.close();
    }
}
