package dev.weft.route.graph;

/**
 * Unsigned 128-bit steps on pairs of {@code long}s (high, low), for the pool math's fast path: the module's u64/u128
 * arithmetic without allocating a {@link java.math.BigInteger} per step. Callers pass non-negative operands and fall
 * back to {@code BigInteger} on {@link #OVERFLOW}.
 */
final class U128 {
    /** A result that does not fit in 63 bits (every valid result here is non-negative). */
    static final long OVERFLOW = -1;

    private static final long HALF = 1L << 32;

    private U128() {}

    /** The high 64 bits of the unsigned product a·b. */
    static long mulHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    /** ⌊a·b/d⌋ for non-negative a, b and positive d, or {@link #OVERFLOW} when it is 2^63 or more. */
    static long mulDiv(long a, long b, long d) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if (hi == 0 && lo >= 0) return lo / d;
        if (Long.compareUnsigned(hi, d) >= 0) return OVERFLOW;
        long q = divide(hi, lo, d);
        return q < 0 ? OVERFLOW : q;
    }

    /**
     * The unsigned quotient of (hi·2^64 + lo) / d for unsigned {@code hi < d}, so that it fits in 64 bits: long division
     * in 32-bit digits with a normalised divisor (Knuth's algorithm D, as in Hacker's Delight's {@code divlu}).
     */
    static long divide(long hi, long lo, long d) {
        int shift = Long.numberOfLeadingZeros(d);
        long v = d << shift;
        long v1 = v >>> 32;
        long v0 = v & 0xFFFFFFFFL;
        long top = shift == 0 ? hi : (hi << shift) | (lo >>> (64 - shift));
        long low = lo << shift;
        long l1 = low >>> 32;
        long l0 = low & 0xFFFFFFFFL;

        long q1 = Long.divideUnsigned(top, v1);
        long r = top - q1 * v1;
        while (Long.compareUnsigned(q1, HALF) >= 0 || Long.compareUnsigned(q1 * v0, (r << 32) | l1) > 0) {
            q1--;
            r += v1;
            if (Long.compareUnsigned(r, HALF) >= 0) break;
        }
        long mid = (top << 32) + l1 - q1 * v;
        long q0 = Long.divideUnsigned(mid, v1);
        r = mid - q0 * v1;
        while (Long.compareUnsigned(q0, HALF) >= 0 || Long.compareUnsigned(q0 * v0, (r << 32) | l0) > 0) {
            q0--;
            r += v1;
            if (Long.compareUnsigned(r, HALF) >= 0) break;
        }
        return (q1 << 32) + q0;
    }
}
