package dev.weft.store;

import dev.weft.chain.Hex;
import dev.weft.model.evm.InternalTx;
import dev.weft.model.evm.TracedBlock;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * EVM internal txs: the tracer's writes (a run of traced heights in one pipelined transaction whose first statement
 * checks the {@code evm} cursor and the total, like {@link IngestStore}), the heights it has to visit, and the API's
 * reads (keyset pages by sequence: all, by account, by height, by tx hash, each with its exact total in the same round
 * trip).
 */
public final class InternalTxStore {
    private static final String POSITION = """
      SELECT c.height, t.internal_txs, c.commit_token FROM pipeline_cursor c CROSS JOIN evm_internal_totals t WHERE c.name = 'evm'""";
    private static final String EXPECT = "SELECT weft_evm_expect($1, $2)";
    private static final String NEW_ACCOUNTS = """
      INSERT INTO account (address) SELECT DISTINCT v FROM unnest($1::bytea[]) AS v ORDER BY v ON CONFLICT (address) DO NOTHING""";
    private static final String INSERT_ROWS = """
      INSERT INTO evm_internal_tx (sequence, height, hash, frame_index, parent_index, type, from_id, to_id, input, output,
                                   value, gas, gas_used, error, revert_reason, json)
      SELECT u.s, u.h, u.hs, u.i, u.p, u.t, fa.id, ta.id, u.inp, u.outp, u.v, u.g, u.gu, u.e, u.r, u.j
      FROM unnest($1::bigint[], $2::bigint[], $3::bytea[], $4::int[], $5::int[], $6::text[], $7::bytea[], $8::bytea[],
                  $9::bytea[], $10::bytea[], $11::bytea[], $12::bytea[], $13::bytea[], $14::text[], $15::text[], $16::bytea[])
           AS u(s, h, hs, i, p, t, f, tt, inp, outp, v, g, gu, e, r, j)
      LEFT JOIN account fa ON fa.address = u.f
      LEFT JOIN account ta ON ta.address = u.tt""";
    private static final String INSERT_ACCOUNTS = """
      INSERT INTO evm_internal_tx_account (account_id, sequence)
      SELECT a.id, u.s FROM unnest($1::bytea[], $2::bigint[]) AS u(ad, s) JOIN account a ON a.address = u.ad""";
    private static final String UPSERT_ACCOUNT_STATS = """
      INSERT INTO account_internal_tx_stats AS s (account_id, internal_txs)
      SELECT a.id, u.n FROM unnest($1::bytea[], $2::bigint[]) AS u(ad, n) JOIN account a ON a.address = u.ad
      ON CONFLICT (account_id) DO UPDATE SET internal_txs = s.internal_txs + EXCLUDED.internal_txs""";
    private static final String UPDATE_TOTAL = "UPDATE evm_internal_totals SET internal_txs = $1 WHERE id = 1";
    private static final String INGESTED_HEIGHTS = """
      SELECT c.height, b.height, b.evm_tx_count FROM pipeline_cursor c
      LEFT JOIN LATERAL (SELECT height, evm_tx_count FROM block WHERE height > $1 AND height <= c.height AND evm_tx_count > 0
                         ORDER BY height LIMIT $2) b ON true
      WHERE c.name = 'ingest' ORDER BY b.height""";

    /**
     * Where the tracer stands: the last committed height, the number of internal txs (= the last sequence), and the token
     * of the commit that left it there (null before the first).
     */
    public record Position(long height, long internalTxs, UUID commit) {}

    /** A height to trace, with the EVM tx count ingestion indexed for it (-1 when unknown). */
    public record Target(long height, int evmTxs) {}

    /** Heights to trace above a height, and how far the source reaches (the ingest cursor). */
    public record Targets(List<Target> targets, long head) {}

    /** A run of traced heights ready to commit: its statements, and the position before and after it. */
    public static final class Batch {
        private final List<TracedBlock> blocks;
        private final Position before;
        private final Position after;
        private final CommitBurst statements = new CommitBurst();
        private final Set<ByteBuffer> accounts;
        private int eventsAt = -1;
        private Long lastSequence;
        private Long[] sequences;

