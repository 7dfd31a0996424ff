package dev.weft.devnet.dex;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * {@code 0x1::bigdecimal::BigDecimal} of initia_stdlib (initia-labs/movevm {@code bigdecimal.move}): an unsigned
 * integer scaled by 10^18; every product and quotient is truncated to the scale, a subtraction below zero aborts.
 * One method per function of the module that the DEX modules call, with the same rounding.
 */
final class MoveDecimal implements Comparable<MoveDecimal> {
    private static final BigInteger F = BigInteger.TEN.pow(18);
    private static final BigInteger F_1 = F.subtract(BigInteger.ONE);
    static final MoveDecimal ZERO = new MoveDecimal(BigInteger.ZERO);
    static final MoveDecimal ONE = new MoveDecimal(F);

    private final BigInteger scaled;

    private MoveDecimal(BigInteger scaled) {
        this.scaled = scaled;
    }

    static MoveDecimal fromScaled(BigInteger scaled) {
        return new MoveDecimal(scaled);
    }

    static MoveDecimal fromU64(long v) {
        return new MoveDecimal(BigInteger.valueOf(v).multiply(F));
    }

    static MoveDecimal fromRatioU64(long numerator, long denominator) {
        if (denominator == 0) throw new MoveAbort("bigdecimal", 0x10065);
        return new MoveDecimal(BigInteger.valueOf(numerator).multiply(F).divide(BigInteger.valueOf(denominator)));
    }

    /** The JSON form of the module's value ("0.003"): parsed exactly, digits past the 18th dropped. */
    static MoveDecimal parse(String decimal) {
        return new MoveDecimal(new BigDecimal(decimal).movePointRight(18).toBigInteger());
    }

    MoveDecimal add(MoveDecimal o) {
        return new MoveDecimal(scaled.add(o.scaled));
    }

    MoveDecimal sub(MoveDecimal o) {
        if (scaled.compareTo(o.scaled) < 0) throw new MoveAbort("bigdecimal", 0x10064);
        return new MoveDecimal(scaled.subtract(o.scaled));
    }

    MoveDecimal mul(MoveDecimal o) {
        return new MoveDecimal(scaled.multiply(o.scaled).divide(F));
    }

    MoveDecimal div(MoveDecimal o) {
        if (o.scaled.signum() == 0) throw new MoveAbort("bigdecimal", 0x10065);
        return new MoveDecimal(scaled.multiply(F).divide(o.scaled));
    }

    MoveDecimal mulByU64(long v) {
        return new MoveDecimal(scaled.multiply(BigInteger.valueOf(v)));
    }

    MoveDecimal divByU64(long v) {
        if (v == 0) throw new MoveAbort("bigdecimal", 0x10065);
        return new MoveDecimal(scaled.divide(BigInteger.valueOf(v)));
    }

    long truncateU64() {
        return scaled.divide(F).longValueExact();
    }

    long ceilU64() {
        return scaled.add(F_1).divide(F).longValueExact();
    }

    boolean gt(MoveDecimal o) {
        return compareTo(o) > 0;
    }

    boolean lt(MoveDecimal o) {
        return compareTo(o) < 0;
    }

    @Override
    public int compareTo(MoveDecimal o) {
        return scaled.compareTo(o.scaled);
    }

    /** The view JSON's form: the normalized decimal ("0.5", "1", "0.003"). */
    String json() {
        BigDecimal d = new BigDecimal(scaled, 18).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MoveDecimal m && m.scaled.equals(scaled);
    }

    @Override
    public int hashCode() {
        return scaled.hashCode();
    }
}
