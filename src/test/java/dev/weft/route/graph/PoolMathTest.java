package dev.weft.route.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.route.registry.SwapVenue.Pool;
import dev.weft.route.registry.SwapVenue.PoolType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Weighted and stableswap quotes as InitiaDEX computes them: exact out-amounts, fees (⌈rate·amount⌉, at least 1 on
 * weighted pairs), price impact, and no quote where the module aborts. (DexQuotesDevnetTest compares with the
 * devnet's own module for thousands of amounts.)
 */
class PoolMathTest {
    private static Pool weighted(long a, long b, String fee) {
        return Pool.weighted("move/01", "a", "b", BigInteger.valueOf(a), BigInteger.valueOf(b), new BigDecimal(fee));
    }

    private static Pool stable(long a, long b, long amp, String fee) {
        return Pool.stable("move/02", "a", "b", BigInteger.valueOf(a), BigInteger.valueOf(b), new BigDecimal(fee), amp);
    }

    private static String pct(BigDecimal d) {
        return d.setScale(6, RoundingMode.HALF_UP).toPlainString();
    }

    @Test
    @DisplayName(
            "50/50 pair: ⌊(1 − B_in/(B_in + a − fee))·B_out⌋, fee ⌈a·f⌉ but at least 1, in the input denom; impact 1 − exec/spot")
    void weightedEven() {
        PoolMath.Quote q = PoolMath.quote(weighted(1000, 2000, "0.003"), "a", BigInteger.valueOf(100));
        assertEquals(BigInteger.ONE, q.fee()); // ⌈0.3⌉
        assertEquals(BigInteger.valueOf(180), q.amountOut()); // (1 − 1000/1099)·2000 = 180.16…
        assertEquals("a", q.feeDenom());
        assertEquals("10.000000", pct(q.impactPercent())); // spot 2, exec 1.8
        PoolMath.Quote back = PoolMath.quote(weighted(1000, 2000, "0.003"), "b", BigInteger.valueOf(1000));
        assertEquals(BigInteger.valueOf(3), back.fee());
        assertEquals(BigInteger.valueOf(332), back.amountOut()); // (1 − 2000/2997)·1000 = 332.66…
    }

    @Test
    @DisplayName("80/20 pair: the power w_in/w_out = 4 by the module's series, within a unit of the exact value")
    void weightedUneven() {
        Pool p = new Pool(
                "move/03",
                PoolType.WEIGHTED,
                "a",
                "b",
                new BigInteger("400000000000"),
                new BigInteger("50000000000"),
                new BigDecimal("0.005"),
                new BigDecimal("0.8"),
                new BigDecimal("0.2"),
                0);
        BigInteger in = new BigInteger("7000000000");
        PoolMath.Quote q = PoolMath.quote(p, "a", in);
        assertEquals(new BigInteger("35000000"), q.fee());
        BigDecimal base = new BigDecimal("400000000000").divide(new BigDecimal("406965000000"), MathContext.DECIMAL128);
        BigInteger exact = BigDecimal.ONE
                .subtract(base.pow(4))
                .multiply(new BigDecimal("50000000000"))
                .toBigInteger();
        assertTrue(exact.subtract(q.amountOut()).abs().compareTo(BigInteger.ONE) <= 0, q.amountOut() + " vs " + exact);
        // spot: (B_out/w_out)/(B_in/w_in) = (5e10/0.2)/(4e11/0.8) = 0.5 b per a
        PoolMath.Quote tiny = PoolMath.quote(p, "a", BigInteger.valueOf(100_000_000));
        assertTrue(tiny.impactPercent().compareTo(new BigDecimal("0.6")) < 0, pct(tiny.impactPercent()));
    }

    @Test
    @DisplayName(
            "no quote where the module aborts or returns nothing: the fee eats the amount, the base leaves (0.01, 2), zero in")
    void aborts() {
        assertEquals(
                BigInteger.ZERO,
                PoolMath.quote(weighted(1_000_000_000, 1_000_000_000, "0.003"), "a", BigInteger.ONE)
                        .amountOut());
        assertEquals(
                BigInteger.ZERO,
                PoolMath.quote(weighted(1000, 2000, "0"), "a", BigInteger.valueOf(100_000))
                        .amountOut());
        assertEquals(
                BigInteger.ZERO,
                PoolMath.quote(weighted(1000, 2000, "0"), "a", BigInteger.ZERO).amountOut());
        PoolMath.Quote fair =
                PoolMath.quote(stable(1_000_000_000, 1_000_000_000, 100, "0"), "a", BigInteger.valueOf(1000));
        assertTrue(fair.impactPercent().signum() >= 0);
        // an emptied pool quotes nothing either way (its invariant and spot price are undefined)
        for (String in : new String[] {"a", "b"}) {
            assertEquals(
                    BigInteger.ZERO,
                    PoolMath.quote(stable(0, 1_000_000_000, 100, "0"), in, BigInteger.valueOf(1000))
                            .amountOut());
            assertEquals(
                    BigInteger.ZERO,
                    PoolMath.quote(weighted(1_000_000_000, 0, "0.003"), in, BigInteger.valueOf(1000))
                            .amountOut());
        }
    }

    @Test
    @DisplayName(
            "stableswap: D of a balanced pool is the sum; dy = B_out − y − 1, fee ⌈rate·dy⌉ from the output; the invariant holds after it")
    void stableswapBalanced() {
        BigInteger x = new BigInteger("200000000000");
        long ann = 100 * 4 * 100;
        assertEquals(new BigInteger("400000000000"), PoolMath.stableD(x, x, ann));
        PoolMath.Quote q = PoolMath.quote(
                stable(200_000_000_000L, 200_000_000_000L, 100, "0.001"), "a", BigInteger.valueOf(5_000_000));
        assertEquals(BigInteger.valueOf(5_000), q.fee()); // ⌈0.001 · 4 999 999⌉
        assertEquals(BigInteger.valueOf(4_994_999), q.amountOut());
        assertEquals("b", q.feeDenom());
        assertEquals("0.100020", pct(q.impactPercent()));
        BigInteger yNew = PoolMath.stableY(x.add(BigInteger.valueOf(5_000_000)), PoolMath.stableD(x, x, ann), ann);
        BigInteger d2 = PoolMath.stableD(x.add(BigInteger.valueOf(5_000_000)), yNew, ann);
        assertTrue(
                d2.subtract(new BigInteger("400000000000")).abs().compareTo(BigInteger.TWO) <= 0, "D moved to " + d2);
    }

    @Test
    @DisplayName(
            "stableswap beats a 50/50 pair on a large trade in a balanced pool, and an imbalanced pool prices the scarce side up")
    void stableswapShape() {
        BigInteger big = BigInteger.valueOf(50_000_000_000L);
        PoolMath.Quote s = PoolMath.quote(stable(200_000_000_000L, 200_000_000_000L, 100, "0.001"), "a", big);
        PoolMath.Quote c = PoolMath.quote(weighted(200_000_000_000L, 200_000_000_000L, "0.001"), "a", big);
        assertTrue(s.amountOut().compareTo(c.amountOut()) > 0, s.amountOut() + " vs " + c.amountOut());
        assertTrue(s.impactPercent().compareTo(BigDecimal.ONE) < 0, pct(s.impactPercent()));
        assertTrue(c.impactPercent().compareTo(BigDecimal.valueOf(19)) > 0, pct(c.impactPercent()));
        PoolMath.Quote scarce =
                PoolMath.quote(stable(100_000_000_000L, 300_000_000_000L, 10, "0"), "a", BigInteger.valueOf(1_000_000));
        assertTrue(
                scarce.amountOut().compareTo(BigInteger.valueOf(1_000_000)) > 0,
                scarce.amountOut().toString());
        assertTrue(scarce.impactPercent().compareTo(new BigDecimal("0.01")) < 0, pct(scarce.impactPercent()));
    }

    @Test
    @DisplayName(
            "pools whose reserves exceed the long form's 2^62 are quoted by the BigInteger form, with the same rules")
    void widePools() {
        BigInteger reserve = new BigInteger("10000000000000000000"); // 10^19 > 2^62, below u64's maximum
        Pool wide = Pool.weighted("move/04", "a", "b", reserve, reserve, new BigDecimal("0.003"));
        assertFalse(PoolCurve.of(wide).narrow);
        BigInteger in = new BigInteger("1000000000000000"); // 10^15
        PoolMath.Quote q = PoolMath.quote(wide, "a", in);
        assertEquals(new BigInteger("3000000000000"), q.fee());
        BigDecimal net = new BigDecimal(in.subtract(q.fee()));
        BigDecimal exact =
                new BigDecimal(reserve).multiply(net).divide(new BigDecimal(reserve).add(net), MathContext.DECIMAL128);
        BigDecimal off = exact.subtract(new BigDecimal(q.amountOut())).abs().divide(exact, MathContext.DECIMAL128);
        assertTrue(off.compareTo(new BigDecimal("1e-9")) < 0, q.amountOut() + " vs " + exact);

        BigInteger half = new BigInteger("5000000000000000000"); // D = 10^19
        Pool stableWide = Pool.stable("move/05", "a", "b", half, half, new BigDecimal("0.001"), 100);
        assertFalse(PoolCurve.of(stableWide).narrow);
        PoolMath.Quote s = PoolMath.quote(stableWide, "a", in);
        // a tiny trade in a balanced pool: about 1:1 less the 0.1 % fee taken from the output
        BigInteger expected = in.multiply(BigInteger.valueOf(999)).divide(BigInteger.valueOf(1000));
        assertTrue(
                s.amountOut().subtract(expected).abs().compareTo(in.divide(BigInteger.valueOf(1_000_000))) < 0,
                s.amountOut().toString());
        assertEquals("b", s.feeDenom());
    }
}