        private Batch(List<TracedBlock> blocks, Position before, Position after, Set<ByteBuffer> accounts) {
            this.blocks = blocks;
            this.before = before;
            this.after = after;
            this.accounts = accounts;
        }

        private void add(String statement, Tuple t) {
            statements.add(statement, t);
        }

        public List<TracedBlock> blocks() {
            return blocks;
        }

        public Position before() {
            return before;
        }

        public Position after() {
            return after;
        }

        /** The run's last event sequence, when its commit answered (null when its answer was lost). */
        public Long lastSequence() {
            return lastSequence;
        }

        /** The {@code internal-txs} event sequence of each height, in order, when the commit answered (else null). */
        public Long[] sequences() {
            return sequences;
        }
    }

    /** A list query: by what, the key (account bytes, height or tx hash bytes; null for ALL), and the page. */
    public enum Filter {
        ALL,
        ACCOUNT,
        HEIGHT,
        HASH
    }

    public record Query(
            Filter filter,
            Object key,
            boolean desc,
            long bound,
            long offset,
            int limit,
            boolean countTotal,
            Long fromHeight,
            Long toHeight) {
        /** A query over every height. */
        public Query(Filter filter, Object key, boolean desc, long bound, long offset, int limit, boolean countTotal) {
            this(filter, key, desc, bound, offset, limit, countTotal, null, null);
        }

        /** Whether a height range applies (on all and by account only). */
        boolean ranged() {
            return (filter == Filter.ALL || filter == Filter.ACCOUNT) && (fromHeight != null || toHeight != null);
        }
    }

    private final Pool pool;
    /** Addresses known to be in the account dictionary: left out of its insert. */
    private final Lru<ByteBuffer, Boolean> knownAccounts;

    private final Map<String, String> sqlCache = new java.util.concurrent.ConcurrentHashMap<>();

    /** The chain the tracer's events name (null for a store that only reads). */
    private final String chainId;

    /** The tracer's store: its commits write one {@code internal-txs} event per height, naming {@code chainId}. */
    public InternalTxStore(Pool pool, int accountCacheSize, String chainId) {
        this.pool = pool;
        this.knownAccounts = new Lru<>(accountCacheSize);
        this.chainId = chainId;
    }

    /** A store that only reads (the API). */
    public InternalTxStore(Pool pool) {
        this(pool, 1, null);
    }

    // ---- the tracer ----

    public Future<Position> position() {
        return position(pool);
    }

    private static Future<Position> position(SqlClient client) {
        return client.query(POSITION).execute().map(rows -> {
            Row r = rows.iterator().next();
            return new Position(r.getLong(0), r.getLong(1), r.getUUID(2));
        });
    }

    /** Up to {@code max} heights above {@code after} that ingestion has committed with EVM txs, in order. */
    public Future<Targets> ingestedHeights(long after, int max) {
        return pool.preparedQuery(INGESTED_HEIGHTS)
                .execute(Tuple.of(after, max))
                .map(rows -> {
                    List<Target> out = new ArrayList<>();
                    long head = 0;
                    for (Row r : rows) {
                        head = r.getLong(0);
                        if (r.getLong(1) != null) out.add(new Target(r.getLong(1), r.getInteger(2)));
                    }
                    return new Targets(out, head);
                });
    }

