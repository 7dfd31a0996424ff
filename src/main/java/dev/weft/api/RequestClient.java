package dev.weft.api;

import io.vertx.ext.web.RoutingContext;

/**
 * Who sent a request, as the HTTP guards identify it (the remote address, or the client a trusted proxy names in
 * {@code X-Forwarded-For}): per-client quotas of other modules key on it, so a proxy's clients are not one client.
 */
public final class RequestClient {
    static final String KEY = "weft.client";

    private RequestClient() {}

    public static String of(RoutingContext rc) {
        String client = rc.get(KEY);
        if (client != null) return client;
        return rc.request().remoteAddress() == null
                ? ""
                : rc.request().remoteAddress().hostAddress();
    }
}
