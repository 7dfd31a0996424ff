package dev.weft.testsupport;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real Anvil EVM node for tests: installs {@code @foundry-rs/anvil-linux-amd64} and {@code solc} from npm into the
 * project's {@code .tools/anvil} on first use (nothing installed by hand), starts Anvil on a free loopback port,
 * compiles the test contracts with solc-js, and talks JSON-RPC to it. {@link #close()} stops the process.
 */
public final class AnvilNode implements AutoCloseable {
  public static final String ANVIL_VERSION = "1.7.1";
  public static final String SOLC_VERSION = "0.8.37";
  /** Anvil's first default account (unlocked, 10 000 ETH). */
  public static final String ACCOUNT0 = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
  public static final String ACCOUNT1 = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
  public static final String ACCOUNT2 = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
  public static final String ACCOUNT3 = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";

  private static final Path TOOLS = Path.of(".tools/anvil").toAbsolutePath();
  private final Process process;
  private final int port;
  private final HttpClient http = HttpClient.newHttpClient();
  private final AtomicLong ids = new AtomicLong();

  private AnvilNode(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  public static AnvilNode start() throws Exception {
    Path anvil = install();
    int port = Ports.free();
    Process p = new ProcessBuilder(anvil.toString(), "--host", "127.0.0.1", "--port", Integer.toString(port),
        "--chain-id", "31337", "--timestamp", "1700000000")
        .redirectErrorStream(true).redirectOutput(TOOLS.resolve("anvil-" + port + ".log").toFile()).start();
    AnvilNode node = new AnvilNode(p, port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        node.rpc("eth_chainId", new JsonArray());
        return node;
      } catch (IOException e) {
        if (!p.isAlive() || System.nanoTime() > deadline) {
          node.close();
          throw new IllegalStateException("anvil did not start; see " + TOOLS.resolve("anvil-" + port + ".log"), e);
        }
        Thread.sleep(50);
      }
    }
  }

  /** Installs the npm packages once per checkout (guarded by a file lock against parallel test JVMs). */
  static synchronized Path install() throws Exception {
    Files.createDirectories(TOOLS);
    Path anvil = TOOLS.resolve("node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");
    Path solc = TOOLS.resolve("node_modules/solc/package.json");
    try (RandomAccessFile raf = new RandomAccessFile(TOOLS.resolve(".lock").toFile(), "rw");
         FileChannel ch = raf.getChannel(); FileLock lock = ch.lock()) {
      if (Files.isExecutable(anvil) && Files.exists(solc)) return anvil;
      Process npm = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix", TOOLS.toString(),
          "@foundry-rs/anvil-linux-amd64@" + ANVIL_VERSION, "solc@" + SOLC_VERSION)
          .redirectErrorStream(true).redirectOutput(TOOLS.resolve("npm-install.log").toFile()).start();
      if (!npm.waitFor(300, TimeUnit.SECONDS) || npm.exitValue() != 0) {
        throw new IllegalStateException("npm install of anvil/solc failed; see " + TOOLS.resolve("npm-install.log"));
      }
      return anvil;
    }
  }

  /** Compiles {@code src/test/resources/anvil/contracts} with solc-js: {name: {bytecode, abi}}. */
  public static JsonObject compileContracts() throws Exception {
    install();
    Path script = Path.of("src/test/resources/anvil/compile.js").toAbsolutePath();
    ProcessBuilder pb = new ProcessBuilder("node", script.toString(), Path.of("src/test/resources/anvil/contracts").toAbsolutePath().toString());
    pb.environment().put("NODE_PATH", TOOLS.resolve("node_modules").toString());
    Path out = Files.createTempFile("solc", ".json");
    Process p = pb.redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IllegalStateException("solc-js compilation failed");
    JsonObject result = new JsonObject(Files.readString(out));
    Files.delete(out);
    return result;
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  /** One JSON-RPC call; returns {@code result} or throws with the node's error. */
  public Object rpc(String method, JsonArray params) throws IOException, InterruptedException {
    JsonObject req = new JsonObject().put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", method).put("params", params);
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url())).timeout(Duration.ofSeconds(60))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(req.encode(), StandardCharsets.UTF_8)).build(),
        HttpResponse.BodyHandlers.ofString());
    JsonObject body = new JsonObject(r.body());
    if (body.containsKey("error")) throw new IllegalStateException(method + ": " + body.getJsonObject("error").encode());
    return body.getValue("result");
  }

  /** Sends a tx from an unlocked account; returns its hash (mined at once unless automine is off). */
  public String send(String from, String to, String data, String valueHex) throws Exception {
    return send(from, to, data, valueHex, 30_000_000);
  }

  /** {@link #send} with a gas limit (several txs fit in one block only if their limits do). */
  public String send(String from, String to, String data, String valueHex, long gas) throws Exception {
    JsonObject tx = new JsonObject().put("from", from).put("data", data).put("gas", "0x" + Long.toHexString(gas));
    if (to != null) tx.put("to", to);
    if (valueHex != null) tx.put("value", valueHex);
    return (String) rpc("eth_sendTransaction", new JsonArray().add(tx));
  }

  /** The receipt of a mined tx, polled until the node has it (automine mines asynchronously). */
  public JsonObject receipt(String txHash) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      Object r = rpc("eth_getTransactionReceipt", new JsonArray().add(txHash));
      if (r instanceof JsonObject receipt) return receipt;
      if (System.nanoTime() > deadline) throw new IllegalStateException("no receipt for " + txHash);
      Thread.sleep(20);
    }
  }

  /** Deploys bytecode (+ ABI-encoded constructor arguments, hex without 0x) and returns the contract address. */
  public String deploy(String bytecode, String ctorArgs) throws Exception {
    String hash = send(ACCOUNT0, null, bytecode + (ctorArgs == null ? "" : ctorArgs), null);
    return receipt(hash).getString("contractAddress");
  }

  /** Mines the pending txs into one block (with automine off) and returns its number. */
  public long mineBlock(List<String> expectedTxs) throws Exception {
    rpc("evm_mine", new JsonArray());
    return Long.decode((String) rpc("eth_blockNumber", new JsonArray()));
  }

  public void automine(boolean on) throws Exception {
    rpc("evm_setAutomine", new JsonArray().add(on));
  }

  public long blockNumber() throws Exception {
    return Long.decode((String) rpc("eth_blockNumber", new JsonArray()));
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
