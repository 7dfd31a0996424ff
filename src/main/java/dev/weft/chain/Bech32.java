package dev.weft.chain;

import java.io.ByteArrayOutputStream;
import java.util.Locale;

/** BIP-173 bech32 (the Cosmos account encoding): {@code prefix1} + data + 6-character checksum. */
public final class Bech32 {
    private static final String CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    private static final int[] GEN = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};

    /** A decoded bech32 string. */
    public record Decoded(String prefix, byte[] data) {}

    private Bech32() {}

    public static String encode(String prefix, byte[] data) {
        byte[] five = convertBits(data, 8, 5, true);
        byte[] checksum = checksum(prefix, five);
        StringBuilder sb = new StringBuilder(prefix.length() + 1 + five.length + 6)
                .append(prefix)
                .append('1');
        for (byte b : five) sb.append(CHARSET.charAt(b));
        for (byte b : checksum) sb.append(CHARSET.charAt(b));
        return sb.toString();
    }

    /** Decodes and verifies the checksum; throws IllegalArgumentException on any defect. */
    public static Decoded decode(String s) {
        if (s.length() < 8 || s.length() > 90) throw new IllegalArgumentException("bad bech32 length");
        boolean lower = false;
        boolean upper = false;
        for (char c : s.toCharArray()) {
            if (c < 33 || c > 126) throw new IllegalArgumentException("bad bech32 character");
            if (Character.isLowerCase(c)) lower = true;
            if (Character.isUpperCase(c)) upper = true;
        }
        if (lower && upper) throw new IllegalArgumentException("mixed-case bech32");
        String str = s.toLowerCase(Locale.ROOT);
        int pos = str.lastIndexOf('1');
        if (pos < 1 || pos + 7 > str.length()) throw new IllegalArgumentException("bad bech32 separator");
        String prefix = str.substring(0, pos);
        byte[] values = new byte[str.length() - pos - 1];
        for (int i = 0; i < values.length; i++) {
            int v = CHARSET.indexOf(str.charAt(pos + 1 + i));
            if (v < 0) throw new IllegalArgumentException("bad bech32 character");
            values[i] = (byte) v;
        }
        if (polymod(expand(prefix), values) != 1) throw new IllegalArgumentException("bad bech32 checksum");
        byte[] five = java.util.Arrays.copyOf(values, values.length - 6);
        return new Decoded(prefix, convertBits(five, 5, 8, false));
    }

    private static byte[] checksum(String prefix, byte[] five) {
        byte[] values = java.util.Arrays.copyOf(five, five.length + 6);
        int mod = polymod(expand(prefix), values) ^ 1;
        byte[] out = new byte[6];
        for (int i = 0; i < 6; i++) out[i] = (byte) ((mod >>> (5 * (5 - i))) & 31);
        return out;
    }

    private static byte[] expand(String prefix) {
        int n = prefix.length();
        byte[] out = new byte[n * 2 + 1];
        for (int i = 0; i < n; i++) {
            out[i] = (byte) (prefix.charAt(i) >> 5);
            out[i + n + 1] = (byte) (prefix.charAt(i) & 31);
        }
        return out;
    }

    private static int polymod(byte[] hrp, byte[] values) {
        int chk = 1;
        for (byte[] part : new byte[][] {hrp, values}) {
            for (byte v : part) {
                int top = chk >>> 25;
                chk = ((chk & 0x1ffffff) << 5) ^ (v & 0xff);
                for (int i = 0; i < 5; i++) if (((top >>> i) & 1) == 1) chk ^= GEN[i];
            }
        }
        return chk;
    }

    private static byte[] convertBits(byte[] data, int from, int to, boolean pad) {
        int acc = 0;
        int bits = 0;
        int maxv = (1 << to) - 1;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte b : data) {
            int value = b & 0xff;
            if ((value >>> from) != 0) throw new IllegalArgumentException("bad bech32 data");
            acc = (acc << from) | value;
            bits += from;
            while (bits >= to) {
                bits -= to;
                out.write((acc >>> bits) & maxv);
            }
        }
        if (pad) {
            if (bits > 0) out.write((acc << (to - bits)) & maxv);
        } else if (bits >= from || ((acc << (to - bits)) & maxv) != 0) {
            throw new IllegalArgumentException("bad bech32 padding");
        }
        return out.toByteArray();
    }
}
