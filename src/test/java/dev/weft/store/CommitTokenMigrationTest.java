package dev.weft.store;

import static dev.weft.testsupport.TestNodes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class CommitTokenMigrationTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    @Test
    @DisplayName(
            "a V010 database upgrades in place: the cursors keep their heights, with no commit token until the next commit")
    void upgradesInPlace() throws Exception {
        String url = TestDatabase.freshUrl();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            OlderSchema.before(st, "V011");
            st.execute("UPDATE pipeline_cursor SET height = 7 WHERE name = 'ingest'");
            st.execute("UPDATE ingest_totals SET blocks = 7, txs = 3");
            c.commit();
        }
        Vertx vertx = weft.vertx();
        Pool pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(url))
                .using(vertx)
                .build();
        try {
            assertEquals(
                    Migrations.load().stream()
                            .filter(m -> m.version().compareTo("V011") >= 0)
                            .count(),
                    (long) await(Migrations.apply(vertx, pool)),
                    "V011 and the later ones");
            IngestStore.Position p = await(new IngestStore(pool, 10, "test-1").position());
            assertEquals(new IngestStore.Position(7, null, 7, 3, 0, null), p);
            assertNull(await(new InternalTxStore(pool).position()).commit());
            assertEquals(0, await(Migrations.apply(vertx, pool)));
        } finally {
            await(pool.close());
        }
    }

    /** How many migrations the index lists from V011 on (later ones are applied too). */
    static int fromV011() throws Exception {
        try (var in = CommitTokenMigrationTest.class.getClassLoader().getResourceAsStream(Migrations.INDEX)) {
            var lines = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .lines()
                    .map(String::trim)
                    .filter(l -> l.startsWith("V"))
                    .toList();
            return lines.size() - lines.indexOf("V011__commit_tokens.sql");
        }
    }
}
