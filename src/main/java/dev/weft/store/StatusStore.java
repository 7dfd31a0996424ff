package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.HashMap;
import java.util.Map;

/** Pipeline cursors: the last committed height of ingestion, EVM tracing and the rich list. */
public final class StatusStore {
    public static final String INGEST = "ingest";
    public static final String EVM = "evm";
    public static final String RICHLIST = "richlist";

    private final Pool pool;

    public StatusStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Not a cursor: the height {@code /status} reports as {@code internal_tx_height} (rollytics' semantics,
     * api/handler/status/status.go): the tracer's cursor, or the ingest height when no block with EVM txs lies above the cursor
     * up to it (the tracer is caught up; the blocks above hold nothing to trace).
     */
    public static final String INTERNAL_TX = "internal_tx";

    private static final String CURSORS = """
      SELECT name, height FROM pipeline_cursor
      UNION ALL
      SELECT 'internal_tx', CASE WHEN EXISTS (SELECT 1 FROM block b WHERE b.evm_tx_count > 0 AND b.height > e.height AND b.height <= i.height)
                                 THEN e.height ELSE greatest(e.height, i.height) END
      FROM pipeline_cursor e, pipeline_cursor i WHERE e.name = 'evm' AND i.name = 'ingest'""";

    /** Every cursor by name, and {@link #INTERNAL_TX}. */
    public Future<Map<String, Long>> cursors() {
        return pool.query(CURSORS).execute().map(rows -> {
            Map<String, Long> out = new HashMap<>();
            rows.forEach(r -> out.put(r.getString(0), r.getLong(1)));
            return out;
        });
    }

    public Future<Long> cursor(String name) {
        return pool.preparedQuery("SELECT height FROM pipeline_cursor WHERE name = $1")
                .execute(Tuple.of(name))
                .map(rows -> rows.size() == 0 ? 0L : rows.iterator().next().getLong(0));
    }

    /**
     * What a cursor's last commit was, as a string that changes with every commit: its height and commit token (a commit
     * re-doing the same height has a new token); empty before the first.
     */
    public Future<String> commitVersion(String name) {
        return pool.preparedQuery("SELECT height, commit_token FROM pipeline_cursor WHERE name = $1")
                .execute(Tuple.of(name))
                .map(rows -> {
                    if (rows.size() == 0) return "";
                    var r = rows.iterator().next();
                    return r.getLong(0) + "/" + r.getValue(1);
                });
    }

    /**
     * Moves a cursor, in the transaction that wrote that height's data; parameters (name, height, commit token). The token
     * names the commit, so a writer that lost its commit's answer can tell its own commit from another's ({@link CommitBurst#landed}).
     */
    public static final String ADVANCE =
            "INSERT INTO pipeline_cursor (name, height, updated_at, commit_token) VALUES ($1, $2, now(), $3) "
                    + "ON CONFLICT (name) DO UPDATE SET height = EXCLUDED.height, updated_at = now(), commit_token = EXCLUDED.commit_token";
}
