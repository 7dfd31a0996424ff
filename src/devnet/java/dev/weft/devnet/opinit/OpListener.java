package dev.weft.devnet.opinit;

/** What the executor learns from the chains: deposits initiated on the L1 and withdrawals initiated on a rollup. */
public interface OpListener {
    void depositInitiated(Deposit deposit);

    void withdrawalInitiated(long bridgeId, long l2Sequence, long l2Height);

    /**
     * An L1 deposit of {@code amount} of {@code l1Denom} for {@code to} on the rollup of {@code bridgeId}.
     *
     * @param data base64 of the deposit's hook data
     */
    record Deposit(
            long bridgeId,
            long l1Sequence,
            String from,
            String to,
            String l1Denom,
            String l2Denom,
            String amount,
            String data,
            long l1Height,
            long timeNanos) {}
}
