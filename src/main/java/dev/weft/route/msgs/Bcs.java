package dev.weft.route.msgs;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/** The BCS encodings of Move entry-function arguments ({@code MsgExecute.args} are base64 of each argument's BCS bytes). */
public final class Bcs {
    public static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private Bcs() {}

    /** An {@code address} (also {@code Object<T>}): its 32 bytes. */
    public static String address(byte[] address32) {
        if (address32.length != 32) throw new IllegalArgumentException("a Move address has 32 bytes");
        return Base64.getEncoder().encodeToString(address32);
    }

    public static String u64(BigInteger v) {
        return Base64.getEncoder().encodeToString(u64Bytes(v));
    }

    /** {@code Option<u64>}: 0x01 followed by the value (Some). */
    public static String someU64(BigInteger v) {
        byte[] out = new byte[9];
        out[0] = 1;
        System.arraycopy(u64Bytes(v), 0, out, 1, 8);
        return Base64.getEncoder().encodeToString(out);
    }

    public static String u8(int v) {
        if (v < 0 || v > 255) throw new IllegalArgumentException("a u8 is 0..255");
        return Base64.getEncoder().encodeToString(new byte[] {(byte) v});
    }

    /** A {@code String}: ULEB128 length, then its UTF-8 bytes. */
    public static String string(String s) {
        return Base64.getEncoder().encodeToString(stringBytes(s));
    }

    /** A {@code vector<u8>}. */
    public static String bytes(byte[] v) {
        return Base64.getEncoder().encodeToString(concat(uleb128(v.length), v));
    }

    /** A {@code vector<vector<String>>}. */
    public static String stringVectors(List<List<String>> v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(uleb128(v.size()));
        for (List<String> inner : v) {
            out.writeBytes(uleb128(inner.size()));
            for (String s : inner) out.writeBytes(stringBytes(s));
        }
        return Base64.getEncoder().encodeToString(out.toByteArray());
    }

    /** A {@code vector<vector<u8>>} whose elements are the BCS bytes of strings (Skip's Move action arguments). */
    public static String vectorOfStringBytes(List<String> v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(uleb128(v.size()));
        for (String s : v) {
            byte[] inner = stringBytes(s);
            out.writeBytes(uleb128(inner.length));
            out.writeBytes(inner);
        }
        return Base64.getEncoder().encodeToString(out.toByteArray());
    }

    private static byte[] stringBytes(String s) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        return concat(uleb128(utf8.length), utf8);
    }

    static byte[] uleb128(int n) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int v = n;
        do {
            int b = v & 0x7F;
            v >>>= 7;
            out.write(v != 0 ? b | 0x80 : b);
        } while (v != 0);
        return out.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] u64Bytes(BigInteger v) {
        if (v.signum() < 0 || v.compareTo(U64_MAX) > 0)
            throw new IllegalArgumentException("amount " + v + " does not fit a u64");
        return ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(v.longValue())
                .array();
    }
}
