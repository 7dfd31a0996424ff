package dev.weft.config;

/** The HTTP server of the API role. Port 0 picks a free port (tests). A removed instance drains for {@code drain}. */
public record HttpConfig(String host, int port, int bodyLimitBytes, String corsOrigins, java.time.Duration drain) {
  static HttpConfig from(ConfigSource c) {
    return new HttpConfig(
        c.string("http.host", "127.0.0.1"),
        c.intValue("http.port", 8080, 0, 65535),
        c.intValue("http.body_limit_bytes", 1 << 20, 1024, 64 << 20),
        c.string("http.cors_origins", ""),
        c.duration("http.drain", java.time.Duration.ofSeconds(2)));
  }
}
