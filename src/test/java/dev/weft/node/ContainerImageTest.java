package dev.weft.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.testsupport.Ports;
import dev.weft.testsupport.TestDatabase;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The OCI image tarball the build writes (target/weft-image.tar, Maven profile {@code image}, active whenever tests
 * run): its index, manifest and config say what an operator relies on (non-root user, entrypoint, ports, volume,
 * labels, WEFT_* defaults), its layers keep the runtime, the dependencies and Weft's own classes apart, and the image
 * really runs: unpacked and started under chroot as its user, its devnet answers on loopback.
 */
class ContainerImageTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path TARBALL = Path.of("target/weft-image.tar");
    static Path dir;
    static JsonNode config;
    static List<Path> layers = new ArrayList<>();

    @BeforeAll
    static void unpack() throws Exception {
        assertTrue(
                Files.exists(TARBALL),
                TARBALL + " is missing: `mvn -B test` builds it (profile image, before the tests)");
        dir = Files.createTempDirectory("weft-image");
        run(List.of("tar", "-xf", TARBALL.toAbsolutePath().toString(), "-C", dir.toString()));
        JsonNode index = JSON.readTree(dir.resolve("index.json").toFile());
        assertEquals(
                "weft:0.1.0",
                index.path("manifests")
                        .get(0)
                        .path("annotations")
                        .path("org.opencontainers.image.ref.name")
                        .asText());
        JsonNode manifest = JSON.readTree(
                blob(index.path("manifests").get(0).path("digest").asText()).toFile());
        assertEquals(
                "application/vnd.oci.image.manifest.v1+json",
                manifest.path("mediaType").asText());
        config = JSON.readTree(
                blob(manifest.path("config").path("digest").asText()).toFile());
        for (JsonNode l : manifest.path("layers"))
            layers.add(blob(l.path("digest").asText()));
    }

    @AfterAll
    static void cleanUp() {
        if (dir != null) TestDatabase.deleteTree(dir);
    }

    private static Path blob(String digest) {
        return dir.resolve("blobs").resolve(digest.replace(':', '/'));
    }

    @Test
    @DisplayName("config: non-root user, java entrypoint, ports, /data volume, labels, container defaults")
    void imageConfig() {
        JsonNode c = config.path("config");
        assertEquals("10001:10001", c.path("User").asText());
        JsonNode entrypoint = c.path("Entrypoint");
        assertEquals("/opt/java/bin/java", entrypoint.get(0).asText());
        assertEquals(
                "@/app/conf/jvm.options",
                entrypoint.get(1).asText(),
                "the JVM options of every Weft process, first so that later options win");
        assertEquals("dev.weft.Main", entrypoint.get(entrypoint.size() - 1).asText());
        assertEquals(
                "@/app/jib-classpath-file",
                entrypoint.get(entrypoint.size() - 2).asText());
        assertEquals("/app", c.path("WorkingDir").asText());
        List<String> ports = new ArrayList<>();
        c.path("ExposedPorts").fieldNames().forEachRemaining(ports::add);
        assertEquals(
                List.of("5701/tcp", "7000/tcp", "8080/tcp"),
                ports.stream().sorted().toList());
        assertTrue(c.path("Volumes").has("/data"));
        List<String> env = new ArrayList<>();
        c.path("Env").forEach(e -> env.add(e.asText()));
        assertTrue(
                env.containsAll(List.of("WEFT_HTTP_HOST=0.0.0.0", "WEFT_DATABASE_DATA_DIR=/data/pg")), env.toString());
        JsonNode labels = c.path("Labels");
        assertEquals("weft", labels.path("org.opencontainers.image.title").asText());
        assertEquals("0.1.0", labels.path("org.opencontainers.image.version").asText());
        assertTrue(labels.path("dev.weft.healthcheck").asText().contains("/ready"));
        assertEquals("amd64", config.path("architecture").asText());
        assertEquals("linux", config.path("os").asText());
    }

    @Test
    @DisplayName("layers: the runtime base, the dependencies, and Weft's classes each in their own layer")
    void imageLayers() throws IOException {
        assertTrue(layers.size() >= 4, "layers: " + layers.size());
        List<List<String>> contents = new ArrayList<>();
        for (Path l : layers) contents.add(list(l));
        int base = indexOf(contents, "opt/java/bin/java");
        int deps = indexOf(contents, "app/libs/vertx-core-");
        int classes = indexOf(contents, "app/classes/dev/weft/Main.class");
        assertEquals(0, base, "the runtime is the bottom layer");
        assertTrue(deps > base && classes > deps, "deps " + deps + ", classes " + classes);
        assertTrue(contents.get(base).contains("etc/passwd")
                && contents.get(base).stream().anyMatch(p -> p.startsWith("lib/x86_64-linux-gnu/libc.so")));
        assertTrue(
                contents.get(deps).stream().noneMatch(p -> p.startsWith("app/classes/")),
                "dependencies alone in their layer");
        assertTrue(contents.stream().flatMap(List::stream).anyMatch(p -> p.equals("app/conf/weft.json")));
        assertTrue(contents.stream().flatMap(List::stream).anyMatch(p -> p.equals("app/conf/jvm.options")));
        assertTrue(contents.stream().flatMap(List::stream).anyMatch(p -> p.equals("app/cluster/cluster-k8s.xml")));
    }

    @Test
    @DisplayName(
            "the image runs as its user: its devnet answers /status (the unpacked layers under chroot, with /proc and /dev)")
    void imageRuns() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                "root".equals(System.getProperty("user.name")),
                "chroot and mounts need root (the build machines run as root)");
        Path root = Files.createDirectories(dir.resolve("rootfs"));
        for (Path l : layers)
            run(List.of("tar", "--warning=no-unknown-keyword", "-xzf", l.toString(), "-C", root.toString()));
        int rpc = Ports.free();
        ProcessBuilder pb = new ProcessBuilder();
        // what a container runtime provides: /proc (the loader resolves the runtime's $ORIGIN through it) and /dev,
        // mounted in a private mount namespace that ends with the process
        StringBuilder entry = new StringBuilder();
        config.path("config")
                .path("Entrypoint")
                .forEach(a -> entry.append(' ').append('\'').append(a.asText()).append('\''));
        String script = "mount -t proc proc '" + root + "/proc' && mount --rbind /dev '" + root + "/dev'"
                + " && exec /usr/sbin/chroot --userspec=10001:10001 '" + root + "'" + entry + " --roles devnet";
        List<String> cmd = List.of("/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script);
        pb.command(cmd).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.clear();
        config.path("config").path("Env").forEach(e -> {
            String[] kv = e.asText().split("=", 2);
            env.put(kv[0], kv[1]);
        });
        env.putAll(Map.of(
                "WEFT_DEVNET_RPC_PORT",
                String.valueOf(rpc),
                "WEFT_DEVNET_REST_PORT",
                "0",
                "WEFT_DEVNET_JSON_RPC_PORT",
                "0",
                "WEFT_DEVNET_CHAINS",
                "{}",
                "WEFT_DEVNET_MODE",
                "history",
                "WEFT_DEVNET_HISTORY_BLOCKS",
                "3",
                "WEFT_DEVNET_STATE_FILE",
                ""));
        // chroot starts in the image's / (not its WorkingDir /app): the node then falls back to the configuration
        // bundled
        // in its classes, which is what this checks; relative paths under /app are checked by imageLayers
        Process p = pb.start();
        StringBuilder log = new StringBuilder();
        try {
            // the start-up banner names the devnet's RPC URL once the node is up (or the process ends with its error)
            CompletableFuture<Boolean> up = CompletableFuture.supplyAsync(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        log.append(line).append('\n');
                        if (line.contains("rpc http://127.0.0.1:" + rpc)) return true;
                    }
                    return false;
                } catch (IOException e) {
                    return false;
                }
            });
            assertTrue(up.get(120, TimeUnit.SECONDS), "the image did not start its devnet; log:\n" + log);
            HttpClient http =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            var r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rpc + "/status"))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("\"latest_block_height\""), r.body());
        } finally {
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly();
        }
    }

    private static int indexOf(List<List<String>> contents, String prefix) {
        for (int i = 0; i < contents.size(); i++)
            if (contents.get(i).stream().anyMatch(p -> p.startsWith(prefix))) return i;
        throw new AssertionError("no layer has " + prefix);
    }

    /** Entry names of a gzipped layer tar (regular files only), read without unpacking. */
    private static List<String> list(Path layer) throws IOException {
        List<String> names = new ArrayList<>();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(layer), 1 << 16)) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512) {
                if (header[0] == 0) break;
                String name = field(header, 0, 100);
                String prefix = field(header, 345, 155);
                long size = Long.parseLong(
                        field(header, 124, 12).trim().isEmpty()
                                ? "0"
                                : field(header, 124, 12).trim(),
                        8);
                char type = (char) header[156];
                String full = (prefix.isEmpty() ? name : prefix + "/" + name)
                        .replaceFirst("^\\./", "")
                        .replaceFirst("^/", "");
                if (type == '0' || type == 0) names.add(full);
                in.skipNBytes((size + 511) / 512 * 512);
            }
        }
        return names;
    }

    private static String field(byte[] h, int off, int len) {
        int end = off;
        while (end < off + len && h[end] != 0) end++;
        return new String(h, off, end - off, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
    }
}
