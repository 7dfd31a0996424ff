package dev.weft.store;

import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.util.List;

/** Java lists as the arrays {@code unnest} statements take, and byte arrays as their {@code bytea} values. */
public final class SqlArrays {
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

    /**
     * A {@code bytea} value over the array, not a copy of it ({@code Buffer.buffer(byte[])} copies): for arrays nothing
     * writes to afterwards, such as an address's {@code bytes()} (itself a copy) or a hash.
     */
    public static Buffer bytea(byte[] b) {
        return BufferInternal.buffer(Unpooled.wrappedBuffer(b));
    }

    static Buffer[] bufs(List<Buffer> l) {
        return l.toArray(new Buffer[0]);
    }
}
