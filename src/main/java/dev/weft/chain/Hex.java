package dev.weft.chain;

/** Hex encoding as the chains print it: lower-case with 0x (EVM), upper-case without (CometBFT hashes). */
public final class Hex {
    private static final char[] LOWER = "0123456789abcdef".toCharArray();
    private static final char[] UPPER = "0123456789ABCDEF".toCharArray();

    private Hex() {}

    public static String lower(byte[] b) {
        return encode(b, LOWER);
    }

    public static String upper(byte[] b) {
        return encode(b, UPPER);
    }

    /** {@code 0x} + lower-case hex. */
    public static String prefixed(byte[] b) {
        return "0x" + lower(b);
    }

    private static String encode(byte[] b, char[] digits) {
        char[] out = new char[b.length * 2];
        for (int i = 0; i < b.length; i++) {
            out[2 * i] = digits[(b[i] >> 4) & 0xF];
            out[2 * i + 1] = digits[b[i] & 0xF];
        }
        return new String(out);
    }

    /** Decodes hex of either case, with or without {@code 0x}; an odd length is left-padded with a zero nibble. */
    public static byte[] decode(String s) {
        String h = strip(s);
        if (h.length() % 2 == 1) h = "0" + h;
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(h.charAt(2 * i), 16);
            int lo = Character.digit(h.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) throw new IllegalArgumentException("not hex: " + s);
            out[i] = (byte) ((hi << 4) | lo);
        }
        return out;
    }

    /** Whether {@code s} is hex (either case, optional 0x) of exactly {@code bytes} bytes. */
    public static boolean isHex(String s, int bytes) {
        if (s == null) return false;
        String h = strip(s);
        return h.length() == bytes * 2 && isDigits(h, 0);
    }

    /** Whether every character of {@code s} from index {@code from} on is a hex digit (either case). */
    public static boolean isDigits(String s, int from) {
        for (int i = from; i < s.length(); i++) if (Character.digit(s.charAt(i), 16) < 0) return false;
        return true;
    }

    public static String strip(String s) {
        return s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
    }
}
