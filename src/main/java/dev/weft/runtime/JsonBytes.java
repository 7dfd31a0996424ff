package dev.weft.runtime;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

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
