package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import dev.weft.chain.Hex;
import dev.weft.store.InternalTxStore;
import dev.weft.store.NftStore;
import dev.weft.store.RichListStore;
import dev.weft.store.TxStore;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Every list endpoint read at {@code clients} concurrent clients through the API and as the same SQL on a pool, first
 * pages (no cursor) and deep pages (a keyset cursor, or an offset for the offset-paged lists, in the oldest tenth of
 * the set), each against the goals: p99 under 50 ms, API/SQL at least 0.8. An endpoint whose table is empty (a role
 * that did not run) is reported as skipped.
 */
final class ListReads {
    static final double P99_GOAL_MS = 50;
    static final double RATIO_GOAL = 0.8;

    /** One read: its name, the API URI and the SQL parameters of the next request, and the SQL the API runs. */
    record Read(String name, Supplier<String> uri, String sql, Supplier<Tuple> params) {}

    private ListReads() {}

    /**
     * Runs every read, API then SQL, and prints its figures and, under them, the CPU each leg cost per request: this
     * JVM's, PostgreSQL's, and the node's when {@code node} (its process) runs apart from this JVM (null: the node shares
     * this JVM with the clients).
     */
    static void run(Vertx vertx, int port, Pool pool, int clients, long readMs, RouteBench.ProcessCpu node) {
        List<Read> reads = reads(pool);
        System.out.printf(
                Locale.ROOT,
                "list reads  %d concurrent clients, %d s per query after a warm-up of every query; API = HTTP through the node, "
                        + "SQL = the same query on a pool; goals p99 < %.0f ms, API/SQL >= %.1f%n",
                clients,
                readMs / 1000,
                P99_GOAL_MS,
                RATIO_GOAL);
        for (Read r : reads) {
            ReadLoad.http(vertx, port, clients, 0, readMs / 2, r.uri());
            ReadLoad.sql(vertx, pool, r.sql(), clients, 0, readMs / 2, r.params());
        }
        int misses = 0;
        int p99Met = 0;
        int ratioMet = 0;
        for (Read r : reads) {
            ReadLoad.http(vertx, port, clients, 0, readMs / 5, r.uri());
            Cpu a = Cpu.now(node);
            ReadLoad.Result api = ReadLoad.http(vertx, port, clients, 0, readMs, r.uri());
            Cpu b = Cpu.now(node);
            ReadLoad.sql(vertx, pool, r.sql(), clients, 0, readMs / 5, r.params());
            Cpu c = Cpu.now(node);
            ReadLoad.Result raw = ReadLoad.sql(vertx, pool, r.sql(), clients, 0, readMs, r.params());
            Cpu d = Cpu.now(node);
            double ratio = api.perSecond() / raw.perSecond();
            boolean clean = api.errors() + raw.errors() == 0;
            boolean p99Ok = api.p99Ms() < P99_GOAL_MS && clean;
            boolean ratioOk = ratio >= RATIO_GOAL && clean;
            boolean ok = p99Ok && ratioOk;
            if (!ok) misses++;
            if (p99Ok) p99Met++;
            if (ratioOk) ratioMet++;
            System.out.printf(
                    Locale.ROOT,
                    "  %-40s API %s | SQL %s | API/SQL %.2f %s%s%n",
                    r.name(),
                    api.row(),
                    raw.row(),
                    ratio,
                    ok ? "ok" : "MISS",
                    clean ? "" : "  (" + (api.errors() + raw.errors()) + " errors)");
            System.out.printf(
                    Locale.ROOT,
                    "  %-40s CPU per request: API %s | SQL %s%n",
                    "",
                    b.minus(a).perRequest(api.count(), node != null),
                    d.minus(c).perRequest(raw.count(), node != null));
        }
        System.out.printf(
                Locale.ROOT,
                "list reads  %d of %d queries meet both goals (p99 < %.0f ms: %d; API/SQL >= %.1f: %d)%n",
                reads.size() - misses,
                reads.size(),
                P99_GOAL_MS,
                p99Met,
                RATIO_GOAL,
                ratioMet);
    }

    /** CPU seconds of this JVM, of PostgreSQL's processes and of the node's process when it runs apart. */
    private record Cpu(double self, double postgres, double node) {
        static Cpu now(RouteBench.ProcessCpu node) {
            CpuShares here = CpuShares.now(null);
            return new Cpu(here.nodeSecs(), here.postgresSecs(), node == null ? 0 : node.micros()[0] / 1e6);
        }

        Cpu minus(Cpu o) {
            return new Cpu(self - o.self, postgres - o.postgres, node - o.node);
        }

