package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.config.HttpConfig;
import dev.weft.config.RateLimitConfig;
import io.netty.handler.codec.TooLongFrameException;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * What keeps one client from taking the HTTP server down: server options (idle timeout, line and header sizes), the
 * per-address connection cap, request deadline and HTTP version check on every new connection, JSON answers to
 * requests the HTTP decoder rejects, the per-client rate limit, the JSON-only rule for request bodies, and the
 * same-origin rule of the SockJS bridge; HEAD answered as GET without the body.
 */
final class HttpGuards {
    /** Routing-context key of a request the client sent as HEAD. */
    private static final String HEAD = "weft.head";

    private final HttpConfig http;
    private final RateLimitConfig rateLimit;
    private final ClientLimits limits;
    private final ClientAddress clients;

    HttpGuards(HttpConfig http, RateLimitConfig rateLimit, ClientLimits limits) {
        this.http = http;
        this.rateLimit = rateLimit;
        this.limits = limits;
        this.clients = new ClientAddress(http.trustedProxies());
    }

    HttpServerOptions serverOptions(String host, int port) {
        // no h2c upgrade: the systems Weft replaces answer HTTP/1.1, and an upgraded request with a body (the JDK
        // client's default) could be left unanswered
        return new HttpServerOptions()
                .setHost(host)
                .setPort(port)
                .setCompressionSupported(true)
                .setHttp2ClearTextEnabled(false)
                .setIdleTimeout((int) http.idleTimeout().toSeconds())
                .setIdleTimeoutUnit(java.util.concurrent.TimeUnit.SECONDS)
                .setMaxInitialLineLength(http.maxInitialLineBytes())
                .setMaxHeaderSize(http.maxHeaderBytes());
    }

    /** Every new connection: counted against its address (a trusted proxy is not capped), then given its deadline. */
    void onConnection(HttpConnection conn) {
        if (!(conn instanceof ConnectionBase base)) return;
        String address =
                conn.remoteAddress() == null ? "unknown" : conn.remoteAddress().hostAddress();
        if (!clients.isTrustedProxy(address)) {
            String key = ClientAddress.key(address);
            if (!limits.open(key, http.maxConnectionsPerClient())) {
                RawResponse.sendAndClose(
                        base.channel().pipeline().firstContext(),
                        new BusError(
                                429,
                                "too many connections from " + address + " (at most " + http.maxConnectionsPerClient()
                                        + ")"));
                return;
            }
            conn.closeHandler(v -> limits.closed(key));
        }
        RequestDeadline.install(base.channel().pipeline(), http.requestTimeout().toMillis());
        HttpVersionGuard.install(base.channel().pipeline());
    }

    /** A request the HTTP decoder rejected (line or headers too long, malformed): a JSON error, then close. */
    void onInvalidRequest(HttpServerRequest req) {
        Throwable cause =
                req.decoderResult() == null ? null : req.decoderResult().cause();
        BusError error;
        if (cause instanceof TooLongFrameException
                && cause.getClass().getSimpleName().contains("Line")) {
            error = new BusError(414, "request line longer than " + http.maxInitialLineBytes() + " bytes");
        } else if (cause instanceof TooLongFrameException
                && cause.getClass().getSimpleName().contains("Header")) {
            error = new BusError(431, "request headers larger than " + http.maxHeaderBytes() + " bytes");
        } else {
            error = BusError.badRequest("malformed HTTP request");
        }
        req.response()
                .setStatusCode(error.httpStatus())
                .putHeader("content-type", "application/json")
                .putHeader("connection", "close")
                .end(error.toJson().toBuffer())
                .onComplete(v -> req.connection().close());
    }

