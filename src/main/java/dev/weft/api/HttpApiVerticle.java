package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.runtime.Listening;
import dev.weft.runtime.NodeContext;
import dev.weft.store.RequestValueRefused;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.CorsHandler;
import io.vertx.ext.web.handler.HttpException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Both HTTP APIs, health, metrics and the OpenAPI document on one router. Handlers live in {@link ApiModule}s;
 * this verticle only wires them and turns every failure into the JSON error body.
 */
public final class HttpApiVerticle extends VerticleBase {
    private static final Logger LOG = LoggerFactory.getLogger(HttpApiVerticle.class);

    private final NodeContext ctx;
    private final List<ApiModule> modules;
    private final java.util.concurrent.atomic.AtomicLong served = new java.util.concurrent.atomic.AtomicLong();
    private Future<HttpServer> server;
    private Future<HttpServer> adminServer;
    private HttpGuards guards;
    private volatile boolean draining;

    /** {@code modules}: the endpoint families this instance mounts, in mount order (the node wires them). */
    public HttpApiVerticle(NodeContext ctx, List<ApiModule> modules) {
        this.ctx = ctx;
        this.modules = List.copyOf(modules);
    }

    @Override
    public Future<?> start() {
        guards = new HttpGuards(
                ctx.config().http(),
                ctx.config().rateLimit(),
                ClientLimits.of(vertx, ctx.nodeId(), ctx.config().rateLimit()));
        AdminApi admin = modules.stream()
                .filter(AdminApi.class::isInstance)
                .map(AdminApi.class::cast)
                .findFirst()
                .orElseThrow();
        List<ApiModule> shown =
                admin.ownListener() ? modules.stream().filter(m -> m != admin).toList() : modules;
        return vertx.executeBlocking(() -> OpenApiDocument.merge(shown), false).<Object>compose(openApi -> {
            Router router = router(modules, openApi);
            String host = ctx.config().http().host();
            server = listen(
                    router,
                    "http.port",
                    host,
                    sharedPort(
                            ctx.info()::httpPort,
                            ctx.info()::httpPort,
                            host,
                            ctx.config().http().port()));
            if (!admin.ownListener()) return server.mapEmpty();
            String adminHost = ctx.config().admin().host();
            adminServer = listen(
                    adminRouter(admin),
                    "admin.port",
                    adminHost,
                    sharedPort(
                            ctx.info()::adminPort,
                            ctx.info()::adminPort,
                            adminHost,
                            ctx.config().admin().port()));
            return Future.all(server, adminServer).mapEmpty();
        });
    }

    private Future<HttpServer> listen(Router router, String setting, String host, int port) {
        return Listening.named(
                vertx.createHttpServer(guards.serverOptions(host, port))
                        .connectionHandler(guards::onConnection)
                        .invalidRequestHandler(guards::onInvalidRequest)
                        .requestHandler(router)
                        .listen(),
                setting,
                host,
                port);
    }

