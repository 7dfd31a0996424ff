package dev.weft.devnet.gen;

import dev.weft.chain.Hashes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the block at any height from (spec, height) alone, in O(txs of the block): the layout says which global txs
 * it holds, the planner what each does, the builders render them. Header hashes are pseudo-random functions of the
 * height (so {@code last_block_id} needs no previous block); {@code data_hash} is the real CometBFT Merkle root.
 */
public final class BlockFactory {
    private static final byte[] EMPTY_HASH = Block.EMPTY_HASH;
    private static final long TAG_TIME = 41, TAG_COMMIT_SIG = 42;

    private final ChainSpec spec;
    private final Genesis genesis;
    private final Layout layout;
    private final Planner planner;
    private final TxBuilder txs;
    private final Bloom bloom;
    private final long genesisNanos;
    private final long intervalNanos;

    public BlockFactory(ChainSpec spec, Genesis genesis, Layout layout, Planner planner, TxBuilder txs, Bloom bloom) {
        this.spec = spec;
        this.genesis = genesis;
        this.layout = layout;
        this.planner = planner;
        this.txs = txs;
        this.bloom = bloom;
        this.genesisNanos = spec.genesisTime().getEpochSecond() * 1_000_000_000L
                + spec.genesisTime().getNano();
        this.intervalNanos = spec.blockInterval().toNanos();
    }

    public Block block(long h) {
        if (h < 1) throw new IllegalArgumentException("height must be at least 1");
        long first = layout.firstTx(h);
        int n = layout.txCount(h);
        List<Tx> list = new ArrayList<>(n);
        List<Tx> evm = new ArrayList<>(n);
        long size = 600;
        for (int i = 0; i < n; i++) {
            Tx tx = txs.build(planner.plan(first + i), i);
            list.add(tx);
            if (tx.evm != null) evm.add(tx);
            size += tx.raw.length + 3;
        }
        long[] cumulative = new long[evm.size()];
        int[] firstLog = new int[evm.size()];
        byte[] blockBloom = new byte[Bloom.BYTES];
        long gas = 0;
        int logs = 0;
        for (int i = 0; i < evm.size(); i++) {
            EvmTx e = evm.get(i).evm;
            gas += e.gasUsed();
            cumulative[i] = gas;
            firstLog[i] = logs;
            logs += e.logs().size();
            Bloom.or(blockBloom, e.bloom());
        }
        Validator proposer = proposer(h);
        return new Block(
                h,
                timeNanos(h),
                blockHash(h),
                h == 1 ? null : blockHash(h - 1),
                pseudo("parts", h),
                h == 1 ? null : pseudo("parts", h - 1),
                h == 1 ? EMPTY_HASH : pseudo("commit", h - 1),
                merkleRoot(list),
                pseudo("validators", 0),
                pseudo("consensus", 0),
                appHash(h),
                lastResultsHash(h),
                appHash(h + 1),
                proposer,
                h == 1 ? null : commitSignature(h - 1),
                list,
                finalizeEvents(h, n),
                evm,
                cumulative,
                firstLog,
                blockBloom,
                gas,
                size);
    }

