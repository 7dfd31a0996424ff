package dev.weft.testsupport;

import dev.weft.store.EmbeddedPostgresServer;
import io.vertx.pgclient.PgConnectOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * How every test gets a database: {@code -Dweft.test.database.url=postgresql://…} names an external server,
 * otherwise one embedded PostgreSQL is shared by the whole test run. Each call of {@link #freshUrl()} creates a new,
 * empty database on that server, so tests never see each other's rows.
 */
public final class TestDatabase {
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static PgConnectOptions server;

    private TestDatabase() {}

    /** The URL of a new, empty database (migrations not applied: the code under test applies them). */
    public static String freshUrl() {
        PgConnectOptions s = server();
        String name = "weft_t" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
        try (Connection c = DriverManager.getConnection(jdbcUrl(s, s.getDatabase()), s.getUser(), s.getPassword());
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name + ": " + e.getMessage(), e);
        }
        return "postgresql://" + s.getUser()
                + (s.getPassword() == null || s.getPassword().isEmpty() ? "" : ":" + s.getPassword()) + "@"
                + s.getHost() + ":" + s.getPort() + "/" + name;
    }

    /** A JDBC connection to a database URL from {@link #freshUrl()}, for assertions on stored rows. */
    public static Connection jdbc(String url) throws SQLException {
        PgConnectOptions o = PgConnectOptions.fromUri(url);
        return DriverManager.getConnection(jdbcUrl(o, o.getDatabase()), o.getUser(), o.getPassword());
    }

    public static synchronized PgConnectOptions server() {
        if (server != null) return server;
        String external = System.getProperty("weft.test.database.url");
        if (external != null && !external.isBlank() && !external.startsWith("${")) {
            server = PgConnectOptions.fromUri(external);
        } else {
            try {
                Path dir = Files.createTempDirectory("weft-test-pg");
                EmbeddedPostgresServer pg = EmbeddedPostgresServer.start(dir, 0, false, Map.of());
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    pg.close();
                    deleteTree(dir);
                }));
                server = PgConnectOptions.fromUri(pg.url());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return server;
    }

    private static String jdbcUrl(PgConnectOptions o, String db) {
        return "jdbc:postgresql://" + o.getHost() + ":" + o.getPort() + "/" + db;
    }

    /** Best effort, a few passes: files may still come and go under it (a browser's helper processes exiting). */
    public static void deleteTree(Path dir) {
        for (int pass = 0; pass < 3 && Files.exists(dir); pass++) {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException ignored) {
                        // best effort
                    }
                });
            } catch (IOException | java.io.UncheckedIOException ignored) {
                // a file vanished while walking: walk again
            }
        }
    }

    /** The invalid indexes of a table (left by a failed {@code CREATE}/{@code REINDEX ... CONCURRENTLY}), by name. */
    public static java.util.List<String> invalidIndexes(java.sql.Statement st, String table) throws SQLException {
        java.util.List<String> out = new java.util.ArrayList<>();
        try (java.sql.ResultSet rs =
                st.executeQuery("SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                        + "WHERE i.indrelid = '" + table + "'::regclass AND NOT i.indisvalid ORDER BY 1")) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }
}
