package dev.weft.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.devnet.DevnetEndpoints;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServer;
import io.vertx.ext.web.client.WebClient;
import io.vertx.micrometer.backends.BackendRegistries;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One chain's node down does not hold back the other chains of the deployment: they index to the devnet's height
 * while the dead chain stays empty, its failed node calls are counted on its own node's series, and the live chains'
 * node clients see no failure and no retry. Asserted on database state and counters, not on rates (the rate
 * comparison is {@code bench/multichain.sh -Dbench.dead_chain=<id>}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DeadChainNodeTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final long HEIGHT = 60;
    static DevnetEndpoints endpoints;

    @BeforeAll
    static void devnet() {
        WeftNode devnet = weft.start(DevnetChains.devnet(weft.config(), HEIGHT, 4));
        endpoints = DevnetEndpoints.of(devnet.context().info());
    }

    /** The Move chain's node URLs replaced by {@code url} (a port nothing listens on, or one that never answers). */
    static TestConfig withDeadMove(TestConfig c, String url) {
        return c.set("chains." + DevnetChains.MOVE + ".rpc", new JsonArray().add(url))
                .set("chains." + DevnetChains.MOVE + ".rest", new JsonArray().add(url));
    }

    static double sum(String name, String node) {
        MeterRegistry r = BackendRegistries.getDefaultNow();
        double n = 0;
        for (Counter c : r.find(name).tag("node", node).counters()) n += c.count();
        return n;
    }

    static void assertLiveCaughtUp(String url) {
        for (String chain : List.of(DevnetChains.EVM, DevnetChains.L1))
            Await.until(chain + " at " + HEIGHT, 120, () -> DevnetChains.cursor(url, chain) >= HEIGHT);
    }

    @Test
    @Order(1)
    @DisplayName(
            "a chains entry at a dead port: the others reach the devnet's height, the dead chain's failures are its own node's")
    void deadPort() throws Exception {
        String dead = "http://127.0.0.1:" + Ports.free();
        TestConfig c = withDeadMove(DevnetChains.indexer(weft.config(), endpoints), dead)
                .roles("ingest", "api");
        String url = DevnetChains.url(c);
        WeftNode node = weft.start(c);
        assertLiveCaughtUp(url);
        // the dead chain keeps trying (it asks where to start every standby poll), failing on its own series
        double failures = sum("weft_node_failures_total", dead);
        Await.until("the dead node's failures grow", 60, () -> sum("weft_node_failures_total", dead) > failures);
        assertEquals(0L, DevnetChains.cursor(url, DevnetChains.MOVE), "the dead chain indexed nothing");
        for (String chain : List.of(DevnetChains.EVM, DevnetChains.L1)) {
            var ch = endpoints.chain(chain).orElseThrow();
            for (String live : List.of(endpoints.url(ch.rpcPort()), endpoints.url(ch.restPort()))) {
                assertEquals(0.0, sum("weft_node_failures_total", live), chain + " failures at " + live);
                assertEquals(0.0, sum("weft_node_retries_total", live), chain + " retries at " + live);
            }
            var totals = DevnetChains.dump(url, chain).get("ingest_totals");
            assertTrue(totals.get(0).startsWith(HEIGHT + "|"), chain + " blocks total = height: " + totals);
        }
        WebClient client = WebClient.create(weft.vertx());
        JsonArray chains = TestNodes.get(client, TestNodes.httpPort(node), "/chains")
                .bodyAsJsonObject()
                .getJsonArray("chains");
        for (Object o : chains) {
            JsonObject ch = (JsonObject) o;
            if (ch.getString("chain_id").equals(DevnetChains.MOVE)) {
                assertEquals(0L, ch.getLong("height"), ch.encode());
                assertNull(ch.getValue("node_height"), "no head read from a dead node: " + ch.encode());
            } else {
                assertEquals(HEIGHT, ch.getLong("height"), ch.encode());
                assertEquals(0L, ch.getLong("lag"), ch.encode());
            }
        }
    }

    @Test
    @Order(2)
    @DisplayName(
            "a node that accepts connections and never answers, listed first: the node starts, /status and /chains answer, the others index, while its first request is still open")
    void hangingNodeFirst() throws Exception {
        // accepts every connection and never writes a byte: the hung chain's first node call waits out its timeout
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        AtomicBoolean firstClosed = new AtomicBoolean();
        NetServer blackhole = TestNodes.await(weft.vertx()
                .createNetServer()
                .connectHandler(socket -> {
                    boolean first = opened.incrementAndGet() == 1;
                    socket.handler(b -> {});
                    socket.closeHandler(v -> {
                        closed.incrementAndGet();
                        if (first) firstClosed.set(true);
                    });
                })
                .listen(0, "127.0.0.1"));
        String dead = "http://127.0.0.1:" + blackhole.actualPort();
        TestConfig c = withDeadMove(DevnetChains.indexer(weft.config(), endpoints), dead)
                .roles("ingest", "api")
                .set(
                        "node.chains",
                        new JsonArray()
                                .add(DevnetChains.MOVE)
                                .add(DevnetChains.EVM)
                                .add(DevnetChains.L1))
                .set("chains." + DevnetChains.MOVE + ".ingest.request_timeout", "10m");
        String url = DevnetChains.url(c);
        // awaited: the hung chain's writer starts without its node (its first node call runs after its start)
        WeftNode node = weft.start(c);
        int port = TestNodes.httpPort(node);
        WebClient client = WebClient.create(weft.vertx());
        assertEquals(200, TestNodes.get(client, port, "/status").statusCode());
        assertLiveCaughtUp(url);
        var chainsAnswer = TestNodes.get(client, port, "/chains");
        assertEquals(200, chainsAnswer.statusCode(), chainsAnswer.bodyAsString());
        for (Object o : chainsAnswer.bodyAsJsonObject().getJsonArray("chains")) {
            JsonObject ch = (JsonObject) o;
            if (ch.getString("chain_id").equals(DevnetChains.MOVE)) {
                assertEquals(0L, ch.getLong("height"), ch.encode());
                assertNull(ch.getValue("node_height"), "no head read from a hung node: " + ch.encode());
                assertNull(ch.getValue("lag"), ch.encode());
            } else {
                assertEquals(HEIGHT, ch.getLong("height"), ch.encode());
            }
        }
        var moveStatus = TestNodes.get(client, port, "/chains/" + DevnetChains.MOVE + "/status");
        assertEquals(200, moveStatus.statusCode(), moveStatus.bodyAsString());
        assertEquals(0L, DevnetChains.cursor(url, DevnetChains.MOVE), "the hung chain indexed nothing");
        // all of it while the hung chain's first request is still open on the server that never answers
        assertTrue(opened.get() >= 1, "the hung chain's writer asked its node");
        assertFalse(firstClosed.get(), "its first request is still open");
        assertTrue(opened.get() - closed.get() >= 1, "open connections: " + opened + " opened, " + closed + " closed");
        // stopping the node (at the end of the test) closes its clients, the open request with them
    }
}
