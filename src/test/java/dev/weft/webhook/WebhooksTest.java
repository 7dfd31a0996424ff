package dev.weft.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.node.WeftNode;
import dev.weft.testsupport.Await;
import dev.weft.testsupport.TestConfig;
import dev.weft.testsupport.TestNodes;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Webhooks on a node indexing a live devnet, delivering to a real HTTP receiver on loopback: signatures, order, retries
 * of 500s, dead letters and their re-drive, and the API's refusals.
 */
class WebhooksTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    static final String TOKEN = "webhook-test-admin-token";
    static final String SECRET = "a-secret-of-some-length";

    static Vertx vertx;
    static WebClient client;
    static int port;
    static int receiverPort;
    static int guardedPort;

    /** One request the receiver got. */
    record Received(
            String path, String id, long sequence, String signature, String contentType, String host, String raw) {}

    static final List<Received> received = new CopyOnWriteArrayList<>();
    /** Per path: how the receiver answers (a status, or "flaky": 500 twice per id, then 200). */
    static final Map<String, Integer> answers = new ConcurrentHashMap<>();

    static final Map<String, AtomicInteger> tries = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() {
        vertx = weft.vertx();
        HttpServer server = vertx.createHttpServer()
                .requestHandler(req -> req.body().onSuccess(b -> {
                    JsonObject body = new JsonObject(b);
                    received.add(new Received(
                            req.path(),
                            body.getString("id"),
                            body.getLong("sequence"),
                            req.getHeader("weft-signature"),
                            req.getHeader("content-type"),
                            req.getHeader("host"),
                            b.toString(StandardCharsets.UTF_8)));
                    int status;
                    if (req.path().equals("/flaky")) {
                        status = tries.computeIfAbsent(body.getString("id"), k -> new AtomicInteger())
                                                .incrementAndGet()
                                        <= 2
                                ? 500
                                : 200;
                    } else {
                        status = answers.getOrDefault(req.path(), 200);
                    }
                    req.response().setStatusCode(status).end("x".repeat(10_000)); // a body to ignore, beyond the cap
                }));
        receiverPort = TestNodes.await(server.listen(0, "localhost")).actualPort();
        TestConfig c = weft.config()
                .roles("devnet", "ingest", "api")
                .set("devnet.mode", "live")
                .set("devnet.history_blocks", 5)
                .set("devnet.block_interval", "150ms")
                .set("devnet.txs_per_block", 2)
                .set("ingest.poll_interval", "50ms")
                .set("admin.token", TOKEN)
                .set("webhooks.allow_private_targets", true)
                .set("webhooks.max_attempts", 3)
                .set("webhooks.backoff_base", "20ms")
                .set("webhooks.backoff_max", "100ms")
                .set("webhooks.poll_interval", "200ms")
                .set("webhooks.max_webhooks", 8);
        WeftNode node = weft.start(c);
        port = TestNodes.httpPort(node);
        WeftNode guarded = weft.start(
                weft.config().roles("api").set("node.name", "guarded").set("admin.token", TOKEN));
        guardedPort = TestNodes.httpPort(guarded);
        client = WebClient.create(vertx);
    }

    static HttpResponse<Buffer> call(int port, HttpMethod m, String uri, JsonObject body, boolean token) {
        var req = client.request(m, port, "127.0.0.1", uri);
        if (token) req.putHeader("authorization", "Bearer " + TOKEN);
        return TestNodes.await(body == null ? req.send() : req.sendJsonObject(body));
    }

    static JsonObject create(String path, JsonObject filters) {
        JsonObject body = new JsonObject()
                .put("url", "http://localhost:" + receiverPort + path)
                .put("secret", SECRET)
                .put("filters", filters);
        var r = call(port, HttpMethod.POST, "/v1/webhooks", body, true);
        assertEquals(201, r.statusCode(), r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    static List<Received> at(String path) {
        return received.stream().filter(x -> x.path().equals(path)).toList();
    }

    static JsonObject blocks() {
        return new JsonObject().put("topic", "blocks");
    }

    @Test
    @DisplayName(
            "deliveries are signed as documented, in sequence order, once each; the cursor follows; the secret is never shown")
    void signedInOrder() {
        JsonObject hook = create("/ok", blocks());
        String id = hook.getString("id");
        assertTrue(id.matches("wh_[0-9a-f]{24}"), id);
        assertNull(hook.getValue("secret"));
        assertEquals("http://localhost:" + receiverPort + "/ok", hook.getString("url"));
        assertEquals(blocks(), hook.getJsonObject("filters"));
        assertNotNull(hook.getString("created"));
        long start = hook.getLong("cursor");
        Await.until("5 deliveries", 60, () -> at("/ok").size() >= 5);
        List<Received> got = new ArrayList<>(at("/ok"));
        long last = start;
        for (Received r : got) {
            assertEquals(id + ":" + r.sequence(), r.id());
            assertTrue(r.sequence() > last, "sequence order, no repeat: " + r.sequence() + " after " + last);
            last = r.sequence();
            assertEquals("application/json", r.contentType());
            assertEquals("localhost:" + receiverPort, r.host());
            // Weft-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
            String[] parts = r.signature().split(",");
            assertEquals(2, parts.length, r.signature());
            long t = Long.parseLong(parts[0].substring(2));
            assertTrue(Math.abs(System.currentTimeMillis() / 1000 - t) < 600);
            assertEquals("v1=" + hmac(SECRET, parts[0].substring(2) + "." + r.raw()), parts[1]);
            JsonObject body = new JsonObject(r.raw());
            assertEquals("blocks", body.getString("topic"));
            assertEquals(r.sequence(), body.getJsonObject("event").getLong("sequence"));
            assertNotNull(body.getJsonObject("event").getString("hash"));
        }
        long delivered = last;
        Await.until("the cursor at the last delivery or beyond", 30, () -> get(id).getLong("cursor") >= delivered);
        var list = call(port, HttpMethod.GET, "/v1/webhooks", null, true).bodyAsJsonObject();
        assertTrue(list.getJsonArray("webhooks").stream()
                .anyMatch(o -> ((JsonObject) o).getString("id").equals(id) && !((JsonObject) o).containsKey("secret")));
        assertEquals(
                204,
                call(port, HttpMethod.DELETE, "/v1/webhooks/" + id, null, true).statusCode());
        assertEquals(
                404,
                call(port, HttpMethod.GET, "/v1/webhooks/" + id, null, true).statusCode());
    }

    static String hmac(String key, String data) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static JsonObject get(String id) {
        var r = call(port, HttpMethod.GET, "/v1/webhooks/" + id, null, true);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        return r.bodyAsJsonObject();
    }

    @Test
    @DisplayName("a 500 is retried until the 200; once acknowledged an event is not sent again")
    void retriedUntilAcknowledged() {
        String id = create("/flaky", blocks()).getString("id");
        Await.until(
                "4 events acknowledged",
                60,
                () -> tries.values().stream().filter(n -> n.get() >= 3).count() >= 4);
        List<Received> got = new ArrayList<>(at("/flaky"));
        Map<String, List<Integer>> positions = new java.util.LinkedHashMap<>();
        for (int i = 0; i < got.size(); i++)
            positions.computeIfAbsent(got.get(i).id(), k -> new ArrayList<>()).add(i);
        long prev = 0;
        int acknowledged = 0;
        for (var e : positions.entrySet()) {
            List<Integer> at = e.getValue();
            if (at.size() < 3) continue; // the one in flight
            assertEquals(3, at.size(), "500, 500, then 200, then never again: " + e.getKey());
            assertEquals(at.get(0) + 2, at.get(2), "the attempts of one event follow each other: " + e.getKey());
            long seq = got.get(at.get(0)).sequence();
            assertTrue(seq > prev, "events in sequence order");
            prev = seq;
            acknowledged++;
        }
        assertTrue(acknowledged >= 4);
        assertEquals(0, get(id).getLong("dead_letters"));
        call(port, HttpMethod.DELETE, "/v1/webhooks/" + id, null, true);
    }

    @Test
    @DisplayName(
            "a receiver that keeps failing fills the dead letters (a 400 at once, a 500 after max_attempts); re-drive delivers them")
    void deadLettersAndRedrive() {
        answers.put("/down", 503);
        answers.put("/refuses", 400);
        String down = create("/down", blocks()).getString("id");
        String refuses = create("/refuses", blocks()).getString("id");
        Await.until(
                "3 dead letters each",
                60,
                () -> get(down).getLong("dead_letters") >= 3 && get(refuses).getLong("dead_letters") >= 3);
        JsonArray dl = call(port, HttpMethod.GET, "/v1/webhooks/" + down + "/dead-letters?limit=3", null, true)
                .bodyAsJsonObject()
                .getJsonArray("dead_letters");
        assertEquals(3, dl.size());
        for (Object o : dl) {
            JsonObject d = (JsonObject) o;
            assertEquals(3, d.getInteger("attempts"));
            assertEquals("HTTP 503", d.getString("last_error"));
            assertEquals(
                    down + ":" + d.getLong("sequence"),
                    d.getJsonObject("delivery").getString("id"));
        }
        JsonObject firstRefused = call(port, HttpMethod.GET, "/v1/webhooks/" + refuses + "/dead-letters", null, true)
                .bodyAsJsonObject()
                .getJsonArray("dead_letters")
                .getJsonObject(0);
        assertEquals(1, firstRefused.getInteger("attempts"), "a 400 is not retried");
        assertEquals(
                1,
                at("/refuses").stream()
                        .filter(r -> r.id().equals(
                                        firstRefused.getJsonObject("delivery").getString("id")))
                        .count());
        // the receiver comes back; every dead letter is re-driven and goes
        answers.put("/down", 200);
        Set<String> dead = new HashSet<>();
        Await.until(
                "the cursor moved on past the dead letters",
                30,
                () -> get(down).getLong("cursor") >= dl.getJsonObject(2).getLong("sequence"));
        JsonArray all = call(port, HttpMethod.GET, "/v1/webhooks/" + down + "/dead-letters?limit=1000", null, true)
                .bodyAsJsonObject()
                .getJsonArray("dead_letters");
        for (Object o : all) dead.add(((JsonObject) o).getJsonObject("delivery").getString("id"));
        var r = call(port, HttpMethod.POST, "/v1/webhooks/" + down + "/dead-letters/redrive", new JsonObject(), true);
        assertEquals(202, r.statusCode(), r.bodyAsString());
        assertTrue(r.bodyAsJsonObject().getInteger("redriving") >= 3);
        Await.until("every dead letter re-driven", 60, () -> {
            Set<String> ok = new HashSet<>();
            int n = at("/down").size();
            for (Received x : at("/down").subList(0, n)) ok.add(x.id());
            return get(down).getLong("dead_letters") == 0 && ok.containsAll(dead);
        });
        call(port, HttpMethod.DELETE, "/v1/webhooks/" + down, null, true);
        call(port, HttpMethod.DELETE, "/v1/webhooks/" + refuses, null, true);
    }

    @Test
    @DisplayName(
            "bad input is a JSON 4xx: no token, bad URL, credentials, unknown or bad filter, missing or short secret, oversized body")
    void badInput() {
        String ok = "http://localhost:" + receiverPort + "/x";
        List<JsonObject> bad = List.of(
                new JsonObject().put("url", "ftp://localhost/x").put("secret", SECRET),
                new JsonObject().put("url", "not a url").put("secret", SECRET),
                new JsonObject()
                        .put("url", "http://user:pw@localhost:" + receiverPort + "/")
                        .put("secret", SECRET),
                new JsonObject().put("url", "http://no-such-host.invalid/").put("secret", SECRET),
                new JsonObject().put("url", ok),
                new JsonObject().put("url", ok).put("secret", "short"),
                new JsonObject().put("url", ok).put("secret", SECRET).put("filters", new JsonObject().put("nope", "1")),
                new JsonObject()
                        .put("url", ok)
                        .put("secret", SECRET)
                        .put("filters", new JsonObject().put("topic", "nope")),
                new JsonObject()
                        .put("url", ok)
                        .put("secret", SECRET)
                        .put("filters", new JsonObject().put("account", "0x12")),
                new JsonObject().put("url", ok).put("secret", SECRET).put("filters", "topic=blocks"),
                new JsonObject().put("url", ok).put("secret", SECRET).put("after", -1),
                new JsonObject().put("url", ok).put("secret", SECRET).put("extra", true),
                new JsonObject()
                        .put("url", "http://localhost/" + "a".repeat(3000))
                        .put("secret", SECRET));
        for (JsonObject b : bad) {
            var r = call(port, HttpMethod.POST, "/v1/webhooks", b, true);
            assertEquals(400, r.statusCode(), b + " → " + r.bodyAsString());
            assertNotNull(r.bodyAsJsonObject().getString("message"), b.encode());
        }
        var big = call(
                port,
                HttpMethod.POST,
                "/v1/webhooks",
                new JsonObject().put("url", ok).put("secret", "s".repeat(5_000_000)),
                true);
        assertTrue(big.statusCode() == 413 || big.statusCode() == 400, big.statusCode() + " " + big.bodyAsString());
        var noToken = call(port, HttpMethod.GET, "/v1/webhooks", null, false);
        assertEquals(401, noToken.statusCode());
        assertNotNull(noToken.bodyAsJsonObject().getString("message"));
        assertEquals(
                404,
                call(port, HttpMethod.GET, "/v1/webhooks/wh_nope", null, true).statusCode());
        assertEquals(
                404,
                call(port, HttpMethod.GET, "/v1/webhooks/wh_000000000000000000000000/dead-letters", null, true)
                        .statusCode());
    }

    @Test
    @DisplayName(
            "without webhooks.allow_private_targets, loopback, private, link-local and metadata targets are refused")
    void privateTargetsRefused() {
        for (String url : List.of(
                "http://localhost:" + receiverPort + "/",
                "http://127.0.0.1/",
                "http://10.1.2.3/",
                "http://172.20.0.1/",
                "http://192.168.1.1/",
                "http://169.254.169.254/latest/meta-data/",
                "http://100.64.0.1/",
                "http://0.0.0.0/",
                "http://224.0.0.1/",
                "http://[::1]/",
                "http://[fd00::1]/",
                "http://[fe80::1]/",
                "http://[::ffff:127.0.0.1]/",
                "http://[64:ff9b::a00:1]/")) {
            var r = call(
                    guardedPort,
                    HttpMethod.POST,
                    "/v1/webhooks",
                    new JsonObject().put("url", url).put("secret", SECRET),
                    true);
            assertEquals(400, r.statusCode(), url + " → " + r.bodyAsString());
            assertTrue(r.bodyAsJsonObject().getString("message").contains("internal"), r.bodyAsString());
        }
        // a public address literal is accepted (nothing is sent: the test network has no route there)
        var r = call(
                guardedPort,
                HttpMethod.POST,
                "/v1/webhooks",
                new JsonObject().put("url", "https://93.184.215.14/hook").put("secret", SECRET),
                true);
        assertEquals(201, r.statusCode(), r.bodyAsString());
        assertEquals(
                204,
                call(
                                guardedPort,
                                HttpMethod.DELETE,
                                "/v1/webhooks/" + r.bodyAsJsonObject().getString("id"),
                                null,
                                true)
                        .statusCode());
        assertFalse(TargetGuard.refusal(address("93.184.215.14")) != null);
        assertEquals("loopback", TargetGuard.refusal(address("::ffff:127.0.0.1")));
    }

    static java.net.InetAddress address(String s) {
        try {
            return java.net.InetAddress.getByName(s);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
