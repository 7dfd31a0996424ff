package dev.weft.route.registry;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** Typed access to one JSON object of a registry file; every error names the file and the entry's path. */
final class JsonFields {
    private final JsonObject o;
    private final String where;

    JsonFields(JsonObject o, String where) {
        this.o = o;
        this.where = where;
    }

    String where() {
        return where;
    }

    JsonObject json() {
        return o;
    }

    RegistryException error(String message) {
        return new RegistryException(where + ": " + message);
    }

    String string(String key) {
        Object v = o.getValue(key);
        if (v == null) throw error(key + " is missing");
        if (!(v instanceof String s) || s.isBlank()) throw error(key + " must be a non-empty string");
        return s;
    }

    String optString(String key) {
        Object v = o.getValue(key);
        if (v == null) return null;
        if (v instanceof String s) return s.isBlank() ? null : s;
        if (v instanceof Number n) return n.toString();
        throw error(key + " must be a string");
    }

    boolean bool(String key, boolean def) {
        Object v = o.getValue(key);
        if (v == null) return def;
        if (v instanceof Boolean b) return b;
        throw error(key + " must be true or false");
    }

    long longValue(String key, long min) {
        Object v = o.getValue(key);
        if (v == null) throw error(key + " is missing");
        long n;
        try {
            n = v instanceof Number num ? num.longValue() : Long.parseLong(String.valueOf(v));
        } catch (NumberFormatException e) {
            throw error(key + " must be a whole number");
        }
        if (n < min) throw error(key + " must be at least " + min);
        return n;
    }

    long optLong(String key, long def, long min) {
        return o.getValue(key) == null ? def : longValue(key, min);
    }

    int intValue(String key, int min, int max) {
        long n = longValue(key, min);
        if (n > max) throw error(key + " must be at most " + max);
        return (int) n;
    }

    BigInteger positiveInteger(String key) {
        String s = o.getValue(key) instanceof Number n ? n.toString() : string(key);
        if (!s.matches("[1-9][0-9]*")) throw error(key + " must be a positive integer (got \"" + s + "\")");
        return new BigInteger(s);
    }

    BigDecimal decimal(String key, BigDecimal min, BigDecimal max) {
        String s = o.getValue(key) instanceof Number n ? n.toString() : string(key);
        BigDecimal d;
        try {
            d = new BigDecimal(s);
        } catch (NumberFormatException e) {
            throw error(key + " must be a decimal number (got \"" + s + "\")");
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) throw error(key + " must be between " + min + " and " + max);
        return d;
    }

    List<String> strings(String key) {
        JsonArray a = array(key);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            if (!(a.getValue(i) instanceof String s)) throw error(key + "[" + i + "] must be a string");
            out.add(s);
        }
        return out;
    }

    JsonArray array(String key) {
        Object v = o.getValue(key);
        if (v == null) return new JsonArray();
        if (v instanceof JsonArray a) return a;
        throw error(key + " must be an array");
    }

    /** The objects of an array, each with its own path for errors. */
    List<JsonFields> objects(String key) {
        JsonArray a = array(key);
        List<JsonFields> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            if (!(a.getValue(i) instanceof JsonObject obj)) throw error(key + "[" + i + "] must be an object");
            out.add(new JsonFields(obj, where + "." + key + "[" + i + "]"));
        }
        return out;
    }

    /** A nested object, or null when absent. */
    JsonFields object(String key) {
        Object v = o.getValue(key);
        if (v == null) return null;
        if (v instanceof JsonObject obj) return new JsonFields(obj, where + "." + key);
        throw error(key + " must be an object");
    }
}
