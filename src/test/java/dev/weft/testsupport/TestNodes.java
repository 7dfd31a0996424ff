package dev.weft.testsupport;

import dev.weft.config.WeftConfig;
import dev.weft.node.WeftNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.concurrent.TimeUnit;

/** Starting a real node (the production start-up chain) inside a test, and calling its HTTP API synchronously. */
public final class TestNodes {
    private TestNodes() {}

    /** A Vert.x instance like the launcher's (Prometheus metrics on), not clustered. */
    public static Vertx newVertx() {
        return await(WeftNode.createVertx("127.0.0.1", null));
    }

    public static WeftNode start(Vertx vertx, WeftConfig config) {
        return await(WeftNode.startOn(vertx, config, false));
    }

    public static int httpPort(WeftNode node) {
        return node.context().info().httpPort();
    }

    public static <T> T await(io.vertx.core.Future<T> f) {
        try {
            return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            if (c instanceof RuntimeException re) throw re;
            throw new IllegalStateException(c);
        }
    }

    /** A blocking HTTP call from the test thread (never from an event loop). */
    public static HttpResponse<Buffer> call(
            WebClient client, int port, HttpMethod method, String uri, JsonObject body) {
        var req = client.request(method, port, "127.0.0.1", uri);
        return await(body == null ? req.send() : req.sendJsonObject(body));
    }

    public static HttpResponse<Buffer> get(WebClient client, int port, String uri) {
        return call(client, port, HttpMethod.GET, uri, null);
    }
}
