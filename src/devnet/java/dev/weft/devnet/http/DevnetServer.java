package dev.weft.devnet.http;

import dev.weft.devnet.fault.FaultInjector;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One protocol endpoint of a simulated node (CometBFT RPC, Cosmos REST or EVM JSON-RPC): reads the request, lets the
 * fault injector delay, fail or cut it, and writes the protocol's answer.
 */
public abstract class DevnetServer {
    private static final Logger LOG = LoggerFactory.getLogger(DevnetServer.class);
    private static final int MAX_BODY = 4 << 20;

    /** A request as the protocol handlers see it. */
    public record Request(HttpMethod method, String path, MultiMap params, Buffer body) {
        public String param(String name) {
            return params.get(name);
        }
    }

    protected final Vertx vertx;
    private final FaultInjector faults;
    private HttpServer server;

    protected DevnetServer(Vertx vertx, FaultInjector faults) {
        this.vertx = vertx;
        this.faults = faults;
    }

    public Future<HttpServer> listen(String host, int port) {
        server = vertx.createHttpServer(new HttpServerOptions()
                .setHost(host)
                .setPort(port)
                .setCompressionSupported(false)
                .setHttp2ClearTextEnabled(
                        false)); // nodes answer HTTP/1.1 (no h2c upgrade), as CometBFT and the gateways do
        return server.requestHandler(this::onRequest)
                .webSocketHandshakeHandler(this::onHandshake)
                .webSocketHandler(this::onWebSocket)
                .listen();
    }

    /** Whether the protocol serves a websocket at that path (none by default: the handshake is refused with 404). */
    protected boolean servesWebSocket(String path) {
        return false;
    }

    /** A websocket accepted at a path {@link #servesWebSocket} took. */
    protected void onWebSocket(io.vertx.core.http.ServerWebSocket ws) {
        ws.close();
    }

    private void onHandshake(io.vertx.core.http.ServerWebSocketHandshake h) {
        if (servesWebSocket(h.path())) h.accept();
        else h.reject(404);
    }

    public int port() {
        return server == null ? 0 : server.actualPort();
    }

    /** The protocol's answer to a request. */
    protected abstract Future<Reply> handle(Request request);

    /** The protocol's HTTP 500 error body for an injected fault. */
    protected abstract Reply faultReply();

    /** The protocol's answer to an unexpected failure of a handler. */
    protected abstract Reply internalError(Throwable cause);

    private void onRequest(HttpServerRequest req) {
        if (req.method() == HttpMethod.POST) {
            req.body().onSuccess(body -> {
                if (body.length() > MAX_BODY) write(req, Reply.text(413, "request body too large"));
                else serve(req, body);
            });
        } else {
            serve(req, null);
        }
    }

    private void serve(HttpServerRequest req, Buffer body) {
        FaultInjector.Decision d =
                faults.decide(req.method().name() + ' ' + req.uri() + (body == null ? "" : ' ' + body.toString()));
        Runnable answer = () -> {
            if (d.kind() == FaultInjector.Kind.ERROR) {
                write(req, faultReply());
                return;
            }
            Future<Reply> reply;
            try {
                reply = handle(new Request(req.method(), req.path(), req.params(), body));
            } catch (RuntimeException e) {
                reply = Future.failedFuture(e);
            }
            reply.onComplete(ar -> {
                Reply r = ar.succeeded() ? ar.result() : internalError(ar.cause());
                if (ar.failed()) LOG.warn("devnet {} {} failed", req.method(), req.uri(), ar.cause());
                if (d.kind() == FaultInjector.Kind.TRUNCATE) truncate(req, r);
                else write(req, r);
            });
        };
        long wait = faults.waitMillis(d);
        if (wait > 0) vertx.setTimer(wait, t -> answer.run());
        else answer.run();
    }

    private static void write(HttpServerRequest req, Reply r) {
        HttpServerResponse resp = req.response();
        if (resp.closed()) return;
        resp.setStatusCode(r.status())
                .putHeader("content-type", r.contentType())
                .end(r.body());
    }

    /** Announces the whole body, sends half of it, then closes the connection. */
    private static void truncate(HttpServerRequest req, Reply r) {
        HttpServerResponse resp = req.response();
        if (resp.closed()) return;
        Buffer body = r.body();
        resp.setStatusCode(r.status())
                .putHeader("content-type", r.contentType())
                .putHeader("content-length", Integer.toString(body.length()));
        resp.write(body.slice(0, body.length() / 2))
                .onComplete(x -> req.connection().close());
    }
}
