package dev.weft.testsupport;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A headless Chromium (chrome-headless-shell from npm {@code @sparticuz/chromium}, fetched and unpacked into
 * {@code .tools/npm/browser} by {@code tools/fetch.sh}) driven over the DevTools protocol: navigate, evaluate
 * JavaScript, take screenshots. It needs only libc from the system: its NSS/NSPR libraries come from the toolset.
 */
public final class HeadlessChromium implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on ws://127\\.0\\.0\\.1:(\\d+)/");

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();

    private HeadlessChromium(Process process, Path profile, WebSocket socket) {
        this.process = process;
        this.profile = profile;
        this.socket = socket;
    }

    public static HeadlessChromium launch() throws Exception {
        Path binary = Toolsets.file("browser", "chromium/chromium");
        Path profile = Files.createTempDirectory("weft-chromium");
        ProcessBuilder pb = new ProcessBuilder(
                        binary.toString(),
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-quic",
                        "--no-first-run",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--disable-dev-shm-usage",
                        "--hide-scrollbars",
                        "--window-size=1280,800",
                        "--remote-debugging-port=0",
                        "--user-data-dir=" + profile,
                        "about:blank")
                .redirectErrorStream(true);
        pb.environment().put("LD_LIBRARY_PATH", binary.resolveSibling("lib").toString());
        pb.environment().put("FONTCONFIG_PATH", binary.resolveSibling("fonts").toString());
        pb.environment().put("HOME", profile.toString());
        Process p = pb.start();
        Path log = profile.resolve("chromium.log");
        int port;
        try {
            String listening = ProcessOutput.follow(
                            p, log, l -> LISTENING.matcher(l).find())
                    .get(60, TimeUnit.SECONDS);
            Matcher m = LISTENING.matcher(listening);
            port = m.find() ? Integer.parseInt(m.group(1)) : 0;
        } catch (ExecutionException | TimeoutException e) {
            p.destroyForcibly();
            throw new IllegalStateException("chromium did not start; see " + log, e);
        }
        HttpClient http = HttpClient.newHttpClient();
        String list = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        String wsUrl = null;
        for (Object o : new JsonArray(list)) {
            JsonObject t = (JsonObject) o;
            if ("page".equals(t.getString("type"))) wsUrl = t.getString("webSocketDebuggerUrl");
        }
        if (wsUrl == null) throw new IllegalStateException("no page target in " + list);
        HeadlessChromium[] self = new HeadlessChromium[1];
        StringBuilder partial = new StringBuilder();
        WebSocket ws = http.newWebSocketBuilder()
                .buildAsync(URI.create(wsUrl), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                        partial.append(data);
                        if (last) {
                            JsonObject msg = new JsonObject(partial.toString());
                            partial.setLength(0);
                            if (msg.containsKey("id") && self[0] != null) {
                                CompletableFuture<JsonObject> f = self[0].pending.remove(msg.getInteger("id"));
                                if (f != null) f.complete(msg);
                            }
                        }
                        w.request(1);
                        return null;
                    }
                })
                .get(30, TimeUnit.SECONDS);
        self[0] = new HeadlessChromium(p, profile, ws);
        return self[0];
    }

    /** One DevTools command; returns its {@code result} or throws with its error. */
    public JsonObject command(String method, JsonObject params) throws Exception {
        return command(method, params, 60);
    }

    private JsonObject command(String method, JsonObject params, long seconds) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonObject> f = new CompletableFuture<>();
        pending.put(id, f);
        socket.sendText(
                        new JsonObject()
                                .put("id", id)
                                .put("method", method)
                                .put("params", params)
                                .encode(),
                        true)
                .get(30, TimeUnit.SECONDS);
        JsonObject msg;
        try {
            msg = f.get(seconds, TimeUnit.SECONDS);
        } finally {
            pending.remove(id);
        }
        if (msg.containsKey("error"))
            throw new IllegalStateException(
                    method + ": " + msg.getJsonObject("error").encode());
        return msg.getJsonObject("result");
    }

    public void navigate(String url) throws Exception {
        command("Page.enable", new JsonObject());
        command("Page.navigate", new JsonObject().put("url", url));
    }

    /** Evaluates a JavaScript expression in the page and returns its JSON value. */
    public Object eval(String expression) throws Exception {
        JsonObject r = command(
                "Runtime.evaluate",
                new JsonObject().put("expression", expression).put("returnByValue", true));
        return r.getJsonObject("result").getValue("value");
    }

    /**
     * Waits until {@code expression} is truthy in the page and returns its value: the page itself re-checks it every
     * 20 ms and resolves a promise that the DevTools call awaits. A navigation that replaces the
     * document while waiting rejects the promise; the wait then starts again in the new document.
     */
    public Object waitFor(String expression, long seconds) throws Exception {
        String awaitTruthy = "new Promise(resolve => { const check = () => { let v; try { v = (" + expression
                + "); } catch (e) { v = undefined; } "
                + "if (v) resolve(v); else setTimeout(check, 20); }; check(); })";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        IllegalStateException last = null;
        while (System.nanoTime() < deadline) {
            long left = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()));
            try {
                JsonObject r = command(
                        "Runtime.evaluate",
                        new JsonObject()
                                .put("expression", awaitTruthy)
                                .put("awaitPromise", true)
                                .put("returnByValue", true),
                        left);
                if (r.containsKey("exceptionDetails"))
                    throw new AssertionError("cannot evaluate " + expression + ": "
                            + r.getJsonObject("exceptionDetails").encode());
                return r.getJsonObject("result").getValue("value");
            } catch (IllegalStateException e) {
                last = e; // the document was replaced (navigation): evaluate again in the new one
            } catch (TimeoutException e) {
                break;
            }
        }
        throw new AssertionError("timed out waiting for " + expression, last);
    }

    /** A PNG screenshot of the viewport written to {@code file}. */
    public Path screenshot(Path file) throws Exception {
        JsonObject r = command("Page.captureScreenshot", new JsonObject().put("format", "png"));
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, Base64.getDecoder().decode(r.getString("data")));
        return file;
    }

    @Override
    public void close() {
        socket.abort();
        java.util.List<ProcessHandle> helpers = process.descendants().toList(); // renderer, GPU, zygote processes
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS))
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            for (ProcessHandle h : helpers) {
                h.destroyForcibly();
                h.onExit().get(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // a helper that does not exit in time: the profile is removed as far as it can be
        }
        TestDatabase.deleteTree(profile);
    }
}
