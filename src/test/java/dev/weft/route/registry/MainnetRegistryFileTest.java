package dev.weft.route.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** conf/registry/mainnet.json is exactly what the converter makes from the Initia registry export and the overlay. */
class MainnetRegistryFileTest {
    @Test
    @DisplayName(
            "the committed mainnet registry equals the converter's output (edit the overlay, then rerun the converter)")
    void committedFileIsReproducible() throws Exception {
        JsonObject committed = new JsonObject(Files.readString(MainnetRegistryConverter.OUTPUT));
        assertEquals(MainnetRegistryConverter.fromFiles(), committed);
    }
}
