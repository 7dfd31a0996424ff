package dev.weft.devnet.crypto;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The RLP subset Ethereum txs need: one list of items, each kept encoded so that a signing payload re-wraps them as
 * sent (ethereum.org RLP specification).
 */
public final class Rlp {
    private Rlp() {}

    /** The encoded items of the list that is the whole input. */
    public static List<byte[]> list(byte[] in) {
        int[] h = header(in, 0);
        if (h[0] != 1 || h[1] + h[2] != in.length) throw new IllegalArgumentException("not one RLP list");
        List<byte[]> items = new ArrayList<>();
        int at = h[1];
        while (at < in.length) {
            int[] ih = header(in, at);
            int end = ih[1] + ih[2];
            if (end > in.length) throw new IllegalArgumentException("RLP item overruns its list");
            items.add(Arrays.copyOfRange(in, at, end));
            at = end;
        }
        return items;
    }

    /** {kind (0 string, 1 list), payload start, payload length} of the item at {@code at}. */
    private static int[] header(byte[] in, int at) {
        int b = in[at] & 0xff;
        if (b < 0x80) return new int[] {0, at, 1};
        if (b <= 0xb7) return new int[] {0, at + 1, b - 0x80};
        if (b < 0xc0) return new int[] {0, at + 1 + (b - 0xb7), length(in, at + 1, b - 0xb7)};
        if (b <= 0xf7) return new int[] {1, at + 1, b - 0xc0};
        return new int[] {1, at + 1 + (b - 0xf7), length(in, at + 1, b - 0xf7)};
    }

    private static int length(byte[] in, int at, int n) {
        if (n > 4) throw new IllegalArgumentException("RLP length too large");
        int len = 0;
        for (int i = 0; i < n; i++) len = (len << 8) | (in[at + i] & 0xff);
        if (len < 0) throw new IllegalArgumentException("RLP length too large");
        return len;
    }

    /** The payload of an encoded string item. */
    public static byte[] bytes(byte[] item) {
        int[] h = header(item, 0);
        if (h[0] != 0) throw new IllegalArgumentException("RLP list where a string was expected");
        return Arrays.copyOfRange(item, h[1], h[1] + h[2]);
    }

    public static BigInteger integer(byte[] item) {
        return new BigInteger(1, bytes(item));
    }

    public static byte[] encodeInteger(BigInteger v) {
        byte[] b = v.signum() == 0 ? new byte[0] : v.toByteArray();
        if (b.length > 1 && b[0] == 0) b = Arrays.copyOfRange(b, 1, b.length);
        if (b.length == 1 && (b[0] & 0xff) < 0x80) return b;
        return concat(prefix(0x80, b.length), b);
    }

    /** A byte string item: a single byte below 0x80 is itself, anything else is prefixed with its length. */
    public static byte[] encodeBytes(byte[] b) {
        if (b.length == 1 && (b[0] & 0xff) < 0x80) return b;
        return concat(prefix(0x80, b.length), b);
    }

    public static byte[] encodeList(List<byte[]> items) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] i : items) out.writeBytes(i);
        byte[] payload = out.toByteArray();
        return concat(prefix(0xc0, payload.length), payload);
    }

    private static byte[] prefix(int base, int len) {
        if (len <= 55) return new byte[] {(byte) (base + len)};
        byte[] l = BigInteger.valueOf(len).toByteArray();
        if (l[0] == 0) l = Arrays.copyOfRange(l, 1, l.length);
        return concat(new byte[] {(byte) (base + 55 + l.length)}, l);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
