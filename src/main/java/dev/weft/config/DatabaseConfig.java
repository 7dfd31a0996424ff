package dev.weft.config;

import io.vertx.pgclient.PgConnectOptions;
import java.time.Duration;
import java.util.List;

/**
 * Storage: an external PostgreSQL when {@code database.url} is set, else an embedded one whose data lives in
 * {@code database.data_dir} (kept across restarts). {@code database.read_urls} name streaming replicas of that
 * database the API reads from while each is at most {@code database.max_replica_lag} behind it (checked every
 * {@code database.replica_check_interval}).
 */
public record DatabaseConfig(
        String url,
        String dataDir,
        int embeddedPort,
        boolean embeddedFsync,
        int poolSize,
        int connectTimeoutMs,
        List<String> readUrls,
        Duration maxReplicaLag,
        Duration replicaCheckInterval) {
    /** At most this many replicas: each costs a pool per chain schema on every API node. */
    static final int MAX_READ_URLS = 16;

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
        List<String> readUrls = c.stringList("database.read_urls", List.of());
        if (readUrls.size() > MAX_READ_URLS)
            throw new ConfigException("database.read_urls", "names more than " + MAX_READ_URLS + " replicas");
        for (String r : readUrls) {
            try {
                PgConnectOptions.fromUri(r);
            } catch (RuntimeException e) {
                throw new ConfigException(
                        "database.read_urls",
                        "holds \"" + redact(r)
                                + "\", not a PostgreSQL URL such as postgresql://user:pass@host:5432/db");
            }
        }
        if (new java.util.HashSet<>(readUrls).size() != readUrls.size())
            throw new ConfigException("database.read_urls", "names a replica twice");
        Duration maxLag = c.duration("database.max_replica_lag", Duration.ofSeconds(5));
        if (maxLag.compareTo(Duration.ofMillis(100)) < 0 || maxLag.compareTo(Duration.ofHours(1)) > 0)
            throw new ConfigException("database.max_replica_lag", "must be between 100ms and 1h");
        Duration check = c.duration("database.replica_check_interval", Duration.ofMillis(500));
        if (check.compareTo(Duration.ofMillis(20)) < 0 || check.compareTo(maxLag) >= 0)
            throw new ConfigException(
                    "database.replica_check_interval",
                    "must be at least 20ms and shorter than database.max_replica_lag");
        return new DatabaseConfig(
                url,
                c.string("database.data_dir", "./data/pg"),
                c.intValue("database.embedded_port", 0, 0, 65535),
                c.bool("database.embedded_fsync", true),
                c.intValue("database.pool_size", 8, 1, 200),
                c.intValue("database.connect_timeout_ms", 5000, 100, 600_000),
                readUrls,
                maxLag,
                check);
    }

    /** A URL as an error message may show it: without its password. */
    static String redact(String url) {
        return url.replaceAll("(://[^:/@]*:)[^@]*@", "$1***@");
    }

    public boolean embedded() {
        return url == null;
    }
}
