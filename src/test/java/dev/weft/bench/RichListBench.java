package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import dev.weft.chain.Hex;
import dev.weft.config.ConfigSource;
import dev.weft.config.WeftConfig;
import dev.weft.node.WeftNode;
import dev.weft.richlist.RichListMetrics;
import dev.weft.store.EmbeddedPostgresServer;
import dev.weft.store.RichListStore;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The rich-list benchmark ({@code bench/richlist.sh}). A devnet in history mode (its own JVM) is indexed by a node
 * (ingest role) into a fresh embedded PostgreSQL; then a second node (rich list and API roles) applies the whole
 * history's ERC-20 transfer rows ingestion stored: deltas per second, next to the ingestion rate of the same run (the
 * rich list must keep up with it). Then a token with 100,000 holders is seeded straight into the table and its
 * endpoint is loaded by 8 closed-loop clients (first page and random pages), against the same SQL on a pool.
 *
 * <p>System properties: {@code bench.blocks} (default 4000), {@code bench.txs_per_block} (20), {@code bench.clients}
 * (8), {@code bench.read_seconds} (10), {@code bench.holders} (100000), {@code bench.fsync} (true).
 */
public final class RichListBench {
    static final String CHAIN = IngestReadBench.CHAIN;

    public static void main(String[] args) throws Exception {
        long blocks = Long.getLong("bench.blocks", 4_000);
        int txsPerBlock = Integer.getInteger("bench.txs_per_block", 20);
        int clients = Integer.getInteger("bench.clients", 8);
        long readMs = Long.getLong("bench.read_seconds", 10) * 1000;
        int holders = Integer.getInteger("bench.holders", 100_000);
        boolean fsync = Boolean.parseBoolean(System.getProperty("bench.fsync", "true"));
        Path work = BenchWork.create("weft-bench");
        int[] ports = {Ports.free(), Ports.free(), Ports.free()};
        Process devnet = IngestReadBench.startDevnet(work, blocks, txsPerBlock, ports);
        String rpc = "http://127.0.0.1:" + ports[0];
        IngestReadBench.waitFor(rpc + "/status", 120);
        EmbeddedPostgresServer pg = EmbeddedPostgresServer.start(work.resolve("pg"), 0, fsync, Map.of());
        Vertx vertx = TestNodes.newVertx();
        try {
            String url = pg.url();
            Pool pool = ReadLoad.sqlPool(vertx, url, 8, "bench-sql");
            System.out.printf(
                    Locale.ROOT,
                    "weft rich-list bench: %d devnet blocks (%d txs/block nominal), %d cores, PostgreSQL fsync %s%n",
                    blocks,
                    txsPerBlock,
                    Runtime.getRuntime().availableProcessors(),
                    fsync ? "on" : "off");

            long t0 = System.nanoTime();
            WeftNode ingest = TestNodes.start(vertx, config(url, ports, "ingest"));
            Await.until(
                    "ingestion to " + blocks, IngestReadBench.BENCH_SECONDS, () -> cursor(pool, "ingest") >= blocks);
            double ingestSecs = (System.nanoTime() - t0) / 1e9;
            long txs = await(pool.query("SELECT txs FROM ingest_totals").execute())
                    .iterator()
                    .next()
                    .getLong(0);
            await(ingest.stop());
            System.out.printf(
                    Locale.ROOT,
                    "ingest     %d blocks, %d txs in %.1f s: %.0f blocks/s, %.0f txs/s (the rate the rich list must keep up with)%n",
                    blocks,
                    txs,
                    ingestSecs,
                    blocks / ingestSecs,
                    txs / ingestSecs);

            RichListMetrics metrics = RichListMetrics.forChain(CHAIN);
            double before = metrics.deltas.count();
            long t1 = System.nanoTime();
            WeftNode rich = TestNodes.start(vertx, config(url, ports, "richlist", "api"));
            Await.until(
                    "the rich list to " + blocks,
                    IngestReadBench.BENCH_SECONDS,
                    () -> cursor(pool, "richlist") >= blocks);
            double richSecs = (System.nanoTime() - t1) / 1e9;
            double deltas = metrics.deltas.count() - before;
            long rows = await(pool.query("SELECT count(*) FROM rich_list").execute())
                    .iterator()
                    .next()
                    .getLong(0);
            System.out.printf(
                    Locale.ROOT,
                    "rich list  %d blocks, %.0f deltas (transfer sides) into %d balances in %.1f s: %.0f deltas/s, %.0f blocks/s, %.0f txs/s read"
                            + " → rich-list/ingest ratio %.2f%n",
                    blocks,
                    deltas,
                    rows,
                    richSecs,
                    deltas / richSecs,
                    blocks / richSecs,
                    txs / richSecs,
                    ingestSecs / richSecs);

            byte[] token = seed(pool, holders);
            await(rich.scale("api", Runtime.getRuntime().availableProcessors()));
            int port = TestNodes.httpPort(rich);
            String tokenHex = Hex.prefixed(token);
            String sql = RichListStore.holdersSql(true, true);
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            System.out.printf(
                    Locale.ROOT,
                    "reads      a token with %d holders; %d concurrent clients, %d s per query; API = HTTP through the node, SQL = the same query on a pool%n",
                    holders,
                    clients,
                    readMs / 1000);
            for (String pass : new String[] {"warm-up", "measure"}) {
                String label = pass.equals("warm-up") ? null : "first page of 100";
                IngestReadBench.bench(
                        vertx,
                        pool,
                        port,
                        clients,
                        readMs,
                        label,
                        () -> "/indexer/richlist/v1/" + tokenHex + "?pagination.limit=100",
                        sql,
                        () -> Tuple.of(Buffer.buffer(token), 0L, 101));
                long pages = holders / 100;
                IngestReadBench.bench(
                        vertx,
                        pool,
                        port,
                        clients,
                        readMs,
                        label == null ? null : "random page of 100",
                        () -> "/indexer/richlist/v1/" + tokenHex + "?pagination.limit=100&pagination.offset="
                                + 100 * rnd.nextLong(pages),
                        sql,
                        () -> Tuple.of(Buffer.buffer(token), 100 * rnd.nextLong(pages), 101));
            }
            await(rich.stop());
            await(pool.close());
        } finally {
            await(vertx.close());
            pg.close();
            devnet.destroy();
            devnet.waitFor();
            TestDatabase.deleteTree(work);
        }
    }

