package dev.weft.config;

import java.time.Duration;
import java.util.List;

/**
 * The HTTP server of the API role. Port 0 picks a free port (tests). A removed instance drains for {@code drain}.
 * The limits bound what one client can hold: a connection idle for {@code idleTimeout} is closed, a request whose line,
 * headers and body have not all arrived within {@code requestTimeout} is answered 408, and one remote address holds at
 * most {@code maxConnectionsPerClient} connections. {@code trustedProxies} (CIDRs) are the only peers whose
 * {@code X-Forwarded-For} names the client. Each HTTP instance keeps up to {@code pageCacheMb} MiB of encoded first
 * pages of the tx lists, valid until the next ingest commit.
 */
public record HttpConfig(
        String host,
        int port,
        int bodyLimitBytes,
        String corsOrigins,
        Duration drain,
        Duration idleTimeout,
        Duration requestTimeout,
        int maxInitialLineBytes,
        int maxHeaderBytes,
        int maxConnectionsPerClient,
        List<String> trustedProxies,
        int pageCacheMb) {
    static HttpConfig from(ConfigSource c) {
        HttpConfig http = new HttpConfig(
                c.string("http.host", "127.0.0.1"),
                c.intValue("http.port", 8080, 0, 65535),
                c.intValue("http.body_limit_bytes", 1 << 20, 1024, 64 << 20),
                c.string("http.cors_origins", ""),
                c.duration("http.drain", Duration.ofSeconds(2)),
                c.duration("http.idle_timeout", Duration.ofSeconds(60)),
                c.duration("http.request_timeout", Duration.ofSeconds(10)),
                c.intValue("http.max_initial_line_bytes", 8192, 256, 1 << 20),
                c.intValue("http.max_header_bytes", 16384, 1024, 1 << 20),
                c.intValue("http.max_connections_per_client", 64, 1, 100_000),
                c.stringList("http.trusted_proxies", List.of()),
                c.intValue("http.page_cache_mb", 32, 0, 4096));
        if (http.idleTimeout.toSeconds() < 1) throw new ConfigException("http.idle_timeout", "must be at least 1s");
        if (http.requestTimeout.toMillis() < 100)
            throw new ConfigException("http.request_timeout", "must be at least 100ms");
        for (String origin : http.corsOriginList()) {
            if (!CORS_ENTRY.matcher(origin).matches()) {
                throw new ConfigException(
                        "http.cors_origins",
                        "each entry must be *, an origin such as https://app.example.com[:port], or a"
                                + " subdomain wildcard such as https://*.example.com or *.example.com (got \"" + origin
                                + "\")");
            }
        }
        for (String cidr : http.trustedProxies) {
            try {
                Cidr.parse(cidr);
            } catch (IllegalArgumentException e) {
                throw new ConfigException("http.trusted_proxies", e.getMessage());
            }
        }
        return http;
    }

    /** {@code *}; {@code scheme://host[:port]}, the host possibly {@code *.domain}; or {@code *.domain}. */
    private static final java.util.regex.Pattern CORS_ENTRY = java.util.regex.Pattern.compile(
            "\\*|[a-zA-Z][a-zA-Z0-9+.-]*://(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?|\\*\\.[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*");

    /** The bound of one HTTP instance's cache of encoded tx pages, in bytes (0: none). */
    public long pageCacheBytes() {
        return (long) pageCacheMb << 20;
    }

    /** The configured CORS origins (empty: same-origin only), without a trailing slash (a browser's Origin has none). */
    public List<String> corsOriginList() {
        return corsOrigins == null
                ? List.of()
                : java.util.Arrays.stream(corsOrigins.split(","))
                        .map(String::trim)
                        .map(s -> s.endsWith("/") ? s.substring(0, s.length() - 1) : s)
                        .filter(s -> !s.isEmpty())
                        .toList();
    }
}
