package dev.weft.devnet.exec;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The BCS encoding of the Move arguments the devnet's own Move calls take ({@code MsgExecute.args}, base64 in JSON):
 * addresses (32 bytes), u64 (little-endian), strings and vectors (ULEB128 length first), options (0, or 1 and the value),
 * bools. Source: the BCS specification (diem/bcs README), as movevm's {@code MsgExecute} decodes its arguments.
 */
public final class MoveArgs {
    private MoveArgs() {}

    public static String address(byte[] address32) {
        if (address32.length != 32) throw new IllegalArgumentException("a Move address has 32 bytes");
        return b64(address32);
    }

    public static String u64(long v) {
        return b64(
                ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
    }

    public static String string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        uleb(out, b.length);
        out.writeBytes(b);
        return b64(out.toByteArray());
    }

    public static String bool(boolean v) {
        return b64(new byte[] {(byte) (v ? 1 : 0)});
    }

    /** An empty vector, or {@code Option::none()}. */
    public static String empty() {
        return b64(new byte[] {0});
    }

    public static String someAddress(byte[] address32) {
        byte[] out = new byte[33];
        out[0] = 1;
        System.arraycopy(address32, 0, out, 1, 32);
        return b64(out);
    }

    private static void uleb(ByteArrayOutputStream out, int n) {
        while ((n & ~0x7F) != 0) {
            out.write((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        out.write(n);
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    // ---- decoding (IllegalArgumentException when an argument does not decode) ----

    static byte[] decodeAddress(String base64) {
        byte[] b = Base64.getDecoder().decode(base64);
        if (b.length != 32) throw new IllegalArgumentException("an address has 32 bytes");
        return b;
    }

    static long decodeU64(String base64) {
        byte[] b = Base64.getDecoder().decode(base64);
        if (b.length != 8) throw new IllegalArgumentException("a u64 has 8 bytes");
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    static String decodeString(String base64) {
        byte[] b = Base64.getDecoder().decode(base64);
        int len = 0, shift = 0, i = 0;
        while (true) {
            if (i >= b.length || shift > 28) throw new IllegalArgumentException("a string's length does not decode");
            int x = b[i++] & 0xFF;
            len |= (x & 0x7F) << shift;
            if ((x & 0x80) == 0) break;
            shift += 7;
        }
        if (len != b.length - i) throw new IllegalArgumentException("a string's length is not its byte count");
        return new String(b, i, len, StandardCharsets.UTF_8);
    }

    /** An {@code Option<address>}: null for none. */
    static byte[] decodeOptionAddress(String base64) {
        byte[] b = Base64.getDecoder().decode(base64);
        if (b.length == 1 && b[0] == 0) return null;
        if (b.length != 33 || b[0] != 1)
            throw new IllegalArgumentException("an Option<address> is 0x00 or 0x01 and 32 bytes");
        return java.util.Arrays.copyOfRange(b, 1, 33);
    }
}
