package dev.weft.api;

import io.vertx.ext.web.handler.CorsHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The origins {@code http.cors_origins} lets call the API from a browser, in the forms rollytics'
 * {@code CORS_ALLOW_ORIGINS} takes: {@code *} (any origin), an origin ({@code https://app.example.com}, with a port
 * when it is not the scheme's), or a subdomain wildcard ({@code https://*.example.com}: any subdomain, at any depth,
 * of that scheme; {@code *.example.com}: of http or https). Host names match case-insensitively.
 */
final class CorsOrigins {
    private final boolean any;
    private final List<Pattern> patterns;

    private CorsOrigins(boolean any, List<Pattern> patterns) {
        this.any = any;
        this.patterns = patterns;
    }

    /** The entries as {@code HttpConfig} checked them. */
    static CorsOrigins of(List<String> entries) {
        if (entries.contains("*")) return new CorsOrigins(true, List.of());
        List<Pattern> patterns = new ArrayList<>();
        for (String e : entries) patterns.add(Pattern.compile(regex(e)));
        return new CorsOrigins(false, List.copyOf(patterns));
    }

    /** The regular expression of one entry (an origin or a subdomain wildcard). */
    static String regex(String entry) {
        String e = entry.toLowerCase(Locale.ROOT);
        if (e.startsWith("*.")) return "(?i)https?://([a-z0-9-]+\\.)+" + Pattern.quote(e.substring(2));
        int wildcard = e.indexOf("://*.");
        if (wildcard > 0)
            return "(?i)" + Pattern.quote(e.substring(0, wildcard + 3)) + "([a-z0-9-]+\\.)+"
                    + Pattern.quote(e.substring(wildcard + 5));
        return "(?i)" + Pattern.quote(e);
    }

    boolean isEmpty() {
        return !any && patterns.isEmpty();
    }

    boolean allows(String origin) {
        if (origin == null) return false;
        if (any) return true;
        for (Pattern p : patterns) if (p.matcher(origin).matches()) return true;
        return false;
    }

    /** Vert.x's CORS handler over the same origins ({@code *} answers {@code Access-Control-Allow-Origin: *}). */
    CorsHandler handler() {
        CorsHandler h = CorsHandler.create();
        if (!any) h.addOriginsWithRegex(patterns.stream().map(Pattern::pattern).toList());
        return h;
    }
}
