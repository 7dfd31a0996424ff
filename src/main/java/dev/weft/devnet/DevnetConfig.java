package dev.weft.devnet;

import dev.weft.config.ConfigException;
import dev.weft.config.ConfigSource;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The local simulated chain ({@code devnet.*}): how it is generated (seed, block interval, txs per block, empty-block
 * share, genesis time), how it grows (live: a block every interval after {@code history_blocks}; history: exactly
 * {@code history_blocks}), where it listens (port 0 picks a free port) and which faults it injects.
 *
 * @param genesisTime null = "auto": the first start time minus the history (kept in {@code stateFile} in live mode,
 *                    so that a restarted live chain has grown meanwhile instead of starting over)
 * @param stateFile   where live mode keeps its auto genesis time; empty = nowhere
 */
public record DevnetConfig(long seed, long evmChainId, Mode mode, long historyBlocks, Duration blockInterval, int txsPerBlock,
                           double emptyBlockShare, Instant genesisTime, String host, int rpcPort, int restPort,
                           int jsonRpcPort, int recipients, int txSearchWindow, String stateFile, FaultConfig faults) {

  public enum Mode { LIVE, HISTORY }

  public static DevnetConfig from(ConfigSource c) {
    Duration interval = c.duration("devnet.block_interval", Duration.ofSeconds(1));
    if (interval.toMillis() < 1 || interval.toDays() > 1) throw new ConfigException("devnet.block_interval", "must be between 1ms and 1d (got " + interval.toMillis() + "ms)");
    return new DevnetConfig(
        c.longValue("devnet.seed", 42, Long.MIN_VALUE, Long.MAX_VALUE),
        c.longValue("devnet.evm_chain_id", 1397, 1, (1L << 53) - 1),
        c.enumValue("devnet.mode", Mode.class, Mode.LIVE),
        c.longValue("devnet.history_blocks", 300, 0, 1L << 40),
        interval,
        c.intValue("devnet.txs_per_block", 20, 0, 10_000),
        c.doubleValue("devnet.empty_block_share", 0.1, 0, 0.99),
        genesisTime(c),
        c.string("devnet.host", "127.0.0.1"),
        c.intValue("devnet.rpc_port", 26657, 0, 65535),
        c.intValue("devnet.rest_port", 1317, 0, 65535),
        c.intValue("devnet.json_rpc_port", 8545, 0, 65535),
        c.intValue("devnet.recipients", 4096, 1, 10_000_000),
        c.intValue("devnet.tx_search_window", 1000, 1, 1_000_000),
        c.string("devnet.state_file", "./data/devnet-state.json").trim(),
        FaultConfig.from(c));
  }

  private static Instant genesisTime(ConfigSource c) {
    String s = c.optionalString("devnet.genesis_time");
    if (s == null || s.equalsIgnoreCase("auto")) return null;
    try {
      return Instant.parse(s.trim());
    } catch (DateTimeParseException e) {
      throw new ConfigException("devnet.genesis_time", "must be an RFC 3339 time such as 2025-01-01T00:00:00Z, or auto (got \"" + s + "\")");
    }
  }

  /**
   * Faults injected per request, decided by a hash of (seed, request, attempt number) so that a test sees the same
   * faults whatever the order of its requests.
   *
   * @param shortRestRate     share of heights whose REST {@code /txs/block} answers too few txs for the first
   *                          {@code shortRestAttempts} attempts
   */
  public record FaultConfig(double errorRate, double delayRate, Duration delay, double truncateRate,
                            double shortRestRate, int shortRestAttempts, long seed) {
    static FaultConfig from(ConfigSource c) {
      return new FaultConfig(
          c.doubleValue("devnet.faults.error_rate", 0, 0, 1),
          c.doubleValue("devnet.faults.delay_rate", 0, 0, 1),
          c.duration("devnet.faults.delay", Duration.ofMillis(200)),
          c.doubleValue("devnet.faults.truncate_rate", 0, 0, 1),
          c.doubleValue("devnet.faults.short_rest_rate", 0, 0, 1),
          c.intValue("devnet.faults.short_rest_attempts", 2, 0, 1000),
          c.longValue("devnet.faults.seed", 7, Long.MIN_VALUE, Long.MAX_VALUE));
    }

    public static FaultConfig none() {
      return new FaultConfig(0, 0, Duration.ZERO, 0, 0, 0, 0);
    }

    /** Whether any fault can happen (when not, requests skip the bookkeeping). */
    public boolean any() {
      return errorRate > 0 || delayRate > 0 || truncateRate > 0 || shortRestRate > 0;
    }
  }
}
