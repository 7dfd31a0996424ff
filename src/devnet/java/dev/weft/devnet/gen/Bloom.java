package dev.weft.devnet.gen;

import dev.weft.chain.Hashes;
import dev.weft.chain.Hex;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ethereum 2048-bit log blooms (3 bits per address and topic, from Keccak-256). The bit positions of an address or
 * topic are cached: the same few thousand values recur in every block.
 */
public final class Bloom {
    public static final int BYTES = 256;
    private static final int MAX_CACHED = 200_000;
    private final ConcurrentHashMap<String, int[]> bits = new ConcurrentHashMap<>();

    public void add(byte[] bloom, EvmLog log) {
        set(bloom, log.address());
        for (String t : log.topics()) set(bloom, t);
    }

    public byte[] of(List<EvmLog> logs) {
        byte[] b = new byte[BYTES];
        for (EvmLog l : logs) add(b, l);
        return b;
    }

    public static void or(byte[] into, byte[] other) {
        for (int i = 0; i < BYTES; i++) into[i] |= other[i];
    }

    private void set(byte[] bloom, String hex) {
        int[] p = bits.get(hex);
        if (p == null) {
            byte[] h = Hashes.keccak256(Hex.decode(hex));
            p = new int[6];
            for (int k = 0; k < 3; k++) {
                int bit = (((h[2 * k] & 0xff) << 8) | (h[2 * k + 1] & 0xff)) & 0x7ff;
                p[2 * k] = BYTES - 1 - (bit >>> 3);
                p[2 * k + 1] = 1 << (bit & 7);
            }
            if (bits.size() > MAX_CACHED) bits.clear();
            bits.put(hex, p);
        }
        for (int k = 0; k < 6; k += 2) bloom[p[k]] |= (byte) p[k + 1];
    }
}
