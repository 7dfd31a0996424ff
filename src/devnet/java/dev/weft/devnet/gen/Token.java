package dev.weft.devnet.gen;

import java.math.BigInteger;

/**
 * An ERC-20 of the chain. On minievm every bank denom is backed by an ERC-20 (the fee denom too), so a bank send moves
 * the token and emits its Transfer log. Amounts are kept in quanta (10^quantumExp base units) so that sums fit a long.
 */
public record Token(
        int index,
        String symbol,
        String name,
        int decimals,
        String bankDenom,
        Actor contract,
        int quantumExp,
        BigInteger quantum,
        String quantumZeros) {

    public Token(
            int index, String symbol, String name, int decimals, String bankDenom, Actor contract, int quantumExp) {
        this(
                index,
                symbol,
                name,
                decimals,
                bankDenom,
                contract,
                quantumExp,
                BigInteger.TEN.pow(quantumExp),
                "0".repeat(quantumExp));
    }

    /** Base units of an amount in quanta, as a decimal string. */
    public String amount(long quanta) {
        return quanta == 0 ? "0" : quanta + quantumZeros;
    }

    public BigInteger units(long quanta) {
        return BigInteger.valueOf(quanta).multiply(quantum);
    }

    /** An amount of this token (the fee token) as the EVM sees native value: in 18 decimals (minievm scales it). */
    public BigInteger evmValue(long quanta) {
        return units(quanta).multiply(BigInteger.TEN.pow(18 - decimals));
    }

    /** The genesis balance of every sender ({@link Planner#GENESIS_TOKENS} whole tokens), in quanta. */
    public long genesisQuanta() {
        return BigInteger.valueOf(Planner.GENESIS_TOKENS)
                .multiply(BigInteger.TEN.pow(decimals - quantumExp))
                .longValueExact();
    }
}
