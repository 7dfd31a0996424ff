package dev.weft.devnet;

import dev.weft.config.DevnetConfig;
import dev.weft.devnet.gen.ChainSpec;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Where a devnet starts: its genesis time and initial head. An explicit genesis time, or history mode, gives exactly
 * {@code history_blocks}. In live mode with an "auto" genesis the first start writes its genesis time to the state file;
 * later starts reuse it, so the chain has grown by the time it was down (like a real chain) and an indexer resumes
 * instead of finding a head below its cursor. Blocking (file IO): run it on a worker.
 */
record DevnetStart(Instant genesis, long head) {
  private static final Logger LOG = LoggerFactory.getLogger(DevnetStart.class);

  static DevnetStart resolve(DevnetConfig d, String chainId, Instant now) {
    long history = d.historyBlocks();
    if (d.genesisTime() != null) return new DevnetStart(d.genesisTime(), history);
    Instant fresh = ChainSpec.genesisBefore(now, d.blockInterval(), history);
    if (d.mode() == DevnetConfig.Mode.HISTORY || d.stateFile().isEmpty()) return new DevnetStart(fresh, history);
    Path file = Path.of(d.stateFile());
    JsonObject identity = new JsonObject().put("chain_id", chainId).put("seed", d.seed())
        .put("block_interval_ms", d.blockInterval().toMillis()).put("txs_per_block", d.txsPerBlock())
        .put("empty_block_share", d.emptyBlockShare()).put("recipients", d.recipients());
    try {
      if (Files.exists(file)) {
        JsonObject saved = new JsonObject(Files.readString(file));
        Instant genesis = Instant.parse(saved.getString("genesis_time"));
        if (sameChain(identity, saved)) {
          long grown = Duration.between(genesis, now).toNanos() / d.blockInterval().toNanos() + 1;
          return new DevnetStart(genesis, Math.max(history, grown));
        }
      }
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, identity.copy().put("genesis_time", fresh.toString()).encodePrettily());
    } catch (IOException | RuntimeException e) {
      LOG.warn("devnet state file {} unusable ({}); starting a fresh chain", file, e.getMessage());
    }
    return new DevnetStart(fresh, history);
  }

  private static boolean sameChain(JsonObject identity, JsonObject saved) {
    for (String k : identity.fieldNames()) {
      if (!String.valueOf(identity.getValue(k)).equals(String.valueOf(saved.getValue(k)))) return false;
    }
    return true;
  }
}
