package dev.weft.testsupport;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real Anvil EVM node for tests, from the {@code anvil} toolset ({@code @foundry-rs/anvil-linux-amd64} and
 * {@code solc}, pinned in {@code tools/npm/anvil} and fetched by {@code tools/fetch.sh}): starts Anvil on a free
 * loopback port, compiles the test contracts with solc-js, and talks JSON-RPC to it. {@link #close()} stops it.
 */
public final class AnvilNode implements AutoCloseable {
    /** Anvil's first default account (unlocked, 10 000 ETH). */
    public static final String ACCOUNT0 = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";

    public static final String ACCOUNT1 = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
    public static final String ACCOUNT2 = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
    public static final String ACCOUNT3 = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";

    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicLong ids = new AtomicLong();

    private AnvilNode(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts Anvil and returns once it prints that it listens (its log is {@code target/anvil-<port>.log}). */
    public static AnvilNode start() throws Exception {
        Path anvil = Toolsets.file("anvil", "node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");
        int port = Ports.free();
        Path log = Path.of("target/anvil-" + port + ".log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(
                        anvil.toString(),
                        "--host",
                        "127.0.0.1",
                        "--port",
                        Integer.toString(port),
                        "--chain-id",
                        "31337",
                        "--timestamp",
                        "1700000000")
                .redirectErrorStream(true)
                .start();
        CompletableFuture<String> listening =
                ProcessOutput.follow(p, log, l -> l.contains("Listening on 127.0.0.1:" + port));
        AnvilNode node = new AnvilNode(p, port);
        try {
            listening.get(30, TimeUnit.SECONDS);
            return node;
        } catch (ExecutionException | TimeoutException e) {
            node.close();
            throw new IllegalStateException("anvil did not start; see " + log, e);
        }
    }

    /** Compiles {@code src/test/resources/anvil/contracts} with solc-js: {name: {bytecode, abi}}. */
    public static JsonObject compileContracts() throws Exception {
        Path modules = Toolsets.file("anvil", "node_modules/solc/package.json")
                .getParent()
                .getParent();
        Path script = Path.of("src/test/resources/anvil/compile.js").toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder(
                "node",
                script.toString(),
                Path.of("src/test/resources/anvil/contracts").toAbsolutePath().toString());
        pb.environment().put("NODE_PATH", modules.toString());
        Path out = Files.createTempFile("solc", ".json");
        Process p = pb.redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0)
            throw new IllegalStateException("solc-js compilation failed");
        JsonObject result = new JsonObject(Files.readString(out));
        Files.delete(out);
        return result;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** One JSON-RPC call; returns {@code result} or throws with the node's error. */
    public Object rpc(String method, JsonArray params) throws IOException, InterruptedException {
        JsonObject req = new JsonObject()
                .put("jsonrpc", "2.0")
                .put("id", ids.incrementAndGet())
                .put("method", method)
                .put("params", params);
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(url()))
                        .timeout(Duration.ofSeconds(60))
                        .header("content-type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(req.encode(), StandardCharsets.UTF_8))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        JsonObject body = new JsonObject(r.body());
        if (body.containsKey("error"))
            throw new IllegalStateException(
                    method + ": " + body.getJsonObject("error").encode());
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

    /** The receipt of a mined tx (automine mines asynchronously after {@code eth_sendTransaction} answers). */
    public JsonObject receipt(String txHash) {
        return Await.value(
                "the receipt of " + txHash,
                30,
                () -> rpc("eth_getTransactionReceipt", new JsonArray().add(txHash)) instanceof JsonObject r ? r : null);
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
            if (!process.waitFor(10, TimeUnit.SECONDS))
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
