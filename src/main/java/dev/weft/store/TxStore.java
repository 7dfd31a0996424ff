package dev.weft.store;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads of a tx stream (Cosmos txs or EVM txs): keyset pages by sequence, filtered by account (optionally signer
 * only), by height and by message types, each with its exact total in the same round trip. Totals come from the
 * counters kept at ingest; only a combination of filters (account or height with msgs) counts rows, through the
 * edge tables' indexes.
 */
public final class TxStore {
    /** A tx stream and its tables. */
    public enum Stream {
        COSMOS("tx", "tx_account", "txs", "txs", "signer_txs", "tx_count"),
        EVM("evm_tx", "evm_tx_account", "evm_txs", "evm_txs", "evm_signer_txs", "evm_tx_count");

        final String table;
        final String accountTable;
        final String totalColumn;
        final String accountColumn;
        final String signerColumn;
        final String blockColumn;

        Stream(
                String table,
                String accountTable,
                String totalColumn,
                String accountColumn,
                String signerColumn,
                String blockColumn) {
            this.table = table;
            this.accountTable = accountTable;
            this.totalColumn = totalColumn;
            this.accountColumn = accountColumn;
            this.signerColumn = signerColumn;
            this.blockColumn = blockColumn;
        }
    }

    public enum Filter {
        ALL,
        ACCOUNT,
        SIGNER,
        HEIGHT
    }

    /**
     * One list query.
     *
     * @param key      the account address bytes (ACCOUNT, SIGNER) or the height (HEIGHT); null for ALL
     * @param msgTypes message type names (without slash) to filter on, or null for no filter
     * @param bound    exclusive sequence bound of the cursor ({@code Long.MAX_VALUE} descending / 0 ascending for none)
     */
    public record Query(
            Stream stream,
            Filter filter,
            Object key,
            List<String> msgTypes,
            boolean desc,
            long bound,
            long offset,
            int limit,
            boolean countTotal,
            Long fromHeight,
            Long toHeight,
            Short category) {
        /** A query without a category filter. */
        public Query(
                Stream stream,
                Filter filter,
                Object key,
                List<String> msgTypes,
                boolean desc,
                long bound,
                long offset,
                int limit,
                boolean countTotal,
                Long fromHeight,
                Long toHeight) {
            this(stream, filter, key, msgTypes, desc, bound, offset, limit, countTotal, fromHeight, toHeight, null);
        }

        /** A query over every height. */
        public Query(
                Stream stream,
                Filter filter,
                Object key,
                List<String> msgTypes,
                boolean desc,
                long bound,
                long offset,
                int limit,
                boolean countTotal) {
            this(stream, filter, key, msgTypes, desc, bound, offset, limit, countTotal, null, null, null);
        }

        /** Whether the category filter applies (an account's Cosmos txs only). */
        boolean categorised() {
            return category != null && stream == Stream.COSMOS && (filter == Filter.ACCOUNT || filter == Filter.SIGNER);
        }

        /** Whether a height range applies (never on a block's txs, which are one height). */
        boolean ranged() {
            return filter != Filter.HEIGHT && (fromHeight != null || toHeight != null);
        }
    }

    private final Pool pool;
    private final Map<String, String> sqlCache = new ConcurrentHashMap<>();

    public TxStore(Pool pool) {
        this.pool = pool;
    }

    public Future<BlockStore.Page> page(Query q) {
        boolean msgs = q.msgTypes() != null;
        boolean ranged = q.ranged();
        boolean category = q.categorised();
        String sql = sqlCache.computeIfAbsent(
                q.stream() + "/" + q.filter() + "/" + msgs + "/" + q.desc() + "/" + q.countTotal() + "/" + ranged + "/"
                        + category,
                k -> buildSql(q.stream(), q.filter(), msgs, q.desc(), q.countTotal(), ranged, category));
        Tuple t = Tuple.tuple();
        if (q.filter() != Filter.ALL) t.addValue(q.key() instanceof byte[] b ? Buffer.buffer(b) : q.key());
        if (category) t.addValue(q.category());
        if (msgs) t.addValue(q.msgTypes().toArray(new String[0]));
        if (ranged) {
            t.addValue(q.fromHeight() == null ? 0L : q.fromHeight());
            t.addValue(q.toHeight() == null ? Long.MAX_VALUE : q.toHeight());
        }
        t.addValue(q.bound()).addValue(q.offset()).addValue(q.limit() + 1);
        return pool.preparedQuery(sql).execute(t).map(rows -> BlockStore.toPage(rows, q.limit()));
    }

