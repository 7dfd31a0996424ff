package dev.weft.testsupport;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A JSON-RPC proxy on a free loopback port that forwards every POST to a node and records each request body (a JSON
 * object, or an array for a batch) in order: what a component asked of the node.
 */
public final class RecordingProxy {
    private final HttpServer server;
    /** The request bodies, in the order they arrived. */
    public final List<Object> received;

    private RecordingProxy(HttpServer server, List<Object> received) {
        this.server = server;
        this.received = received;
    }

    /** Starts a proxy to {@code target} (an http URL) on {@code vertx}; {@code port} 0 picks a free one. */
    public static RecordingProxy start(Vertx vertx, String target, int port) throws Exception {
        HttpClient forward = vertx.createHttpClient();
        URI to = URI.create(target);
        List<Object> received = new CopyOnWriteArrayList<>();
        HttpServer server = vertx.createHttpServer()
                .requestHandler(req -> req.body().onSuccess(body -> {
                    received.add(body.toJsonValue());
                    forward.request(HttpMethod.POST, to.getPort(), to.getHost(), "/")
                            .compose(r -> r.putHeader("content-type", "application/json")
                                    .send(body)
                                    .compose(HttpClientResponse::body))
                            .onSuccess(answer -> req.response()
                                    .putHeader("content-type", "application/json")
                                    .end(answer))
                            .onFailure(e -> req.response().setStatusCode(502).end());
                }))
                .listen(port, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get();
        return new RecordingProxy(server, received);
    }

    public String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }
}
