package dev.weft.devnet.gen;

import java.math.BigInteger;
import java.util.List;

/**
 * The EVM view of a single-call tx (MsgCall or MsgCreate). {@code hash} is {@code 0x} + Keccak-256 of the signed
 * Ethereum tx ({@link EvmBuilder#sign}), as minievm names it, not of the Cosmos TxRaw;
 * {@code logs} are exactly the tx's Cosmos {@code evm} events, fee payment first; {@code to} is null for a creation;
 * {@code envelope} the signed tx's type and fee fields.
 */
public record EvmTx(
        String hash,
        Actor from,
        String to,
        String contractAddress,
        BigInteger value,
        String input,
        long nonce,
        long gas,
        long gasUsed,
        boolean status,
        List<EvmLog> logs,
        CallFrame frame,
        String r,
        String s,
        String yParity,
        byte[] bloom,
        Envelope envelope) {

    /**
     * The signed tx's type (0 legacy, 1 EIP-2930, 2 EIP-1559), its fee cap ({@code maxFeePerGas}, or the gas price) and
     * tip ({@code maxPriorityFeePerGas}, or the gas price), and {@code v} (the y parity, or {@code chainId * 2 + 35 + y}
     * for a legacy tx), as {@code 0x} quantities. No tx here carries an access list.
     */
    public record Envelope(int type, String feeCap, String tip, String v) {
        /** The devnet's own EVM txs: EIP-1559, fee cap = the devnet's gas price, no tip. */
        public static Envelope devnet(String yParity) {
            return new Envelope(2, Abi.quantity(Planner.EVM_GAS_PRICE), "0x0", yParity);
        }
    }
}
