package dev.weft.store;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.model.FungibleTransfer;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The rich list's tables: fungible balances per (token, account) (ERC-20 contract, Move metadata object, CW20 contract), the holder count per token, the bank denom
 * mapping, and the {@code richlist} cursor. Every write is one transaction that first locks the cursor and checks it
 * is where the writer expects ({@link #transact}), writes the balances, lets the caller check the resulting ones (and
 * count holders from them), and moves the cursor with the balances.
 */
public final class RichListStore {
    private static final String PROGRESS = """
      SELECT (SELECT height FROM pipeline_cursor WHERE name = 'richlist'), (SELECT height FROM pipeline_cursor WHERE name = 'ingest'),
             (SELECT min(height) FROM block)""";
    private static final String RUN_SIZES =
            "SELECT height, tx_count FROM block WHERE height >= $1 AND height <= $2 ORDER BY height";
    private static final String TRANSFERS = """
      SELECT height, token, from_address, to_address, amount::text FROM fungible_transfer
      WHERE height >= $1 AND height <= $2 AND kind = $3 ORDER BY height, sequence, transfer_index""";
    private static final String COIN_DENOMS = "SELECT denom FROM coin_denom WHERE first_height <= $1 ORDER BY denom";
    private static final String DENOMS = "SELECT denom, contract FROM evm_denom";
    private static final String HOLDERS_OF = """
      SELECT t.contract, r.account FROM rich_list r JOIN rich_list_token t ON t.id = r.token_id WHERE t.contract = ANY($1::bytea[])""";
    private static final String TOKENS = "SELECT contract FROM rich_list_token";
    private static final String ACCOUNTS_20 = "SELECT address FROM account WHERE length(address) = 20";
    private static final String HOLDING_ACCOUNTS =
            "SELECT DISTINCT account FROM rich_list WHERE account = ANY($1::bytea[])";
    private static final String ALL_HOLDERS = "SELECT DISTINCT account FROM rich_list";
    private static final String EXPECT = "SELECT weft_richlist_expect($1)";
    private static final String NEW_TOKENS = """
      INSERT INTO rich_list_token (contract) SELECT DISTINCT c FROM unnest($1::bytea[]) AS c ORDER BY c ON CONFLICT DO NOTHING""";
    /** Adds deltas; returns the new balance of each pair. */
    private static final String ADD = """
      WITH i AS (
        INSERT INTO rich_list AS r (token_id, account, amount)
        SELECT t.id, u.a, u.d::numeric FROM unnest($1::bytea[], $2::bytea[], $3::text[]) AS u(c, a, d) JOIN rich_list_token t ON t.contract = u.c
        ON CONFLICT (token_id, account) DO UPDATE SET amount = r.amount + EXCLUDED.amount
        RETURNING r.token_id, r.account, r.amount)
      SELECT t.contract, i.account, i.amount::text FROM i JOIN rich_list_token t ON t.id = i.token_id""";

    private static final String SET = """
      INSERT INTO rich_list AS r (token_id, account, amount)
      SELECT t.id, u.a, u.d::numeric FROM unnest($1::bytea[], $2::bytea[], $3::text[]) AS u(c, a, d) JOIN rich_list_token t ON t.contract = u.c
      ON CONFLICT (token_id, account) DO UPDATE SET amount = EXCLUDED.amount""";
    private static final String HOLDERS_DELTA = """
      UPDATE rich_list_token t SET holders = t.holders + u.d FROM unnest($1::bytea[], $2::bigint[]) AS u(c, d) WHERE t.contract = u.c""";
    private static final String RECOUNT = """
      UPDATE rich_list_token t SET holders = (SELECT count(*) FROM rich_list r WHERE r.token_id = t.id AND r.amount > 0)
      WHERE t.contract = ANY($1::bytea[])""";
    private static final String NEW_DENOMS = """
      INSERT INTO evm_denom (denom, denom_key, contract) SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[])
      ON CONFLICT (denom) DO UPDATE SET denom_key = EXCLUDED.denom_key, contract = EXCLUDED.contract""";
    private static final String CONTRACT_OF = """
      SELECT contract FROM evm_denom WHERE denom = $1 OR denom_key = $2 ORDER BY (denom = $1) DESC, denom LIMIT 1""";

    /** A balance's key. */
    public record Pair(AccountAddress token, AccountAddress account) {}

    /** The rich-list cursor, the ingest cursor, and the lowest indexed height (null when no block is indexed). */
    public record Progress(long richList, long ingest, Long firstBlock) {}

    /** A transfer ingestion stored for a height. */
    public record StoredTransfer(
            long height, AccountAddress token, AccountAddress from, AccountAddress to, BigInteger amount) {}

    /**
     * What one transaction writes: absolute balances (snapshot, repair, first sight), then signed deltas on top, tokens
     * whose holders are recounted, bank denom mappings, and the new cursor.
     */
    public record Writes(
            long cursor,
            Map<Pair, BigInteger> deltas,
            Map<Pair, BigInteger> absolutes,
            Set<AccountAddress> recount,
            Map<String, AccountAddress> denoms) {
        public Set<AccountAddress> tokens() {
            Set<AccountAddress> out = new LinkedHashSet<>();
            for (Pair p : deltas.keySet()) out.add(p.token());
            for (Pair p : absolutes.keySet()) out.add(p.token());
            return out;
        }
    }

    /** One holder of a page. */
    public record Holder(byte[] account, String amount) {}

    private final Pool pool;
    /** The chain the rich list's events name (null for a store that only reads). */
    private final String chainId;

    /** A store that only reads (the API). */
    public RichListStore(Pool pool) {
        this(pool, null);
    }

    /** The rich list's store: each of its transactions writes one {@code richlist} event naming {@code chainId}. */
    public RichListStore(Pool pool, String chainId) {
        this.pool = pool;
        this.chainId = chainId;
    }

    /** A committed transaction's writes and its {@code richlist} event's sequence (null when its answer was lost). */
    public record Committed(Writes writes, Long sequence) {}

    public Future<Progress> progress() {
        return progress(pool);
    }

    private static Future<Progress> progress(SqlClient client) {
        return client.query(PROGRESS).execute().map(rows -> {
            Row r = rows.iterator().next();
            return new Progress(
                    r.getLong(0) == null ? 0 : r.getLong(0), r.getLong(1) == null ? 0 : r.getLong(1), r.getLong(2));
        });
    }

    /** The last height of a run starting at {@code from}: at most {@code maxTo}, and at most {@code maxTxs} txs (one block at least). */
    public Future<Long> runEnd(long from, long maxTo, int maxTxs) {
        return pool.preparedQuery(RUN_SIZES).execute(Tuple.of(from, maxTo)).map(rows -> {
            long end = from;
            long txs = 0;
            boolean first = true;
            for (Row r : rows) {
                txs += r.getInteger(1);
                if (!first && txs > maxTxs) break;
                end = r.getLong(0);
                first = false;
            }
            return end;
        });
    }

    /** The transfers of one kind (the chain's VM's: ERC-20, Move FA or CW20) of heights {@code from..to}, in chain order. */
    public Future<List<StoredTransfer>> transfers(long from, long to, FungibleTransfer.Kind kind) {
        return pool.preparedQuery(TRANSFERS)
                .execute(Tuple.of(from, to, (short) kind.code()))
                .map(rows -> {
                    List<StoredTransfer> out = new ArrayList<>(rows.size());
                    for (Row r : rows) {
                        out.add(new StoredTransfer(
                                r.getLong(0),
                                AccountAddress.of(r.getBuffer(1).getBytes()),
                                AccountAddress.of(r.getBuffer(2).getBytes()),
                                AccountAddress.of(r.getBuffer(3).getBytes()),
                                new BigInteger(r.getString(4))));
                    }
                    return out;
                });
    }

    /** The bank denoms the indexed txs up to {@code upTo} move. */
    public Future<Set<String>> coinDenoms(long upTo) {
        return pool.preparedQuery(COIN_DENOMS).execute(Tuple.of(upTo)).map(rows -> {
            Set<String> out = new LinkedHashSet<>();
            for (Row r : rows) out.add(r.getString(0));
            return out;
        });
    }

    public Future<Map<String, AccountAddress>> denoms() {
        return pool.query(DENOMS).execute().map(rows -> {
            Map<String, AccountAddress> out = new HashMap<>();
            for (Row r : rows)
                out.put(r.getString(0), AccountAddress.of(r.getBuffer(1).getBytes()));
            return out;
        });
    }

    /** Every account with a row (any balance) for each of the tokens. */
    public Future<Map<AccountAddress, Set<AccountAddress>>> holdersOf(Collection<AccountAddress> tokens) {
        return pool.preparedQuery(HOLDERS_OF)
                .execute(Tuple.tuple().addValue(addrs(tokens)))
                .map(rows -> {
                    Map<AccountAddress, Set<AccountAddress>> out = new LinkedHashMap<>();
                    for (AccountAddress t : tokens) out.put(t, new LinkedHashSet<>());
                    for (Row r : rows)
                        out.get(AccountAddress.of(r.getBuffer(0).getBytes()))
                                .add(AccountAddress.of(r.getBuffer(1).getBytes()));
                    return out;
                });
    }

    public Future<List<AccountAddress>> tokens() {
        return addresses(TOKENS);
    }

    /** Every 20-byte account of the account dictionary (the accounts a snapshot reads). */
    public Future<List<AccountAddress>> accounts20() {
        return addresses(ACCOUNTS_20);
    }

    /** Those of the accounts that have a row for some token. */
    public Future<Set<AccountAddress>> known(Collection<AccountAddress> accounts) {
        return pool.preparedQuery(HOLDING_ACCOUNTS)
                .execute(Tuple.tuple().addValue(addrs(accounts)))
                .map(rows -> {
                    Set<AccountAddress> out = new LinkedHashSet<>();
                    for (Row r : rows) out.add(AccountAddress.of(r.getBuffer(0).getBytes()));
                    return out;
                });
    }

    /** Every account with a row for some token. */
    public Future<List<AccountAddress>> holders() {
        return addresses(ALL_HOLDERS);
    }

    private Future<List<AccountAddress>> addresses(String sql) {
        return pool.query(sql).execute().map(rows -> {
            List<AccountAddress> out = new ArrayList<>(rows.size());
            for (Row r : rows) out.add(AccountAddress.of(r.getBuffer(0).getBytes()));
            return out;
        });
    }

    /**
     * One rich-list transaction: locks the cursor (failing with {@link PositionMovedException} unless it is at
     * {@code expected}), sets the absolute balances, adds the deltas, and hands the resulting balances of the delta pairs
     * to {@code holders}, which returns how many holders each token gains or loses, or throws to roll everything back
     * (a balance that must not be). Then the holder counts, recounts, denoms and the cursor, and the commit. Balances are
     * written through {@code INSERT … ON CONFLICT} on the primary key, so no plan depends on table statistics. A
     * transaction whose answer was lost but which went through succeeds.
     */
    public Future<Committed> transact(
            long expected, Writes w, Function<Map<Pair, BigInteger>, Map<AccountAddress, Long>> holders) {
        UUID token = UUID.randomUUID();
        return CommitBurst.resolve(
                write(expected, w, holders, token),
                new Committed(w, null),
                StatusStore.RICHLIST,
                () -> CommitBurst.landed(pool, StatusStore.RICHLIST, token));
    }

    private Future<Committed> write(
            long expected, Writes w, Function<Map<Pair, BigInteger>, Map<AccountAddress, Long>> holders, UUID token) {
        java.util.Objects.requireNonNull(chainId, "a store that only reads does not write");
        return pool.withTransaction(conn -> {
                    List<Future<?>> first = new ArrayList<>();
                    first.add(conn.preparedQuery(EXPECT).execute(Tuple.of(expected)));
                    Set<AccountAddress> tokens = w.tokens();
                    if (!tokens.isEmpty())
                        first.add(conn.preparedQuery(NEW_TOKENS)
                                .execute(Tuple.tuple().addValue(addrs(tokens))));
                    // absolutes first: a balance read before the run (first sight of an account) then takes the run's
                    // deltas
                    if (!w.absolutes().isEmpty())
                        first.add(conn.preparedQuery(SET).execute(amounts(w.absolutes())));
                    Future<RowSet<Row>> added = w.deltas().isEmpty()
                            ? Future.succeededFuture(null)
                            : conn.preparedQuery(ADD).execute(amounts(w.deltas()));
                    first.add(added);
                    return Future.all(first).compose(x -> {
                        Map<Pair, BigInteger> after = new HashMap<>();
                        if (added.result() != null) {
                            for (Row r : added.result()) {
                                after.put(
                                        new Pair(
                                                AccountAddress.of(r.getBuffer(0).getBytes()),
                                                AccountAddress.of(r.getBuffer(1).getBytes())),
                                        new BigInteger(r.getString(2)));
                            }
                        }
                        Map<AccountAddress, Long> hd = new LinkedHashMap<>();
                        holders.apply(after).forEach((t, d) -> {
                            if (d != 0) hd.put(t, d);
                        });
                        List<Future<?>> all = new ArrayList<>();
                        if (!hd.isEmpty()) {
                            all.add(conn.preparedQuery(HOLDERS_DELTA)
                                    .execute(values(
                                            addrs(hd.keySet()), hd.values().toArray(new Long[0]))));
                        }
                        if (!w.recount().isEmpty())
                            all.add(conn.preparedQuery(RECOUNT)
                                    .execute(Tuple.tuple().addValue(addrs(w.recount()))));
                        if (!w.denoms().isEmpty()) {
                            List<String> names = new ArrayList<>(w.denoms().keySet());
                            String[] keys =
                                    names.stream().map(RichListStore::denomKey).toArray(String[]::new);
                            all.add(conn.preparedQuery(NEW_DENOMS)
                                    .execute(values(
                                            names.toArray(new String[0]),
                                            keys,
                                            addrs(w.denoms().values()))));
                        }
                        // the event last: the lock that orders sequences is held from here to the commit
                        io.vertx.core.json.JsonArray changed = new io.vertx.core.json.JsonArray();
                        for (AccountAddress t : w.tokens()) changed.add(t.hex());
                        String payload = new io.vertx.core.json.JsonObject()
                                .put("chain_id", chainId)
                                .put("height", w.cursor())
                                .put("denoms", changed)
                                .encode();
                        all.add(conn.preparedQuery(EventStore.LOCK).execute());
                        Future<RowSet<Row>> event = conn.preparedQuery(EventStore.INSERT_PER_HEIGHT)
                                .execute(Tuple.tuple()
                                        .addValue(chainId)
                                        .addValue(EventStore.RICHLIST)
                                        .addValue(new Long[] {w.cursor()})
                                        .addValue(new String[] {payload}));
                        all.add(event);
                        all.add(conn.preparedQuery(StatusStore.ADVANCE)
                                .execute(Tuple.of(StatusStore.RICHLIST, w.cursor(), token)));
                        return Future.all(all)
                                .map(v -> new Committed(
                                        w, event.result().iterator().next().getLong(0)));
                    });
                })
                .recover(e -> {
                    if (e instanceof PgException pg && "WI001".equals(pg.getSqlState()))
                        return Future.failedFuture(new PositionMovedException(pg.getErrorMessage()));
                    return Future.failedFuture(e);
                });
    }

    // ---- reads of the API ----

    /** The ERC-20 contract of a bank denom: the exact denom first, else its normalised form; null when unknown. */
    public Future<byte[]> contractOf(String denom) {
        return pool.preparedQuery(CONTRACT_OF)
                .execute(Tuple.of(denom, denomKey(denom)))
                .map(rows -> rows.size() == 0
                        ? null
                        : rows.iterator().next().getBuffer(0).getBytes());
    }

    /**
     * rollytics' denom normalisation: lower case, the hash of an {@code ibc/} denom upper case. Stored next to each denom
     * so a request in another case still finds it.
     */
    public static String denomKey(String denom) {
        String d = denom.toLowerCase(java.util.Locale.ROOT);
        return d.startsWith("ibc/") ? "ibc/" + d.substring(4).toUpperCase(java.util.Locale.ROOT) : d;
    }

    /**
     * The SQL of a holders page (public so the benchmark runs exactly what the API runs). Parameters: contract, offset,
     * rows (limit + 1). A page that lies past the middle of the token's n positive holders is read from the other end,
     * where an index scan skips fewer rows: rows [offset, offset + rows) in the requested order are rows
     * [max(0, n − offset − rows), n − offset) of the opposite order, sorted back. n is {@code rich_list_token.holders},
     * written in the transactions that write the balances, so it is the exact count of the statement's snapshot. Only
     * the branch that one-time filter selects runs; an offset at or past n reads no row.
     */
    public static String holdersSql(boolean desc, boolean countTotal) {
        String order = desc ? "amount DESC, account ASC" : "amount ASC, account DESC";
        String opposite = desc ? "amount ASC, account DESC" : "amount DESC, account ASC";
        String total = countTotal ? "coalesce(t.holders, 0)" : "0";
        return "SELECT " + total + "::bigint, p.account, p.amount::text FROM (SELECT 1) one"
                + " LEFT JOIN rich_list_token t ON t.contract = $1 LEFT JOIN LATERAL ("
                + "(SELECT r.account, r.amount FROM rich_list r WHERE r.token_id = t.id AND r.amount > 0"
                + " AND $2::bigint <= t.holders - $2::bigint"
                + " ORDER BY " + qualified("r", order) + " OFFSET $2::bigint LIMIT $3::bigint)"
                + " UNION ALL "
                + "(SELECT e.account, e.amount FROM (SELECT r.account, r.amount FROM rich_list r WHERE r.token_id = t.id AND r.amount > 0"
                + " AND $2::bigint > t.holders - $2::bigint AND $2::bigint < t.holders"
                + " ORDER BY " + qualified("r", opposite)
                + " OFFSET greatest(0, t.holders - $2::bigint - $3::bigint) LIMIT $3::bigint) e"
                + " LIMIT greatest(0, t.holders - $2::bigint))"
                + ") p ON true ORDER BY " + qualified("p", order);
    }

    private static String qualified(String alias, String order) {
        return alias + "." + order.replace(", ", ", " + alias + ".");
    }

    /** Any offset past every possible holder count answers the same empty page; clamped, the SQL's arithmetic never overflows. */
    private static final long OFFSET_CAP = 1L << 60;

    private final Map<String, String> holdersSql = new java.util.concurrent.ConcurrentHashMap<>();

    /** A page of a token's holders with a positive balance, by amount; {@code more} when a row follows. */
    public Future<OffsetPage<Holder>> holders(
            byte[] contract, boolean desc, long offset, int limit, boolean countTotal) {
        String sql = holdersSql.computeIfAbsent(desc + "/" + countTotal, k -> holdersSql(desc, countTotal));
        return pool.preparedQuery(sql)
                .execute(Tuple.of(Buffer.buffer(contract), Math.min(offset, OFFSET_CAP), limit + 1))
                .map(rows -> {
                    long total = 0;
                    List<Holder> out = new ArrayList<>();
                    for (Row r : rows) {
                        total = r.getLong(0);
                        if (r.getValue(1) == null) continue;
                        out.add(new Holder(r.getBuffer(1).getBytes(), r.getString(2)));
                    }
                    boolean more = out.size() > limit;
                    return new OffsetPage<>(more ? out.subList(0, limit) : out, more, total);
                });
    }

    // ---- upkeep ----

    private static final String RANK_INDEX = "rich_list_amount_idx";
    /** Invalid copies a failed or interrupted {@code REINDEX … CONCURRENTLY} leaves next to the index. */
    private static final String RANK_INDEX_LEFTOVERS = """
      SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'rich_list'::regclass AND NOT i.indisvalid AND c.relname ~ '^rich_list_amount_idx_cc(new|old)[0-9]*$'""";

    private static final String RANK_INDEX_BYTES = "SELECT pg_relation_size('" + RANK_INDEX + "'::regclass)";

    /** The rank index's size before and after a rebuild, and the invalid leftovers dropped first. */
    public record RankIndexRebuild(long bytesBefore, long bytesAfter, List<String> leftoversDropped) {}

    /**
     * Rebuilds the index of the pages ({@code rich_list_amount_idx}) without blocking writes or reads: balance updates
     * are never HOT (amount is indexed), so a long catch-up leaves it mostly dead entries. First drops the invalid copies
     * an earlier failed rebuild left. Each statement runs on its own, outside a transaction, as PostgreSQL requires.
     */
    public Future<RankIndexRebuild> rebuildRankIndex() {
        return pool.query(RANK_INDEX_LEFTOVERS).execute().compose(rows -> {
            List<String> leftovers = new ArrayList<>();
            for (Row r : rows) leftovers.add(r.getString(0));
            Future<Void> dropped = Future.succeededFuture();
            for (String name : leftovers) {
                // the name matched a fixed pattern of letters, digits and underscores
                dropped = dropped.compose(v -> pool.query("DROP INDEX CONCURRENTLY IF EXISTS \"" + name + "\"")
                        .execute()
                        .mapEmpty());
            }
            return dropped.compose(v -> bytes(RANK_INDEX_BYTES))
                    .compose(before -> pool.query("REINDEX INDEX CONCURRENTLY " + RANK_INDEX)
                            .execute()
                            .compose(v -> bytes(RANK_INDEX_BYTES))
                            .map(after -> new RankIndexRebuild(before, after, leftovers)));
        });
    }

    private Future<Long> bytes(String sql) {
        return pool.query(sql).execute().map(rows -> rows.iterator().next().getLong(0));
    }

    private static Tuple amounts(Map<Pair, BigInteger> m) {
        List<Pair> pairs = new ArrayList<>(m.keySet());
        String[] v = new String[pairs.size()];
        for (int i = 0; i < v.length; i++) v[i] = m.get(pairs.get(i)).toString();
        return values(addrs(pairs, Pair::token), addrs(pairs, Pair::account), v);
    }

    /** A tuple of two or more values; arrays stay one value each (Tuple.of would spread a trailing array). */
    private static Tuple values(Object... v) {
        Tuple t = Tuple.tuple();
        for (Object o : v) t.addValue(o);
        return t;
    }

    private static Buffer[] addrs(Collection<AccountAddress> l) {
        return addrs(l, a -> a);
    }

    private static <T> Buffer[] addrs(Collection<T> l, Function<T, AccountAddress> f) {
        Buffer[] out = new Buffer[l.size()];
        int i = 0;
        for (T x : l) out[i++] = Buffer.buffer(f.apply(x).bytes());
        return out;
    }
}
