package dev.weft.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.TestConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code java -jar weft.jar --roles devnet}: the launcher alone serves a browsable chain and says where. */
class DevnetLaunchTest {

    @Test
    @DisplayName("--roles devnet prints the devnet's three URLs and serves the chain there, without a database")
    void devnetOnly(@TempDir Path dir) throws Exception {
        Path f = TestConfig.defaults().set("database.url", null).writeTo(dir);
        Process p = LauncherTest.launch(dir, "--config", f.toString(), "--roles", "devnet");
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String first = out.readLine();
            assertTrue(
                    first != null && first.contains(" is up") && first.contains("roles devnet"), String.valueOf(first));
            String devnet = out.readLine();
            Matcher m = Pattern.compile(
                            "devnet +chain weft-devnet-1 .* rpc http://127.0.0.1:(\\d+) +rest http://127.0.0.1:(\\d+) +json-rpc http://127.0.0.1:(\\d+)")
                    .matcher(String.valueOf(devnet));
            assertTrue(m.find(), String.valueOf(devnet));
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> status = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.group(1) + "/status"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, status.statusCode());
            assertTrue(status.body().contains("\"network\":\"weft-devnet-1\""), status.body());
            HttpResponse<String> latest = http.send(
                    HttpRequest.newBuilder(URI.create(
                                    "http://127.0.0.1:" + m.group(2) + "/cosmos/base/tendermint/v1beta1/blocks/latest"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, latest.statusCode());
            HttpResponse<String> number = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.group(3)))
                            .header("content-type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_blockNumber\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(number.body().contains("\"result\":\"0x"), number.body());
        } finally {
            p.destroy();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        }
    }
}
