package dev.weft.config;

import io.vertx.pgclient.PgConnectOptions;

/**
 * Storage: an external PostgreSQL when {@code database.url} is set, else an embedded one whose data lives in
 * {@code database.data_dir} (kept across restarts).
 */
public record DatabaseConfig(
        String url, String dataDir, int embeddedPort, boolean embeddedFsync, int poolSize, int connectTimeoutMs) {
    static DatabaseConfig from(ConfigSource c) {
        String url = c.optionalString("database.url");
        if (url != null) {
            try {
                PgConnectOptions.fromUri(url);
            } catch (RuntimeException e) {
                throw new ConfigException(
                        "database.url", "is not a PostgreSQL URL such as postgresql://user:pass@host:5432/db");
            }
        }
        return new DatabaseConfig(
                url,
                c.string("database.data_dir", "./data/pg"),
                c.intValue("database.embedded_port", 0, 0, 65535),
                c.bool("database.embedded_fsync", true),
                c.intValue("database.pool_size", 8, 1, 200),
                c.intValue("database.connect_timeout_ms", 5000, 100, 600_000));
    }

    public boolean embedded() {
        return url == null;
    }
}