    static WeftConfig config(String url, int[] ports, String... roles) throws Exception {
        JsonObject conf = BenchWork.singleChainConf();
        conf.getJsonObject("node").put("roles", new JsonArray(java.util.List.of((Object[]) roles)));
        conf.getJsonObject("http").put("port", 0);
        conf.getJsonObject("database").put("url", url);
        conf.getJsonObject("bridge").put("tcp_enabled", false).put("sockjs_enabled", false);
        conf.getJsonObject("chain")
                .put("chain_id", CHAIN)
                .put("rpc", new JsonArray().add("http://127.0.0.1:" + ports[0]))
                .put("rest", new JsonArray().add("http://127.0.0.1:" + ports[1]))
                .put("json_rpc", new JsonArray().add("http://127.0.0.1:" + ports[2]));
        conf.put("log", new JsonObject().put("level", "warn"));
        // the read load comes from one address at thousands of requests/s: the per-client rate limit would answer 429
        conf.put("rate_limit", new JsonObject().put("enabled", false));
        return WeftConfig.from(ConfigSource.fileOnly(conf));
    }

    static long cursor(Pool pool, String name) {
        return await(pool.preparedQuery("SELECT height FROM pipeline_cursor WHERE name = $1")
                        .execute(Tuple.of(name)))
                .iterator()
                .next()
                .getLong(0);
    }

    /** A token with {@code n} holders of distinct random balances (inserted straight into the tables). */
    static byte[] seed(Pool pool, int n) {
        byte[] token = Hex.decode("0x" + "be".repeat(20));
        await(pool.withTransaction(c -> c.query("INSERT INTO rich_list_token (contract, holders) VALUES ('\\x"
                        + Hex.lower(token) + "', " + n + ")")
                .execute()
                .compose(x -> c.query(
                                "INSERT INTO rich_list (token_id, account, amount) SELECT t.id, decode(lpad(to_hex(g), 40, '0'), 'hex'), "
                                        + "(1 + floor(random() * 1e24))::numeric FROM rich_list_token t, generate_series(1, "
                                        + n + ") g WHERE t.contract = '\\x"
                                        + Hex.lower(token) + "'")
                        .execute())));
        await(pool.query("VACUUM ANALYZE rich_list").execute());
        return token;
    }
}
