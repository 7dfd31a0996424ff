package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.devnet.config.DevnetConfig;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.testsupport.WeftExtension;
import io.vertx.core.json.JsonObject;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each fault kind as a client sees it, and faults decided per request whatever the order of requests. */
class FaultInjectionTest {
    @RegisterExtension
    static final WeftExtension weft = new WeftExtension();

    @Test
    @DisplayName("error_rate: HTTP 500 with each protocol's error body")
    void errors() {
        DevnetHarness d = DevnetHarness.start(weft, DevnetHarness.history(20).set("devnet.faults.error_rate", 1.0));
        HttpResponse<String> rpc = d.get(d.rpcPort, "/block?height=3");
        assertEquals(500, rpc.statusCode());
        assertEquals(-32603, new JsonObject(rpc.body()).getJsonObject("error").getInteger("code"));
        HttpResponse<String> rest = d.get(d.restPort, "/cosmos/tx/v1beta1/txs/block/3");
        assertEquals(500, rest.statusCode());
        assertEquals(13, new JsonObject(rest.body()).getInteger("code"));
        HttpResponse<String> evm = d.post(d.evmPort, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_blockNumber\"}");
        assertEquals(500, evm.statusCode());
        assertEquals(-32603, new JsonObject(evm.body()).getJsonObject("error").getInteger("code"));
    }

    @Test
    @DisplayName("truncate_rate: the connection closes after half of the announced body")
    void truncation() throws Exception {
        DevnetHarness d = DevnetHarness.start(weft, DevnetHarness.history(20).set("devnet.faults.truncate_rate", 1.0));
        assertThrows(IllegalStateException.class, () -> d.get(d.rpcPort, "/block?height=3"));
        try (Socket s = new Socket("127.0.0.1", d.restPort)) {
            s.getOutputStream()
                    .write("GET /cosmos/tx/v1beta1/txs/block/3 HTTP/1.1\r\nHost: x\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int headerEnd = answer.indexOf("\r\n\r\n");
            int announced = Integer.parseInt(answer.lines()
                    .filter(l -> l.toLowerCase().startsWith("content-length:"))
                    .findFirst()
                    .orElseThrow()
                    .split(":")[1]
                    .trim());
            int received = answer.substring(headerEnd + 4).getBytes(StandardCharsets.UTF_8).length;
            assertTrue(received < announced, received + " of " + announced + " bytes");
            assertTrue(received > 0);
        }
    }

    @Test
    @DisplayName("delay_rate: answers arrive, no sooner than the delay")
    void delays() {
        DevnetHarness d = DevnetHarness.start(
                weft,
                DevnetHarness.history(20).set("devnet.faults.delay_rate", 1.0).set("devnet.faults.delay", "300ms"));
        long t0 = System.nanoTime();
        assertEquals(200, d.get(d.rpcPort, "/status").statusCode());
        assertTrue(System.nanoTime() - t0 >= 300_000_000L);
    }

    @Test
    @DisplayName(
            "latency: every answer of the three servers, no sooner than the latency; added to a delayed request's delay")
    void latency() {
        DevnetHarness d = DevnetHarness.start(weft, DevnetHarness.history(20).set("devnet.faults.latency", "150ms"));
        long t0 = System.nanoTime();
        assertEquals(200, d.get(d.rpcPort, "/status").statusCode());
        assertEquals(200, d.get(d.restPort, "/cosmos/tx/v1beta1/txs/block/3").statusCode());
        assertEquals(
                200,
                d.post(d.evmPort, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_blockNumber\"}")
                        .statusCode());
        assertTrue(System.nanoTime() - t0 >= 450_000_000L, "three sequential answers of 150 ms each");
        var latencyOnly = new dev.weft.devnet.fault.FaultInjector(new DevnetConfig.FaultConfig(
                0, 0, java.time.Duration.ofMillis(200), 0, 0, 0, 7, java.time.Duration.ofMillis(50)));
        assertEquals(50, latencyOnly.waitMillis(latencyOnly.decide("GET /status")));
        var both = new dev.weft.devnet.fault.FaultInjector(new DevnetConfig.FaultConfig(
                0, 1, java.time.Duration.ofMillis(200), 0, 0, 0, 7, java.time.Duration.ofMillis(50)));
        assertEquals(250, both.waitMillis(both.decide("GET /status")));
    }

    @Test
    @DisplayName(
            "short_rest_rate: the first attempts of a height list fewer txs with next_key null and a short total, then all of them")
    void shortRest() {
        DevnetHarness d = DevnetHarness.start(
                weft,
                DevnetHarness.history(20)
                        .set("devnet.faults.short_rest_rate", 1.0)
                        .set("devnet.faults.short_rest_attempts", 2));
        DevnetChain chain = d.replica();
        long h = 2;
        while (chain.txCount(h) < 10) h++;
        int n = chain.txCount(h);
        for (int attempt = 0; attempt < 2; attempt++) {
            JsonObject page = d.rest("/cosmos/tx/v1beta1/txs/block/" + h);
            int got = page.getJsonArray("txs").size();
            assertTrue(got < n, "attempt " + attempt + ": " + got + " of " + n);
            assertEquals(Integer.toString(got), page.getJsonObject("pagination").getString("total"));
            assertNull(page.getJsonObject("pagination").getValue("next_key"));
            assertEquals(
                    n,
                    d.rpc("/block?height=" + h)
                            .getJsonObject("result")
                            .getJsonObject("block")
                            .getJsonObject("data")
                            .getJsonArray("txs")
                            .size());
        }
        JsonObject full = d.rest("/cosmos/tx/v1beta1/txs/block/" + h);
        assertEquals(n, full.getJsonArray("txs").size());
        assertEquals(Integer.toString(n), full.getJsonObject("pagination").getString("total"));
    }

    @Test
    @DisplayName(
            "faults are a function of (seed, request, attempt): two devnets see the same faults, whatever the order of the requests")
    void orderIndependent() {
        List<String> paths =
                List.of("/block?height=2", "/block?height=3", "/block_results?height=4", "/status", "/blockchain");
        var config =
                DevnetHarness.history(20).set("devnet.faults.error_rate", 0.5).set("devnet.faults.seed", 11);
        List<String> forward = new ArrayList<>();
        List<String> backward = new ArrayList<>();
        DevnetHarness a = DevnetHarness.start(weft, config);
        DevnetHarness b = DevnetHarness.start(weft, config);
        for (int round = 0; round < 3; round++)
            for (String p : paths)
                forward.add(p + "#" + round + "=" + a.get(a.rpcPort, p).statusCode());
        for (int round = 0; round < 3; round++) {
            for (int i = paths.size() - 1; i >= 0; i--)
                backward.add(paths.get(i) + "#" + round + "="
                        + b.get(b.rpcPort, paths.get(i)).statusCode());
        }
        assertEquals(new java.util.TreeSet<>(forward), new java.util.TreeSet<>(backward));
        assertTrue(
                forward.stream().anyMatch(s -> s.endsWith("=500"))
                        && forward.stream().anyMatch(s -> s.endsWith("=200")),
                forward.toString());
    }
}
