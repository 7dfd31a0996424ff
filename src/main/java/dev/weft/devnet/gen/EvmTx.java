package dev.weft.devnet.gen;

import java.math.BigInteger;
import java.util.List;

/**
 * The EVM view of a single-call tx (MsgCall or MsgCreate). {@code hash} is {@code 0x} + Keccak-256 of the signed
 * Ethereum tx ({@link EvmBuilder#sign}), as minievm names it, not of the Cosmos TxRaw;
 * {@code logs} are exactly the tx's Cosmos {@code evm} events, fee payment first; {@code to} is null for a creation.
 */
public record EvmTx(String hash, Actor from, String to, String contractAddress, BigInteger value, String input,
                    long nonce, long gas, long gasUsed, boolean status, List<EvmLog> logs, CallFrame frame, String r,
                    String s, String yParity, byte[] bloom) {
}
