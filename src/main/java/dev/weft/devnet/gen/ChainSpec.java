package dev.weft.devnet.gen;

import dev.weft.chain.Hashes;
import dev.weft.config.ChainConfig;
import dev.weft.devnet.DevnetConfig;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Everything a simulated chain is generated from. Two chains with equal specs are byte-identical at every height; a
 * second chain (another id, prefix or seed) is just another spec served on other ports.
 *
 * @param senders    accounts with keys that sign txs (weighted: a few send much more than the rest)
 * @param recipients addresses that only receive (the long tail of holders)
 */
public record ChainSpec(String chainId, String bech32Prefix, long seed, Instant genesisTime, Duration blockInterval,
                        int txsPerBlock, double emptyBlockShare, int senders, int recipients) {

  public static final int DEFAULT_SENDERS = 256;

  /** The spec of the configured devnet with that genesis time. */
  public static ChainSpec of(DevnetConfig d, ChainConfig chain, Instant genesis) {
    return new ChainSpec(chain.chainId(), chain.bech32Prefix(), d.seed(), genesis, d.blockInterval(), d.txsPerBlock(),
        d.emptyBlockShare(), DEFAULT_SENDERS, d.recipients());
  }

  /** The genesis time that puts a history of {@code blocks} blocks right before {@code now} (to the second). */
  public static Instant genesisBefore(Instant now, Duration interval, long blocks) {
    return now.minus(interval.multipliedBy(Math.max(0, blocks - 1))).truncatedTo(ChronoUnit.SECONDS);
  }

  /** The EVM chain id: the first 8 bytes of Keccak-256 of the chain id, modulo 2^52 (fits a JavaScript number). */
  public long evmChainId() {
    byte[] h = Hashes.keccak256(chainId.getBytes(StandardCharsets.UTF_8));
    long v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | (h[i] & 0xff);
    return v & ((1L << 52) - 1);
  }

  public String valoperPrefix() {
    return bech32Prefix + "valoper";
  }
}
