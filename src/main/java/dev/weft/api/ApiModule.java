package dev.weft.api;

import io.vertx.ext.web.Router;

/**
 * One family of HTTP endpoints. The API verticle mounts every module the node gives it on its router and merges
 * each module's OpenAPI fragment (a classpath JSON resource with {@code paths} and optional {@code components}) into
 * {@code /openapi.json}. Feature packages contribute their own modules (the routing and tracking handlers live with
 * their features), so this package never imports a feature.
 */
public interface ApiModule {
    void mount(Router router);

    /** Classpath resource of this module's OpenAPI fragment, or null. */
    default String openApiFragment() {
        return null;
    }
}
