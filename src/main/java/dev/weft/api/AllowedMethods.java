package dev.weft.api;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** The {@code Allow} header of a 405: the methods the router's routes accept on a path (HEAD wherever GET is). */
final class AllowedMethods {
    private static final Pattern PARAM = Pattern.compile(":[A-Za-z0-9_]+");
    private final Router router;

    AllowedMethods(Router router) {
        this.router = router;
    }

    String of(String path) {
        Set<String> methods = new TreeSet<>();
        for (Route r : router.getRoutes()) {
            if (r.getPath() == null
                    || r.isRegexPath()
                    || r.methods() == null
                    || r.methods().isEmpty()) continue;
            if (matches(r.getPath(), path))
                r.methods().stream().map(HttpMethod::name).forEach(methods::add);
        }
        if (methods.contains("GET")) methods.add("HEAD"); // HttpGuards.headAsGet answers HEAD wherever GET is
        return String.join(", ", methods);
    }

    private static boolean matches(String routePath, String path) {
        if (routePath.endsWith("*")) return path.startsWith(routePath.substring(0, routePath.length() - 1));
        String[] parts = PARAM.split(routePath, -1);
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) regex.append("[^/]+");
            regex.append(Pattern.quote(parts[i]));
        }
        return path.matches(regex + "/?");
    }
}