    /**
     * Builds the statements of a run of traced heights, in increasing order, all above {@code before}. Pure CPU work
     * (array building): call it on a worker thread.
     */
    public Batch prepare(List<TracedBlock> blocks, Position before) {
        long prev = before.height();
        int n = 0;
        for (TracedBlock b : blocks) {
            if (b.height() <= prev)
                throw new IllegalArgumentException("height " + b.height() + " does not follow height " + prev);
            prev = b.height();
            n += b.rows().size();
        }
        Position after = new Position(prev, before.internalTxs() + n, UUID.randomUUID());
        Long[] seq = new Long[n];
        Long[] height = new Long[n];
        Buffer[] hash = new Buffer[n];
        Integer[] index = new Integer[n];
        Integer[] parent = new Integer[n];
        String[] type = new String[n];
        Buffer[] from = new Buffer[n];
        Buffer[] to = new Buffer[n];
        Buffer[] input = new Buffer[n];
        Buffer[] output = new Buffer[n];
        Buffer[] value = new Buffer[n];
        Buffer[] gas = new Buffer[n];
        Buffer[] gasUsed = new Buffer[n];
        String[] error = new String[n];
        String[] revert = new String[n];
        Buffer[] json = new Buffer[n];
        List<Buffer> edgeAccount = new ArrayList<>();
        List<Long> edgeSeq = new ArrayList<>();
        Map<ByteBuffer, long[]> perAccount = new LinkedHashMap<>();
        Map<ByteBuffer, Buffer> addressBufs = new HashMap<>();
        int i = 0;
        long s = before.internalTxs();
        for (TracedBlock b : blocks) {
            for (TracedBlock.Row row : b.rows()) {
                InternalTx f = row.frame();
                seq[i] = ++s;
                height[i] = b.height();
                hash[i] = Buffer.buffer(row.txHash());
                index[i] = f.index();
                parent[i] = f.parentIndex();
                type[i] = f.type();
                from[i] = address(f.from(), addressBufs);
                to[i] = address(f.to(), addressBufs);
                input[i] = bytes(f.input());
                output[i] = bytes(f.output());
                value[i] = bytes(f.value());
                gas[i] = bytes(f.gas());
                gasUsed[i] = bytes(f.gasUsed());
                error[i] = f.error();
                revert[i] = f.revertReason();
                json[i] = Buffer.buffer(row.json());
                edge(from[i], s, edgeAccount, edgeSeq, perAccount);
                if (to[i] != null && !to[i].equals(from[i])) edge(to[i], s, edgeAccount, edgeSeq, perAccount);
                i++;
            }
        }
        Set<ByteBuffer> accounts = new LinkedHashSet<>(perAccount.keySet());
        Batch batch = new Batch(blocks, before, after, accounts);
        batch.add(EXPECT, Tuple.of(before.height(), before.internalTxs()));
        List<Buffer> unknown = new ArrayList<>();
        for (ByteBuffer a : accounts) if (knownAccounts.get(a) == null) unknown.add(addressBufs.get(a));
        if (!unknown.isEmpty()) batch.add(NEW_ACCOUNTS, Tuple.tuple().addValue(unknown.toArray(new Buffer[0])));
        if (n > 0) {
            batch.add(
                    INSERT_ROWS,
                    Tuple.tuple()
                            .addValue(seq)
                            .addValue(height)
                            .addValue(hash)
                            .addValue(index)
                            .addValue(parent)
                            .addValue(type)
                            .addValue(from)
                            .addValue(to)
                            .addValue(input)
                            .addValue(output)
                            .addValue(value)
                            .addValue(gas)
                            .addValue(gasUsed)
                            .addValue(error)
                            .addValue(revert)
                            .addValue(json));
            batch.add(
                    INSERT_ACCOUNTS,
                    Tuple.tuple().addValue(edgeAccount.toArray(new Buffer[0])).addValue(edgeSeq.toArray(new Long[0])));
            Buffer[] statAccount = new Buffer[perAccount.size()];
            Long[] statCount = new Long[perAccount.size()];
            int k = 0;
            for (Map.Entry<ByteBuffer, long[]> e : perAccount.entrySet()) {
                statAccount[k] = addressBufs.get(e.getKey());
                statCount[k++] = e.getValue()[0];
            }
            batch.add(UPSERT_ACCOUNT_STATS, Tuple.tuple().addValue(statAccount).addValue(statCount));
            batch.add(UPDATE_TOTAL, Tuple.of(after.internalTxs()));
        }
        // the events last: the lock that orders their sequences is held from here to the commit
        java.util.Objects.requireNonNull(chainId, "a store that only reads does not commit");
        Long[] heights = new Long[blocks.size()];
        String[] payloads = new String[blocks.size()];
        for (int k = 0; k < blocks.size(); k++) {
            TracedBlock b = blocks.get(k);
            heights[k] = b.height();
            payloads[k] = new io.vertx.core.json.JsonObject()
                    .put("chain_id", chainId)
                    .put("height", b.height())
                    .put("count", b.rows().size())
                    .encode();
        }
        batch.add(EventStore.LOCK, Tuple.tuple());
        batch.eventsAt = batch.statements.size();
        batch.add(
                EventStore.INSERT_PER_HEIGHT,
                Tuple.tuple()
                        .addValue(chainId)
                        .addValue(EventStore.INTERNAL_TXS)
                        .addValue(heights)
                        .addValue(payloads));
        batch.add(StatusStore.ADVANCE, Tuple.of(StatusStore.EVM, after.height(), after.commit()));
        return batch;
    }

