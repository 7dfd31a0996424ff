package dev.weft.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.Await;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real launcher ({@code dev.weft.Main}) in a child JVM, as {@code java -jar} runs it. */
class LauncherTest {

    static Process launch(Path workDir, String... args) throws IOException {
        return new ProcessBuilder(command(args))
                .directory(Path.of("").toAbsolutePath().toFile())
                .redirectErrorStream(false)
                .start();
    }

    private static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.weft.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Test
    @DisplayName("an invalid value stops start-up with one line naming the key and exit code 2")
    void invalidConfig(@TempDir Path dir) throws Exception {
        Path f = TestConfig.defaults().set("http.port", "eighty").writeTo(dir);
        Process p = launch(dir, "--config", f.toString());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(2, p.exitValue());
        assertEquals("weft: configuration key 'http.port': must be a whole number (got \"eighty\")", err);
    }

    @Test
    @DisplayName("an unknown option or role is a one-line usage error")
    void badArguments(@TempDir Path dir) throws Exception {
        Process p = launch(dir, "--rolez", "api");
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(2, p.exitValue());
        assertTrue(err.startsWith("weft: unknown option --rolez; usage:"), err);
        assertFalse(err.contains("\n"));

        Process q = launch(dir, "--roles", "api,miner");
        assertTrue(q.waitFor(60, TimeUnit.SECONDS));
        String err2 = new String(q.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(2, q.exitValue());
        assertTrue(err2.contains("configuration key 'node.roles': unknown role \"miner\""), err2);
    }

    @Test
    @DisplayName("an unreachable database is a clear one-line start-up error, exit code 1")
    void unreachableDatabase(@TempDir Path dir) throws Exception {
        int closed = Ports.free();
        Path f = TestConfig.defaults()
                .roles("api")
                .set("database.url", "postgresql://postgres@127.0.0.1:" + closed + "/weft")
                .set("database.connect_timeout_ms", 2000)
                .writeTo(dir);
        Process p = launch(dir, "--config", f.toString());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, p.exitValue());
        String last = err.lines().filter(l -> l.startsWith("weft:")).findFirst().orElse(err);
        assertTrue(
                last.startsWith("weft: start-up failed: cannot reach PostgreSQL at 127.0.0.1:" + closed + "/weft"),
                last);
    }

    @Test
    @DisplayName(
            "a failing start-up step (a port already taken) ends with one line naming the port's setting and exit code 1, not a hang")
    void failingStep(@TempDir Path dir) throws Exception {
        for (String setting : new String[] {"bridge.tcp_port", "http.port"}) {
            try (java.net.ServerSocket taken =
                    new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
                int port = taken.getLocalPort();
                Path f = TestConfig.defaults().roles("api").set(setting, port).writeTo(dir);
                Process p = launch(dir, "--config", f.toString());
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher hung after a failed start-up step");
                String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(1, p.exitValue());
                String last = err.lines()
                        .filter(l -> l.startsWith("weft:"))
                        .findFirst()
                        .orElse(err);
                assertEquals(
                        "weft: start-up failed: " + setting + ": cannot listen on 127.0.0.1:" + port
                                + ": Address already in use"
                                + " (another process holds the port: stop it, or choose another with " + setting
                                + " / WEFT_"
                                + setting.replace('.', '_').toUpperCase(java.util.Locale.ROOT) + ")",
                        last);
            }
        }
    }

    @Test
    @DisplayName("a good configuration prints where to look and serves /status")
    void startsAndServes(@TempDir Path dir) throws Exception {
        int port = Ports.free();
        Path f = TestConfig.defaults().roles("api").set("http.port", port).writeTo(dir);
        Process p = launch(dir, "--config", f.toString());
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String first = out.readLine();
            assertTrue(first != null && first.startsWith("Weft ") && first.contains(" is up"), String.valueOf(first));
            HttpResponse<String> r = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertTrue(r.body().contains("\"chain_id\":\"weft-devnet-1\""), r.body());
        } finally {
            p.destroy();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        }
    }

    @Test
    @DisplayName(
            "on SIGTERM with the embedded PostgreSQL the node stops its writers before the database: no error, no leftover postmaster")
    void stopsInOrder(@TempDir Path dir) throws Exception {
        int port = Ports.free();
        Path data = dir.resolve("pg");
        Path f = TestConfig.defaults()
                .roles("api", "devnet", "ingest", "evm", "richlist", "track")
                .set("http.port", port)
                .set("database.url", null)
                .set("database.data_dir", data.toString())
                .set("database.embedded_fsync", false)
                .set("log.level", "info")
                .set("http.drain", "1s")
                .writeTo(dir);
        Process p = new ProcessBuilder(command("--config", f.toString()))
                .redirectErrorStream(true)
                .start(); // the log (stderr) and the banner together
        List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> isUp = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
                    .lines()
                    .forEach(l -> {
                        lines.add(l);
                        if (l.contains(" is up")) isUp.complete(null);
                    });
            isUp.completeExceptionally(new AssertionError("the launcher exited before it was up"));
        });
        reader.start();
        try {
            try {
                isUp.get(120, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new AssertionError(String.join("\n", lines), e);
            }
            // let the writers work (the devnet's history is being indexed) before the stop
            HttpClient http =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            Await.until(
                    "a first indexed height in /status",
                    120,
                    () -> !http.send(
                                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body()
                            .contains("\"height\":0,"));
        } finally {
            p.destroy();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            reader.join(10_000);
        }
        int up = 0;
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains(" is up")) up = i;
        List<String> afterUp = lines.subList(up, lines.size());
        assertTrue(
                afterUp.stream()
                        .noneMatch(l -> l.contains(" ERROR ") || l.contains("Exception") || l.contains("lost the")),
                String.join("\n", afterUp));
        assertFalse(java.nio.file.Files.exists(data.resolve("postmaster.pid")), "the embedded PostgreSQL was stopped");
    }
}
