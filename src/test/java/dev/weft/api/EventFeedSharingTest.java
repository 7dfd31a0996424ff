package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bus.Addresses;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Subscribers at the live position share the feed's tail: each commit costs one log read whatever their number, and
 * every subscriber gets exactly the stored events after its {@code after}, in order, whether it joined the tail at once,
 * through the tail's ring, or after replaying the whole log.
 */
class EventFeedSharingTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final int SUBSCRIBERS = 24;

    @Test
    @DisplayName(
            "24 live subscribers get the same ordered events with one log read per commit; a replaying and a filtered one join without gap or duplicate")
    void liveSubscribersShareOneRead() throws Exception {
        Vertx vertx = weft.vertx();
        TestConfig c = weft.config()
                .roles("devnet", "ingest", "api")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 20)
                .set("devnet.block_interval", "150ms")
                .set("devnet.txs_per_block", 4)
                .set("ingest.poll_interval", "50ms")
                .set("events.ws_subscriptions_per_client", SUBSCRIBERS + 4);
        String url = (String) c.get("database.url");
        WeftNode node = weft.start(c);
        int port = TestNodes.httpPort(node);
        WebSocketClient ws = vertx.createWebSocketClient();
        Await.cursor(url, "ingest", 20, 60);

        int before = EventFeed.liveStreams(); // another test's, in the same JVM
        long head = last(url, "true");
        List<Sub> subs = new ArrayList<>();
        for (int i = 0; i < SUBSCRIBERS; i++) subs.add(new Sub(ws, port, "after=" + head));
        Sub replaying = new Sub(ws, port, "after=0"); // the whole log first, then the tail
        Sub blocks = new Sub(ws, port, "topic=blocks&after=" + head);
        int all = SUBSCRIBERS + 2;
        Await.until("every subscriber follows the tail", 60, () -> EventFeed.liveStreams() == before + all);

        // from here on, only the tail reads the log: count its reads against the commits announced
        AtomicInteger commits = new AtomicInteger();
        MessageConsumer<Object> count =
                vertx.eventBus().consumer(Addresses.EVENTS_APPENDED, m -> commits.incrementAndGet());
        TestNodes.await(count.completion());
        EventsMetrics metrics = EventsMetrics.get();
        double tail0 = metrics.logReads("tail");
        double replay0 = metrics.logReads("replay");
        int[] base = subs.stream().mapToInt(s -> s.events.size()).toArray();
        Await.until("20 live commits", 60, () -> commits.get() >= 20);
        Await.until("40 more events each", 60, () -> {
            for (int i = 0; i < SUBSCRIBERS; i++) if (subs.get(i).events.size() < base[i] + 40) return false;
            return true;
        });
        double tailReads = metrics.logReads("tail") - tail0;
        double replayReads = metrics.logReads("replay") - replay0;
        int announced = commits.get();
        TestNodes.await(count.unregister());
        subs.forEach(Sub::close);
        replaying.close();
        blocks.close();

        // one read per commit announced (the read in flight when counting began is the one more allowed)
        assertTrue(
                tailReads >= 1 && tailReads <= announced + 1, tailReads + " tail reads for " + announced + " commits");
        assertEquals(0, replayReads, "no live subscriber read the log on its own");

        int shortest = subs.stream().mapToInt(s -> s.events.size()).min().orElseThrow();
        List<Long> expected = sequences(url, head, "true");
        List<Long> first = subs.get(0).sequences().subList(0, shortest);
        assertEquals(expected.subList(0, shortest), first, "every stored event after the head, in order");
        for (Sub s : subs) assertEquals(first, s.sequences().subList(0, shortest), "the same events for everyone");
        List<Long> whole = replaying.sequences();
        assertEquals(
                sequences(url, 0, "true").subList(0, whole.size()), whole, "replayed, then live: no gap, no duplicate");
        assertTrue(whole.size() > shortest, "the replaying subscriber went past the head");
        List<Long> blockSeqs = blocks.sequences();
        assertEquals(sequences(url, head, "topic = 'blocks'").subList(0, blockSeqs.size()), blockSeqs);
        assertTrue(blockSeqs.size() >= 5, "blocks: " + blockSeqs.size());
        for (JsonObject e : new ArrayList<>(blocks.events)) assertEquals("blocks", e.getString("topic"));
    }

    static long last(String url, String where) throws Exception {
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT coalesce(max(sequence), 0) FROM event_log WHERE " + where)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static List<Long> sequences(String url, long after, String where) throws Exception {
        List<Long> out = new ArrayList<>();
        try (Connection c = TestDatabase.jdbc(url);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT sequence FROM event_log WHERE sequence > " + after + " AND "
                        + where + " ORDER BY sequence")) {
            while (rs.next()) out.add(rs.getLong(1));
        }
        return out;
    }

    /** A WebSocket subscription and what it received. */
    static final class Sub {
        final List<JsonObject> events = Collections.synchronizedList(new ArrayList<>());
        final ClientWebSocket socket;

        Sub(WebSocketClient client, int port, String query) {
            socket = client.webSocket();
            socket.textMessageHandler(t -> events.add(new JsonObject(t)));
            TestNodes.await(socket.connect(new WebSocketConnectOptions()
                    .setHost("127.0.0.1")
                    .setPort(port)
                    .setURI("/v1/events/ws?" + query)));
        }

        List<Long> sequences() {
            List<Long> out = new ArrayList<>();
            synchronized (events) {
                for (JsonObject e : events) out.add(e.getLong("sequence"));
            }
            return out;
        }

        void close() {
            TestNodes.await(socket.close());
        }
    }
}