    /** The per-client token bucket: 429 with {@code Retry-After} when the client is over its rate. */
    void rateLimit(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        String client = clients.of(req);
        rc.put(RequestClient.KEY, client);
        if (!rateLimit.enabled()) {
            rc.next();
            return;
        }
        // the POSTs that compute (routes, messages, tracking), the Prometheus scrape (a ~250 KB answer) and the CSV
        // exports (up to export.max_rows rows each)
        boolean costly = req.method() == HttpMethod.POST && !req.path().startsWith("/eventbus/")
                || "/metrics".equals(req.path())
                || CsvExport.requested(req);
        long wait = limits.take(client, costly);
        if (wait == 0) {
            rc.next();
            return;
        }
        rc.response().putHeader("retry-after", Long.toString(wait));
        Responses.error(rc, new BusError(429, "rate limit exceeded: retry in " + wait + " s"));
    }

    /**
     * HEAD is answered as GET without the body (RFC 9110, section 9.3.2), as rollytics' Fiber routes answer it (its
     * {@code Get} registers HEAD too), so uptime checks that send HEAD see what GET would: the request is routed again as
     * GET, and Vert.x leaves out the body of a response to a HEAD request (and its content-length, which
     * {@link Responses} puts back).
     */
    static void headAsGet(RoutingContext rc) {
        if (rc.request().method() == HttpMethod.HEAD) {
            rc.put(HEAD, Boolean.TRUE);
            rc.reroute(HttpMethod.GET, rc.request().uri());
        } else {
            rc.next();
        }
    }

    /** Whether the client sent HEAD (after {@link #headAsGet} the request reads as GET). */
    static boolean isHead(RoutingContext rc) {
        return rc.get(HEAD) != null;
    }

    /**
     * Request bodies are JSON only: any other content type is a 415 before the body is read, so no form is ever decoded
     * and a cross-site form post (a "simple" request a browser sends without asking) never reaches a handler. A method
     * no route takes is left to the router's 404/405.
     */
    static void requireJson(RoutingContext rc, AllowedMethods allowed) {
        HttpMethod m = rc.request().method();
        boolean hasBody = m == HttpMethod.POST || m == HttpMethod.PUT || m == HttpMethod.PATCH;
        if (!hasBody
                || rc.request().path().startsWith("/eventbus/")
                || isJson(rc.request().getHeader("content-type"))
                || !allowed.of(rc.request().path())
                        .contains(m.name())) { // no such route: the router's 404/405 says more
            rc.next();
            return;
        }
        Responses.error(rc, new BusError(415, "the request body must be JSON (Content-Type: application/json)"));
    }

    static boolean isJson(String contentType) {
        if (contentType == null) return false;
        int semi = contentType.indexOf(';');
        return (semi < 0 ? contentType : contentType.substring(0, semi))
                .trim()
                .toLowerCase(Locale.ROOT)
                .equals("application/json");
    }

    /**
     * The SockJS bridge answers only pages of its own origin or of {@code http.cors_origins}; a foreign page's request is
     * a 403 (SockJS itself would echo any Origin with credentials allowed).
     */
    static io.vertx.core.Handler<RoutingContext> sameOriginBridge(HttpConfig http) {
        CorsOrigins cors = CorsOrigins.of(http.corsOriginList());
        return rc -> {
            String origin = rc.request().getHeader("origin");
            if (origin == null || allowedOrigin(cors, origin, rc.request().getHeader("host"))) {
                rc.addHeadersEndHandler(v -> rc.response().headers().remove("access-control-allow-credentials"));
                rc.next();
                return;
            }
            Responses.error(rc, new BusError(403, "origin " + origin + " may not use the event-bus bridge"));
        };
    }

    /** Whether {@code origin} is one of {@code allowed} or the API's own. */
    static boolean allowedOrigin(CorsOrigins allowed, String origin, String host) {
        return allowed.allows(origin) || sameOrigin(origin, host);
    }

    /** Whether {@code origin} is the API's own: its authority is the request's Host. */
    static boolean sameOrigin(String origin, String host) {
        if (origin == null) return false;
        try {
            String authority = new java.net.URI(origin).getRawAuthority();
            return authority != null && host != null && authority.equalsIgnoreCase(host);
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }
}