    /**
     * The block at h with the txs submitted to it appended after the generated ones: the data hash covers them all, the
     * size and the end-block tx count follow, and the last-results hash is non-empty when the previous block had
     * submitted txs. Header hashes, time and proposer stay those of the generated block.
     */
    public Block withSubmitted(Block b, List<Tx> submitted, boolean previousHadSubmitted) {
        if (submitted.isEmpty() && !previousHadSubmitted) return b;
        List<Tx> all = new ArrayList<>(b.txs.size() + submitted.size());
        all.addAll(b.txs);
        long size = b.size;
        for (Tx tx : submitted) {
            all.add(tx);
            size += tx.raw.length + 3;
        }
        byte[] lastResults = previousHadSubmitted && b.height > 1 ? pseudo("results", b.height - 1) : b.lastResultsHash;
        List<Tx> evm = new ArrayList<>(b.evmTxs);
        for (Tx tx : submitted) if (tx.evm != null) evm.add(tx);
        long[] cumulative = java.util.Arrays.copyOf(b.cumulativeGas, evm.size());
        int[] firstLog = java.util.Arrays.copyOf(b.firstLogIndex, evm.size());
        byte[] blockBloom = b.logsBloom.clone();
        long gas = b.evmGasUsed;
        int logs = 0;
        for (Tx tx : b.evmTxs) logs += tx.evm.logs().size();
        for (int i = b.evmTxs.size();
                i < evm.size();
                i++) { // submitted calls with an EVM view follow the generated ones
            EvmTx e = evm.get(i).evm;
            gas += e.gasUsed();
            cumulative[i] = gas;
            firstLog[i] = logs;
            logs += e.logs().size();
            Bloom.or(blockBloom, e.bloom());
        }
        return new Block(
                b.height,
                b.timeNanos,
                b.hash,
                b.lastBlockHash,
                b.partsHash,
                b.lastPartsHash,
                b.lastCommitHash,
                merkleRoot(all),
                b.validatorsHash,
                b.consensusHash,
                b.appHash,
                lastResults,
                b.resultsAppHash,
                b.proposer,
                b.lastCommitSignature,
                List.copyOf(all),
                finalizeEvents(b.height, all.size()),
                List.copyOf(evm),
                cumulative,
                firstLog,
                blockBloom,
                gas,
                size);
    }

    /** The proposer's signature in the commit of height h (carried by block h + 1 as its last commit). */
    public byte[] commitSignature(long h) {
        return Mix.bytes(spec.seed(), TAG_COMMIT_SIG, h, 64);
    }

    public Validator proposer(long h) {
        List<Validator> vals = genesis.validators();
        return vals.get((int) (h % vals.size()));
    }

    public long timeNanos(long h) {
        long jitter = Math.floorMod(Mix.hash(spec.seed(), TAG_TIME, h), Math.max(1, intervalNanos / 4));
        return genesisNanos + (h - 1) * intervalNanos + jitter;
    }

    /** The block hash of height h (32 bytes), without building the block. */
    public byte[] blockHash(long h) {
        return pseudo("block", h);
    }

    /** The app hash in the header of height h (the state after h − 1). */
    public byte[] appHash(long h) {
        return pseudo("app", h);
    }

    private byte[] lastResultsHash(long h) {
        return h == 1 || layout.txCount(h - 1) == 0 ? EMPTY_HASH : pseudo("results", h - 1);
    }

    private byte[] pseudo(String what, long h) {
        ByteBuffer b = ByteBuffer.allocate(16 + what.length());
        b.putLong(spec.seed()).putLong(h).put(what.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        return Hashes.sha256(b.array());
    }

    /** Block-level events, tagged with the ABCI phase as Cosmos SDK 0.50 does ({@code mode} attribute, not indexed). */
    private static List<Event> finalizeEvents(long h, int txCount) {
        return List.of(
                new Event(
                        "devnet_begin_block",
                        List.of(
                                new Event.Attr("height", Long.toString(h), true),
                                new Event.Attr("mode", "BeginBlock", false))),
                new Event(
                        "devnet_end_block",
                        List.of(
                                new Event.Attr("tx_count", Integer.toString(txCount), true),
                                new Event.Attr("mode", "EndBlock", false))));
    }

    /** CometBFT's RFC 6962 Merkle root over the SHA-256 hashes of the txs (SHA-256 of nothing for an empty block). */
    static byte[] merkleRoot(List<Tx> txs) {
        if (txs.isEmpty()) return EMPTY_HASH;
        byte[][] leaves = new byte[txs.size()][];
        for (int i = 0; i < leaves.length; i++) leaves[i] = Hashes.sha256(txs.get(i).raw);
        return merkle(leaves, 0, leaves.length);
    }

    private static byte[] merkle(byte[][] items, int from, int to) {
        int n = to - from;
        if (n == 1) {
            byte[] in = new byte[1 + items[from].length];
            System.arraycopy(items[from], 0, in, 1, items[from].length);
            return Hashes.sha256(in);
        }
        int k = Integer.highestOneBit(n - 1);
        byte[] left = merkle(items, from, from + k);
        byte[] right = merkle(items, from + k, to);
        byte[] in = new byte[65];
        in[0] = 1;
        System.arraycopy(left, 0, in, 1, 32);
        System.arraycopy(right, 0, in, 33, 32);
        return Hashes.sha256(in);
    }
}
