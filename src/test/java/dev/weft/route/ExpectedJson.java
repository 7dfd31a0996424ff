package dev.weft.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Exact JSON comparison (field names, order, types, values) against reviewed files in src/test/resources/route/expected/. */
public final class ExpectedJson {
    private ExpectedJson() {}

    public static JsonObject read(String name) {
        try {
            return new JsonObject(Files.readString(Path.of("src/test/resources/route/expected", name + ".json")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Same text once both are encoded the same way: order- and type-sensitive, unlike JsonObject.equals. */
    public static void assertExact(JsonObject expected, JsonObject actual) {
        assertEquals(expected.encodePrettily(), actual.encodePrettily());
    }

    public static void assertExact(String expectedFile, JsonObject actual) {
        assertExact(read(expectedFile), actual);
    }
}
