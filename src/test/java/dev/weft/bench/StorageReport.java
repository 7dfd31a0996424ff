package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the history costs on disk: per table over 1 MB, its rows, its bytes on disk (heap, indexes, TOAST) and the
 * rows' raw size (the bytes of their columns as stored, without PostgreSQL's per-row header, page and index overhead);
 * then the whole database per tx.
 */
final class StorageReport {
    private StorageReport() {}

    static void print(Pool pool, long txs) {
        List<Row> tables = new ArrayList<>();
        await(pool.query(
                                "SELECT c.relname, pg_total_relation_size(c.oid), pg_relation_size(c.oid), pg_indexes_size(c.oid) FROM pg_class c "
                                        + "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY 2 DESC")
                        .execute())
                .forEach(tables::add);
        long disk = 0;
        long raw = 0;
        System.out.println(
                "storage   per table over 1 MB: rows, on disk (heap + indexes + TOAST: pg_total_relation_size) and per tx, indexes alone, raw size of the rows' columns");
        for (Row t : tables) {
            String name = t.getString(0);
            long total = t.getLong(1);
            disk += total;
            if (total < 1 << 20) continue;
            // the name comes from pg_class, not from a user
            Row r = await(pool.query("SELECT count(*), coalesce(sum(pg_column_size(t.*) - 24), 0) FROM \"" + name
                                    + "\" t")
                            .execute())
                    .iterator()
                    .next();
            raw += r.getLong(1);
            System.out.printf(
                    Locale.ROOT,
                    "  %-28s %,12d rows  %,9.1f MB on disk  %,7.0f bytes per tx  %,9.1f MB indexes  %,9.1f MB raw  (%.2f×)%n",
                    name,
                    r.getLong(0),
                    total / 1e6,
                    txs == 0 ? 0 : (double) total / txs,
                    t.getLong(3) / 1e6,
                    r.getLong(1) / 1e6,
                    r.getLong(1) == 0 ? 0 : (double) total / r.getLong(1));
        }
        System.out.println(
                "storage   per index over 2 MB: on disk and per tx, scans since the start (pg_stat_user_indexes)");
        for (Row i : await(pool.query(
                        "SELECT s.indexrelname, pg_relation_size(s.indexrelid), s.idx_scan FROM pg_stat_user_indexes s "
                                + "WHERE s.schemaname = current_schema() AND pg_relation_size(s.indexrelid) > 2 << 20 ORDER BY 2 DESC")
                .execute()))
            System.out.printf(
                    Locale.ROOT,
                    "  %-40s %,9.1f MB  %,7.0f bytes per tx  %,12d scans%n",
                    i.getString(0),
                    i.getLong(1) / 1e6,
                    txs == 0 ? 0 : (double) i.getLong(1) / txs,
                    i.getLong(2));
        long database = await(pool.query("SELECT pg_database_size(current_database())")
                        .execute())
                .iterator()
                .next()
                .getLong(0);
        System.out.printf(
                Locale.ROOT,
                "storage   tables %,.1f MB (database %,.1f MB) for %d txs: %,.0f bytes per tx on disk, %,.0f bytes per tx raw (tables over 1 MB)%n",
                disk / 1e6,
                database / 1e6,
                txs,
                txs == 0 ? 0 : (double) disk / txs,
                txs == 0 ? 0 : (double) raw / txs);
    }
}
