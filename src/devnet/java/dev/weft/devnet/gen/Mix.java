package dev.weft.devnet.gen;

/**
 * Stateless hashing of small integers (SplitMix64 finalizer): every random choice of the devnet is a pure function of
 * (seed, what, where), so any height can be generated alone and in any order.
 */
public final class Mix {
    private Mix() {}

    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    public static long hash(long seed, long a) {
        return mix64(seed ^ mix64(a + 0x9E3779B97F4A7C15L));
    }

    public static long hash(long seed, long a, long b) {
        return mix64(hash(seed, a) ^ mix64(b * 0xD1B54A32D192ED03L + 0x632BE59BD9B4E019L));
    }

    public static long hash(long seed, long a, long b, long c) {
        return mix64(hash(seed, a, b) ^ mix64(c * 0x8CB92BA72F3D8DD7L + 0x2545F4914F6CDD1DL));
    }

    /** A uniform double in [0, 1). */
    public static double unit(long h) {
        return (h >>> 11) * 0x1.0p-53;
    }

    /** A uniform-enough int in [0, n). */
    public static int below(long h, int n) {
        return (int) ((h >>> 1) % n);
    }

    /** {@code len} pseudo-random bytes. */
    public static byte[] bytes(long seed, long a, long b, int len) {
        byte[] out = new byte[len];
        for (int i = 0; i < len; i += 8) {
            long h = hash(seed, a, b, i);
            for (int j = 0; j < 8 && i + j < len; j++) out[i + j] = (byte) (h >>> (8 * j));
        }
        return out;
    }

    /** A sequential stream of draws, itself seeded by a hash (SplitMix64). */
    public static final class Rng {
        private long state;

        public Rng(long seed) {
            this.state = seed;
        }

        public long next() {
            state += 0x9E3779B97F4A7C15L;
            return mix64(state);
        }

        public int below(int n) {
            return Mix.below(next(), n);
        }

        /** An int in [lo, hi]. */
        public long between(long lo, long hi) {
            return lo + ((next() >>> 1) % (hi - lo + 1));
        }

        public double unit() {
            return Mix.unit(next());
        }

        public boolean chance(double p) {
            return unit() < p;
        }
    }
}
