package dev.weft.devnet.dex;

import java.math.BigInteger;
import java.util.List;

/**
 * A pool of {@code 0x1::stableswap} (initia-labs/movevm {@code stableswap.move}): n coins on Curve's invariant with
 * {@code ann} = A·n^n·100 (A_PRECISION), a swap fee rate taken from the output as {@code ceil(rate·out)}, and the
 * pool's balances. The return amount is {@code balance_out − y − 1}, y from the module's {@code get_d} and
 * {@code get_y_with_given_d} iterations (u256 integer arithmetic, at most 255 rounds, stop at a change of at most 1).
 */
final class StablePool {
    static final String MODULE = "stableswap";
    private static final long EMIN_RETURN = 3;
    private static final long ECOIN_TYPE = 10;
    private static final long ESAME_COIN_TYPE = 19;
    private static final BigInteger A_PRECISION = BigInteger.valueOf(100);

    final String address;
    final List<MoveCoin> coins;
    final long[] balances;
    final long ann;
    final MoveDecimal swapFeeRate;

    StablePool(String address, List<MoveCoin> coins, long[] balances, long ann, MoveDecimal swapFeeRate) {
        this.address = address;
        this.coins = List.copyOf(coins);
        this.balances = balances.clone();
        this.ann = ann;
        this.swapFeeRate = swapFeeRate;
    }

    int index(String metadata) {
        for (int i = 0; i < coins.size(); i++) if (coins.get(i).metadata().equals(metadata)) return i;
        return -1;
    }

    /** (return amount before the fee, fee amount), as {@code swap_simulation(…, is_offer_amount = true)}. */
    long[] simulate(String offerMetadata, String returnMetadata, long amount) {
        if (offerMetadata.equals(returnMetadata)) throw MoveAbort.invalidArgument(MODULE, ESAME_COIN_TYPE);
        int offer = index(offerMetadata);
        int ret = index(returnMetadata);
        if (offer < 0 || ret < 0) throw MoveAbort.invalidArgument(MODULE, ECOIN_TYPE);
        long d = getD(balances, ann);
        long[] after = balances.clone();
        after[offer] = Math.addExact(after[offer], amount);
        long y = getYWithGivenD(after, ret, ann, d);
        long returnAmount = Math.subtractExact(Math.subtractExact(balances[ret], y), 1);
        if (returnAmount < 0) throw new MoveAbort(MODULE, 0x20000); // u64 underflow: an arithmetic error in Move
        long fee = swapFeeRate.mulByU64(returnAmount).ceilU64();
        return new long[] {returnAmount, fee};
    }

    /** {@code swap_script}: the return amount less the fee, EMIN_RETURN below {@code minReturn}. */
    long swap(String offerMetadata, String returnMetadata, long amount, Long minReturn) {
        long[] r = simulate(offerMetadata, returnMetadata, amount);
        long out = r[0] - r[1];
        if (minReturn != null && minReturn > out) throw MoveAbort.invalidState(MODULE, EMIN_RETURN);
        balances[index(offerMetadata)] += amount;
        balances[index(returnMetadata)] -= out;
        return out;
    }

    static long getD(long[] amounts, long annU64) {
        BigInteger ann = BigInteger.valueOf(annU64);
        BigInteger n = BigInteger.valueOf(amounts.length);
        BigInteger sum = BigInteger.ZERO;
        for (long a : amounts) sum = sum.add(BigInteger.valueOf(a));
        if (sum.signum() == 0) return 0;
        BigInteger d = sum;
        for (int i = 0; i < 255; i++) {
            BigInteger prev = d;
            BigInteger prod = d;
            for (long a : amounts) prod = prod.multiply(d).divide(n).divide(BigInteger.valueOf(a));
            d = ann.multiply(sum)
                    .divide(A_PRECISION)
                    .add(prod.multiply(n))
                    .multiply(d)
                    .divide(ann.subtract(A_PRECISION)
                            .multiply(d)
                            .divide(A_PRECISION)
                            .add(n.add(BigInteger.ONE).multiply(prod)));
            if (d.subtract(prev).abs().compareTo(BigInteger.ONE) <= 0) break;
        }
        return d.longValueExact();
    }

    static long getYWithGivenD(long[] amounts, int yIndex, long annU64, long dU64) {
        BigInteger d = BigInteger.valueOf(dU64);
        BigInteger ann = BigInteger.valueOf(annU64);
        BigInteger n = BigInteger.valueOf(amounts.length);
        BigInteger sum = BigInteger.ZERO;
        BigInteger c = d;
        for (int i = 0; i < amounts.length; i++) {
            if (i == yIndex) continue;
            BigInteger a = BigInteger.valueOf(amounts[i]);
            sum = sum.add(a);
            c = c.multiply(d).divide(a.multiply(n));
        }
        c = c.multiply(d).multiply(A_PRECISION).divide(ann).divide(n);
        BigInteger bPlusD = sum.add(d.multiply(A_PRECISION).divide(ann));
        BigInteger y = d;
        for (int i = 0; i < 255; i++) {
            BigInteger prev = y;
            y = y.multiply(y)
                    .add(c)
                    .divide(y.multiply(BigInteger.TWO).add(bPlusD).subtract(d));
            if (y.subtract(prev).abs().compareTo(BigInteger.ONE) <= 0) break;
        }
        return y.longValueExact();
    }
}
