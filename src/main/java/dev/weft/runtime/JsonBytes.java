package dev.weft.runtime;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Writes a Vert.x JSON tree as the exact bytes {@code JsonObject.toBuffer()} gives, on a short code path: objects,
 * arrays, plain ASCII strings, integers, booleans and null are written here; any other value (a string with a character
 * to escape or beyond ASCII, a decimal or big number, bytes, an instant, a map with non-string keys) is written by
 * Vert.x's own codec, value by value. An answer is written many times a second on an event loop shared with the network
 * and the bus, where the databind serializers' type lookups cost more than the writing itself.
 */
public final class JsonBytes {
    /** A writer's buffer above this after an answer is dropped, so one large answer does not stay in memory. */
    static final int KEPT_BYTES = 64 * 1024;

    private static final ThreadLocal<Writer> WRITERS = ThreadLocal.withInitial(Writer::new);

    private JsonBytes() {}

    public static Buffer encode(JsonObject object) {
        return write(w -> w.object(object.getMap()));
    }

    public static Buffer encode(JsonArray array) {
        return write(w -> w.array(array.getList()));
    }

    private static Buffer write(Consumer<Writer> tree) {
        Writer w = WRITERS.get();
        try {
            tree.accept(w);
            return Buffer.buffer(Arrays.copyOf(w.bytes, w.size));
        } finally {
            w.reset();
        }
    }

    /**
     * An immutable copy of a flat object (string, number, boolean or null values) whose bytes are written once, here, and
     * copied into every answer it is part of: a registry's asset or venue, repeated in many answers. Changing it throws,
     * so an answer cannot alter what other answers share; {@code copy()} gives an ordinary mutable object.
     */
    public static JsonObject frozen(JsonObject flat) {
        for (Object v : flat.getMap().values()) {
            if (v != null && !(v instanceof String || v instanceof Number || v instanceof Boolean)) {
                throw new IllegalArgumentException("only a flat object can be frozen, not one with a "
                        + v.getClass().getSimpleName());
            }
        }
        return new JsonObject(new Frozen(flat.getMap(), encode(flat).getBytes()));
    }

    /** An insertion-ordered map that refuses changes and carries its encoded bytes. */
    private static final class Frozen extends LinkedHashMap<String, Object> {
        private final byte[] bytes;
        /** What the views show: unmodifiable, entries included (the views of this map itself would allow setValue). */
        private final Map<String, Object> view;

        Frozen(Map<String, Object> entries, byte[] bytes) {
            super(entries);
            this.bytes = bytes;
            this.view = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        }

        private static UnsupportedOperationException frozen() {
            return new UnsupportedOperationException(
                    "a frozen JSON object is shared between answers: copy() it to change it");
        }

        @Override
        public Object put(String k, Object v) {
            throw frozen();
        }

        @Override
        public void putAll(Map<? extends String, ?> m) {
            throw frozen();
        }

        @Override
        public Object putIfAbsent(String k, Object v) {
            throw frozen();
        }

        @Override
        public Object remove(Object k) {
            throw frozen();
        }

        @Override
        public boolean remove(Object k, Object v) {
            throw frozen();
        }

        @Override
        public Object replace(String k, Object v) {
            throw frozen();
        }

        @Override
        public boolean replace(String k, Object o, Object v) {
            throw frozen();
        }

        @Override
        public void replaceAll(BiFunction<? super String, ? super Object, ?> f) {
            throw frozen();
        }

        @Override
        public Object compute(String k, BiFunction<? super String, ? super Object, ?> f) {
            throw frozen();
        }

        @Override
        public Object computeIfAbsent(String k, Function<? super String, ?> f) {
            throw frozen();
        }

        @Override
        public Object computeIfPresent(String k, BiFunction<? super String, ? super Object, ?> f) {
            throw frozen();
        }

        @Override
        public Object merge(String k, Object v, BiFunction<? super Object, ? super Object, ?> f) {
            throw frozen();
        }

        @Override
        public void clear() {
            throw frozen();
        }

        @Override
        public Set<Map.Entry<String, Object>> entrySet() {
            return view.entrySet();
        }

        @Override
        public Set<String> keySet() {
            return view.keySet();
        }

        @Override
        public Collection<Object> values() {
            return view.values();
        }
    }

    /** This thread's writer's buffer size (tests check that it stays bounded). */
    static int keptBytes() {
        return WRITERS.get().bytes.length;
    }

    private static final class Writer {
        private static final byte[] NULL = {'n', 'u', 'l', 'l'};
        private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
        private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

        private byte[] bytes = new byte[4096];
        private int size;

        void reset() {
            size = 0;
            if (bytes.length > KEPT_BYTES) bytes = new byte[4096];
        }

        private void room(int more) {
            if (size + more > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }

        private void put(char c) {
            room(1);
            bytes[size++] = (byte) c;
        }

        private void put(byte[] b) {
            room(b.length);
            System.arraycopy(b, 0, bytes, size, b.length);
            size += b.length;
        }

        private void value(Object v) {
            if (v == null) {
                put(NULL);
            } else if (v instanceof String s) {
                string(s);
            } else if (v instanceof JsonObject o) {
                object(o.getMap());
            } else if (v instanceof JsonArray a) {
                array(a.getList());
            } else if (v instanceof Map<?, ?> m) {
                object(m);
            } else if (v instanceof List<?> l) {
                array(l);
            } else if (v instanceof Boolean b) {
                put(b ? TRUE : FALSE);
            } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
                ascii(v.toString());
            } else {
                codec(v);
            }
        }

        /** A value the way Vert.x's codec writes it on its own (the same bytes it writes inside a tree). */
        private void codec(Object v) {
            put(Json.CODEC.toBuffer(v, false).getBytes());
        }

        private void object(Map<?, ?> map) {
            if (map instanceof Frozen f) {
                put(f.bytes);
                return;
            }
            int start = size;
            put('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String key)) {
                    size = start;
                    codec(map);
                    return;
                }
                if (!first) put(',');
                first = false;
                string(key);
                put(':');
                value(e.getValue());
            }
            put('}');
        }

        private void array(List<?> list) {
            put('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) put(',');
                value(list.get(i));
            }
            put(']');
        }

        private void ascii(String s) {
            int n = s.length();
            room(n);
            for (int i = 0; i < n; i++) bytes[size++] = (byte) s.charAt(i);
        }

        private void string(String s) {
            int n = s.length();
            room(n + 2);
            int start = size;
            bytes[size++] = '"';
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
                    size = start;
                    codec(s);
                    return;
                }
                bytes[size++] = (byte) c;
            }
            bytes[size++] = '"';
        }
    }
}
