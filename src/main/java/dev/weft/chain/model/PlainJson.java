package dev.weft.chain.model;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Whether a span of a node's JSON is written exactly as Jackson writes the same value: no whitespace (a space inside
 * a string refuses the span too: cheaper than tracking strings, and rare in events and receipts), no escape but
 * {@code \" \\ \n \r \t \b \f}, and no character beyond U+FFFF (Jackson writes one as two escaped surrogates).
 * Ingestion runs it over every tx's events and every receipt it copies, so it reads eight bytes at a time and looks
 * at single bytes only in a word that holds one of those (a backslash, mostly).
 */
final class PlainJson {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH = 0x8080808080808080L;
    /** The bytes that need a look: whitespace and control characters, the backslash, 0xF0 and above (4-byte UTF-8 leads). */
    private static final boolean[] LOOK = new boolean[256];

    static {
        for (int c = 0; c <= ' '; c++) LOOK[c] = true;
        LOOK['\\'] = true;
        for (int c = 0xF0; c <= 0xFF; c++) LOOK[c] = true;
    }

    private PlainJson() {}

    /** Whether {@code [from, to)} of {@code b} opens with {@code open}, closes with {@code close}, and is plain. */
    static boolean plain(byte[] b, int from, int to, char open, char close) {
        if (from < 0 || to > b.length || from >= to || b[from] != open || b[to - 1] != close) return false;
        int i = from;
        while (i < to) {
            if (i + 8 <= to) {
                long x = (long) LONGS.get(b, i);
                long backslash = x ^ (ONES * '\\');
                long highNibbleF = (x & (ONES * 0xF0)) ^ (ONES * 0xF0);
                // a byte below 0x21, a backslash byte, a byte 0xF0..0xFF (each test sets the byte's high bit; exact for
                // "any")
                long look =
                        ((x - ONES * 0x21) & ~x | (backslash - ONES) & ~backslash | (highNibbleF - ONES) & ~highNibbleF)
                                & HIGH;
                if (look == 0) {
                    i += 8;
                    continue;
                }
            }
            for (int end = Math.min(i + 8, to); i < end; i++) {
                if (!LOOK[b[i] & 0xFF]) continue;
                if (b[i] != '\\' || i + 1 >= to) return false;
                i++;
                switch (b[i]) {
                    case '"', '\\', 'n', 'r', 't', 'b', 'f' -> {}
                    default -> {
                        return false;
                    }
                }
            }
        }
        return true;
    }
}
