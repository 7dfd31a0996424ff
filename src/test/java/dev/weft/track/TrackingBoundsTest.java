package dev.weft.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.LocalHttp;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.micrometer.backends.BackendRegistries;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The bounds on tracking: node requests per block independent of the hashes tracked, the open cap, the client quota. */
class TrackingBoundsTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    private static final String L1 = "weft-l1-1";

    private static String randomHash(int i) {
        return String.format("%064X", 0xABC000000L + i);
    }

    private static long trackerRequests(String chain) {
        return (long) meter("weft_track_node_requests_total", "chain_id", chain);
    }

    private static long height(TrackingHarness h) {
        return Long.parseLong(new JsonObject(h.get(h.rpcPort(L1), "/status").body())
                .getJsonObject("result")
                .getJsonObject("sync_info")
                .getString("latest_block_height"));
    }

    /** Tracker requests to weft-l1-1 per block over the next {@code blocks} blocks. */
    private static double perBlock(TrackingHarness h, int blocks) {
        long r0 = trackerRequests(L1);
        long h0 = height(h);
        TrackingHarness.await(() -> height(h) >= h0 + blocks ? true : null, blocks + " blocks");
        return (trackerRequests(L1) - r0) / (double) (height(h) - h0);
    }

    private static double meter(String name, String tag, String value) {
        double n = 0;
        for (Counter c :
                BackendRegistries.getDefaultNow().find(name).tag(tag, value).counters()) n += c.count();
        return n;
    }

    private static long cycles() {
        var t = BackendRegistries.getDefaultNow()
                .find("weft_track_cycle_seconds")
                .timer();
        return t == null ? 0 : t.count();
    }

    @Test
    @DisplayName(
            "a tracker at the head of a chain without a new block polls it without a failed or retried request (CometBFT refuses a minHeight above its head)")
    void atTheHeadOfAStillChain() {
        // blocks an hour apart: after its first scan the tracker stays at the chain's head
        TrackingHarness h = TrackingHarness.start(weft, TrackingHarness.config().set("devnet.block_interval", "1h"));
        assertEquals(200, h.track(randomHash(0), L1).statusCode());
        TrackingHarness.await(
                () -> trackerRequests(L1) > 0 && cycles() > 2 ? true : null, "the tracker's first cycles on " + L1);
        long cycles = cycles();
        double failures = meter("weft_node_failures_total", "api", "rpc");
        double retries = meter("weft_node_retries_total", "api", "rpc");
        double metas = meter("weft_track_node_requests_total", "method", "blockchain");
        TrackingHarness.await(() -> cycles() >= cycles + 10 ? true : null, "10 more tracker cycles");
        assertEquals(0, meter("weft_node_failures_total", "api", "rpc") - failures, "failed node calls at the head");
        assertEquals(0, meter("weft_node_retries_total", "api", "rpc") - retries, "retried node requests at the head");
        double perCycle =
                (meter("weft_track_node_requests_total", "method", "blockchain") - metas) / (cycles() - cycles);
        assertTrue(perCycle <= 1.2, "/blockchain requests per cycle at the head: " + perCycle);
    }

    @Test
    @DisplayName(
            "1,000 tracked hashes that never appear cost the chain's node the same requests per block as 10 (no search per hash)")
    void requestsPerBlockDoNotGrowWithHashes() {
        TrackingHarness h =
                TrackingHarness.start(weft, TrackingHarness.config().set("track.registrations_per_client", 100_000));
        for (int i = 0; i < 10; i++)
            assertEquals(200, h.track(randomHash(i), L1).statusCode());
        perBlock(h, 10); // the first cycles read the chain's recent blocks back once (the hash index)
        double ten = perBlock(h, 20);
        for (int i = 10; i < 1010; i++)
            assertEquals(200, h.track(randomHash(i), L1).statusCode());
        perBlock(h, 5); // the registrations are taken up by the tracker
        double thousand = perBlock(h, 20);
        System.out.printf(
                "tracker requests per block on %s: %.2f with 10 unknown hashes, %.2f with 1010%n", L1, ten, thousand);
        assertTrue(thousand <= ten * 1.5 + 1, "10 hashes: " + ten + " requests per block, 1010 hashes: " + thousand);
    }

    @Test
    @DisplayName(
            "track.max_open caps the transfers followed (503 for a new hash, 200 for one already followed); track.registrations_per_client gives 429 with Retry-After")
    void capAndQuota() {
        WeftNode node = weft.start(weft.config()
                .roles("api")
                .set("route.registries", new JsonArray().add("conf/registry/devnet.json"))
                .set("track.max_open", 3)
                .set("track.registrations_per_client", 5));
        int api = TestNodes.httpPort(node);
        LocalHttp http = new LocalHttp();
        java.util.function.IntFunction<HttpResponse<String>> track = i -> http.post(
                api,
                "/v2/tx/track",
                new JsonObject()
                        .put("tx_hash", randomHash(i))
                        .put("chain_id", L1)
                        .encode());
        for (int i = 0; i < 3; i++) assertEquals(200, track.apply(i).statusCode());
        var full = track.apply(3);
        assertEquals(503, full.statusCode());
        assertEquals(
                "tracking capacity reached: 3 transfers are followed; retry later",
                new JsonObject(full.body()).getString("message"));
        assertEquals(200, track.apply(0).statusCode(), "a hash already followed is still accepted");
        var limited = track.apply(1);
        assertEquals(429, limited.statusCode(), "the sixth registration of this client in a minute");
        assertEquals(
                "too many tracking registrations from this client: at most 5 a minute",
                new JsonObject(limited.body()).getString("message"));
        assertTrue(Integer.parseInt(limited.headers().firstValue("Retry-After").orElseThrow()) <= 60);
    }
}
