package dev.weft.devnet.gen;

import dev.weft.chain.Hex;
import java.util.List;

/**
 * One generated block: CometBFT header hashes (header hashes are pseudo-random per height, except {@code data_hash},
 * the real Merkle root of the txs), the proposer, the txs, the block-level events, and the EVM view: the EVM txs in
 * order with their cumulative gas and first block-wide log index. Immutable once built.
 */
public final class Block {
    /** SHA-256 of nothing: the hash of an empty list (data, evidence, results). */
    public static final byte[] EMPTY_HASH = dev.weft.chain.Hashes.sha256(new byte[0]);

    public final long height;
    /** Block time, nanoseconds since the epoch. */
    public final long timeNanos;

    public final byte[] hash;
    /** Null at height 1. */
    public final byte[] lastBlockHash;

    public final byte[] partsHash;
    public final byte[] lastPartsHash;
    public final byte[] lastCommitHash;
    public final byte[] dataHash;
    public final byte[] validatorsHash;
    public final byte[] consensusHash;
    public final byte[] appHash;
    public final byte[] lastResultsHash;
    /** App hash after this block (what {@code block_results} reports). */
    public final byte[] resultsAppHash;

    public final Validator proposer;
    /** Signature of the proposer over the previous block (this block's last commit). */
    public final byte[] lastCommitSignature;

    public final List<Tx> txs;
    public final List<Event> finalizeEvents;
    public final List<Tx> evmTxs;
    public final long[] cumulativeGas;
    public final int[] firstLogIndex;
    public final byte[] logsBloom;
    public final long evmGasUsed;
    public final long size;

    Block(
            long height,
            long timeNanos,
            byte[] hash,
            byte[] lastBlockHash,
            byte[] partsHash,
            byte[] lastPartsHash,
            byte[] lastCommitHash,
            byte[] dataHash,
            byte[] validatorsHash,
            byte[] consensusHash,
            byte[] appHash,
            byte[] lastResultsHash,
            byte[] resultsAppHash,
            Validator proposer,
            byte[] lastCommitSignature,
            List<Tx> txs,
            List<Event> finalizeEvents,
            List<Tx> evmTxs,
            long[] cumulativeGas,
            int[] firstLogIndex,
            byte[] logsBloom,
            long evmGasUsed,
            long size) {
        this.height = height;
        this.timeNanos = timeNanos;
        this.hash = hash;
        this.lastBlockHash = lastBlockHash;
        this.partsHash = partsHash;
        this.lastPartsHash = lastPartsHash;
        this.lastCommitHash = lastCommitHash;
        this.dataHash = dataHash;
        this.validatorsHash = validatorsHash;
        this.consensusHash = consensusHash;
        this.appHash = appHash;
        this.lastResultsHash = lastResultsHash;
        this.resultsAppHash = resultsAppHash;
        this.proposer = proposer;
        this.lastCommitSignature = lastCommitSignature;
        this.txs = txs;
        this.finalizeEvents = finalizeEvents;
        this.evmTxs = evmTxs;
        this.cumulativeGas = cumulativeGas;
        this.firstLogIndex = firstLogIndex;
        this.logsBloom = logsBloom;
        this.evmGasUsed = evmGasUsed;
        this.size = size;
    }

    /** Upper-case hex block hash (CometBFT RPC). */
    public String hashHex() {
        return Hex.upper(hash);
    }

    /** {@code 0x} + lower-case hex block hash: the EVM block hash is the CometBFT one. */
    public String ethHash() {
        return Hex.prefixed(hash);
    }

    /** Position of an EVM tx among the block's EVM txs (its {@code transactionIndex}), or -1. */
    public int evmIndex(Tx tx) {
        for (int i = 0; i < evmTxs.size(); i++) if (evmTxs.get(i) == tx) return i;
        return -1;
    }
}
