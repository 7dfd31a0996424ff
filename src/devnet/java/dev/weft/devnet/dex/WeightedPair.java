package dev.weft.devnet.dex;

/**
 * A pair of {@code 0x1::dex} (initia-labs/movevm {@code dex.move}): two coins with weights that move linearly from
 * {@code weights_before} to {@code weights_after} between their timestamps (a liquidity bootstrapping pair; equal
 * timestamps for a fixed pair), a swap fee rate, and the pool's two balances. The swap follows the module's
 * {@code swap_simulation}: the fee is {@code ceil(rate·amount)} but at least 1, and the return amount is
 * {@code truncate((1 − pow(B_in/(B_in + amount − fee), w_in/w_out))·B_out)} with the module's own series for
 * {@code pow} and {@code ln}, term by term in 18-decimal arithmetic.
 */
final class WeightedPair {
    static final String MODULE = "dex";
    private static final long EMIN_RETURN = 3;
    private static final long EOUT_OF_BASE_RANGE = 6;
    private static final long ELBP_NOT_STARTED = 14;
    private static final long EZERO_AMOUNT_IN = 20;
    /** The series stop once a term is at most 10^5 · 10^-18 (the module's PRECISION, a scaled value). */
    private static final MoveDecimal PRECISION = MoveDecimal.fromScaled(java.math.BigInteger.valueOf(100_000));

    record Weight(MoveDecimal coinA, MoveDecimal coinB, long timestamp) {}

    final MoveCoin coinA;
    final MoveCoin coinB;
    final String liquidityToken;
    final Weight before;
    final Weight after;
    final MoveDecimal swapFeeRate;
    long reserveA;
    long reserveB;
    final long totalShare;

    WeightedPair(
            MoveCoin coinA,
            MoveCoin coinB,
            String liquidityToken,
            Weight before,
            Weight after,
            MoveDecimal swapFeeRate,
            long reserveA,
            long reserveB) {
        this.coinA = coinA;
        this.coinB = coinB;
        this.liquidityToken = liquidityToken;
        this.before = before;
        this.after = after;
        this.swapFeeRate = swapFeeRate;
        this.reserveA = reserveA;
        this.reserveB = reserveB;
        this.totalShare = (long) Math.sqrt((double) reserveA * (double) reserveB);
    }

    /** {@code get_weight}: the weights at a block timestamp (seconds). */
    MoveDecimal[] weightsAt(long timestamp) {
        if (timestamp <= before.timestamp()) return new MoveDecimal[] {before.coinA(), before.coinB()};
        if (timestamp < after.timestamp()) {
            long interval = after.timestamp() - before.timestamp();
            long sinceBefore = timestamp - before.timestamp();
            long untilAfter = after.timestamp() - timestamp;
            MoveDecimal a =
                    after.coinA().mulByU64(sinceBefore).add(before.coinA().mulByU64(untilAfter));
            MoveDecimal b =
                    after.coinB().mulByU64(sinceBefore).add(before.coinB().mulByU64(untilAfter));
            return new MoveDecimal[] {a.divByU64(interval), b.divByU64(interval)};
        }
        return new MoveDecimal[] {after.coinA(), after.coinB()};
    }

    /** {@code get_swap_simulation_with_fee}: (return amount, fee amount) of offering {@code amount} of one coin. */
    long[] simulate(boolean offerA, long amount, long timestamp) {
        if (timestamp < before.timestamp()) throw MoveAbort.invalidState(MODULE, ELBP_NOT_STARTED);
        MoveDecimal[] w = weightsAt(timestamp);
        return offerA
                ? swapSimulation(reserveA, reserveB, w[0], w[1], amount, swapFeeRate)
                : swapSimulation(reserveB, reserveA, w[1], w[0], amount, swapFeeRate);
    }

    /** {@code swap_script}: executes the swap on the balances, aborting with EMIN_RETURN below {@code minReturn}. */
    long[] swap(boolean offerA, long amount, Long minReturn, long timestamp) {
        long[] r = simulate(offerA, amount, timestamp);
        if (minReturn != null && minReturn > r[0]) throw MoveAbort.invalidState(MODULE, EMIN_RETURN);
        if (offerA) {
            reserveA = Math.addExact(reserveA, amount);
            reserveB -= r[0];
        } else {
            reserveB = Math.addExact(reserveB, amount);
            reserveA -= r[0];
        }
        return r;
    }

    static long[] swapSimulation(
            long poolIn,
            long poolOut,
            MoveDecimal weightIn,
            MoveDecimal weightOut,
            long amountIn,
            MoveDecimal feeRate) {
        if (amountIn <= 0) throw MoveAbort.invalidArgument(MODULE, EZERO_AMOUNT_IN);
        MoveDecimal exp = weightIn.div(weightOut);
        long fee = feeRate.mulByU64(amountIn).ceilU64();
        if (fee == 0) fee = 1;
        long adjusted = amountIn - fee;
        MoveDecimal base = MoveDecimal.fromRatioU64(poolIn, Math.addExact(poolIn, adjusted));
        MoveDecimal sub = pow(base, exp);
        return new long[] {MoveDecimal.ONE.sub(sub).mulByU64(poolOut).truncateU64(), fee};
    }

    /** a^x = 1 + Σ k^n/n!, k = x·ln(a); for a &lt; 1 the odd terms are negative and subtracted last. */
    static MoveDecimal pow(MoveDecimal base, MoveDecimal exp) {
        if (!(base.gt(MoveDecimal.fromRatioU64(1, 100)) && base.lt(MoveDecimal.fromU64(2)))) {
            throw MoveAbort.invalidArgument(MODULE, EOUT_OF_BASE_RANGE);
        }
        MoveDecimal res = MoveDecimal.ONE;
        Object[] ln = ln(base);
        MoveDecimal lnA = (MoveDecimal) ln[0];
        boolean neg = (Boolean) ln[1];
        MoveDecimal k = lnA.mul(exp);
        MoveDecimal comp = k;
        long index = 1;
        java.util.List<MoveDecimal> subs = new java.util.ArrayList<>();
        while (comp.gt(PRECISION)) {
            if ((index & 1) == 1 && neg) {
                subs.add(comp);
            } else {
                res = res.add(comp);
            }
            comp = comp.mul(k).divByU64(index + 1);
            index++;
        }
        for (MoveDecimal s : subs) res = res.sub(s);
        return res;
    }

    /** ln(1 + a) = Σ (−1)^(n+1)·a^n/n; returns |ln(num)| and whether ln(num) is negative (num &lt; 1). */
    static Object[] ln(MoveDecimal num) {
        MoveDecimal a;
        boolean aNeg;
        if (num.compareTo(MoveDecimal.ONE) >= 0) {
            a = num.sub(MoveDecimal.ONE);
            aNeg = false;
        } else {
            a = MoveDecimal.ONE.sub(num);
            aNeg = true;
        }
        MoveDecimal res = MoveDecimal.ZERO;
        MoveDecimal comp = a;
        long index = 1;
        while (comp.gt(PRECISION)) {
            if ((index & 1) == 0 && !aNeg) {
                res = res.sub(comp);
            } else {
                res = res.add(comp);
            }
            comp = comp.mul(a).mulByU64(index).divByU64(index + 1);
            index++;
        }
        return new Object[] {res, aNeg};
    }
}