        String perRequest(long requests, boolean nodeApart) {
            double n = Math.max(1, requests);
            String jvm = nodeApart
                    ? String.format(Locale.ROOT, "node %.0f µs, clients %.0f µs", 1e6 * node / n, 1e6 * self / n)
                    : String.format(Locale.ROOT, "node and clients %.0f µs", 1e6 * self / n);
            return String.format(Locale.ROOT, "%s, PostgreSQL %.0f µs", jvm, 1e6 * postgres / n);
        }
    }

    /** The reads of every list endpoint that has rows, first and deep pages. */
    static List<Read> reads(Pool pool) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        List<Read> out = new ArrayList<>();
        long txs = scalar(pool, "SELECT txs FROM ingest_totals");
        long evmTxs = scalar(pool, "SELECT evm_txs FROM ingest_totals");
        long heights = scalar(pool, "SELECT coalesce(max(height), 0) FROM block");
        long minHeight = scalar(pool, "SELECT coalesce(min(height), 0) FROM block");
        long internal = scalar(pool, "SELECT coalesce((SELECT internal_txs FROM evm_internal_totals), 0)");
        if (txs > 0) {
            String all = TxStore.buildSql(TxStore.Stream.COSMOS, TxStore.Filter.ALL, false, true, true);
            out.add(new Read(
                    "txs, first page",
                    () -> "/indexer/tx/v1/txs?pagination.limit=100",
                    all,
                    () -> Tuple.of(Long.MAX_VALUE, 0L, 101)));
            out.add(deep("txs, deep page", "/indexer/tx/v1/txs?pagination.limit=100", all, txs, rnd));
            List<byte[]> accounts = bytes(
                    pool,
                    "SELECT a.address FROM account_tx_stats s JOIN account a ON a.id = s.account_id "
                            + "ORDER BY s.txs DESC LIMIT 200");
            String byAccount = TxStore.buildSql(TxStore.Stream.COSMOS, TxStore.Filter.ACCOUNT, false, true, true);
            out.add(new Read(
                    "txs by account, first page",
                    () -> "/indexer/tx/v1/txs/by_account/0x" + Hex.lower(pick(accounts, rnd)) + "?pagination.limit=100",
                    byAccount,
                    () -> Tuple.of(Buffer.buffer(pick(accounts, rnd)), Long.MAX_VALUE, 0L, 101)));
            out.add(new Read(
                    "txs by account, deep page",
                    () -> "/indexer/tx/v1/txs/by_account/0x" + Hex.lower(pick(accounts, rnd))
                            + "?pagination.limit=100&pagination.key=" + IngestReadBench.key(oldTenth(txs, rnd)),
                    byAccount,
                    () -> Tuple.of(Buffer.buffer(pick(accounts, rnd)), oldTenth(txs, rnd), 0L, 101)));
            String byHeight = TxStore.buildSql(TxStore.Stream.COSMOS, TxStore.Filter.HEIGHT, false, true, true);
            out.add(new Read(
                    "txs by height, recent blocks",
                    () -> "/indexer/tx/v1/txs/by_height/" + recent(minHeight, heights, rnd) + "?pagination.limit=100",
                    byHeight,
                    () -> Tuple.of(recent(minHeight, heights, rnd), Long.MAX_VALUE, 0L, 101)));
            out.add(new Read(
                    "txs by height, oldest tenth",
                    () -> "/indexer/tx/v1/txs/by_height/" + oldHeight(minHeight, heights, rnd)
                            + "?pagination.limit=100",
                    byHeight,
                    () -> Tuple.of(oldHeight(minHeight, heights, rnd), Long.MAX_VALUE, 0L, 101)));
        }
        if (evmTxs > 0) {
            String all = TxStore.buildSql(TxStore.Stream.EVM, TxStore.Filter.ALL, false, true, true);
            out.add(new Read(
                    "EVM txs, first page",
                    () -> "/indexer/tx/v1/evm-txs?pagination.limit=100",
                    all,
                    () -> Tuple.of(Long.MAX_VALUE, 0L, 101)));
            out.add(deep("EVM txs, deep page", "/indexer/tx/v1/evm-txs?pagination.limit=100", all, evmTxs, rnd));
        }
        if (internal > 0) {
            String all = InternalTxStore.buildSql(InternalTxStore.Filter.ALL, true, true);
            String base = "/indexer/tx/v1/evm-internal-txs?pagination.limit=100";
            out.add(new Read("EVM internal txs, first page", () -> base, all, () -> Tuple.of(Long.MAX_VALUE, 0L, 101)));
            out.add(deep("EVM internal txs, deep page", base, all, internal, rnd));
        }
        List<Row> owners = rows(pool, "SELECT owner, count(*) FROM nft GROUP BY owner ORDER BY 2 DESC LIMIT 200");
        if (!owners.isEmpty()) {
            String sql = NftStore.tokensSql(true, false, false, NftStore.TokenOrder.TOKEN_ID, true, true, false);
            out.add(new Read(
                    "NFT tokens by account, first page",
                    () -> "/indexer/nft/v1/tokens/by_account/0x" + Hex.lower(owner(owners, rnd, null))
                            + "?pagination.limit=100",
                    sql,
                    () -> Tuple.of(Buffer.buffer(owner(owners, rnd, null)), 0L, 101)));
            long[] offset = new long[1];
            out.add(new Read(
                    "NFT tokens by account, deep page (offset)",
                    () -> "/indexer/nft/v1/tokens/by_account/0x" + Hex.lower(owner(owners, rnd, offset))
                            + "?pagination.limit=100&pagination.offset=" + offset[0],
                    sql,
                    () -> Tuple.of(Buffer.buffer(owner(owners, rnd, offset)), offset[0], 101)));
        }
        List<Row> active =
                rows(pool, "SELECT collection, count(*) FROM nft_activity GROUP BY collection ORDER BY 2 DESC LIMIT 1");
        if (!active.isEmpty()) {
            byte[] c = active.get(0).getBuffer(0).getBytes();
            out.add(new Read(
                    "NFT collection activities (" + active.get(0).getLong(1) + "), first page",
                    () -> "/indexer/nft/v1/collections/0x" + Hex.lower(c) + "/activities?pagination.limit=100",
                    dev.weft.store.NftActivityStore.activitiesSql(false, false, true),
                    () -> Tuple.of(Buffer.buffer(c), 101)));
        }
        List<Row> tokens = rows(
                pool,
                "SELECT contract, holders FROM rich_list_token WHERE length(contract) = 20 AND holders > 0 ORDER BY holders DESC LIMIT 1");
        if (!tokens.isEmpty()) {
            byte[] token = tokens.get(0).getBuffer(0).getBytes();
            long holders = tokens.get(0).getLong(1);
            String sql = RichListStore.holdersSql(true, true);
            String uri = "/indexer/richlist/v1/0x" + Hex.lower(token) + "?pagination.limit=100";
            out.add(new Read(
                    "rich list (" + holders + " holders), first page",
                    () -> uri,
                    sql,
                    () -> Tuple.of(Buffer.buffer(token), 0L, 101)));
            // the smallest balances: an offset in the last tenth of the holders
            out.add(new Read(
                    "rich list, deep page (offset)",
                    () -> uri + "&pagination.offset=" + (holders - oldTenth(holders, rnd)),
                    sql,
                    () -> Tuple.of(Buffer.buffer(token), holders - oldTenth(holders, rnd), 101)));
        }
        return out;
    }

    private static Read deep(String name, String base, String sql, long size, ThreadLocalRandom rnd) {
        return new Read(
                name,
                () -> base + "&pagination.key=" + IngestReadBench.key(oldTenth(size, rnd)),
                sql,
                () -> Tuple.of(oldTenth(size, rnd), 0L, 101));
    }

    /** A position in the oldest tenth of a set of {@code size} (descending lists read it last). */
    private static long oldTenth(long size, ThreadLocalRandom rnd) {
        return 1 + rnd.nextLong(Math.max(1, size / 10));
    }

    private static long recent(long min, long max, ThreadLocalRandom rnd) {
        return max - rnd.nextLong(Math.max(1, (max - min + 1) / 10));
    }

    private static long oldHeight(long min, long max, ThreadLocalRandom rnd) {
        return min + rnd.nextLong(Math.max(1, (max - min + 1) / 10));
    }

    private static byte[] pick(List<byte[]> list, ThreadLocalRandom rnd) {
        return list.get(rnd.nextInt(list.size()));
    }

    /** A random owner among the biggest; with {@code offset}, also an offset in the oldest tenth of its tokens. */
    private static byte[] owner(List<Row> owners, ThreadLocalRandom rnd, long[] offset) {
        Row r = owners.get(rnd.nextInt(owners.size()));
        if (offset != null) offset[0] = r.getLong(1) * 9 / 10;
        return r.getBuffer(0).getBytes();
    }

    static long scalar(Pool pool, String sql) {
        return await(pool.query(sql).execute()).iterator().next().getLong(0);
    }

    private static List<byte[]> bytes(Pool pool, String sql) {
        List<byte[]> out = new ArrayList<>();
        for (Row r : await(pool.query(sql).execute())) out.add(r.getBuffer(0).getBytes());
        return out;
    }

    private static List<Row> rows(Pool pool, String sql) {
        List<Row> out = new ArrayList<>();
        for (Row r : await(pool.query(sql).execute())) out.add(r);
        return out;
    }
}
