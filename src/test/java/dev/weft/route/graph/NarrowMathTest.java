package dev.weft.route.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The pool math's {@code long} forms against its {@code BigInteger} forms (the reference, and the fallback): equal on
 * every input they accept, and they accept the sizes real pools have.
 */
class NarrowMathTest {
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    private static BigInteger unsigned(long v) {
        return v >= 0 ? BigInteger.valueOf(v) : BigInteger.valueOf(v).add(TWO_64);
    }

    /** A value of a random bit length in [1, maxBits], so that small and large magnitudes are both common. */
    private static long anyBits(Random r, int maxBits) {
        int bits = 1 + r.nextInt(maxBits);
        return bits == 64 ? r.nextLong() : r.nextLong() >>> (64 - bits);
    }

    @Test
    @DisplayName(
            "128-by-64-bit division and a·b/d equal BigInteger's on 200,000 random operands, including every bit length")
    void division() {
        Random r = new Random(7);
        for (int i = 0; i < 200_000; i++) {
            long d = anyBits(r, 64);
            if (d == 0) continue;
            long hi = anyBits(r, 64);
            if (Long.compareUnsigned(hi, d) >= 0) hi = Long.remainderUnsigned(hi, d);
            long lo = anyBits(r, 64);
            BigInteger n = unsigned(hi).shiftLeft(64).add(unsigned(lo));
            assertEquals(n.divide(unsigned(d)), unsigned(U128.divide(hi, lo, d)), hi + ":" + lo + " / " + d);

            long a = anyBits(r, 63);
            long b = anyBits(r, 63);
            long pd = anyBits(r, 63);
            if (pd == 0) continue;
            BigInteger exact =
                    BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).divide(BigInteger.valueOf(pd));
            long got = U128.mulDiv(a, b, pd);
            if (exact.bitLength() <= 63) assertEquals(exact.longValueExact(), got, a + "·" + b + "/" + pd);
            else assertEquals(U128.OVERFLOW, got);

            long x = r.nextLong();
            long y = r.nextLong();
            assertEquals(unsigned(x).multiply(unsigned(y)).shiftRight(64), unsigned(U128.mulHigh(x, y)));
        }
    }

    @Test
    @DisplayName(
            "weighted out-given-in: the long form equals the BigInteger form for random reserves, weights, fees and amounts")
    void weighted() {
        Random r = new Random(11);
        int narrow = 0;
        int cases = 100_000;
        for (int i = 0; i < cases; i++) {
            // up to the long form's bound, 2^62 − 1
            long reserveIn = anyBits(r, 62) | 1;
            long reserveOut = anyBits(r, 62) | 1;
            long amount = anyBits(r, 62) | 1;
            // weights from 1 % to 99 % in every tenth case, else from 20 % to 80 %; fee rates up to 10 %
            long wIn = (i % 10 == 0 ? 1 + r.nextInt(99) : 20 + r.nextInt(61)) * (WeightedCurve.UNIT_LONG / 100);
            BigInteger exponent =
                    WeightedCurve.ratio(BigInteger.valueOf(wIn), BigInteger.valueOf(WeightedCurve.UNIT_LONG - wIn));
            long feeRate = r.nextInt(100_000_001) * 1_000_000_000L;

            BigInteger[] reference = WeightedCurve.outGivenIn(
                    BigInteger.valueOf(reserveIn),
                    BigInteger.valueOf(reserveOut),
                    exponent,
                    BigInteger.valueOf(amount),
                    BigInteger.valueOf(feeRate));
            long fee = Math.max(WeightedCurve.ceilTimes(feeRate, amount), 1);
            if (reference != null) assertEquals(reference[1].longValueExact(), fee);
            if (fee > amount) {
                assertEquals(null, reference);
                continue;
            }
            if (!PoolCurve.fits(exponent)) continue; // w_in/w_out of 4.6 or more: a BigInteger pool
            long out = WeightedCurve.outGivenNet(reserveIn, reserveOut, exponent.longValueExact(), amount - fee);
            if (out == WeightedCurve.TOO_WIDE) continue;
            narrow++;
            String at = reserveIn + "/" + reserveOut + " w " + exponent + " fee " + feeRate + " in " + amount;
            if (reference == null) assertEquals(WeightedCurve.NONE, out, at);
            else assertEquals(reference[0].longValueExact(), out, at);
        }
        // only large exponents (w_in/w_out) on swaps that take most of a pool make terms beyond 2^63 (the BigInteger
        // form)
        assertTrue(narrow > cases * 0.9, narrow + " of " + cases + " on longs");
    }

    @Test
    @DisplayName(
            "stableswap y: the long form equals the BigInteger form for random balances, amplifications and amounts")
    void stable() {
        Random r = new Random(13);
        int narrow = 0;
        int cases = 50_000;
        for (int i = 0; i < cases; i++) {
            int bits = 10 + r.nextInt(50);
            long a = 1 + (r.nextLong() >>> (64 - bits));
            long b = 1 + (r.nextLong() >>> (64 - bits - r.nextInt(3)));
            long ann = (1 + r.nextInt(5_000)) * 4L * 100;
            BigInteger d = PoolMath.stableD(BigInteger.valueOf(a), BigInteger.valueOf(b), ann);
            if (!PoolCurve.fits(d)) continue;
            long x = a + 1 + anyBits(r, bits);
            long got = PoolMath.stableY(x, d.longValueExact(), ann);
            if (got == WeightedCurve.TOO_WIDE) continue;
            narrow++;
            assertEquals(
                    PoolMath.stableY(BigInteger.valueOf(x), d, ann).longValueExact(),
                    got,
                    a + "/" + b + " ann " + ann + " x " + x);
        }
        assertTrue(narrow > cases * 0.9, narrow + " of " + cases + " on longs");
    }
}
