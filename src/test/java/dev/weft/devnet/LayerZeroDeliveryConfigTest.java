package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.config.ConfigException;
import dev.weft.config.ConfigSource;
import dev.weft.devnet.config.LayerZeroDeliveryConfig;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LayerZeroDeliveryConfigTest {
    private static LayerZeroDeliveryConfig of(JsonObject layerZero, Map<String, String> env) {
        return LayerZeroDeliveryConfig.from(new ConfigSource(
                new JsonObject().put("devnet", new JsonObject().put("layer_zero", layerZero)), env, Map.of()));
    }

    @Test
    @DisplayName("off by default (2 blocks, 1s); the source URL from the file or WEFT_DEVNET_LAYER_ZERO_SOURCE_RPC")
    void defaults() {
        LayerZeroDeliveryConfig d = of(new JsonObject(), Map.of());
        assertEquals(new LayerZeroDeliveryConfig("", 2, Duration.ofSeconds(1)), d);
        assertFalse(d.enabled());
        LayerZeroDeliveryConfig set = of(
                new JsonObject().put("delay_blocks", 5),
                Map.of("WEFT_DEVNET_LAYER_ZERO_SOURCE_RPC", "http://127.0.0.1:8546"));
        assertEquals(new LayerZeroDeliveryConfig("http://127.0.0.1:8546", 5, Duration.ofSeconds(1)), set);
        assertTrue(set.enabled());
    }

    @Test
    @DisplayName(
            "a source that is not an http(s) URL, a negative delay or a poll under 10ms is refused, naming the key")
    void refused() {
        assertEquals(
                "configuration key 'devnet.layer_zero.source_rpc': must be an http(s) URL (got \"localhost:8545\")",
                assertThrows(
                                ConfigException.class,
                                () -> of(new JsonObject().put("source_rpc", "localhost:8545"), Map.of()))
                        .getMessage());
        assertTrue(assertThrows(ConfigException.class, () -> of(new JsonObject().put("delay_blocks", -1), Map.of()))
                .getMessage()
                .startsWith("configuration key 'devnet.layer_zero.delay_blocks'"));
        assertEquals(
                "configuration key 'devnet.layer_zero.poll_interval': must be at least 10ms",
                assertThrows(ConfigException.class, () -> of(new JsonObject().put("poll_interval", "5ms"), Map.of()))
                        .getMessage());
    }
}
