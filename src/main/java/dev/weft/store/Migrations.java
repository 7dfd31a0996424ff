package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Versioned SQL migrations from {@code db/migration/}, in the order of {@code db/migrations.txt}. Each runs once, in
 * its own transaction, recorded in {@code weft_migration}; a session advisory lock serialises nodes that start
 * together. Re-running is a no-op.
 */
public final class Migrations {
    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
    private static final long LOCK_KEY = 0x5745_4654L; // "WEFT"
    static final String INDEX = "db/migrations.txt";

    record Migration(String version, String sql) {}

    private Migrations() {}

    /** Applies the pending migrations; the future holds how many were applied. */
    public static Future<Integer> apply(Vertx vertx, Pool pool) {
        return vertx.executeBlocking(Migrations::load, false)
                .compose(all ->
                        pool.getConnection().compose(conn -> applyOn(conn, all).eventually(conn::close)));
    }

    private static Future<Integer> applyOn(SqlConnection conn, List<Migration> all) {
        return conn.query("SELECT pg_advisory_lock(" + LOCK_KEY + ")")
                .execute()
                // this schema's own record (a chain's schema searches public too, which has one of its own)
                .compose(x -> conn.query(
                                "SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'weft_migration')")
                        .execute())
                .compose(exists -> exists.iterator().next().getBoolean(0)
                        ? Future.succeededFuture()
                        : conn.query(
                                        "CREATE TABLE weft_migration (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
                                .execute()
                                .mapEmpty())
                .compose(x -> conn.query("SELECT version FROM weft_migration").execute())
                .compose(rows -> {
                    Set<String> done = new HashSet<>();
                    rows.forEach(r -> done.add(r.getString(0)));
                    Future<Integer> chain = Future.succeededFuture(0);
                    for (Migration m : all) {
                        if (done.contains(m.version())) continue;
                        chain = chain.compose(n -> runOne(conn, m).map(v -> n + 1));
                    }
                    return chain;
                })
                .eventually(() -> conn.query("SELECT pg_advisory_unlock(" + LOCK_KEY + ")")
                        .execute());
    }

    private static Future<Void> runOne(SqlConnection conn, Migration m) {
        LOG.info("applying migration {}", m.version());
        return conn.begin()
                .compose(tx -> conn.query(m.sql())
                        .execute()
                        .compose(x -> conn.preparedQuery("INSERT INTO weft_migration (version) VALUES ($1)")
                                .execute(Tuple.of(m.version())))
                        .compose(x -> tx.commit())
                        .recover(e -> tx.rollback()
                                .transform(x -> Future.failedFuture(new IllegalStateException(
                                        "migration " + m.version() + " failed: " + e.getMessage(), e)))));
    }

    static List<Migration> load() throws IOException {
        List<Migration> out = new ArrayList<>();
        for (String line : read(INDEX).split("\n")) {
            String name = line.trim();
            if (name.isEmpty() || name.startsWith("#")) continue;
            String version = name.endsWith(".sql") ? name.substring(0, name.length() - 4) : name;
            out.add(new Migration(version, read("db/migration/" + name)));
        }
        return out;
    }

    private static String read(String resource) throws IOException {
        try (InputStream in = Migrations.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) throw new IOException("missing resource " + resource);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
