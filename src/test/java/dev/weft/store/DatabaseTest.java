package dev.weft.store;

import static dev.weft.testsupport.TestNodes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.config.ConfigSource;
import dev.weft.config.DatabaseConfig;
import dev.weft.config.WeftConfig;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class DatabaseTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private Vertx vertx;

    @BeforeEach
    void setUp() {
        vertx = weft.vertx();
    }

    private static DatabaseConfig config(TestConfig t) {
        return WeftConfig.from(ConfigSource.fileOnly(t.json())).database();
    }

    @Test
    @DisplayName("migrations apply once; re-running them is a no-op")
    void migrationsAreIdempotent() throws Exception {
        TestConfig t = weft.config();
        Database db = await(Database.start(vertx, config(t)));
        try {
            assertEquals(0, await(Migrations.apply(vertx, db.pool())));
            List<String> versions = new ArrayList<>();
            await(db.pool()
                            .query("SELECT version FROM weft_migration ORDER BY version")
                            .execute())
                    .forEach(r -> versions.add(r.getString(0)));
            assertEquals(
                    Migrations.load().stream()
                            .map(Migrations.Migration::version)
                            .toList(),
                    versions);
            List<Row> cursors = new ArrayList<>();
            await(db.pool()
                            .query("SELECT name, height FROM pipeline_cursor ORDER BY name")
                            .execute())
                    .forEach(cursors::add);
            assertEquals(
                    List.of("evm", "ingest", "richlist"),
                    cursors.stream().map(r -> r.getString(0)).toList());
        } finally {
            await(db.close());
        }
        Database again = await(Database.start(vertx, config(t)));
        await(again.close());
    }

    @Test
    @DisplayName("two nodes starting on one empty database apply each migration exactly once")
    void concurrentMigrations() {
        TestConfig t = weft.config();
        var a = Database.start(vertx, config(t));
        var b = Database.start(vertx, config(t));
        Database da = await(a);
        Database db = await(b);
        try {
            long count = await(da.pool()
                            .query("SELECT count(*) FROM weft_migration")
                            .execute())
                    .iterator()
                    .next()
                    .getLong(0);
            assertEquals(
                    count,
                    await(da.pool()
                                    .query("SELECT count(DISTINCT version) FROM weft_migration")
                                    .execute())
                            .iterator()
                            .next()
                            .getLong(0));
        } finally {
            await(da.close());
            await(db.close());
        }
    }

    @Test
    @DisplayName("an unreachable server fails with a message naming host, port and database")
    void unreachable() {
        int port = Ports.free();
        TestConfig t = weft.config()
                .set("database.url", "postgresql://postgres@127.0.0.1:" + port + "/weft")
                .set("database.connect_timeout_ms", 2000);
        DatabaseUnavailableException e =
                assertThrows(DatabaseUnavailableException.class, () -> await(Database.start(vertx, config(t))));
        assertTrue(
                e.getMessage().startsWith("cannot reach PostgreSQL at 127.0.0.1:" + port + "/weft: "), e.getMessage());
    }

    @Test
    @DisplayName("the embedded server keeps its data across a restart, and recovers from a killed owner")
    void embeddedKeepsDataAndRecoversOrphans(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("pg");
        // 1. a child JVM creates data, then dies by SIGKILL, leaving its postmaster running
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        EmbeddedOwner.class.getName(),
                        data.toString())
                .redirectErrorStream(true)
                .start();
        String line;
        try (var out = new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream()))) {
            do {
                line = out.readLine();
            } while (line != null && !line.startsWith("READY"));
            assertTrue(line != null, "child did not start its embedded PostgreSQL");
            new ProcessBuilder("kill", "-9", Long.toString(child.pid())).start().waitFor();
            child.waitFor();
        }
        assertTrue(Files.exists(data.resolve("postmaster.pid")), "the killed owner left its postmaster behind");
        // 2. starting again stops the orphan and serves the same data
        try (EmbeddedPostgresServer pg = EmbeddedPostgresServer.start(data, 0, false, Map.of());
                Connection c = TestDatabase.jdbc(pg.url());
                ResultSet rs = c.createStatement().executeQuery("SELECT v FROM kept")) {
            assertTrue(rs.next());
            assertEquals("survives", rs.getString(1));
        }
    }

    /** Main of the child JVM above: starts an embedded server on a directory, writes a row, waits to be killed. */
    public static final class EmbeddedOwner {
        public static void main(String[] args) throws Exception {
            EmbeddedPostgresServer pg = EmbeddedPostgresServer.start(Path.of(args[0]), 0, false, Map.of());
            try (Connection c = TestDatabase.jdbc(pg.url())) {
                c.createStatement().execute("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('survives')");
            }
            System.out.println("READY " + pg.port());
            System.out.flush();
            new java.util.concurrent.CountDownLatch(1).await(); // until the test kills this JVM
        }
    }
}