    private static void edge(
            Buffer account, long seq, List<Buffer> accounts, List<Long> seqs, Map<ByteBuffer, long[]> perAccount) {
        if (account == null) return;
        accounts.add(account);
        seqs.add(seq);
        perAccount.computeIfAbsent(ByteBuffer.wrap(account.getBytes()), x -> new long[1])[0]++;
    }

    private static Buffer address(String hex, Map<ByteBuffer, Buffer> bufs) {
        if (hex.isEmpty()) return null;
        byte[] b = Hex.decode(hex);
        return bufs.computeIfAbsent(ByteBuffer.wrap(b), x -> Buffer.buffer(b));
    }

    private static Buffer bytes(String hex) {
        return Buffer.buffer(Hex.decode(hex));
    }

    /**
     * Commits a prepared run: every statement is sent at once on one connection and runs in one transaction. Fails with
     * {@link PositionMovedException} when the database is not at {@link Batch#before()}. A commit whose answer was lost
     * but which went through succeeds.
     */
    public Future<Void> commit(Batch b) {
        return CommitBurst.resolve(
                        b.statements.run(pool).onSuccess(v -> {
                            Row r = b.statements.result(b.eventsAt).iterator().next();
                            b.lastSequence = r.getLong(0);
                            b.sequences = r.getArrayOfLongs(1);
                        }),
                        null,
                        StatusStore.EVM,
                        () -> CommitBurst.landed(
                                pool, StatusStore.EVM, b.after().commit()))
                .onSuccess(v -> {
                    Map<ByteBuffer, Boolean> known = new HashMap<>();
                    for (ByteBuffer a : b.accounts) known.put(a, Boolean.TRUE);
                    knownAccounts.putAll(known);
                });
    }

    // ---- the API ----

    public Future<BlockStore.Page> page(Query q) {
        boolean ranged = q.ranged();
        String sql = sqlCache.computeIfAbsent(
                q.filter() + "/" + q.desc() + "/" + q.countTotal() + "/" + ranged,
                k -> buildSql(q.filter(), q.desc(), q.countTotal(), ranged));
        Tuple t = Tuple.tuple();
        if (q.filter() != Filter.ALL) t.addValue(q.key() instanceof byte[] b ? Buffer.buffer(b) : q.key());
        if (ranged) {
            t.addValue(q.fromHeight() == null ? 0L : q.fromHeight());
            t.addValue(q.toHeight() == null ? Long.MAX_VALUE : q.toHeight());
        }
        t.addValue(q.bound()).addValue(q.offset()).addValue(q.limit() + 1);
        return pool.preparedQuery(sql).execute(t).map(rows -> BlockStore.toPage(rows, q.limit()));
    }

    /**
     * The SQL of a query shape; parameters in order: key (unless ALL), bound, offset, limit. Totals: the counters for
     * all and by account; a count over the (height, sequence) or (hash, sequence) index for one block or one tx (both
     * bounded by a block's frames). By hash the count is always made, since an unknown tx is a 404.
     */
    public static String buildSql(Filter f, boolean desc, boolean countTotal) {
        return buildSql(f, desc, countTotal, false);
    }