    /**
     * Instances share one listening port (Vert.x server sharing). Sharing needs the same concrete port, so a configured
     * port 0 is resolved to a free port by the first instance and reused by every instance added later.
     */
    private int sharedPort(
            java.util.function.IntSupplier recorded,
            java.util.function.IntConsumer record,
            String host,
            int configured) {
        if (configured > 0) {
            record.accept(configured);
            return configured;
        }
        synchronized (ctx.info()) {
            int bound = recorded.getAsInt();
            if (bound > 0) return bound;
            try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(host))) {
                record.accept(s.getLocalPort());
                return s.getLocalPort();
            } catch (java.io.IOException e) {
                throw new IllegalStateException("no free port on " + host, e);
            }
        }
    }

    /** Requests this instance has served (the node view shows how load spreads over instances). */
    public long served() {
        return served.get();
    }

    /**
     * Graceful: for {@code http.drain} every response of this instance says {@code Connection: close}, so busy
     * keep-alive clients move to other instances between requests; then the server shuts down, letting in-flight requests
     * finish. Closing idle keep-alive connections at once would race with requests clients are sending on them.
     */
    @Override
    public Future<?> stop() {
        if (server == null) return Future.succeededFuture();
        draining = true;
        io.vertx.core.Promise<Void> drained = io.vertx.core.Promise.promise();
        vertx.setTimer(Math.max(1, ctx.config().http().drain().toMillis()), id -> drained.complete());
        return drained.future().compose(v -> Future.all(shutdown(server), shutdown(adminServer)));
    }

    private static Future<Void> shutdown(Future<HttpServer> server) {
        if (server == null || server.failed()) return Future.succeededFuture();
        return server.compose(s -> s.shutdown(10, java.util.concurrent.TimeUnit.SECONDS));
    }

    Router router(List<ApiModule> modules, JsonObject openApi) {
        Router router = Router.router(vertx);
        router.route().handler(HttpGuards::headAsGet);
        router.route().handler(rc -> {
            served.incrementAndGet();
            if (draining) rc.response().putHeader("connection", "close");
            rc.next();
        });
        router.route().handler(guards::rateLimit);
        CorsOrigins cors = CorsOrigins.of(ctx.config().http().corsOriginList());
        if (!cors.isEmpty()) {
            CorsHandler corsHandler = cors.handler()
                    .allowedMethod(HttpMethod.GET)
                    .allowedMethod(HttpMethod.POST)
                    .allowedHeader("content-type");
            // a same-origin request (the live page) carries an Origin too, and CorsHandler would refuse it
            router.route().handler(rc -> {
                if (HttpGuards.sameOrigin(
                        rc.request().getHeader("origin"), rc.request().getHeader("host"))) rc.next();
                else corsHandler.handle(rc);
            });
        }
        AllowedMethods allowed = new AllowedMethods(router);
        router.route().handler(rc -> HttpGuards.requireJson(rc, allowed));
        readJsonBodies(router);
        TextGate gate = new TextGate(openApi);
        router.route().handler(gate::check);
        router.get("/openapi.json").handler(rc -> Responses.json(rc, openApi));
        for (ApiModule m : modules) m.mount(router);
        return withErrorHandlers(router);
    }

    /** The admin API alone, on its own listener ({@code admin.port}). */
    private Router adminRouter(AdminApi admin) {
        Router router = Router.router(vertx);
        router.route().handler(HttpGuards::headAsGet);
        AllowedMethods allowed = new AllowedMethods(router);
        router.route().handler(rc -> HttpGuards.requireJson(rc, allowed));
        readJsonBodies(router);
        router.route().handler(new TextGate(new JsonObject())::check);
        admin.mountOwn(router);
        return withErrorHandlers(router);
    }

    /** Every POST body (but the SockJS transports', which read their own) is read once, bounded, and checked strictly. */
    private void readJsonBodies(Router router) {
        BodyHandler body = bodyHandler(ctx);
        // not a POST route: a path-only match would turn every unknown GET into a 405
        router.route().handler(rc -> {
            if (readsJson(rc)) body.handle(rc);
            else rc.next();
        });
        router.route().handler(rc -> {
            if (readsJson(rc)) StrictJson.read(rc);
            else rc.next();
        });
    }

    private static boolean readsJson(RoutingContext rc) {
        return rc.request().method() == HttpMethod.POST && !rc.request().path().startsWith("/eventbus/");
    }

    private Router withErrorHandlers(Router router) {
        AllowedMethods allowed = new AllowedMethods(router);
        router.route().failureHandler(this::onFailure);
        router.errorHandler(
                404,
                rc -> Responses.error(
                        rc,
                        BusError.notFound("no route for " + rc.request().method() + " "
                                + rc.request().path())));
        router.errorHandler(405, rc -> {
            rc.response().putHeader("allow", allowed.of(rc.request().path()));
            Responses.error(
                    rc,
                    new BusError(
                            405,
                            "method " + rc.request().method() + " is not allowed on "
                                    + rc.request().path()));
        });
        router.errorHandler(413, rc -> Responses.error(rc, new BusError(413, "request body too large")));
        router.errorHandler(400, rc -> Responses.error(rc, BusError.badRequest(badRequestMessage(rc))));
        router.errorHandler(500, this::onFailure);
        return router;
    }

    private static final java.util.regex.Pattern BAD_PERCENT = java.util.regex.Pattern.compile("%(?![0-9A-Fa-f]{2})");

    /** A 400 the router or a handler of vertx-web raised: its own words, else what the request got wrong where we can tell. */
    private static String badRequestMessage(RoutingContext rc) {
        if (rc.failure() != null && rc.failure().getMessage() != null)
            return rc.failure().getMessage();
        // the router refuses a path it cannot decode before any route matches (a '%' not followed by two hex digits)
        String uri = rc.request().uri();
        if (uri != null && BAD_PERCENT.matcher(uri).find()) {
            return "malformed percent-encoding in the request URI (a '%' must be followed by two hex digits)";
        }
        return "bad request";
    }

    /** The body handler POST routes put in front of their handler (bounded by {@code http.body_limit_bytes}). */
    public static BodyHandler bodyHandler(NodeContext ctx) {
        // no file uploads and no form attributes: only JSON bodies get this far (HttpGuards.requireJson)
        return BodyHandler.create(false)
                .setMergeFormAttributes(false)
                .setBodyLimit(ctx.config().http().bodyLimitBytes());
    }

    private void onFailure(RoutingContext rc) {
        Throwable f = rc.failure();
        BusError e;
        if (f instanceof BusError a) {
            e = a;
        } else if (f instanceof HttpException he) {
            e = new BusError(
                    he.getStatusCode(), he.getPayload() != null ? he.getPayload() : defaultMessage(he.getStatusCode()));
        } else if (f == null) {
            e = new BusError(rc.statusCode() > 0 ? rc.statusCode() : 500, defaultMessage(rc.statusCode()));
        } else if (rc.statusCode() >= 400 && rc.statusCode() < 500) {
            // a handler of vertx-web refusing the request (CorsHandler: "CORS Rejected - Invalid origin" with 403)
            e = new BusError(
                    rc.statusCode(), f.getMessage() != null ? f.getMessage() : defaultMessage(rc.statusCode()));
        } else if (f instanceof io.vertx.core.json.DecodeException
                || f instanceof IllegalArgumentException
                        && f.getMessage() != null
                        && f.getMessage().startsWith("Invalid JSON")) {
            e = BusError.badRequest("request body is not valid JSON");
        } else if (RequestValueRefused.sqlState(f) != null) {
            // the request's value, not the node, is at fault: a 400, and the database's words for the log
            String state = RequestValueRefused.sqlState(f);
            LOG.warn(
                    "request {} {} refused by the database: {}",
                    rc.request().method(),
                    rc.request().uri(),
                    f.toString());
            e = BusError.badRequest(RequestValueRefused.message(state));
        } else {
            LOG.error(
                    "request {} {} failed", rc.request().method(), rc.request().uri(), f);
            e = BusError.internal();
        }
        Responses.error(rc, e);
    }

    private static String defaultMessage(int status) {
        return switch (status) {
            case 400 -> "bad request";
            case 404 -> "not found";
            case 405 -> "method not allowed";
            case 413 -> "request body too large";
            default -> "internal server error";
        };
    }
}
