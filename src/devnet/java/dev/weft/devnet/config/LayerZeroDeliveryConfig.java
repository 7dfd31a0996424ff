package dev.weft.devnet.config;

import dev.weft.config.ConfigException;
import dev.weft.config.ConfigSource;
import java.time.Duration;
import java.util.List;

/**
 * The devnet's simulated LayerZero delivery ({@code devnet.layer_zero.*}): the JSON-RPC URL of the source chain of the
 * registry's LayerZero lanes (empty: off), how many blocks of the destination pass between the send being seen and its
 * delivery, and how often the source is polled.
 */
public record LayerZeroDeliveryConfig(String sourceRpc, int delayBlocks, Duration pollInterval) {

    public static LayerZeroDeliveryConfig from(ConfigSource c) {
        String url = c.string("devnet.layer_zero.source_rpc", "").trim();
        if (!url.isEmpty()) c.httpUrls("devnet.layer_zero.source_rpc", List.of(url));
        Duration poll = c.duration("devnet.layer_zero.poll_interval", Duration.ofSeconds(1));
        if (poll.toMillis() < 10) throw new ConfigException("devnet.layer_zero.poll_interval", "must be at least 10ms");
        return new LayerZeroDeliveryConfig(url, c.intValue("devnet.layer_zero.delay_blocks", 2, 0, 100_000), poll);
    }

    public boolean enabled() {
        return !sourceRpc.isEmpty();
    }
}
