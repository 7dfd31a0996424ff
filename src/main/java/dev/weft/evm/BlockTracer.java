package dev.weft.evm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.Hex;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.chain.model.NodeJson;
import dev.weft.model.evm.InternalTx;
import dev.weft.model.evm.TracedBlock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The tracer's core: the internal txs of one height from JSON-RPC alone, so the devnet, a real minievm node and Anvil
 * take the same path. {@code debug_traceBlockByNumber} with the callTracer (long timeout) and
 * {@code eth_getBlockReceipts} are asked concurrently; the trace entries are paired with the receipts by tx hash, the
 * frames flattened ({@link CallFrames}) with the top frame's gasUsed taken from the receipt, and the API items
 * rendered, all on a worker thread.
 *
 * <p>Pairing (a failure is retried by the caller, never skipped): an entry with a top-level {@code error} and no
 * receipt is a Cosmos tx a minievm node cannot trace ("incorrect number of top-level calls"): skipped. A receipt whose
 * entry has a top-level error is skipped only if the tx failed (status 0x0: what rollytics#42 skips); for a successful
 * tx it is a trace failure. Every receipt needs its entry and every traced entry its receipt, and when ingestion
 * already counted the block's EVM txs, the receipts must be that many.
 */
public final class BlockTracer {
    public static final String TRACER = "callTracer";

    private final Vertx vertx;
    private final EvmRpcClient rpc;
    private final Duration traceTimeout;

    public BlockTracer(Vertx vertx, EvmRpcClient rpc, Duration traceTimeout) {
        this.vertx = vertx;
        this.rpc = rpc;
        this.traceTimeout = traceTimeout;
    }

    /**
     * @param expectedEvmTxs the block's EVM tx count as ingestion indexed it, or -1 when unknown (a plain EVM node)
     */
    public Future<TracedBlock> trace(long height, int expectedEvmTxs) {
        Future<JsonNode> traces = rpc.traceBlock(height, TRACER, traceTimeout);
        Future<List<JsonNode>> receipts = rpc.blockReceipts(height);
        return Future.all(traces, receipts)
                .compose(x -> vertx.executeBlocking(
                        () -> assemble(height, traces.result(), receipts.result(), expectedEvmTxs), false));
    }

    /** Pairs, flattens and renders one height (pure CPU work). Throws IllegalStateException on any mismatch. */
    public static TracedBlock assemble(long height, JsonNode traces, List<JsonNode> receipts, int expectedEvmTxs) {
        if (traces == null || traces.isNull()) throw new IllegalStateException("block " + height + ": no trace yet");
        if (!traces.isArray()) throw new IllegalStateException("block " + height + ": the trace is not an array");
        if (expectedEvmTxs >= 0 && receipts.size() != expectedEvmTxs) {
            throw new IllegalStateException("block " + height + ": the node has " + receipts.size()
                    + " receipts, ingestion indexed " + expectedEvmTxs + " EVM txs");
        }
        Map<String, JsonNode> byHash = new HashMap<>();
        for (JsonNode r : receipts) {
            String hash = hash(NodeJson.text(r, "transactionHash", null), height, "receipt");
            String number = NodeJson.text(r, "blockNumber", null);
            if (number != null && NodeJson.quantity(number) != height) {
                throw new IllegalStateException("block " + height + ": a receipt of block " + number + " was returned");
            }
            if (byHash.put(hash, r) != null)
                throw new IllegalStateException("block " + height + ": two receipts of tx " + hash);
        }
        List<TracedBlock.Row> rows = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int txs = 0;
        int skipped = 0;
        for (JsonNode entry : traces) {
            String hash = hash(NodeJson.text(entry, "txHash", null), height, "trace entry");
            if (!seen.add(hash))
                throw new IllegalStateException("block " + height + ": two trace entries of tx " + hash);
            JsonNode receipt = byHash.get(hash);
            String error = NodeJson.text(entry, "error", "");
            if (!error.isEmpty()) {
                if (receipt != null && !"0x0".equals(NodeJson.text(receipt, "status", null))) {
                    throw new IllegalStateException(
                            "block " + height + ": tx " + hash + " succeeded but its trace failed: " + error);
                }
                skipped++;
                continue;
            }
            if (receipt == null)
                throw new IllegalStateException("block " + height + ": tx " + hash + " was traced but has no receipt");
            JsonNode result = entry.get("result");
            if (result == null || !result.isObject())
                throw new IllegalStateException("block " + height + ": the trace of tx " + hash + " has no result");
            List<InternalTx> frames = CallFrames.flatten(result, NodeJson.text(receipt, "gasUsed", null));
            byte[] hashBytes = Hex.decode(hash);
            for (InternalTx f : frames) {
                checkAddress(f.from(), height, hash);
                checkAddress(f.to(), height, hash);
                rows.add(new TracedBlock.Row(hashBytes, f, InternalTxJson.render(height, hash, f)));
            }
            txs++;
        }
        for (String h : byHash.keySet()) {
            if (!seen.contains(h))
                throw new IllegalStateException("block " + height + ": tx " + h + " has a receipt but no trace entry");
        }
        return new TracedBlock(height, rows, txs, skipped);
    }

    private static String hash(String s, long height, String what) {
        if (!Hex.isHex(s, 32))
            throw new IllegalStateException("block " + height + ": a " + what + " has no valid tx hash (" + s + ")");
        return "0x" + Hex.strip(s).toLowerCase(Locale.ROOT);
    }

    private static void checkAddress(String a, long height, String hash) {
        if (!a.isEmpty() && !Hex.isHex(a, 20))
            throw new IllegalStateException("block " + height + ": tx " + hash + " has a frame address " + a);
    }
}
