package dev.weft.devnet.tx;

import dev.weft.chain.proto.ProtoReader;
import dev.weft.chain.proto.ProtoWriter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The protobuf layout of one message type, enough to go both ways between its wire bytes and its proto JSON (the
 * gRPC-gateway form: field names in proto order, 64-bit integers as strings, bytes base64, every field present,
 * embedded messages never null as gogoproto's non-nullable fields). Encoding also takes the amino/snake-case JSON
 * that {@code /v2/fungible/msgs} emits (integers as numbers or strings, absent fields as defaults).
 */
public final class ProtoSchema {
    public enum Type {
        STRING,
        UINT64,
        BYTES,
        BOOL,
        MESSAGE
    }

    /**
     * One field: JSON name, proto number, type, the schema of an embedded message, repeated or not, and whether its
     * amino JSON keeps it at its default value ({@code (amino.dont_omitempty) = true}) instead of omitting it.
     */
    public record Field(
            String name, int number, Type type, ProtoSchema message, boolean repeated, boolean aminoKeepsEmpty) {
        /** This field with {@code (amino.dont_omitempty) = true}. */
        public Field dontOmitEmpty() {
            return new Field(name, number, type, message, repeated, true);
        }
    }

    private final List<Field> fields;

    private ProtoSchema(List<Field> fields) {
        this.fields = List.copyOf(fields);
    }

    public static ProtoSchema of(Field... fields) {
        return new ProtoSchema(List.of(fields));
    }

    public static Field string(String name, int number) {
        return new Field(name, number, Type.STRING, null, false, false);
    }

    public static Field uint64(String name, int number) {
        return new Field(name, number, Type.UINT64, null, false, false);
    }

    public static Field bytes(String name, int number) {
        return new Field(name, number, Type.BYTES, null, false, false);
    }

    public static Field bool(String name, int number) {
        return new Field(name, number, Type.BOOL, null, false, false);
    }

    public static Field message(String name, int number, ProtoSchema schema) {
        return new Field(name, number, Type.MESSAGE, schema, false, false);
    }

    public static Field repeated(Field f) {
        return new Field(f.name(), f.number(), f.type(), f.message(), true, f.aminoKeepsEmpty());
    }

    public List<Field> fields() {
        return fields;
    }

    /** The proto JSON of wire bytes; throws IllegalArgumentException when they do not parse. */
    public JsonObject decode(byte[] bytes) {
        JsonObject out = defaults();
        ProtoReader r = new ProtoReader(bytes);
        while (r.next()) {
            Field f = field(r.field());
            if (f == null) {
                r.skip();
                continue;
            }
            Object v = switch (f.type()) {
                case STRING -> {
                    requireWire(r, 2, f);
                    yield r.string();
                }
                case BYTES -> {
                    requireWire(r, 2, f);
                    yield Base64.getEncoder().encodeToString(r.bytes());
                }
                case UINT64 -> {
                    requireWire(r, 0, f);
                    yield Long.toUnsignedString(r.varint());
                }
                case BOOL -> {
                    requireWire(r, 0, f);
                    yield r.varint() != 0;
                }
                case MESSAGE -> {
                    requireWire(r, 2, f);
                    yield f.message().decode(r.bytes());
                }
            };
            if (f.repeated()) out.getJsonArray(f.name()).add(v);
            else out.put(f.name(), v);
        }
        return out;
    }

    private static void requireWire(ProtoReader r, int wire, Field f) {
        if (r.wireType() != wire)
            throw new IllegalArgumentException("field " + f.name() + " has wire type " + r.wireType());
    }

    /** Every field at its default value. */
    public JsonObject defaults() {
        JsonObject o = new JsonObject();
        for (Field f : fields) {
            if (f.repeated()) {
                o.put(f.name(), new JsonArray());
                continue;
            }
            o.put(
                    f.name(),
                    switch (f.type()) {
                        case STRING, BYTES -> "";
                        case UINT64 -> "0";
                        case BOOL -> false;
                        case MESSAGE -> f.message().defaults();
                    });
        }
        return o;
    }

    /** The wire bytes of a JSON value; throws IllegalArgumentException naming the first bad field. */
    public byte[] encode(JsonObject json) {
        return writer(json).toByteArray();
    }

    private ProtoWriter writer(JsonObject json) {
        ProtoWriter w = new ProtoWriter();
        for (Field f : fields) {
            Object v = json.getValue(f.name());
            if (v == null) continue;
            if (f.repeated()) {
                if (!(v instanceof JsonArray a)) throw new IllegalArgumentException(f.name() + " must be an array");
                for (Object e : a) write(w, f, e, true);
            } else {
                write(w, f, v, false);
            }
        }
        return w;
    }

    private static void write(ProtoWriter w, Field f, Object v, boolean element) {
        switch (f.type()) {
            case STRING -> {
                if (!(v instanceof String s)) throw new IllegalArgumentException(f.name() + " must be a string");
                if (element) w.bytesAlways(f.number(), s.getBytes(StandardCharsets.UTF_8));
                else w.string(f.number(), s);
            }
            case BYTES -> {
                if (!(v instanceof String s)) throw new IllegalArgumentException(f.name() + " must be a base64 string");
                byte[] b;
                try {
                    b = Base64.getDecoder().decode(s);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(f.name() + " is not base64");
                }
                if (element) w.bytesAlways(f.number(), b);
                else w.bytes(f.number(), b);
            }
            case UINT64 -> w.varint(f.number(), uint64(f.name(), v));
            case BOOL -> {
                if (!(v instanceof Boolean b)) throw new IllegalArgumentException(f.name() + " must be true or false");
                w.bool(f.number(), b);
            }
            case MESSAGE -> {
                if (!(v instanceof JsonObject o)) throw new IllegalArgumentException(f.name() + " must be an object");
                w.message(f.number(), f.message().writer(o));
            }
        }
    }

    /** A uint64 given as a JSON number or a decimal string. */
    static long uint64(String name, Object v) {
        String s = v instanceof Number || v instanceof String ? v.toString().trim() : null;
        if (s == null || !s.matches("\\d{1,20}"))
            throw new IllegalArgumentException(name + " must be an unsigned integer");
        BigInteger b = new BigInteger(s);
        if (b.bitLength() > 64) throw new IllegalArgumentException(name + " does not fit in 64 bits");
        return b.longValue();
    }

    private Field field(int number) {
        for (Field f : fields) if (f.number() == number) return f;
        return null;
    }

    /** The names of the fields, in proto order. */
    public List<String> names() {
        List<String> out = new ArrayList<>();
        for (Field f : fields) out.add(f.name());
        return out;
    }
}
