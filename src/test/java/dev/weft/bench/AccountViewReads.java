package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import dev.weft.chain.Hex;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * The account, token, EVM log, search and stats reads (Weft's account views) at {@code clients} concurrent clients
 * through the API, against the one goal these lists have: p99 under 50 ms (their SQL is assembled per request from the
 * filters, so there is no single statement to hold them against). Accounts are drawn from the busiest hundred, so the
 * pages are full; a "deep" page is bounded to the oldest tenth of the chain by height.
 */
final class AccountViewReads {
    private AccountViewReads() {}

    record Read(String name, Supplier<String> uri) {}

    static void run(Vertx vertx, int port, Pool pool, int clients, long readMs) {
        List<Read> reads = reads(pool);
        System.out.printf(
                Locale.ROOT,
                "account views  %d concurrent clients, %d s per query after a warm-up; goal p99 < %.0f ms%n",
                clients,
                readMs / 1000,
                ListReads.P99_GOAL_MS);
        for (Read r : reads) ReadLoad.http(vertx, port, clients, 0, readMs / 2, r.uri());
        int met = 0;
        for (Read r : reads) {
            ReadLoad.Result api = ReadLoad.http(vertx, port, clients, 0, readMs, r.uri());
            boolean ok = api.errors() == 0 && api.p99Ms() < ListReads.P99_GOAL_MS;
            if (ok) met++;
            System.out.printf(
                    Locale.ROOT,
                    "  %-40s API %s  %s%s%n",
                    r.name(),
                    api.row(),
                    ok ? "ok" : "MISS",
                    api.errors() == 0 ? "" : "  (" + api.errors() + " errors)");
        }
        System.out.printf(Locale.ROOT, "account views  %d of %d queries meet p99 < 50 ms%n", met, reads.size());
    }

    static List<Read> reads(Pool pool) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        List<Read> out = new ArrayList<>();
        long maxHeight = ListReads.scalar(pool, "SELECT coalesce(max(height), 0) FROM block");
        long minHeight = ListReads.scalar(pool, "SELECT coalesce(min(height), 0) FROM block");
        if (maxHeight == 0) return out;
        long oldTenth = minHeight + (maxHeight - minHeight) / 10;
        List<String> accounts = hex(
                pool,
                "SELECT a.address FROM account a JOIN account_tx_stats s ON s.account_id = a.id"
                        + " ORDER BY s.txs DESC LIMIT 100");
        if (!accounts.isEmpty()) {
            Supplier<String> account = () -> accounts.get(rnd.nextInt(accounts.size()));
            String v = "/indexer/account/v1/";
            out.add(new Read("account summary", () -> v + account.get() + "/summary"));
            out.add(new Read(
                    "account transfers, first page", () -> v + account.get() + "/transfers?pagination.limit=100"));
            out.add(new Read(
                    "account transfers, oldest tenth",
                    () -> v + account.get() + "/transfers?pagination.limit=100&to_height=" + oldTenth));
            out.add(new Read(
                    "txs by account, category send",
                    () -> "/indexer/tx/v1/txs/by_account/" + account.get() + "?category=send&pagination.limit=100"));
        }
        List<String> tokens = hex(
                pool,
                "SELECT token FROM (SELECT token FROM fungible_transfer TABLESAMPLE SYSTEM (5) LIMIT 20000) s"
                        + " GROUP BY token ORDER BY count(*) DESC LIMIT 5");
        if (!tokens.isEmpty())
            out.add(new Read(
                    "token transfers, first page",
                    () -> "/indexer/token/v1/" + tokens.get(rnd.nextInt(tokens.size()))
                            + "/transfers?pagination.limit=100"));
        long from = Math.max(minHeight, maxHeight - 1000);
        String fromTime = time(pool, from);
        String toTime = time(pool, maxHeight);
        if (fromTime != null && toTime != null)
            out.add(new Read(
                    "txs, the last 1,000 blocks by time",
                    () -> "/indexer/tx/v1/txs?pagination.limit=100&from_time=" + fromTime + "&to_time=" + toTime));
        if (ListReads.scalar(pool, "SELECT count(*) FROM (SELECT 1 FROM evm_log LIMIT 1) s") > 0) {
            out.add(new Read("EVM logs, 1,000 heights", () -> {
                long h = minHeight + rnd.nextLong(Math.max(1, maxHeight - minHeight - 1000));
                return "/indexer/evm/v1/logs?pagination.limit=100&from_height=" + h + "&to_height=" + (h + 999);
            }));
            List<String> contracts = hex(
                    pool,
                    "SELECT address FROM (SELECT address FROM evm_log TABLESAMPLE SYSTEM (5) LIMIT 20000) s"
                            + " GROUP BY address ORDER BY count(*) DESC LIMIT 5");
            out.add(new Read(
                    "EVM logs of a contract, whole chain",
                    () -> "/indexer/evm/v1/logs?pagination.limit=100&from_height=" + Math.max(1, maxHeight - 9999)
                            + "&to_height=" + maxHeight + "&address="
                            + contracts.get(rnd.nextInt(contracts.size()))));
        }
        List<String> hashes = new ArrayList<>();
        for (Row r : await(pool.query("SELECT hash FROM tx TABLESAMPLE SYSTEM (5) LIMIT 2000")
                .execute())) hashes.add(Hex.lower(r.getBuffer(0).getBytes()));
        if (!hashes.isEmpty())
            out.add(new Read(
                    "search, a tx hash", () -> "/indexer/search/v1?q=" + hashes.get(rnd.nextInt(hashes.size()))));
        out.add(new Read("stats overview", () -> "/indexer/stats/v1/overview"));
        return out;
    }

    private static List<String> hex(Pool pool, String sql) {
        List<String> out = new ArrayList<>();
        for (Row r : await(pool.query(sql).execute()))
            out.add("0x" + Hex.lower(r.getBuffer(0).getBytes()));
        return out;
    }

    /** The block time of {@code height}, RFC 3339 (null when the block is not stored). */
    private static String time(Pool pool, long height) {
        for (Row r : await(
                pool.query("SELECT time_ns FROM block WHERE height = " + height).execute())) {
            long ns = r.getLong(0);
            return Instant.ofEpochSecond(ns / 1_000_000_000L, ns % 1_000_000_000L)
                    .toString();
        }
        return null;
    }
}