    /**
     * {@link #buildSql(Filter, boolean, boolean)} with a height range on all and by account (parameters from and to
     * height after the key): the frames' sequences follow heights, so the range is the sequences between the first
     * frame at or above {@code from} and the last at or below {@code to}; all's total is the range's length, an
     * account's counts its edge rows in the range.
     */
    public static String buildSql(Filter f, boolean desc, boolean countTotal, boolean ranged) {
        int p = 1;
        String key = f == Filter.ALL ? null : "$" + p++ + (f == Filter.HEIGHT ? "::bigint" : "::bytea");
        String lo = null;
        String hi = null;
        if (ranged && (f == Filter.ALL || f == Filter.ACCOUNT)) {
            String fromH = "$" + p++ + "::bigint";
            String toH = "$" + p++ + "::bigint";
            lo = "coalesce((SELECT r.sequence FROM evm_internal_tx r WHERE r.height >= " + fromH
                    + " ORDER BY r.height, r.sequence LIMIT 1), " + Long.MAX_VALUE + ")";
            hi = "coalesce((SELECT r.sequence FROM evm_internal_tx r WHERE r.height <= " + toH
                    + " ORDER BY r.height DESC, r.sequence DESC LIMIT 1), 0)";
        }
        String inRange = lo == null ? "" : " AND %s BETWEEN " + lo + " AND " + hi;
        String bound = "$" + p++ + "::bigint";
        String offset = "$" + p++ + "::bigint";
        String limit = "$" + p + "::bigint";
        String cmp = desc ? "<" : ">";
        String dir = desc ? "DESC" : "ASC";
        String page;
        String total;
        switch (f) {
            case ALL -> {
                page = "SELECT t.sequence, t.json FROM evm_internal_tx t WHERE t.sequence " + cmp + " " + bound
                        + inRange.formatted("t.sequence")
                        + " ORDER BY t.sequence " + dir + " OFFSET " + offset + " LIMIT " + limit;
                total = lo == null
                        ? "(SELECT internal_txs FROM evm_internal_totals)"
                        : "greatest(0, " + hi + " - " + lo + " + 1)";
            }
            case ACCOUNT -> {
                String account = "(SELECT id FROM account WHERE address = " + key + ")";
                page =
                        "SELECT t.sequence, t.json FROM evm_internal_tx_account a JOIN evm_internal_tx t ON t.sequence = a.sequence "
                                + "WHERE a.account_id = " + account + " AND a.sequence " + cmp + " " + bound
                                + inRange.formatted("a.sequence")
                                + " ORDER BY a.sequence " + dir + " OFFSET " + offset + " LIMIT " + limit;
                total = lo == null
                        ? "coalesce((SELECT internal_txs FROM account_internal_tx_stats WHERE account_id = " + account
                                + "), 0)"
                        : "(SELECT count(*) FROM evm_internal_tx_account a WHERE a.account_id = " + account
                                + inRange.formatted("a.sequence") + ")";
            }
            case HEIGHT, HASH -> {
                String column = f == Filter.HEIGHT ? "height" : "hash";
                // ordering by (column, sequence) keeps the plan on the (column, sequence) index whatever the statistics
                // say
                page = "SELECT t.sequence, t.json FROM evm_internal_tx t WHERE t." + column + " = " + key
                        + " AND t.sequence " + cmp + " " + bound + " ORDER BY t." + column + " " + dir + ", t.sequence "
                        + dir + " OFFSET " + offset + " LIMIT " + limit;
                total = "(SELECT count(*) FROM evm_internal_tx t WHERE t." + column + " = " + key + ")";
            }
            default -> throw new IllegalArgumentException(String.valueOf(f));
        }
        if (!countTotal && f != Filter.HASH) total = "0";
        return "SELECT c.total::bigint, p.sequence, p.json FROM (SELECT " + total + " AS total) c LEFT JOIN LATERAL ("
                + page + ") p ON true ORDER BY p.sequence " + dir;
    }
}
