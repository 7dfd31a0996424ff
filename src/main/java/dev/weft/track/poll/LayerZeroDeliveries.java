package dev.weft.track.poll;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.chain.LayerZero;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.config.TrackConfig;
import dev.weft.model.track.ObservedTx;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Finds the deliveries of LayerZero messages on their destination chains: per poll cycle and chain, the head
 * ({@code eth_blockNumber}) and the {@code OFTReceived(bytes32 indexed guid, uint32 srcEid, address indexed toAddress,
 * uint256 amountReceivedLD)} logs (LayerZero-Labs/devtools {@code IOFT.sol}) of the lanes' destination OFTs in the
 * blocks since the last cycle ({@code eth_getLogs} by address and topic, at most {@code track.max_blocks_per_poll}
 * blocks a request), matched locally against the guids waited for: the requests grow with the blocks, never with the
 * transfers. A chain is read from {@code track.lookback_blocks} blocks below its head when it starts being followed,
 * and again that far back (once) in a cycle where new guids are waited for, since a delivery may precede the tracker's
 * sight of its send. Then one {@code eth_getBlockByNumber} batch gives the matched blocks' times.
 */
public final class LayerZeroDeliveries {
    private final Function<String, List<String>> contracts;
    private final int range;
    private final int lookback;
    private final EvmClients clients;
    /** Per chain: the next block to read, and the guids waited for at the last cycle. */
    private final Map<String, Long> next = new HashMap<>();

    private final Map<String, Set<String>> known = new HashMap<>();

    /**
     * @param urls      a chain id's JSON-RPC URLs, empty when none is known
     * @param contracts the destination OFT contracts on a chain
     */
    public LayerZeroDeliveries(
            Vertx vertx,
            Function<String, List<String>> urls,
            Function<String, List<String>> contracts,
            TrackConfig config) {
        this.contracts = contracts;
        this.clients = new EvmClients(vertx, urls, RpcClients.options(config, config.maxInFlight()));
        this.range = Math.max(1, config.maxBlocksPerPoll());
        this.lookback = Math.max(1, config.lookbackBlocks());
    }

    public boolean reachable(String chainId) {
        return clients.client(chainId) != null && !contracts.apply(chainId).isEmpty();
    }

    /** Stops following chains where nothing is waited for any more (a later wait starts afresh). */
    public void retain(Set<String> chains) {
        next.keySet().retainAll(chains);
        known.keySet().retainAll(chains);
    }

    /** The txs delivering any of {@code guids} on {@code chainId} in the blocks read this cycle. */
    public Future<List<ObservedTx>> poll(String chainId, Set<String> guids) {
        EvmRpcClient c = clients.client(chainId);
        if (c == null || guids.isEmpty()) return Future.succeededFuture(List.of());
        Set<String> before = known.getOrDefault(chainId, Set.of());
        boolean fresh = !before.containsAll(guids);
        return c.blockNumber().compose(head -> {
            Long cursor = next.get(chainId);
            long from, to;
            if (cursor == null) { // first read: the recent blocks
                from = Math.max(1, head + 1 - lookback);
                to = head;
            } else {
                from = fresh
                        ? Math.max(1, cursor - lookback)
                        : cursor; // new guids: their deliveries may be behind the cursor
                to = Math.min(head, cursor + range - 1);
            }
            List<Future<JsonNode>> reads = new ArrayList<>();
            for (long a = from; a <= to; a += range)
                reads.add(c.call("eth_getLogs", EvmRpcClient.params(filter(chainId, a, Math.min(to, a + range - 1)))));
            long end = to;
            return Future.all(reads).compose(all -> {
                List<JsonNode> matched = new ArrayList<>();
                for (Future<JsonNode> f : reads) for (JsonNode l : f.result()) if (matches(l, guids)) matched.add(l);
                TreeSet<Long> blocks = new TreeSet<>();
                matched.forEach(l ->
                        blocks.add(EvmReceipts.quantity(l.path("blockNumber").asText())));
                return EvmReceipts.blockTimes(c, List.copyOf(blocks)).map(times -> {
                    next.put(chainId, Math.max(end + 1, cursor == null ? 0 : cursor));
                    known.put(chainId, Set.copyOf(guids));
                    List<ObservedTx> out = new ArrayList<>();
                    for (JsonNode l : matched) {
                        long h = EvmReceipts.quantity(l.path("blockNumber").asText());
                        out.add(observed(chainId, l, h, times.getOrDefault(h, 0L)));
                    }
                    return out;
                });
            });
        });
    }

    private ObjectNode filter(String chainId, long from, long to) {
        ObjectNode o = JsonNodeFactory.instance
                .objectNode()
                .put("fromBlock", EvmRpcClient.quantity(from))
                .put("toBlock", EvmRpcClient.quantity(to));
        contracts.apply(chainId).forEach(o.putArray("address")::add);
        o.putArray("topics").add(LayerZero.OFT_RECEIVED_TOPIC);
        return o;
    }

    private static boolean matches(JsonNode log, Set<String> guids) {
        JsonNode t = log.path("topics");
        return !log.path("removed").asBoolean(false)
                && t.size() == 3
                && LayerZero.OFT_RECEIVED_TOPIC.equalsIgnoreCase(t.get(0).asText())
                && guids.contains(t.get(1).asText().toLowerCase(Locale.ROOT))
                && EvmReceipts.strip(log.path("data").asText()).length() >= 128;
    }

    static ObservedTx observed(String chainId, JsonNode log, long height, long timeNanos) {
        JsonNode topics = log.path("topics");
        String data = EvmReceipts.strip(log.path("data").asText());
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("contract", log.path("address").asText().toLowerCase(Locale.ROOT));
        attrs.put("guid", topics.get(1).asText().toLowerCase(Locale.ROOT));
        attrs.put(
                "to",
                "0x" + EvmReceipts.strip(topics.get(2).asText()).substring(24).toLowerCase(Locale.ROOT));
        attrs.put("src_eid", new BigInteger(data.substring(0, 64), 16).toString());
        attrs.put("amount_received", new BigInteger(data.substring(64, 128), 16).toString());
        String hash = log.path("transactionHash").asText().toLowerCase(Locale.ROOT);
        return new ObservedTx(
                chainId,
                hash,
                height,
                timeNanos,
                0,
                "",
                List.of(new ObservedTx.Event(
                        EvmReceipts.OFT_RECEIVED,
                        attrs,
                        Long.toString(EvmReceipts.quantity(log.path("logIndex").asText())))));
    }

    public Future<Void> close() {
        return clients.close();
    }
}
