package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chain.Bech32;
import dev.weft.chain.Hex;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /v1/events} and {@code /v1/events/ws} on a node indexing a live devnet: pages and filters, the long poll, a
 * subscription that resumes after a disconnect with exactly what it missed, bounds, and reads below retention.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EventsApiTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static Vertx vertx;
    static WeftNode node;
    static WebClient client;
    static WebSocketClient wsClient;
    static String url;
    static int port;
    static String chainId;

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        TestConfig c = weft.config()
                .roles("devnet", "ingest", "api")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 20)
                .set("devnet.block_interval", "150ms")
                .set("devnet.txs_per_block", 4)
                .set("ingest.poll_interval", "50ms")
                .set("events.ws_subscriptions_per_client", 3)
                .set("http.idle_timeout", "2s");
        url = (String) c.get("database.url");
        node = weft.start(c);
        port = TestNodes.httpPort(node);
        chainId = node.context().config().chain().chainId();
        client = WebClient.create(vertx);
        wsClient = vertx.createWebSocketClient();
        Await.cursor(url, "ingest", 20, 60);
    }

    static io.vertx.ext.web.client.HttpResponse<io.vertx.core.buffer.Buffer> get(String uri) {
        return TestNodes.await(client.get(port, "127.0.0.1", uri).send());
    }

    static JsonObject ok(String uri) {
        var r = get(uri);
        assertEquals(200, r.statusCode(), uri + " → " + r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    static List<Long> sequences(JsonArray events) {
        List<Long> out = new ArrayList<>();
        for (Object o : events) out.add(((JsonObject) o).getLong("sequence"));
        return out;
    }

    /** The log's sequences after {@code after} matching a SQL condition, straight from the table. */
    static List<Long> logged(long after, long upTo, String where) throws Exception {
        List<Long> out = new ArrayList<>();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT sequence FROM event_log WHERE sequence > " + after
                        + " AND sequence <= " + upTo + " AND " + where + " ORDER BY sequence")) {
            while (rs.next()) out.add(rs.getLong(1));
        }
        return out;
    }

    @Test
    @Order(1)
    @DisplayName(
            "pages in sequence order with next; filters by chain, topic, tx hash and account (bech32 and 0x alike)")
    void pagesAndFilters() throws Exception {
        Await.until(
                "40 events",
                30,
                () -> ok("/v1/events?limit=1000").getJsonArray("events").size() >= 40);
        JsonObject all = ok("/v1/events?limit=1000");
        List<Long> seqs = sequences(all.getJsonArray("events"));
        long last = seqs.get(seqs.size() - 1);
        assertEquals(last, all.getLong("next"));
        assertEquals(logged(0, last, "true"), seqs, "every stored event, in order");
        // keyset pages of 7
        List<Long> paged = new ArrayList<>();
        long after = 0;
        while (after < last) {
            JsonObject p = ok("/v1/events?limit=7&after=" + after);
            assertTrue(p.getJsonArray("events").size() <= 7);
            paged.addAll(sequences(p.getJsonArray("events")));
            after = p.getLong("next");
        }
        assertEquals(seqs, paged.subList(0, seqs.size()));
        int defaultPage = ok("/v1/events").getJsonArray("events").size();
        assertTrue(defaultPage <= 100 && defaultPage >= Math.min(100, seqs.size()), "limit defaults to 100");
        // topic and chain
        JsonArray blocks =
                ok("/v1/events?topic=blocks&limit=1000&chain_id=" + chainId).getJsonArray("events");
        assertEquals(logged(0, Long.MAX_VALUE, "topic = 'blocks'").subList(0, blocks.size()), sequences(blocks));
        long h = 0;
        for (Object o : blocks) {
            JsonObject e = (JsonObject) o;
            assertEquals("blocks", e.getString("topic"));
            assertEquals(chainId, e.getString("chain_id"));
            assertTrue(e.getLong("height") > h, "heights increase");
            h = e.getLong("height");
            assertNotNull(e.getString("hash"));
        }
        assertEquals(
                0, ok("/v1/events?chain_id=elsewhere-1").getJsonArray("events").size());
        // account, both forms; tx hash
        JsonObject tx = all.getJsonArray("events").stream()
                .map(JsonObject.class::cast)
                .filter(e -> e.getString("topic").equals("txs"))
                .findFirst()
                .orElseThrow();
        String hex = tx.getString("account");
        String bech = Bech32.encode("init", Hex.decode(hex));
        JsonArray byHex = ok("/v1/events?limit=1000&account=" + hex).getJsonArray("events");
        JsonArray byBech = ok("/v1/events?limit=1000&account=" + bech).getJsonArray("events");
        JsonArray byOtherPrefix = ok("/v1/events?limit=1000&account=" + Bech32.encode("cosmos", Hex.decode(hex)))
                .getJsonArray("events");
        assertFalse(byHex.isEmpty());
        List<Long> byHexSeqs = sequences(byHex);
        assertEquals(byHexSeqs, sequences(byBech).subList(0, Math.min(byBech.size(), byHexSeqs.size())));
        assertEquals(byHexSeqs.get(0), sequences(byOtherPrefix).get(0));
        for (Object o : byHex) assertEquals(hex, ((JsonObject) o).getString("account"));
        assertEquals(
                logged(0, byHexSeqs.get(byHexSeqs.size() - 1), "account = decode('" + hex.substring(2) + "', 'hex')"),
                byHexSeqs);
        JsonArray byHash = ok("/v1/events?tx_hash=" + tx.getString("tx_hash")).getJsonArray("events");
        assertFalse(byHash.isEmpty());
        for (Object o : byHash) assertEquals(tx.getString("tx_hash"), ((JsonObject) o).getString("tx_hash"));
        assertEquals(
                sequences(byHash),
                sequences(ok("/v1/events?tx_hash=0x" + tx.getString("tx_hash").toLowerCase())
                        .getJsonArray("events")));
    }

    @Test
    @Order(2)
    @DisplayName(
            "bad input is a JSON 400: unknown or repeated parameter, malformed sequence, limit out of range, bad account, topic or wait")
    void badInput() {
        for (String q : List.of(
                "nope=1",
                "after=1&after=2",
                "after=abc",
                "after=-1",
                "after=1.5",
                "limit=0",
                "limit=1001",
                "account=init1xyz",
                "account=0x1234",
                "account=" + URLEncoder.encode("0x" + "g".repeat(40), StandardCharsets.UTF_8),
                "tx_hash=abcd",
                "topic=nope",
                "wait=999999",
                "chain_id=")) {
            var r = get("/v1/events?" + q);
            assertEquals(400, r.statusCode(), q + " → " + r.bodyAsString());
            JsonObject body = r.bodyAsJsonObject();
            assertEquals(3, body.getInteger("code"), q);
            assertNotNull(body.getString("message"), q);
        }
        assertEquals(400, get("/v1/events/ws?limit=5").statusCode(), "the subscription takes no limit");
        assertEquals(400, get("/v1/events/ws").statusCode(), "not a WebSocket handshake");
    }

    @Test
    @Order(3)
    @DisplayName(
            "the long poll answers as soon as a matching event is stored, and with an empty page when the wait ends")
    void longPoll() {
        long last = ok("/v1/events?limit=1000&after=" + latest()).getLong("next");
        JsonObject p = ok("/v1/events?topic=blocks&wait=20000&after=" + last);
        assertFalse(p.getJsonArray("events").isEmpty());
        assertTrue(p.getJsonArray("events").getJsonObject(0).getLong("sequence") > last);
        JsonObject none = ok("/v1/events?chain_id=elsewhere-1&wait=300&after=" + last);
        assertEquals(0, none.getJsonArray("events").size());
        assertEquals(last, none.getLong("next"));
    }

    /** The last sequence stored. */
    static long latest() {
        long after = 0;
        while (true) {
            JsonObject p = ok("/v1/events?limit=1000&after=" + after);
            if (p.getJsonArray("events").isEmpty()) return after;
            after = p.getLong("next");
        }
    }

    /** A subscription's received events. */
    static final class Received {
        final List<JsonObject> events = Collections.synchronizedList(new ArrayList<>());
        final WebSocket ws;
        volatile Short closeCode;
        volatile String closeReason;

        Received(String query) {
            // handlers first: the replay starts as soon as the handshake is done, before connect's future is seen
            io.vertx.core.http.ClientWebSocket socket = wsClient.webSocket();
            socket.textMessageHandler(t -> events.add(new JsonObject(t)));
            socket.closeHandler(v -> {
                closeCode = socket.closeStatusCode();
                closeReason = socket.closeReason();
            });
            ws = TestNodes.await(socket.connect(new WebSocketConnectOptions()
                    .setHost("127.0.0.1")
                    .setPort(port)
                    .setURI("/v1/events/ws?" + query)));
        }

        long lastSequence() {
            return events.get(events.size() - 1).getLong("sequence");
        }

        List<Long> sequences() {
            List<Long> out = new ArrayList<>();
            synchronized (events) {
                for (JsonObject e : events) out.add(e.getLong("sequence"));
            }
            return out;
        }

        void close() {
            TestNodes.await(ws.close());
        }
    }

    @Test
    @Order(4)
    @DisplayName(
            "a subscription replays, follows live; after a disconnect, resuming with after = the last sequence seen gives exactly the missed events in order, then live ones, no duplicate")
    void subscriptionResumes() throws Exception {
        Received first = new Received("topic=blocks&after=0");
        Await.until("replayed and live block events", 30, () -> first.events.size() >= 25);
        first.close();
        List<Long> seen = first.sequences();
        long lastSeen = first.lastSequence();
        assertEquals(logged(0, lastSeen, "topic = 'blocks'"), seen, "replay then live: every block event, in order");
        // the devnet makes blocks while no one listens
        long cursor = Await.cursorHeight(url, "ingest");
        Await.until("blocks made while disconnected", 30, () -> Await.cursorHeight(url, "ingest") >= cursor + 5);
        long storedAtReconnect = latest();
        Received again = new Received("topic=blocks&after=" + lastSeen);
        Await.until(
                "missed events and live ones",
                30,
                () -> !again.events.isEmpty() && again.lastSequence() > storedAtReconnect + 3);
        again.close();
        List<Long> resumed = again.sequences();
        assertEquals(logged(lastSeen, again.lastSequence(), "topic = 'blocks'"), resumed, "no gap, no duplicate");
        assertTrue(resumed.get(0) > lastSeen);
        assertTrue(resumed.stream().filter(s -> s <= storedAtReconnect).count() >= 5, "the missed events came first");
        // a filtered subscription sees only its account's events
        JsonObject tx =
                ok("/v1/events?topic=txs&limit=1").getJsonArray("events").getJsonObject(0);
        Received mine = new Received("account=" + tx.getString("account"));
        Await.until("the account's first event", 20, () -> !mine.events.isEmpty());
        mine.close();
        for (JsonObject e : new ArrayList<>(mine.events)) assertEquals(tx.getString("account"), e.getString("account"));
    }

    @Test
    @Order(5)
    @DisplayName("subscriptions per client address are bounded: one too many is refused with 429")
    void subscriptionsBounded() {
        List<Received> open = new ArrayList<>();
        for (int i = 0; i < 3; i++) open.add(new Received("topic=blocks&chain_id=elsewhere-1"));
        try {
            Throwable refused = null;
            try {
                new Received("topic=blocks");
            } catch (RuntimeException e) {
                refused = e.getCause() != null ? e.getCause() : e;
            }
            assertNotNull(refused, "a fourth subscription is refused");
            assertTrue(refused instanceof UpgradeRejectedException u && u.getStatus() == 429, String.valueOf(refused));
        } finally {
            open.forEach(Received::close);
        }
        Await.until("subscriptions released", 10, () -> EventsApi.open() == 0);
        new Received("topic=blocks").close();
        // a request that is no WebSocket handshake gets the JSON error body and holds no subscription
        var plain = get("/v1/events/ws?topic=blocks");
        assertEquals(400, plain.statusCode());
        assertEquals(3, plain.bodyAsJsonObject().getInteger("code"), plain.bodyAsString());
        var head =
                TestNodes.await(client.head(port, "127.0.0.1", "/v1/events/ws").send());
        assertEquals(400, head.statusCode());
        Await.until("no subscription held", 10, () -> EventsApi.open() == 0);
    }

    @Test
    @Order(6)
    @DisplayName("a quiet subscription outlives the idle timeout: the server pings it")
    void quietSubscriptionStaysOpen() {
        java.util.concurrent.atomic.AtomicInteger pings = new java.util.concurrent.atomic.AtomicInteger();
        Received quiet = new Received("chain_id=elsewhere-1");
        quiet.ws.frameHandler(f -> {
            if (f.isPing()) pings.incrementAndGet();
        });
        // pings every second (half of http.idle_timeout = 2s): six of them span three idle timeouts
        Await.until("six pings", 20, () -> pings.get() >= 6);
        assertEquals(null, quiet.closeCode, "still open");
        assertTrue(quiet.events.isEmpty());
        quiet.close();
    }

    @Test
    @Order(7)
    @DisplayName(
            "below retention: the poll answers 410 naming the oldest sequence kept; a subscription is closed saying so; after it, all is well")
    void belowRetention() throws Exception {
        long cut = 30;
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement()) {
            // what a retention step leaves (EventLogTest drives the real one)
            st.execute("BEGIN; DELETE FROM event_log WHERE sequence <= " + cut
                    + "; UPDATE event_retention SET pruned_through = " + cut + "; COMMIT");
        }
        var r = get("/v1/events?after=5");
        assertEquals(410, r.statusCode(), r.bodyAsString());
        JsonObject body = r.bodyAsJsonObject();
        assertTrue(body.getString("message").contains("oldest kept is " + (cut + 1)), body.encode());
        assertEquals(
                Long.toString(cut + 1),
                body.getJsonArray("details")
                        .getJsonObject(0)
                        .getJsonObject("metadata")
                        .getString("oldest_sequence"));
        JsonObject fine = ok("/v1/events?after=" + cut);
        assertEquals(cut + 1, fine.getLong("oldest_sequence"));
        Received gone = new Received("after=0");
        Await.until("closed", 10, () -> gone.closeCode != null);
        assertEquals(EventsApi.CLOSE_PRUNED, gone.closeCode);
        assertTrue(gone.closeReason.contains("oldest_sequence " + (cut + 1)), gone.closeReason);
        assertTrue(gone.events.isEmpty());
    }
}
