package dev.weft.devnet.lz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.chain.Hex;
import dev.weft.chain.LayerZero;
import dev.weft.devnet.config.LayerZeroDeliveryConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the source chain of the LayerZero lanes ({@code devnet.layer_zero.source_rpc}) as DVNs do: every
 * {@code devnet.layer_zero.poll_interval} it reads the chain's head and the lanes' source OFTs' {@code OFTSent} and
 * {@code PacketSent} logs of the blocks since the last read ({@code eth_getLogs}, at most {@link #MAX_RANGE} blocks a
 * request, one request in flight), from the head it found at start. Each {@code OFTSent} whose packet (the
 * {@code PacketSent} with the same guid in the same tx) names an OFT recipient goes to the {@link LzExecutor}, due
 * {@code devnet.layer_zero.delay_blocks} blocks of the destination later. A failed read is retried from the same block.
 */
public final class LzSourceWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(LzSourceWatcher.class);
    static final int MAX_RANGE = 500;

    private final Vertx vertx;
    private final LayerZeroDeliveryConfig config;
    private final LzExecutor executor;
    private final SourceRpc client;
    /** The next source block to read; -1 until the head at start is known. */
    private long next = -1;

    private boolean busy;
    private long timer = -1;

    public LzSourceWatcher(Vertx vertx, LayerZeroDeliveryConfig config, LzExecutor executor) {
        this.vertx = vertx;
        this.config = config;
        this.executor = executor;
        this.client = new SourceRpc(vertx, config.sourceRpc());
    }

    public void start() {
        timer = vertx.setPeriodic(1, config.pollInterval().toMillis(), id -> poll());
    }

    public Future<Void> stop() {
        if (timer >= 0) vertx.cancelTimer(timer);
        return client.close();
    }

    private void poll() {
        if (busy) return;
        busy = true;
        client.blockNumber()
                .compose(head -> {
                    if (next < 0) {
                        next = head + 1;
                        LOG.info("layerzero delivery: following {} from block {}", config.sourceRpc(), next);
                        return Future.succeededFuture();
                    }
                    if (head < next) return Future.succeededFuture();
                    long to = Math.min(head, next + MAX_RANGE - 1);
                    return client.call("eth_getLogs", SourceRpc.params(filter(next, to)))
                            .map(logs -> {
                                apply(logs);
                                next = to + 1;
                                return null;
                            });
                })
                .onComplete(ar -> {
                    busy = false;
                    if (ar.failed())
                        LOG.warn(
                                "layerzero delivery: reading {} failed (retried): {}",
                                config.sourceRpc(),
                                ar.cause().toString());
                });
    }

    private ObjectNode filter(long from, long to) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode o = f.objectNode().put("fromBlock", SourceRpc.quantity(from)).put("toBlock", SourceRpc.quantity(to));
        executor.sourceOfts().forEach(o.putArray("address")::add);
        o.putArray("topics").addArray().add(LayerZero.OFT_SENT_TOPIC).add(LayerZero.PACKET_SENT_TOPIC);
        return o;
    }

    /** Pairs each tx's {@code OFTSent} logs with its {@code PacketSent} packets by guid and queues the deliveries. */
    void apply(JsonNode logs) {
        Map<String, LayerZero.OftPacket> packets = new LinkedHashMap<>();
        List<JsonNode> sends = new ArrayList<>();
        for (JsonNode l : logs) {
            if (l.path("removed").asBoolean(false)) continue;
            String topic0 = l.path("topics").path(0).asText("").toLowerCase(Locale.ROOT);
            String tx = l.path("transactionHash").asText("");
            String address = l.path("address").asText("").toLowerCase(Locale.ROOT);
            if (topic0.equals(LayerZero.PACKET_SENT_TOPIC)) {
                LayerZero.OftPacket p = LayerZero.packetSent(l.path("data").asText(""));
                if (p != null) packets.put(tx + "/" + address + "/" + p.guid(), p);
            } else if (topic0.equals(LayerZero.OFT_SENT_TOPIC)
                    && l.path("topics").size() == 3) {
                sends.add(l);
            }
        }
        for (JsonNode s : sends) {
            String tx = s.path("transactionHash").asText("");
            String address = s.path("address").asText("").toLowerCase(Locale.ROOT);
            String guid = s.path("topics").path(1).asText("").toLowerCase(Locale.ROOT);
            LayerZero.OftPacket p = packets.get(tx + "/" + address + "/" + guid);
            if (p == null || p.sendToAddress() == null) {
                LOG.warn(
                        "layerzero delivery: OFTSent {} in {} has no OFT packet to an EVM account: not delivered",
                        guid,
                        tx);
                continue;
            }
            if (executor.sent(address, p, config.delayBlocks())) {
                LOG.info(
                        "layerzero delivery: {} from {} queued for {} ({} units)",
                        guid,
                        tx,
                        Hex.prefixed(p.sendToAddress()),
                        p.amountSD());
            }
        }
    }
}
