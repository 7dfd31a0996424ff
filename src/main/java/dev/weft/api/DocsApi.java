package dev.weft.api;

import io.vertx.core.http.MimeMapping;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

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
        // the page's assets: Weft's own start-up script, the webjar's files (documented as part of /docs, not one by
        // one)
        router.getWithRegex("/docs/(.*)").handler(rc -> {
            switch (rc.normalizedPath().substring("/docs/".length())) {
                case "", "index.html" -> page(rc);
                case "weft-docs.js" ->
                    rc.response()
                            .putHeader("content-type", "text/javascript; charset=utf-8")
                            .putHeader("cache-control", "no-cache")
                            .sendFile("docs/weft-docs.js");
                case "swagger-initializer.js" -> rc.fail(404);
                default -> webjarFile(rc, rc.normalizedPath().substring("/docs/".length()));
            }
        });
    }

    /** A file of the webjar by its plain name (no directories: the webjar has none), else the JSON 404. */
    private static void webjarFile(RoutingContext rc, String name) {
        if (!name.matches("[A-Za-z0-9._-]+")
                || name.startsWith(".")
                || DocsApi.class.getClassLoader().getResource(SWAGGER_UI + "/" + name) == null) {
            rc.fail(404);
            return;
        }
        String type = MimeMapping.mimeTypeForFilename(name);
        rc.response()
                .putHeader(
                        "content-type",
                        type == null
                                ? "application/octet-stream"
                                : type.startsWith("text/") ? type + "; charset=utf-8" : type)
                .putHeader("cache-control", "public, max-age=86400")
                .sendFile(SWAGGER_UI + "/" + name);
    }

    private static void page(RoutingContext rc) {
        rc.response()
                .putHeader("content-type", "text/html; charset=utf-8")
                .putHeader("cache-control", "no-cache")
                .sendFile("docs/index.html");
    }

    @Override
    public String openApiFragment() {
        return "openapi/docs.json";
    }
}
