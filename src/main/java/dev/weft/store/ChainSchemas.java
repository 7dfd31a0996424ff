package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

/**
 * The schemas chains' tables live in, for the admin command that drops a chain removed from the configuration: what
 * one holds, and dropping it. A schema counts as a chain's only when Weft migrated it (its own {@code weft_migration}
 * table), so the command cannot drop a schema some other application keeps in the same database.
 */
public final class ChainSchemas {
    /** Lower-case letters, digits and {@code _}: a name PostgreSQL needs no quotes for (quoted anyway below). */
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private static final String DESCRIBE = """
            SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'weft_migration'),
                   (SELECT count(*) FROM pg_tables WHERE schemaname = $1)
            FROM pg_namespace WHERE nspname = $1""";

    private final Pool pool;

    public ChainSchemas(Pool pool) {
        this.pool = pool;
    }

    /** What a schema holds: whether Weft migrated it, and its tables; null when there is no such schema. */
    public record Found(boolean migrated, long tables) {}

    public Future<Found> describe(String schema) {
        checked(schema);
        return pool.preparedQuery(DESCRIBE).execute(Tuple.of(schema)).map(rows -> {
            if (rows.size() == 0) return null;
            Row r = rows.iterator().next();
            return new Found(r.getBoolean(0), r.getLong(1));
        });
    }

    /** The ingest height a chain's schema had reached (0 when it has no cursor). */
    public Future<Long> ingestHeight(String schema) {
        return pool.query("SELECT coalesce((SELECT height FROM " + quoted(schema)
                        + ".pipeline_cursor WHERE name = 'ingest'), 0)")
                .execute()
                .map(rows -> rows.iterator().next().getLong(0))
                .recover(e -> Future.succeededFuture(0L));
    }

    /** {@code DROP SCHEMA … CASCADE}: the schema, its tables, their rows. Never {@code public}. */
    public Future<Void> drop(String schema) {
        checked(schema);
        if (schema.equals("public")) throw new IllegalArgumentException("the public schema is never dropped");
        return pool.query("DROP SCHEMA " + quoted(schema) + " CASCADE")
                .execute()
                .mapEmpty();
    }

    private static String quoted(String schema) {
        return '"' + checked(schema) + '"';
    }

    private static String checked(String schema) {
        if (!NAME.matcher(schema).matches()) throw new IllegalArgumentException("bad schema name " + schema);
        return schema;
    }
}
