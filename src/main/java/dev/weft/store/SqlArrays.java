package dev.weft.store;

import io.vertx.core.buffer.Buffer;

import java.util.List;

/** Java lists as the arrays {@code unnest} statements take. */
final class SqlArrays {
  private SqlArrays() {}

  static Long[] longs(List<Long> l) {
    return l.toArray(new Long[0]);
  }

  static Integer[] ints(List<Integer> l) {
    return l.toArray(new Integer[0]);
  }

  static String[] strings(List<String> l) {
    return l.toArray(new String[0]);
  }

  static Buffer[] bufs(List<Buffer> l) {
    return l.toArray(new Buffer[0]);
  }
}
