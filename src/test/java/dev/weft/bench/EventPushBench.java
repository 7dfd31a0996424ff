package dev.weft.bench;

import dev.weft.bus.Addresses;
import dev.weft.node.WeftNode;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestDatabase;
import dev.weft.testsupport.TestNodes;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Push throughput and latency ({@code bench/event-push.sh}): a node indexing a live devnet, its event log followed by
 * {@code bench.subscribers} (1000) WebSocket subscribers on {@code /v1/events/ws} (every event, from the head), then by
 * {@code bench.latency_subscribers} (100). Prints the events delivered per second to all subscribers and the events
 * stored per second, then the p50 / p99 / max latency from commit to delivery: from the writer's
 * {@code weft.updates.events} notification, published as its commit answered, to the arrival of the event it named at
 * each subscriber. The subscribers share this JVM (and its cores) with the node and the devnet, so the figures are a
 * floor. Properties: {@code bench.seconds} (20 per phase), {@code bench.txs_per_block} (10),
 * {@code bench.block_interval} (200ms).
 */
public final class EventPushBench {
    public static void main(String[] args) throws Exception {
        int subscribers = Integer.getInteger("bench.subscribers", 1000);
        int latencySubscribers = Integer.getInteger("bench.latency_subscribers", 100);
        int seconds = Integer.getInteger("bench.seconds", 20);
        Vertx vertx = TestNodes.newVertx();
        String url = TestDatabase.freshUrl();
        TestConfig c = TestConfig.defaults()
                .roles("devnet", "ingest", "api")
                .set("database.url", url)
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 10)
                .set("devnet.block_interval", System.getProperty("bench.block_interval", "200ms"))
                .set("devnet.txs_per_block", Integer.getInteger("bench.txs_per_block", 10))
                .set("ingest.poll_interval", "20ms")
                .set("rate_limit.enabled", false)
                .set("bridge.tcp_enabled", false)
                .set("events.ws_subscriptions_per_client", subscribers + latencySubscribers)
                .set("http.max_connections_per_client", subscribers + latencySubscribers + 64);
        WeftNode node = TestNodes.start(vertx, c.build());
        int port = TestNodes.httpPort(node);
        System.out.printf(
                Locale.ROOT,
                "weft event push bench: %d cores, %d then %d WebSocket subscribers, %d s each%n",
                Runtime.getRuntime().availableProcessors(),
                subscribers,
                latencySubscribers,
                seconds);
        WebSocketClient ws = vertx.createWebSocketClient(
                new WebSocketClientOptions().setMaxConnections(subscribers + latencySubscribers + 10));
        // throughput
        AtomicLong delivered = new AtomicLong();
        List<io.vertx.core.http.WebSocket> open = new ArrayList<>();
        head = stored(url);
        for (int i = 0; i < subscribers; i++) open.add(connect(ws, port, t -> delivered.incrementAndGet()));
        long stored0 = stored(url);
        long d0 = delivered.get();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        double secs = (System.nanoTime() - t0) / 1e9;
        long produced = stored(url) - stored0;
        long got = delivered.get() - d0;
        System.out.printf(
                Locale.ROOT,
                "%d subscribers: %.0f events delivered/s (%.1f events stored/s × %d = %.0f expected/s)%n",
                subscribers,
                got / secs,
                produced / secs,
                subscribers,
                produced / secs * subscribers);
        for (var s : open) TestNodes.await(s.close());
        // latency: notification (after the commit) → arrival
        Map<Long, Long> notified = new ConcurrentHashMap<>();
        vertx.eventBus().<JsonObject>consumer(Addresses.EVENTS_APPENDED, m -> {
            Long s = m.body().getLong("sequence");
            if (s != null) notified.put(s, System.nanoTime());
        });
        List<Long> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
        open.clear();
        head = stored(url);
        for (int i = 0; i < latencySubscribers; i++)
            open.add(connect(ws, port, t -> {
                long now = System.nanoTime();
                Long at = notified.get(new JsonObject(t).getLong("sequence"));
                if (at != null) latencies.add(now - at);
            }));
        Thread.sleep(seconds * 1000L);
        for (var s : open) TestNodes.await(s.close());
        long[] l;
        synchronized (latencies) {
            l = latencies.stream().mapToLong(Long::longValue).toArray();
        }
        Arrays.sort(l);
        System.out.printf(
                Locale.ROOT,
                "%d subscribers: %d deliveries timed, commit → delivery p50 %.1f ms, p99 %.1f ms, max %.1f ms (goal p99 <= 100 ms)%n",
                latencySubscribers,
                l.length,
                pct(l, 0.50),
                pct(l, 0.99),
                l.length == 0 ? 0 : l[l.length - 1] / 1e6);
        TestNodes.await(node.stop());
        TestNodes.await(vertx.close());
        System.exit(0);
    }

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) return 0;
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    private static io.vertx.core.http.WebSocket connect(
            WebSocketClient ws, int port, io.vertx.core.Handler<String> onEvent) {
        io.vertx.core.http.ClientWebSocket s = ws.webSocket();
        s.textMessageHandler(onEvent);
        // from the head: the last stored sequence, so every subscriber follows live events only
        return TestNodes.await(s.connect(new WebSocketConnectOptions()
                .setHost("127.0.0.1")
                .setPort(port)
                .setURI("/v1/events/ws?after=" + head(port))));
    }

    /** Where new subscribers start: the last sequence stored when their phase began. */
    private static volatile long head;

    private static long head(int port) {
        return head;
    }

    private static long stored(String url) throws Exception {
        try (var conn = TestDatabase.jdbc(url);
                var st = conn.createStatement();
                var rs = st.executeQuery("SELECT coalesce(max(sequence), 0) FROM event_log")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
