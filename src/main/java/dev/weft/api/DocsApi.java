package dev.weft.api;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * Browsable API docs: Swagger UI at {@code /docs} over {@code /openapi.json}, served from the pinned webjar on the
 * classpath (no request leaves the server). The page and its start-up script are Weft's own; the webjar's sample
 * page and initializer (which point at a public demo document) are not served.
 */
public final class DocsApi implements ApiModule {
  /** The webjar's directory: its version is the pom's {@code swagger-ui.version}, checked by DocsApiTest. */
  static final String SWAGGER_UI = "META-INF/resources/webjars/swagger-ui/5.32.0";

  @Override
  public void mount(Router router) {
    router.get("/docs").handler(DocsApi::page);
    router.get("/docs/").handler(DocsApi::page);
    router.get("/docs/index.html").handler(DocsApi::page);
    router.get("/docs/weft-docs.js").handler(rc -> rc.response().putHeader("content-type", "text/javascript; charset=utf-8")
        .putHeader("cache-control", "no-cache").sendFile("docs/weft-docs.js"));
    router.get("/docs/swagger-initializer.js").handler(rc -> rc.fail(404));
    router.get("/docs/*").handler(StaticHandler.create(SWAGGER_UI).setCachingEnabled(true).setMaxAgeSeconds(86_400)
        .setDirectoryListing(false).setIncludeHidden(false));
  }

  private static void page(RoutingContext rc) {
    rc.response().putHeader("content-type", "text/html; charset=utf-8").putHeader("cache-control", "no-cache")
        .sendFile("docs/index.html");
  }

  @Override
  public String openApiFragment() {
    return "openapi/docs.json";
  }
}
