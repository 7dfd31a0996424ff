package dev.weft.bench;

import dev.weft.config.ConfigSource;
import dev.weft.config.WeftConfig;
import dev.weft.devnet.config.DevnetConfig;
import dev.weft.devnet.evm.EthJson;
import dev.weft.devnet.gen.Block;
import dev.weft.devnet.gen.ChainSpec;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.gen.Tx;
import dev.weft.devnet.http.Json;
import dev.weft.devnet.rest.RestJson;
import dev.weft.devnet.rpc.BlockJson;
import dev.weft.devnet.rpc.CometJson;
import dev.weft.node.WeftNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the devnet can serve alone, for later benches to compare with: (1) CPU cost of generating a block and rendering
 * the four answers an indexer reads per block (/block, /block_results, REST /txs/block, eth_getBlockReceipts), in one
 * thread; (2) blocks/s and txs/s over real HTTP with a concurrent client fetching those four per height.
 * Usage: {@code bench/devnet.sh [blocks] [txs_per_block] [concurrency]}.
 */
public final class DevnetBench {
    private static final java.lang.management.ThreadMXBean CPU =
            java.lang.management.ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        int txs = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int concurrency = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        System.out.printf(
                "devnet bench: %d blocks of ~%d txs, %d heights in flight, %d cores%n",
                blocks, txs, concurrency, Runtime.getRuntime().availableProcessors());
        inProcess(Math.min(blocks, 2000), txs);
        if (concurrency > 0) overHttp(blocks, txs, concurrency);
    }

    private static WeftConfig config(int txs, long history) throws Exception {
        JsonObject json = new JsonObject(Files.readString(Path.of("conf/weft.json")));
        JsonObject d = json.getJsonObject("devnet");
        d.put("mode", "history")
                .put("history_blocks", history)
                .put("txs_per_block", txs)
                .put("genesis_time", "2025-06-01T00:00:00Z")
                .put("rpc_port", 0)
                .put("rest_port", 0)
                .put("json_rpc_port", 0)
                .put("state_file", "");
        json.getJsonObject("node").put("roles", new io.vertx.core.json.JsonArray().add("devnet"));
        json.put("log", new JsonObject().put("level", "warn"));
        return WeftConfig.from(ConfigSource.fileOnly(json));
    }

    /** Generation and rendering cost per block, single thread, no HTTP. */
    private static void inProcess(int blocks, int txs) throws Exception {
        WeftConfig c = config(txs, blocks + 10);
        DevnetConfig d = DevnetConfig.from(c.source());
        for (int round = 0; round < 2; round++) { // the first round warms the JIT up
            DevnetChain chain = new DevnetChain(ChainSpec.of(d, Instant.parse("2025-06-01T00:00:00Z")), blocks + 10);
            long gen = 0, render = 0, bytes = 0, txCount = 0;
            for (long h = 2; h < 2 + blocks; h++) {
                long t0 = CPU.getCurrentThreadCpuTime();
                Block b = chain.block(h);
                long t1 = CPU.getCurrentThreadCpuTime();
                bytes += Json.bytes(g -> CometJson.block(g, b, "weft-devnet-1")).length;
                bytes += Json.bytes(g -> CometJson.blockResults(g, b)).length;
                bytes += Json.bytes(g -> {
                            g.writeStartObject();
                            g.writeArrayFieldStart("txs");
                            for (Tx tx : b.txs) RestJson.tx(g, tx, false);
                            g.writeEndArray();
                            g.writeFieldName("block");
                            BlockJson.PROTO.block(g, b, "weft-devnet-1", null);
                            g.writeEndObject();
                        })
                        .length;
                bytes += Json.bytes(g -> {
                            g.writeStartArray();
                            for (int i = 0; i < b.evmTxs.size(); i++) EthJson.receipt(g, b, i);
                            g.writeEndArray();
                        })
                        .length;
                long t2 = CPU.getCurrentThreadCpuTime();
                gen += t1 - t0;
                render += t2 - t1;
                txCount += b.txs.size();
            }
            if (round == 1) {
                System.out.printf(
                        "in process (thread CPU time): %d blocks, %d txs: generate %.3f ms/block, render the 4 answers %.3f ms/block"
                                + " (%.0f KB/block) -> %.0f blocks/s, %.0f txs/s per core%n",
                        blocks,
                        txCount,
                        gen / 1e6 / blocks,
                        render / 1e6 / blocks,
                        bytes / 1024.0 / blocks,
                        blocks / ((gen + render) / 1e9),
                        txCount / ((gen + render) / 1e9));
            }
        }
    }

    /** The four answers per height over loopback HTTP, {@code concurrency} heights in flight. */
    private static void overHttp(int blocks, int txs, int concurrency) throws Exception {
        Vertx server = WeftNode.createVertx("127.0.0.1", null)
                .toCompletionStage()
                .toCompletableFuture()
                .get();
        WeftNode node = WeftNode.startOn(server, config(txs, blocks + 10), true)
                .toCompletionStage()
                .toCompletableFuture()
                .get(60, TimeUnit.SECONDS);
        int rpc = dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .generated()
                .rpcPort();
        int rest = dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .generated()
                .restPort();
        int evm = dev.weft.devnet.DevnetEndpoints.of(node.context().info())
                .generated()
                .jsonRpcPort();
        long[] serverThreads = CPU.getAllThreadIds(); // the server's event loops exist by now; the client's come later
        long serverCpu0 = threadsCpu(serverThreads);
        Vertx clientVertx = Vertx.vertx();
        HttpClient client = clientVertx.createHttpClient(
                new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(concurrency * 4));
        AtomicLong next = new AtomicLong(2);
        AtomicLong txCount = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        long last = 1 + blocks;
        CompletableFuture<Void> done = new CompletableFuture<>();
        AtomicLong running = new AtomicLong(concurrency);
        long t0 = System.nanoTime();
        long cpu0 = processCpu();
        for (int i = 0; i < concurrency; i++) {
            clientVertx.runOnContext(x -> fetchNext(client, next, last, rpc, rest, evm, txCount, bytes, running, done));
        }
        done.get(30, TimeUnit.MINUTES);
        double secs = (System.nanoTime() - t0) / 1e9;
        double health = healthBaseline(client, clientVertx, rpc, concurrency * 4, Math.max(2000, blocks * 4));
        double cpu = (processCpu() - cpu0) / 1e9;
        double serverCpu = (threadsCpu(serverThreads) - serverCpu0) / 1e9;
        System.out.printf(
                "over HTTP: %d blocks, %d txs in %.1f s -> %.0f blocks/s, %.0f txs/s (%.1f MB/s of JSON)%n",
                blocks, txCount.get(), secs, blocks / secs, txCount.get() / secs, bytes.get() / 1e6 / secs);
        System.out.printf(
                "  CPU: devnet threads %.2f ms per block (%.0f txs per CPU-second); whole process (client, GC, JIT too) %.2f ms per block%n",
                serverCpu * 1000 / blocks, txCount.get() / serverCpu, cpu * 1000 / blocks);
        System.out.printf(
                "  baseline, same client and server: %.0f /health requests/s at %d in flight -> one block's 4 answers cost %.1f /health round-trips%n",
                health, concurrency * 4, health / (4 * blocks / secs) * 4);
        clientVertx.close().toCompletionStage().toCompletableFuture().get();
        node.stop().toCompletionStage().toCompletableFuture().get();
    }

    /** Requests per second of CometBFT {@code /health} (an empty answer): what the HTTP path alone costs. */
    private static double healthBaseline(HttpClient client, Vertx vertx, int port, int inFlight, int total)
            throws Exception {
        AtomicLong left = new AtomicLong(total);
        AtomicLong running = new AtomicLong(inFlight);
        CompletableFuture<Void> done = new CompletableFuture<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < inFlight; i++) vertx.runOnContext(x -> health(client, port, left, running, done));
        done.get(10, TimeUnit.MINUTES);
        return total / ((System.nanoTime() - t0) / 1e9);
    }

    private static void health(
            HttpClient client, int port, AtomicLong left, AtomicLong running, CompletableFuture<Void> done) {
        if (left.getAndDecrement() <= 0) {
            if (running.decrementAndGet() == 0) done.complete(null);
            return;
        }
        get(client, port, "/health").onComplete(ar -> {
            if (ar.failed()) done.completeExceptionally(ar.cause());
            else health(client, port, left, running, done);
        });
    }

    private static long threadsCpu(long[] ids) {
        long sum = 0;
        for (long id : ids) sum += Math.max(0, CPU.getThreadCpuTime(id));
        return sum;
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void fetchNext(
            HttpClient client,
            AtomicLong next,
            long last,
            int rpc,
            int rest,
            int evm,
            AtomicLong txCount,
            AtomicLong bytes,
            AtomicLong running,
            CompletableFuture<Void> done) {
        long h = next.getAndIncrement();
        if (h > last) {
            if (running.decrementAndGet() == 0) done.complete(null);
            return;
        }
        Future<Buffer> block = get(client, rpc, "/block?height=" + h);
        Future<Buffer> results = get(client, rpc, "/block_results?height=" + h);
        Future<Buffer> restTxs = get(client, rest, "/cosmos/tx/v1beta1/txs/block/" + h + "?pagination.limit=100");
        Future<Buffer> receipts = post(
                client,
                evm,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_getBlockReceipts\",\"params\":[\"0x"
                        + Long.toHexString(h) + "\"]}");
        Future.all(block, results, restTxs, receipts).onComplete(ar -> {
            if (ar.failed()) {
                done.completeExceptionally(ar.cause());
                return;
            }
            bytes.addAndGet(block.result().length()
                    + results.result().length()
                    + restTxs.result().length()
                    + receipts.result().length());
            String tail = restTxs.result()
                    .getString(
                            Math.max(0, restTxs.result().length() - 64),
                            restTxs.result().length());
            txCount.addAndGet(
                    Long.parseLong(tail.substring(tail.lastIndexOf("\"total\":\"") + 9, tail.lastIndexOf('"'))));
            fetchNext(client, next, last, rpc, rest, evm, txCount, bytes, running, done);
        });
    }

    private static Future<Buffer> get(HttpClient client, int port, String uri) {
        return client.request(new RequestOptions()
                        .setMethod(HttpMethod.GET)
                        .setHost("127.0.0.1")
                        .setPort(port)
                        .setURI(uri))
                .compose(r -> r.send().compose(resp -> resp.body()));
    }

    private static Future<Buffer> post(HttpClient client, int port, String body) {
        return client.request(new RequestOptions()
                        .setMethod(HttpMethod.POST)
                        .setHost("127.0.0.1")
                        .setPort(port)
                        .setURI("/")
                        .putHeader("content-type", "application/json"))
                .compose(r -> r.send(body).compose(resp -> resp.body()));
    }
}
