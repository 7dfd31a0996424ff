package dev.weft.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** Assertions on wire shapes: exact field names in order, and JSON types (string vs number vs null). */
public final class Shapes {
    private Shapes() {}

    /** The object has exactly these fields, in this order. */
    public static void assertFields(JsonObject o, String... names) {
        assertEquals(List.of(names), new ArrayList<>(o.fieldNames()), "fields of " + o.encode());
    }

    public static void assertString(JsonObject o, String field) {
        assertTrue(o.getValue(field) instanceof String, field + " must be a JSON string in " + o.encode());
    }

    public static void assertNumber(JsonObject o, String field) {
        assertTrue(o.getValue(field) instanceof Number, field + " must be a JSON number in " + o.encode());
    }

    public static void assertNull(JsonObject o, String field) {
        assertTrue(
                o.containsKey(field) && o.getValue(field) == null,
                field + " must be present and null in " + o.encode());
    }

    public static void assertBoolean(JsonObject o, String field) {
        assertTrue(o.getValue(field) instanceof Boolean, field + " must be a JSON boolean in " + o.encode());
    }

    public static void assertArray(JsonObject o, String field) {
        assertTrue(o.getValue(field) instanceof JsonArray, field + " must be a JSON array in " + o.encode());
    }

    /** The error body of both APIs: {code, message, details} with the given gRPC code. */
    public static void assertError(JsonObject body, int grpcCode) {
        if (body == null) fail("no JSON body");
        assertFields(body, "code", "message", "details");
        assertEquals(grpcCode, body.getInteger("code"), body.encode());
        assertString(body, "message");
        assertArray(body, "details");
    }
}
