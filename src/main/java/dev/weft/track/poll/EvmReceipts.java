package dev.weft.track.poll;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.chain.LayerZero;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.config.TrackConfig;
import dev.weft.model.track.ObservedTx;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Finds tracked txs of an EVM chain by their receipts: per poll cycle one JSON-RPC batch of
 * {@code eth_getTransactionReceipt} for the chain's unseen hashes (at most {@link #BATCH} a request), then one batch of
 * {@code eth_getBlockByNumber} for the blocks they were mined in (their times). A receipt becomes an {@link ObservedTx}:
 * code 0 for {@code status 0x1}, 1 for a reverted tx, and one {@value #OFT_SENT} event per LayerZero OFT
 * {@code OFTSent(bytes32 indexed guid, uint32 dstEid, address indexed fromAddress, uint256 amountSentLD,
 * uint256 amountReceivedLD)} log (LayerZero-Labs/devtools, {@code IOFT.sol}), with the emitting contract. A hash
 * without a receipt is not mined yet.
 */
public final class EvmReceipts {
    /** The event type an {@code OFTSent} log becomes. */
    public static final String OFT_SENT = "oft_sent";
    /** The event type an {@code OFTReceived} log of a destination OFT becomes ({@link LayerZeroDeliveries}). */
    public static final String OFT_RECEIVED = "oft_received";

    static final String OFT_SENT_TOPIC = LayerZero.OFT_SENT_TOPIC;
    /** Receipts (and blocks) asked in one batch request at most. */
    static final int BATCH = 100;

    static final String REVERTED = "execution reverted (receipt status 0x0)";

    private final EvmClients clients;

    /** {@code urls}: a chain id's JSON-RPC URLs, empty when none is known. */
    public EvmReceipts(Vertx vertx, Function<String, List<String>> urls, TrackConfig config) {
        this.clients = new EvmClients(vertx, urls, RpcClients.options(config, config.maxInFlight()));
    }

    /** Whether a JSON-RPC URL is known for the chain. */
    public boolean reachable(String chainId) {
        return clients.client(chainId) != null;
    }

    /**
     * On a Cosmos chain with an EVM (a minievm rollup): which of {@code hashes} (upper-case hex, as the tracker keeps
     * them) are EVM tx hashes, and the Cosmos hash of each (upper-case), by minievm's {@code cosmos_cosmosTxHashByTxHash}
     * (the zero hash for an unknown or not yet indexed tx: left out). One batch per {@link #BATCH} hashes.
     */
    public Future<Map<String, String>> cosmosHashes(String chainId, List<String> hashes) {
        EvmRpcClient c = clients.client(chainId);
        if (c == null || hashes.isEmpty()) return Future.succeededFuture(Map.of());
        List<Future<List<EvmRpcClient.Result>>> parts = new ArrayList<>();
        for (int i = 0; i < hashes.size(); i += BATCH) {
            List<EvmRpcClient.Request> reqs = new ArrayList<>();
            for (String h : hashes.subList(i, Math.min(hashes.size(), i + BATCH))) {
                reqs.add(EvmRpcClient.Request.of("cosmos_cosmosTxHashByTxHash", "0x" + h.toLowerCase(Locale.ROOT)));
            }
            parts.add(c.batch(reqs));
        }
        return Future.all(parts).map(all -> {
            Map<String, String> out = new LinkedHashMap<>();
            int i = 0;
            for (Future<List<EvmRpcClient.Result>> p : parts) {
                for (EvmRpcClient.Result r : p.result()) {
                    String h = hashes.get(i++);
                    String cosmos =
                            r.ok() && r.result() != null ? strip(r.result().asText("")) : "";
                    if (cosmos.length() == 64 && !cosmos.chars().allMatch(ch -> ch == '0'))
                        out.put(h, cosmos.toUpperCase(Locale.ROOT));
                }
            }
            return out;
        });
    }

    /** The mined txs among {@code hashes} ({@code 0x} lower-case) on an EVM chain. */
    public Future<List<ObservedTx>> find(String chainId, List<String> hashes) {
        EvmRpcClient c = clients.client(chainId);
        if (c == null || hashes.isEmpty()) return Future.succeededFuture(List.of());
        List<Future<List<EvmRpcClient.Result>>> parts = new ArrayList<>();
        for (int i = 0; i < hashes.size(); i += BATCH) {
            List<EvmRpcClient.Request> reqs = new ArrayList<>();
            for (String h : hashes.subList(i, Math.min(hashes.size(), i + BATCH)))
                reqs.add(EvmRpcClient.Request.of("eth_getTransactionReceipt", h));
            parts.add(c.batch(reqs));
        }
        return Future.all(parts).compose(all -> {
            List<JsonNode> receipts = new ArrayList<>();
            for (Future<List<EvmRpcClient.Result>> p : parts) {
                for (EvmRpcClient.Result r : p.result())
                    if (r.ok() && r.result() != null && r.result().isObject()) receipts.add(r.result());
            }
            TreeSet<Long> blocks = new TreeSet<>();
            receipts.forEach(r -> blocks.add(quantity(r.path("blockNumber").asText())));
            return blockTimes(c, List.copyOf(blocks)).map(times -> {
                List<ObservedTx> out = new ArrayList<>();
                for (JsonNode r : receipts) {
                    long height = quantity(r.path("blockNumber").asText());
                    out.add(observed(chainId, r, height, times.getOrDefault(height, 0L)));
                }
                return out;
            });
        });
    }

    /** Block number → block time (ns). */
    static Future<Map<Long, Long>> blockTimes(EvmRpcClient c, List<Long> heights) {
        List<Future<List<EvmRpcClient.Result>>> parts = new ArrayList<>();
        for (int i = 0; i < heights.size(); i += BATCH) {
            List<EvmRpcClient.Request> reqs = new ArrayList<>();
            for (long h : heights.subList(i, Math.min(heights.size(), i + BATCH)))
                reqs.add(EvmRpcClient.Request.of("eth_getBlockByNumber", EvmRpcClient.quantity(h), false));
            parts.add(c.batch(reqs));
        }
        return Future.all(parts).map(all -> {
            Map<Long, Long> times = new LinkedHashMap<>();
            int i = 0;
            for (Future<List<EvmRpcClient.Result>> p : parts) {
                for (EvmRpcClient.Result r : p.result()) {
                    long h = heights.get(i++);
                    if (r.ok() && r.result() != null && r.result().isObject())
                        times.put(h, quantity(r.result().path("timestamp").asText()) * 1_000_000_000L);
                }
            }
            return times;
        });
    }

    static ObservedTx observed(String chainId, JsonNode receipt, long height, long timeNanos) {
        boolean success = quantity(receipt.path("status").asText("0x1")) == 1;
        List<ObservedTx.Event> events = new ArrayList<>();
        if (success) {
            for (JsonNode log : receipt.path("logs")) {
                JsonNode topics = log.path("topics");
                if (topics.size() != 3
                        || !OFT_SENT_TOPIC.equalsIgnoreCase(topics.get(0).asText())) continue;
                String data = strip(log.path("data").asText());
                if (data.length() < 3 * 64) continue;
                Map<String, String> attrs = new LinkedHashMap<>();
                attrs.put("contract", log.path("address").asText().toLowerCase(Locale.ROOT));
                attrs.put("guid", topics.get(1).asText().toLowerCase(Locale.ROOT));
                attrs.put(
                        "from",
                        "0x" + strip(topics.get(2).asText()).substring(24).toLowerCase(Locale.ROOT));
                attrs.put("dst_eid", new BigInteger(data.substring(0, 64), 16).toString());
                attrs.put("amount_sent", new BigInteger(data.substring(64, 128), 16).toString());
                attrs.put("amount_received", new BigInteger(data.substring(128, 192), 16).toString());
                events.add(new ObservedTx.Event(
                        OFT_SENT,
                        attrs,
                        Long.toString(quantity(log.path("logIndex").asText()))));
            }
        }
        String hash = receipt.path("transactionHash").asText().toLowerCase(Locale.ROOT);
        return new ObservedTx(chainId, hash, height, timeNanos, success ? 0 : 1, success ? "" : REVERTED, events);
    }

    static String strip(String hex) {
        return hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex;
    }

    static long quantity(String hex) {
        String h = strip(hex == null ? "" : hex);
        return h.isEmpty() ? 0 : new BigInteger(h, 16).longValueExact();
    }

    public Future<Void> close() {
        return clients.close();
    }
}
