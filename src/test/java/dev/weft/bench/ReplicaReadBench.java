package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.FixtureChain;
import dev.weft.testsupport.StreamingReplica;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.micrometer.backends.BackendRegistries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * API reads per second from a streaming replica against the primary, in the same run: a primary and its hot standby
 * ({@link StreamingReplica}), the fixture chain indexed into the primary by an ingest node (stopped once the standby has
 * caught up), then two api nodes alike but that one has {@code database.read_urls} naming the standby. Both answer the same closed-loop loads in turn
 * (a block's txs at a random height, a page of txs at a random offset, a block), and the reads each server answered
 * ({@code weft_db_reads_total}) prove where the second node's reads went. On one machine both servers share the cores:
 * the figure says what a replica costs per read, not what a second machine adds. Properties: {@code bench.blocks}
 * (2000), {@code bench.clients} (4), {@code bench.read_seconds} (10).
 */
public final class ReplicaReadBench {
    public static void main(String[] args) throws Exception {
        long blocks = Long.getLong("bench.blocks", 2_000);
        int clients = Integer.getInteger("bench.clients", 4);
        long readMs = Long.getLong("bench.read_seconds", 10) * 1000;
        Vertx vertx = TestNodes.newVertx();
        try (StreamingReplica pg = StreamingReplica.start()) {
            FixtureChain chain = FixtureChain.start(vertx, "fixture-1", blocks);
            WeftNode ingest = TestNodes.start(
                    vertx, config(chain, pg.primaryUrl(), "ingest").build());
            Await.until("ingestion to " + blocks, 600, () -> height(pg.primaryJdbc()) >= blocks);
            Await.until("the standby at " + blocks, 120, () -> height(pg.standbyJdbc()) >= blocks);
            await(ingest.stop());
            // two api nodes alike but for read_urls, nothing else running
            WeftNode primary =
                    TestNodes.start(vertx, config(chain, pg.primaryUrl(), "api").build());
            TestConfig rc = config(chain, pg.primaryUrl(), "api")
                    .set("database.read_urls", new JsonArray().add(pg.standbyUrl()));
            WeftNode replica = TestNodes.start(vertx, rc.build());
            WebClient client = WebClient.create(vertx);
            int pPort = TestNodes.httpPort(primary);
            int rPort = TestNodes.httpPort(replica);
            Await.until(
                    "the standby in rotation",
                    60,
                    () -> TestNodes.get(client, rPort, "/status")
                            .bodyAsJsonObject()
                            .getJsonArray("replicas")
                            .getJsonObject(0)
                            .getBoolean("in_rotation"));
            System.out.printf(
                    Locale.ROOT,
                    "weft replica read bench: %d fixture blocks (%d txs), %d clients, %d s per load, %d cores%n",
                    blocks,
                    FixtureChain.txsUpTo(blocks),
                    clients,
                    readMs / 1000,
                    Runtime.getRuntime().availableProcessors());
            String[] names = {"txs/by_height (random height)", "txs page (random offset)", "block (random height)"};
            @SuppressWarnings("unchecked")
            Supplier<String>[] loads = new Supplier[] {
                () -> "/indexer/tx/v1/txs/by_height/" + random(blocks),
                () -> "/indexer/tx/v1/txs?pagination.limit=20&pagination.offset=" + random(500),
                () -> "/indexer/block/v1/blocks/" + random(blocks)
            };
            // each load twice in alternation (primary, replica, primary, replica): warm-up and neighbours favour no
            // side
            for (int i = 0; i < loads.length; i++) {
                for (int round = 1; round <= 2; round++) {
                    ReadLoad.Result onPrimary = ReadLoad.http(vertx, pPort, clients, 2000, readMs, loads[i]);
                    double s0 = reads(pg.standbyName());
                    double f0 = reads("primary");
                    ReadLoad.Result onReplica = ReadLoad.http(vertx, rPort, clients, 2000, readMs, loads[i]);
                    System.out.printf(
                            Locale.ROOT,
                            "%-31s %d primary  %s  errors %d%n",
                            names[i],
                            round,
                            onPrimary.row(),
                            onPrimary.errors());
                    System.out.printf(
                            Locale.ROOT,
                            "%-31s %d replica  %s  errors %d  replica/primary %.2f (%.0f reads on the standby, %.0f fell back to the primary)%n",
                            "",
                            round,
                            onReplica.row(),
                            onReplica.errors(),
                            onReplica.perSecond() / onPrimary.perSecond(),
                            reads(pg.standbyName()) - s0,
                            reads("primary") - f0);
                }
            }
            JsonObject status = TestNodes.get(client, rPort, "/status").bodyAsJsonObject();
            System.out.println("replica node /status replicas: "
                    + status.getJsonArray("replicas").encode());
            await(replica.stop());
            await(primary.stop());
            chain.close();
        } finally {
            await(vertx.close());
        }
    }

    private static long random(long bound) {
        return 1 + ThreadLocalRandom.current().nextLong(bound);
    }

    private static double reads(String target) {
        double n = 0;
        for (Counter c : BackendRegistries.getDefaultNow()
                .find("weft_db_reads_total")
                .tag("target", target)
                .counters()) n += c.count();
        return n;
    }

    private static long height(Connection c) throws Exception {
        try (c;
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT height FROM pipeline_cursor WHERE name = 'ingest'")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private static TestConfig config(FixtureChain chain, String url, String... roles) throws Exception {
        JsonObject conf = new JsonObject(Files.readString(Path.of("conf/weft.json")));
        conf.remove("chains");
        TestConfig c = TestConfig.of(conf)
                .roles(roles)
                .set("http.port", 0)
                .set("database.url", url)
                .set("bridge.tcp_enabled", false)
                .set("bridge.sockjs_enabled", false)
                .set("log.level", "warn")
                .set("rate_limit.enabled", false)
                .set("ingest.poll_interval", "50ms");
        return chain.configure(c);
    }
}
