package dev.weft.track.poll;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.chain.LayerZero;
import dev.weft.chain.client.EvmRpcClient;
import dev.weft.config.TrackConfig;
import dev.weft.model.track.ObservedTx;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Finds the LayerZero sends of watched accounts on EVM chains (which have no Cosmos scan): per poll cycle and chain, the
 * head ({@code eth_blockNumber}) and the {@code OFTSent} logs whose indexed {@code fromAddress} (the third topic) is a
 * watched account, in the blocks since the last cycle ({@code eth_getLogs} with an OR list of topics, as the JSON-RPC
 * spec's filter allows; at most {@code track.max_blocks_per_poll} blocks a request). A cycle with an account new to it
 * reads from the lowest block its sends may be in too: the chain's head when the account was watched ({@code POST
 * /v2/watch} records it), else {@code track.lookback_blocks} below the head, never further back than that look back.
 * The read position is durable ({@code track_evm_cursor}, saved by the tracker with the txs it registered:
 * {@link #unsaved}), so a restarted tracker goes on from where the last one stopped, however long it was down, a
 * bounded range a cycle. Each log becomes an {@code oft_sent} tx carrying only its sender, for {@code AddressWatcher}
 * to register the tx hash; the tracker then reads its receipt as for any tracked EVM tx.
 */
public final class LayerZeroSends {
    private final int range;
    private final int lookback;
    private final EvmClients clients;
    /** Per chain: the next block to read. */
    private final Map<String, Long> next = new HashMap<>();
    /** Per chain: the next block to read as last saved (what {@link #unsaved} compares with). */
    private final Map<String, Long> saved = new HashMap<>();
    /** Per chain: the accounts looked for at the last cycle. */
    private final Map<String, Set<String>> known = new HashMap<>();

    public LayerZeroSends(Vertx vertx, Function<String, List<String>> urls, TrackConfig config) {
        this.clients = new EvmClients(vertx, urls, RpcClients.options(config, config.maxInFlight()));
        this.range = Math.max(1, config.maxBlocksPerPoll());
        this.lookback = Math.max(1, config.lookbackBlocks());
    }

    public boolean reachable(String chainId) {
        return clients.client(chainId) != null;
    }

    /** The saved read positions (chain → next block), loaded at the tracker's start. */
    public void resume(Map<String, Long> cursors) {
        next.putAll(cursors);
        saved.putAll(cursors);
    }

    /**
     * The read positions moved since they were last saved (chain → next block; null: a chain no longer followed, its
     * saved position to delete), to save with what was found below them; then {@link #saved}.
     */
    public Map<String, Long> unsaved() {
        Map<String, Long> out = new LinkedHashMap<>();
        next.forEach((chain, h) -> {
            if (!h.equals(saved.get(chain))) out.put(chain, h);
        });
        saved.keySet().forEach(chain -> {
            if (!next.containsKey(chain)) out.put(chain, null);
        });
        return out;
    }

    /** {@code cursors} (an {@link #unsaved} answer) were saved. */
    public void saved(Map<String, Long> cursors) {
        cursors.forEach((chain, h) -> {
            if (h == null) saved.remove(chain);
            else saved.put(chain, h);
        });
    }

    /** Stops following chains no account is watched on any more (their saved positions go at the next save). */
    public void retain(Set<String> chains) {
        next.keySet().retainAll(chains);
        known.keySet().retainAll(chains);
    }

    /**
     * The txs of the new blocks of {@code chainId} where one of {@code accounts} (0x hex of 20 bytes → the chain's head
     * when it was watched, or null) sent an OFT.
     */
    public Future<List<ObservedTx>> poll(String chainId, Map<String, Long> accounts) {
        EvmRpcClient c = clients.client(chainId);
        if (c == null || accounts.isEmpty()) return Future.succeededFuture(List.of());
        return c.blockNumber().compose(head -> {
            Long cursor = next.get(chainId);
            long back = Math.max(1, head + 1 - lookback);
            // a new watch: its sends may be in blocks before the position (read before the tracker loaded it), from
            // the head when it was made on, looked back for once and never more than the look back
            Set<String> had = known.getOrDefault(chainId, Set.of());
            Long want = null;
            for (Map.Entry<String, Long> a : accounts.entrySet()) {
                if (had.contains(a.getKey())) continue;
                long w = a.getValue() == null ? back : Math.max(back, a.getValue());
                want = want == null ? w : Math.min(want, w);
            }
            boolean fresh = want != null;
            long from = cursor == null ? (fresh ? want : back) : fresh ? Math.min(cursor, want) : cursor;
            // bounded either way: at most the look back (or range) blocks a cycle, in requests of range blocks
            long to = Math.min(head, from + (cursor == null || fresh ? Math.max(range, lookback) : range) - 1);
            if (from > to) return Future.succeededFuture(List.of());
            List<Future<JsonNode>> reads = new ArrayList<>(); // a look back: requests of at most range blocks
            for (long a = from; a <= to; a += range)
                reads.add(c.call(
                        "eth_getLogs", EvmRpcClient.params(filter(a, Math.min(to, a + range - 1), accounts.keySet()))));
            return Future.all(reads).map(all -> {
                next.put(chainId, Math.max(to + 1, cursor == null ? 0 : cursor));
                known.put(chainId, Set.copyOf(accounts.keySet()));
                Map<String, ObservedTx> out = new LinkedHashMap<>();
                for (Future<JsonNode> f : reads)
                    for (JsonNode l : f.result()) {
                        JsonNode t = l.path("topics");
                        if (l.path("removed").asBoolean(false)
                                || t.size() != 3
                                || !LayerZero.OFT_SENT_TOPIC.equalsIgnoreCase(
                                        t.get(0).asText())) continue;
                        String sender = "0x"
                                + EvmReceipts.strip(t.get(2).asText())
                                        .substring(24)
                                        .toLowerCase(Locale.ROOT);
                        String hash = l.path("transactionHash").asText().toLowerCase(Locale.ROOT);
                        long h = EvmReceipts.quantity(l.path("blockNumber").asText());
                        out.putIfAbsent(
                                hash,
                                new ObservedTx(
                                        chainId,
                                        hash,
                                        h,
                                        0,
                                        0,
                                        "",
                                        List.of(new ObservedTx.Event(
                                                EvmReceipts.OFT_SENT,
                                                Map.of("from", sender),
                                                Long.toString(EvmReceipts.quantity(
                                                        l.path("logIndex").asText()))))));
                    }
                return new ArrayList<>(out.values());
            });
        });
    }

    private static ObjectNode filter(long from, long to, Set<String> accounts) {
        ObjectNode o = JsonNodeFactory.instance
                .objectNode()
                .put("fromBlock", EvmRpcClient.quantity(from))
                .put("toBlock", EvmRpcClient.quantity(to));
        ArrayNode topics = o.putArray("topics");
        topics.add(LayerZero.OFT_SENT_TOPIC);
        topics.addNull();
        ArrayNode senders = topics.addArray();
        for (String a : accounts)
            senders.add("0x" + "0".repeat(24) + EvmReceipts.strip(a).toLowerCase(Locale.ROOT));
        return o;
    }

    public Future<Void> close() {
        return clients.close();
    }
}
