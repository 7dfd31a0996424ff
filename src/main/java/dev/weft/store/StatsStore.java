package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * The stats overview: the latest block, the average block time over the last blocks, the tx and account counters,
 * and the per-day counters of the last days. Every value is a counter row or an index probe at the head of the chain,
 * so the read costs the same on any history.
 */
public final class StatsStore {
    /**
     * Parameter: the block window. Columns: latest height, its time (ns), txs, EVM txs, accounts, blocks in the
     * window, the window's oldest time (ns).
     */
    private static final String OVERVIEW = """
      SELECT h.height, h.time_ns, t.txs, t.evm_txs, (SELECT accounts FROM view_totals WHERE id = 1),
             w.n, w.oldest
      FROM ingest_totals t
      LEFT JOIN LATERAL (SELECT height, time_ns FROM block ORDER BY height DESC LIMIT 1) h ON true
      LEFT JOIN LATERAL (SELECT count(*) AS n, min(x.time_ns) AS oldest
                         FROM (SELECT time_ns FROM block ORDER BY height DESC LIMIT $1) x) w ON true
      WHERE t.id = 1""";
    /** Parameters: first and last epoch day (inclusive). Rows: epoch day, txs, active accounts, newest first. */
    private static final String DAYS = """
      SELECT (d.day - date '1970-01-01')::int, d.txs, d.active_accounts FROM daily_stats d
      WHERE d.day BETWEEN date '1970-01-01' + $1::int AND date '1970-01-01' + $2::int ORDER BY d.day DESC""";

    /** The head and the counters; {@code latestHeight} null before the first block. */
    public record Overview(
            Long latestHeight,
            Long latestTimeNs,
            long txs,
            long evmTxs,
            long accounts,
            long windowBlocks,
            Long oldestNs) {}

    /** One day's counters ({@code day}: days since the epoch, UTC). */
    public record Day(int day, long txs, long activeAccounts) {}

    private final Pool pool;

    public StatsStore(Pool pool) {
        this.pool = pool;
    }

    public Future<Overview> overview(int window) {
        return pool.preparedQuery(OVERVIEW).execute(Tuple.of(window)).map(rows -> {
            Row r = rows.iterator().next();
            Long accounts = r.getLong(4);
            return new Overview(
                    r.getLong(0),
                    r.getLong(1),
                    r.getLong(2),
                    r.getLong(3),
                    accounts == null ? 0 : accounts,
                    r.getLong(5) == null ? 0 : r.getLong(5),
                    r.getLong(6));
        });
    }

    /** The days of {@code [firstDay, lastDay]} that have counters, newest first. */
    public Future<List<Day>> days(int firstDay, int lastDay) {
        return pool.preparedQuery(DAYS).execute(Tuple.of(firstDay, lastDay)).map(rows -> {
            List<Day> out = new ArrayList<>();
            for (Row r : rows) out.add(new Day(r.getInteger(0), r.getLong(1), r.getLong(2)));
            return out;
        });
    }
}