    /** The exact number of txs of a stream: the counter the ingest commit keeps ({@code ingest_totals}), no row count. */
    public Future<Long> count(Stream s) {
        return pool.preparedQuery("SELECT " + s.totalColumn + " FROM ingest_totals WHERE id = 1")
                .execute()
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getLong(0) : 0L);
    }

    /** The JSON of the latest tx with this hash (a hash recurs only if a chain replays a tx), or null. */
    public Future<Buffer> byHash(Stream s, byte[] hash) {
        return pool.preparedQuery(byHashSql(s))
                .execute(Tuple.of(Buffer.buffer(hash)))
                .map(rows -> {
                    Buffer best = null;
                    long seq = -1;
                    for (var r : rows) {
                        if (r.getLong(0) > seq) {
                            seq = r.getLong(0);
                            best = r.getBuffer(1);
                        }
                    }
                    return best;
                });
    }

    /**
     * The SQL of {@link #byHash} (public so the benchmark measures exactly what the API runs). No ORDER BY/LIMIT: with
     * them, a planner without statistics yet (right after a big catch-up) may walk the primary key backwards instead
     * of using the hash index.
     */
    public static String byHashSql(Stream s) {
        return "SELECT sequence, json FROM " + s.table + " WHERE hash = $1";
    }

    /**
     * The SQL of a query shape; parameters in order: key (unless ALL), msg names (if msgs), bound, offset, limit.
     * Public so the benchmark measures exactly what the API runs.
     */
    public static String buildSql(Stream s, Filter f, boolean msgs, boolean desc, boolean countTotal) {
        return buildSql(s, f, msgs, desc, countTotal, false);
    }

    /**
     * {@link #buildSql(Stream, Filter, boolean, boolean, boolean)} with a height range (parameters from and to height,
     * inclusive, after the msg names), which becomes a sequence range: sequences follow heights, so the txs of heights
     * [from, to] are the sequences between the first tx at or above {@code from} and the last at or below {@code to}
     * (two probes of the (height, sequence) index). The total of every txs in the range is then its length, without
     * counting; with an account or message types it counts the range's edge rows.
     */
    public static String buildSql(Stream s, Filter f, boolean msgs, boolean desc, boolean countTotal, boolean ranged) {
        return buildSql(s, f, msgs, desc, countTotal, ranged, false);
    }

    /**
     * {@link #buildSql(Stream, Filter, boolean, boolean, boolean, boolean)} with a category filter on an account's
     * Cosmos txs (parameter: the category code, right after the key): the page walks the account's edges of that
     * category ({@code tx_account_category}) and the total is its counter ({@code account_category_stats}) unless
     * the signer flag, {@code msgs} or a range narrow it further (then it counts the category's edges).
     */
    public static String buildSql(
            Stream s, Filter f, boolean msgs, boolean desc, boolean countTotal, boolean ranged, boolean category) {
        int p = 1;
        String key = f == Filter.ALL ? null : "$" + p++ + (f == Filter.HEIGHT ? "::bigint" : "::bytea");
        String cat = category ? "$" + p++ + "::smallint" : null;
        String names = msgs ? "$" + p++ + "::text[]" : null;
        String lo = null;
        String hi = null;
        if (ranged && f != Filter.HEIGHT) {
            String fromH = "$" + p++ + "::bigint";
            String toH = "$" + p++ + "::bigint";
            lo = "coalesce((SELECT r.sequence FROM " + s.table + " r WHERE r.height >= " + fromH
                    + " ORDER BY r.height, r.sequence LIMIT 1), " + Long.MAX_VALUE + ")";
            hi = "coalesce((SELECT r.sequence FROM " + s.table + " r WHERE r.height <= " + toH
                    + " ORDER BY r.height DESC, r.sequence DESC LIMIT 1), 0)";
        }
        String inRange = lo == null ? "" : " AND %s BETWEEN " + lo + " AND " + hi;
        String bound = "$" + p++ + "::bigint";
        String offset = "$" + p++ + "::bigint";
        String limit = "$" + p + "::bigint";
        String cmp = desc ? "<" : ">";
        String dir = desc ? "DESC" : "ASC";
        String account = "(SELECT id FROM account WHERE address = " + key + ")";
        String hasType = "EXISTS (SELECT 1 FROM tx_msg_type m JOIN msg_type mt ON mt.id = m.msg_type_id "
                + "WHERE m.sequence = %s AND mt.name = ANY(" + names + "))";
        String page;
        String total;
        switch (f) {
            case ALL -> {
                if (!msgs) {
                    page = "SELECT t.sequence, t.json FROM " + s.table + " t WHERE t.sequence " + cmp + " " + bound
                            + inRange.formatted("t.sequence")
                            + " ORDER BY t.sequence " + dir + " OFFSET " + offset + " LIMIT " + limit;
                    total = lo == null
                            ? "(SELECT " + s.totalColumn + " FROM ingest_totals)"
                            : "greatest(0, " + hi + " - " + lo + " + 1)";
                } else {
                    page = "SELECT t.sequence, t.json FROM " + s.table + " t WHERE t.sequence IN ("
                            + "SELECT DISTINCT x.sequence FROM msg_type mt, LATERAL (SELECT m.sequence FROM tx_msg_type m "
                            + "WHERE m.msg_type_id = mt.id AND m.sequence " + cmp + " " + bound
                            + inRange.formatted("m.sequence")
                            + " ORDER BY m.sequence " + dir
                            + " LIMIT " + offset + " + " + limit + ") x WHERE mt.name = ANY(" + names
                            + ") ORDER BY x.sequence " + dir
                            + " OFFSET " + offset + " LIMIT " + limit + ") ORDER BY t.sequence " + dir;
                    // per-type counters, minus the txs counted more than once because they hold several of the types
                    total =
                            "(SELECT coalesce(sum(st.txs), 0) FROM msg_type_stats st JOIN msg_type mt ON mt.id = st.msg_type_id "
                                    + "WHERE mt.name = ANY(" + names + ")) - (CASE WHEN cardinality(" + names
                                    + ") > 1 THEN "
                                    + "(SELECT coalesce(sum(z.k - 1), 0) FROM (SELECT (SELECT count(*) FROM unnest(x.msg_type_ids) u "
                                    + "WHERE u IN (SELECT id FROM msg_type WHERE name = ANY(" + names
                                    + "))) AS k FROM tx_multi_msg x) z "
                                    + "WHERE z.k > 1) ELSE 0 END)";
                    if (lo != null)
                        total = "(SELECT count(DISTINCT m.sequence) FROM tx_msg_type m JOIN msg_type mt ON mt.id = "
                                + "m.msg_type_id WHERE mt.name = ANY(" + names + ")" + inRange.formatted("m.sequence")
                                + ")";
                }
            }
            case ACCOUNT, SIGNER -> {
                String edges = cat == null ? s.accountTable : "tx_account_category";
                String signer = f != Filter.SIGNER
                        ? ""
                        : cat == null
                                ? " AND a.signer"
                                : " AND EXISTS (SELECT 1 FROM tx_account x WHERE x.account_id = a.account_id"
                                        + " AND x.sequence = a.sequence AND x.signer)";
                if (cat != null) signer = " AND a.category = " + cat + signer;
                String typeFilter =
                        (msgs ? " AND " + hasType.formatted("a.sequence") : "") + inRange.formatted("a.sequence");
                page = "SELECT t.sequence, t.json FROM " + edges + " a JOIN " + s.table
                        + " t ON t.sequence = a.sequence "
                        + "WHERE a.account_id = " + account + " AND a.sequence " + cmp + " " + bound + signer
                        + typeFilter
                        + " ORDER BY a.sequence " + dir + " OFFSET " + offset + " LIMIT " + limit;
                total = msgs || lo != null || (cat != null && f == Filter.SIGNER)
                        ? "(SELECT count(*) FROM " + edges + " a WHERE a.account_id = " + account + signer + typeFilter
                                + ")"
                        : cat != null
                                ? "coalesce((SELECT txs FROM account_category_stats WHERE account_id = " + account
                                        + " AND category = " + cat + "), 0)"
                                : "coalesce((SELECT " + (f == Filter.SIGNER ? s.signerColumn : s.accountColumn)
                                        + " FROM account_tx_stats WHERE account_id = " + account + "), 0)";
            }
            case HEIGHT -> {
                String typeFilter = msgs ? " AND " + hasType.formatted("t.sequence") : "";
                // ordering by (height, sequence) makes the (height, sequence) index the plan whatever the statistics
                // say
                page = "SELECT t.sequence, t.json FROM " + s.table + " t WHERE t.height = " + key + " AND t.sequence "
                        + cmp + " " + bound + typeFilter + " ORDER BY t.height " + dir + ", t.sequence " + dir
                        + " OFFSET " + offset + " LIMIT " + limit;
                total = msgs
                        ? "(SELECT count(*) FROM " + s.table + " t WHERE t.height = " + key + typeFilter + ")"
                        : "coalesce((SELECT " + s.blockColumn + " FROM block WHERE height = " + key + "), 0)";
            }
            default -> throw new IllegalArgumentException(String.valueOf(f));
        }
        if (!countTotal) total = "0";
        return "SELECT c.total::bigint, p.sequence, p.json FROM (SELECT " + total + " AS total) c LEFT JOIN LATERAL ("
                + page + ") p ON true ORDER BY p.sequence " + dir;
    }
}
