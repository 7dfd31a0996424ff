package dev.weft.api;

import dev.weft.bus.BusError;
import dev.weft.runtime.NodeContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.CorsHandler;
import io.vertx.ext.web.handler.HttpException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Both HTTP APIs, health, metrics and the OpenAPI document on one router. Handlers live in {@link ApiModule}s;
 * this verticle only wires them and turns every failure into the JSON error body.
 */
public final class HttpApiVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(HttpApiVerticle.class);

  private final NodeContext ctx;
  private final List<ApiModule> modules;
  private final java.util.concurrent.atomic.AtomicLong served = new java.util.concurrent.atomic.AtomicLong();
  private HttpServer server;
  private volatile boolean draining;

  /** {@code modules}: the endpoint families this instance mounts, in mount order (the node wires them). */
  public HttpApiVerticle(NodeContext ctx, List<ApiModule> modules) {
    this.ctx = ctx;
    this.modules = List.copyOf(modules);
  }

  @Override
  public Future<?> start() {
    return vertx.executeBlocking(() -> OpenApiDocument.merge(modules), false).compose(openApi -> {
      Router router = router(modules, openApi);
      int port = port();
      // no h2c upgrade: the systems Weft replaces answer HTTP/1.1, and an upgraded request with a body (the JDK
      // client's default) could be left unanswered
      server = vertx.createHttpServer(new HttpServerOptions().setHost(ctx.config().http().host())
          .setPort(port).setCompressionSupported(true).setMaxHeaderSize(64 * 1024).setHttp2ClearTextEnabled(false));
      return server.requestHandler(router).listen().onSuccess(s -> ctx.info().httpPort(s.actualPort()));
    });
  }

  /**
   * Instances share one listening port (Vert.x server sharing). Sharing needs the same concrete port, so a configured
   * port 0 is resolved to a free port by the first instance and reused by every instance added later.
   */
  private int port() {
    if (ctx.config().http().port() > 0) return ctx.config().http().port();
    synchronized (ctx.info()) {
      int bound = ctx.info().httpPort();
      if (bound > 0) return bound;
      try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(ctx.config().http().host()))) {
        ctx.info().httpPort(s.getLocalPort());
        return s.getLocalPort();
      } catch (java.io.IOException e) {
        throw new IllegalStateException("no free port on " + ctx.config().http().host(), e);
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
    return drained.future().compose(v -> server.shutdown(10, java.util.concurrent.TimeUnit.SECONDS));
  }

  Router router(List<ApiModule> modules, JsonObject openApi) {
    Router router = Router.router(vertx);
    router.route().handler(rc -> {
      served.incrementAndGet();
      if (draining) rc.response().putHeader("connection", "close");
      rc.next();
    });
    String cors = ctx.config().http().corsOrigins();
    if (cors != null && !cors.isBlank()) {
      router.route().handler(CorsHandler.create().addOrigins(List.of(cors.split(",")))
          .allowedMethod(HttpMethod.GET).allowedMethod(HttpMethod.POST).allowedHeader("content-type"));
    }
    router.get("/openapi.json").handler(rc -> Responses.json(rc, openApi));
    for (ApiModule m : modules) m.mount(router);
    router.route().failureHandler(this::onFailure);
    router.errorHandler(404, rc -> Responses.error(rc, BusError.notFound("no route for " + rc.request().method() + " " + rc.request().path())));
    router.errorHandler(405, rc -> Responses.error(rc, new BusError(405, "method " + rc.request().method() + " is not allowed on " + rc.request().path())));
    router.errorHandler(413, rc -> Responses.error(rc, new BusError(413, "request body too large")));
    router.errorHandler(400, rc -> Responses.error(rc, BusError.badRequest(rc.failure() != null && rc.failure().getMessage() != null ? rc.failure().getMessage() : "bad request")));
    router.errorHandler(500, this::onFailure);
    return router;
  }

  /** The body handler POST routes put in front of their handler (bounded by {@code http.body_limit_bytes}). */
  public static BodyHandler bodyHandler(NodeContext ctx) {
    return BodyHandler.create(false).setBodyLimit(ctx.config().http().bodyLimitBytes());
  }

  private void onFailure(RoutingContext rc) {
    Throwable f = rc.failure();
    BusError e;
    if (f instanceof BusError a) {
      e = a;
    } else if (f instanceof HttpException he) {
      e = new BusError(he.getStatusCode(), he.getPayload() != null ? he.getPayload() : defaultMessage(he.getStatusCode()));
    } else if (f == null) {
      e = new BusError(rc.statusCode() > 0 ? rc.statusCode() : 500, defaultMessage(rc.statusCode()));
    } else if (f instanceof io.vertx.core.json.DecodeException || f instanceof IllegalArgumentException && f.getMessage() != null && f.getMessage().startsWith("Invalid JSON")) {
      e = BusError.badRequest("request body is not valid JSON");
    } else {
      LOG.error("request {} {} failed", rc.request().method(), rc.request().uri(), f);
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
