package dev.weft.testsupport;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Headless Debian Chromium driven over the DevTools protocol (no npm, no driver): navigate, evaluate JavaScript,
 * take screenshots. The test support installs the {@code chromium} package with apt on first use when it is missing.
 */
public final class HeadlessChromium implements AutoCloseable {
  private static final Path BINARY = Path.of("/usr/bin/chromium");

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

  /** Installs Debian's chromium package if needed (root, apt), guarded by a lock against parallel test JVMs. */
  static synchronized void install() throws Exception {
    if (Files.isExecutable(BINARY)) return;
    Path lockFile = Path.of(System.getProperty("java.io.tmpdir"), "weft-chromium-install.lock");
    try (RandomAccessFile raf = new RandomAccessFile(lockFile.toFile(), "rw"); FileChannel ch = raf.getChannel(); FileLock lock = ch.lock()) {
      if (Files.isExecutable(BINARY)) return;
      Path log = Path.of("target/chromium-install.log").toAbsolutePath();
      Files.createDirectories(log.getParent());
      String cmd = "export DEBIAN_FRONTEND=noninteractive; apt-get install -y -q chromium || (apt-get update -q && apt-get install -y -q chromium)";
      Process p = new ProcessBuilder("bash", "-c", cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0 || !Files.isExecutable(BINARY)) {
        throw new IllegalStateException("installing Debian's chromium failed (needs root and apt); see " + log);
      }
    }
  }

  public static HeadlessChromium launch() throws Exception {
    install();
    Path profile = Files.createTempDirectory("weft-chromium");
    Process p = new ProcessBuilder(BINARY.toString(), "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=1280,800", "--remote-debugging-port=0",
        "--user-data-dir=" + profile, "about:blank")
        .redirectErrorStream(true).redirectOutput(profile.resolve("chromium.log").toFile()).start();
    Path portFile = profile.resolve("DevToolsActivePort");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(portFile) || Files.readAllLines(portFile).isEmpty()) {
      if (!p.isAlive() || System.nanoTime() > deadline) throw new IllegalStateException("chromium did not start; see " + profile.resolve("chromium.log"));
      Thread.sleep(50);
    }
    int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
    HttpClient http = HttpClient.newHttpClient();
    String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    String wsUrl = null;
    for (Object o : new JsonArray(list)) {
      JsonObject t = (JsonObject) o;
      if ("page".equals(t.getString("type"))) wsUrl = t.getString("webSocketDebuggerUrl");
    }
    if (wsUrl == null) throw new IllegalStateException("no page target in " + list);
    HeadlessChromium[] self = new HeadlessChromium[1];
    StringBuilder partial = new StringBuilder();
    WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create(wsUrl), new WebSocket.Listener() {
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
    }).get(30, TimeUnit.SECONDS);
    self[0] = new HeadlessChromium(p, profile, ws);
    return self[0];
  }

  /** One DevTools command; returns its {@code result} or throws with its error. */
  public JsonObject command(String method, JsonObject params) throws Exception {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonObject> f = new CompletableFuture<>();
    pending.put(id, f);
    socket.sendText(new JsonObject().put("id", id).put("method", method).put("params", params).encode(), true).get(30, TimeUnit.SECONDS);
    JsonObject msg = f.get(60, TimeUnit.SECONDS);
    if (msg.containsKey("error")) throw new IllegalStateException(method + ": " + msg.getJsonObject("error").encode());
    return msg.getJsonObject("result");
  }

  public void navigate(String url) throws Exception {
    command("Page.enable", new JsonObject());
    command("Page.navigate", new JsonObject().put("url", url));
  }

  /** Evaluates a JavaScript expression in the page and returns its JSON value. */
  public Object eval(String expression) throws Exception {
    JsonObject r = command("Runtime.evaluate", new JsonObject().put("expression", expression).put("returnByValue", true));
    return r.getJsonObject("result").getValue("value");
  }

  /** Polls an expression until it is truthy (or fails after the deadline) and returns its last value. */
  public Object waitFor(String expression, long seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Object v = null;
    while (System.nanoTime() < deadline) {
      try {
        v = eval(expression);
      } catch (IllegalStateException e) {
        v = null; // the page may be between documents
      }
      if (v != null && !Boolean.FALSE.equals(v) && !"".equals(v) && !(v instanceof Number n && n.doubleValue() == 0)) return v;
      Thread.sleep(50);
    }
    throw new AssertionError("timed out waiting for " + expression + " (last value " + v + ")");
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
      if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
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
