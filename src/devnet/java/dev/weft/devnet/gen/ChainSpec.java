package dev.weft.devnet.gen;

import dev.weft.devnet.config.DevnetConfig;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Everything a simulated chain is generated from. Two chains with equal specs are byte-identical at every height; a
 * second chain (another id, prefix or seed) is just another spec served on other ports.
 *
 * @param evmChainId the EVM chain id (1397 for weft-devnet-1 in {@code conf/registry/devnet.json})
 * @param senders    accounts with keys that sign txs (weighted: a few send much more than the rest)
 * @param recipients addresses that only receive (the long tail of holders)
 * @param generated  true for the generated minievm rollup; false for a quiet chain (an L1 or a rollup of another VM in
 *                   the multi-chain devnet) whose blocks hold only the txs submitted to it and its relayers' txs
 */
public record ChainSpec(
        String chainId,
        String bech32Prefix,
        long evmChainId,
        long seed,
        Instant genesisTime,
        Duration blockInterval,
        int txsPerBlock,
        double emptyBlockShare,
        int senders,
        int recipients,
        boolean generated) {

    public static final int DEFAULT_SENDERS = 256;

    /** A generated minievm rollup. */
    public ChainSpec(
            String chainId,
            String bech32Prefix,
            long evmChainId,
            long seed,
            Instant genesisTime,
            Duration blockInterval,
            int txsPerBlock,
            double emptyBlockShare,
            int senders,
            int recipients) {
        this(
                chainId,
                bech32Prefix,
                evmChainId,
                seed,
                genesisTime,
                blockInterval,
                txsPerBlock,
                emptyBlockShare,
                senders,
                recipients,
                true);
    }

    /**
     * A quiet chain: no generated txs (every block is empty unless txs are submitted), its own header hashes (seeded by
     * the devnet seed and the chain id), the same genesis time and block interval as the generated chain.
     */
    public static ChainSpec quiet(
            String chainId, String bech32Prefix, long seed, Instant genesisTime, Duration blockInterval) {
        long chainSeed = seed ^ Mix.hash(seed, 61, chainId.hashCode());
        return new ChainSpec(chainId, bech32Prefix, 0, chainSeed, genesisTime, blockInterval, 0, 0, 1, 1, false);
    }

    /** The spec of the configured devnet with that genesis time. */
    public static ChainSpec of(DevnetConfig d, Instant genesis) {
        return new ChainSpec(
                d.chainId(),
                d.bech32Prefix(),
                d.evmChainId(),
                d.seed(),
                genesis,
                d.blockInterval(),
                d.txsPerBlock(),
                d.emptyBlockShare(),
                DEFAULT_SENDERS,
                d.recipients());
    }

    /** The genesis time that puts a history of {@code blocks} blocks right before {@code now} (to the second). */
    public static Instant genesisBefore(Instant now, Duration interval, long blocks) {
        return now.minus(interval.multipliedBy(Math.max(0, blocks - 1))).truncatedTo(ChronoUnit.SECONDS);
    }

    /** The moniker of the chain's single block producer. */
    public String moniker() {
        return generated ? "weft-devnet-sequencer" : chainId + "-validator";
    }

    /**
     * The bytes of a bech32 address with this chain's {@code prefix}; IllegalArgumentException, worded as the SDK's
     * address codec does, when it does not decode or has another prefix.
     */
    public static byte[] bech32Bytes(String address, String prefix) {
        dev.weft.chain.Bech32.Decoded d = dev.weft.chain.Bech32.decode(address);
        if (!d.prefix().equals(prefix))
            throw new IllegalArgumentException("invalid Bech32 prefix; expected " + prefix + ", got " + d.prefix());
        return d.data();
    }

    public String valoperPrefix() {
        return bech32Prefix + "valoper";
    }
}
