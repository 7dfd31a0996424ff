package dev.weft.devnet;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The comparator the format tests rely on catches what it must. */
class WireShapeTest {
    private static final JsonObject REAL = new JsonObject(
            "{\"height\":\"10\",\"round\":0,\"hash\":\"" + "AB".repeat(32) + "\",\"txs\":null,\"list\":[{\"a\":1}]}");

    @Test
    @DisplayName(
            "it accepts the same shape and rejects another type, null vs [], another order, another hash encoding, a missing field")
    void catches() {
        WireShape.ordered()
                .check(
                        REAL,
                        new JsonObject("{\"height\":\"7\",\"round\":3,\"hash\":\"" + "CD".repeat(32)
                                + "\",\"txs\":null,\"list\":[{\"a\":2}]}"));
        assertThrows(
                AssertionError.class,
                () -> WireShape.ordered().check(REAL, REAL.copy().put("height", 10)));
        assertThrows(
                AssertionError.class,
                () -> WireShape.ordered().check(REAL, REAL.copy().put("txs", new io.vertx.core.json.JsonArray())));
        assertThrows(
                AssertionError.class,
                () -> WireShape.ordered()
                        .check(
                                REAL,
                                new JsonObject("{\"round\":0,\"height\":\"10\",\"hash\":\"" + "AB".repeat(32)
                                        + "\",\"txs\":null,\"list\":[{\"a\":1}]}")));
        assertThrows(
                AssertionError.class,
                () -> WireShape.ordered().check(REAL, REAL.copy().put("hash", "0x" + "ab".repeat(32))));
        assertThrows(
                AssertionError.class,
                () -> WireShape.ordered()
                        .check(
                                REAL,
                                REAL.copy()
                                        .put(
                                                "list",
                                                new io.vertx.core.json.JsonArray()
                                                        .add(new JsonObject().put("a", "1")))));
        JsonObject missing = REAL.copy();
        missing.remove("round");
        assertThrows(AssertionError.class, () -> WireShape.unordered().check(REAL, missing));
        WireShape.unordered().absent("round").check(REAL, missing);
    }
}
