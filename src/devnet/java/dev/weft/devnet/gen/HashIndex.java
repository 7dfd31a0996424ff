package dev.weft.devnet.gen;

import java.util.Arrays;

/**
 * Hash → height for the hashes of blocks generated so far (tx hashes cannot be inverted). Keys are the first 8 bytes of
 * a hash (callers verify the full hash in the block found). Two fixed-size generations of primitive open-addressing
 * tables: when the current one fills up it becomes the previous one, so memory stays bounded and the most recent
 * {@code capacity}..{@code 2×capacity} entries are always found.
 */
public final class HashIndex {
    private final int capacity;
    private Table current;
    private Table previous;

    public HashIndex(int capacity) {
        this.capacity = capacity;
        this.current = new Table(capacity);
        this.previous = new Table(1);
    }

    public synchronized void put(byte[] hash, long height) {
        if (current.size >= capacity) {
            previous = current;
            current = new Table(capacity);
        }
        current.put(key(hash), height);
    }

    /** The height, or -1. */
    public synchronized long get(byte[] hash) {
        long k = key(hash);
        long v = current.get(k);
        return v >= 0 ? v : previous.get(k);
    }

    private static long key(byte[] h) {
        long k = 0;
        for (int i = 0; i < 8; i++) k = (k << 8) | (h[i] & 0xff);
        return k == 0 ? 1 : k; // 0 marks a free slot
    }

    private static final class Table {
        final long[] keys;
        final long[] values;
        final int mask;
        int size;

        Table(int capacity) {
            int slots = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) * 2;
            keys = new long[slots];
            values = new long[slots];
            mask = slots - 1;
            Arrays.fill(values, -1);
        }

        void put(long k, long v) {
            int i = (int) Mix.mix64(k) & mask;
            while (keys[i] != 0 && keys[i] != k) i = (i + 1) & mask;
            if (keys[i] == 0) size++;
            keys[i] = k;
            values[i] = v;
        }

        long get(long k) {
            int i = (int) Mix.mix64(k) & mask;
            while (keys[i] != 0) {
                if (keys[i] == k) return values[i];
                i = (i + 1) & mask;
            }
            return -1;
        }
    }
}
