package dev.weft.store;

import static dev.weft.testsupport.TestNodes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * V010 sets rich_list's own autovacuum thresholds, on a new database and on one created by the schema before it
 * (upgraded in place, its balances untouched).
 */
class RichListUpkeepMigrationTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final List<String> OPTIONS = List.of(
            "autovacuum_vacuum_scale_factor=0.02",
            "autovacuum_vacuum_threshold=1000",
            "autovacuum_analyze_scale_factor=0.02",
            "autovacuum_analyze_threshold=1000");

    @Test
    @DisplayName(
            "a V009 database upgrades in place: rich_list gets the autovacuum settings, its rows stay; a new database has them too")
    void upgradesInPlace() throws Exception {
        String url = TestDatabase.freshUrl();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            OlderSchema.before(st, "V010");
            st.execute("INSERT INTO rich_list_token (contract, holders) VALUES ('\\xe1', 2)");
            st.execute(
                    "INSERT INTO rich_list (token_id, account, amount) VALUES (1, '\\xa1', 5), (1, '\\xa2', 7), (1, '\\xa3', 0)");
            c.commit();
            assertEquals(List.of(), options(st));
        }

        Vertx vertx = weft.vertx();
        Pool pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(url))
                .using(vertx)
                .build();
        try {
            assertEquals(
                    Migrations.load().stream()
                            .filter(m -> m.version().compareTo("V010") >= 0)
                            .count(),
                    (long) await(Migrations.apply(vertx, pool)),
                    "V010 and the later ones");
            try (Connection c = TestDatabase.jdbc(url);
                    Statement st = c.createStatement()) {
                assertEquals(OPTIONS, options(st));
                List<String> rows = new ArrayList<>();
                try (ResultSet rs = st.executeQuery(
                        "SELECT encode(account, 'hex') || '=' || amount FROM rich_list ORDER BY account")) {
                    while (rs.next()) rows.add(rs.getString(1));
                }
                assertEquals(List.of("a1=5", "a2=7", "a3=0"), rows);
            }
            assertEquals(0, await(Migrations.apply(vertx, pool)));
        } finally {
            await(pool.close());
        }

        String fresh = TestDatabase.freshUrl();
        Vertx v2 = weft.newVertx();
        Pool p2 = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(fresh))
                .using(v2)
                .build();
        try {
            await(Migrations.apply(v2, p2));
            try (Connection c = TestDatabase.jdbc(fresh);
                    Statement st = c.createStatement()) {
                assertEquals(OPTIONS, options(st));
            }
        } finally {
            await(p2.close());
        }
    }

    static List<String> options(Statement st) throws Exception {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(
                "SELECT unnest(coalesce(reloptions, '{}')) FROM pg_class WHERE oid = 'rich_list'::regclass")) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }
}
