package dev.weft.devnet.exec;

/**
 * Where a message executes: the chain, the block (height and time in nanoseconds), the tx hash and the message's
 * index in the tx.
 */
public record MsgContext(String chainId, long height, long timeNanos, String txHash, int msgIndex) {}
