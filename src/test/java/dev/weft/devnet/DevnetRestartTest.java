package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.config.ConfigSource;
import dev.weft.devnet.config.DevnetConfig;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A live devnet either continues its saved chain or says loudly that it starts a new one. */
class DevnetRestartTest {
    private static DevnetConfig config(String stateFile) throws Exception {
        JsonObject file = new JsonObject(Files.readString(Path.of("conf/weft.json")));
        return DevnetConfig.from(new ConfigSource(
                file, Map.of(), Map.of("weft.devnet.state_file", stateFile, "weft.devnet.mode", "live")));
    }

    @Test
    @DisplayName(
            "a restart that continues the saved chain is silent; one that cannot (other chain, no state file, bad file) warns")
    void restartWarning(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("state.json");
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        assertNull(DevnetStart.resolve(config(state.toString()), "weft-devnet-1", t0)
                .restartWarning());
        DevnetStart continued = DevnetStart.resolve(config(state.toString()), "weft-devnet-1", t0.plusSeconds(3600));
        assertNull(continued.restartWarning());
        assertEquals(3900, continued.head());

        DevnetStart other = DevnetStart.resolve(config(state.toString()), "weft-other-1", t0.plusSeconds(7200));
        assertTrue(
                other.restartWarning().contains("NEW chain")
                        && other.restartWarning().contains("another devnet chain"),
                other.restartWarning());

        assertTrue(DevnetStart.resolve(config(""), "weft-devnet-1", t0)
                .restartWarning()
                .contains("devnet.state_file is empty"));

        Files.writeString(state, "{not json");
        assertTrue(DevnetStart.resolve(config(state.toString()), "weft-devnet-1", t0)
                .restartWarning()
                .contains("unusable"));
    }
}
