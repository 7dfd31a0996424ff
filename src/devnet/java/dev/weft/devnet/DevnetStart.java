package dev.weft.devnet;

import dev.weft.devnet.config.DevnetConfig;
import dev.weft.devnet.gen.ChainSpec;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a devnet starts: its genesis time and initial head. An explicit genesis time, or history mode, gives exactly
 * {@code history_blocks}. In live mode with an "auto" genesis the first start writes its genesis time to the state file;
 * later starts reuse it, so the chain has grown by the time it was down (like a real chain) and an indexer resumes
 * instead of finding a head below its cursor. When a live chain cannot continue the saved one (no state file, a state
 * file of another chain, an unreadable one), it starts afresh and {@code restartWarning} says so, loudly in the log: a
 * database that indexed the earlier chain would otherwise get the new chain's blocks stitched onto the old ones (a
 * gap of hours in block times). Blocking (file IO): run it on a worker.
 */
record DevnetStart(Instant genesis, long head, String restartWarning) {
    private static final Logger LOG = LoggerFactory.getLogger(DevnetStart.class);

    static DevnetStart resolve(DevnetConfig d, String chainId, Instant now) {
        long history = d.historyBlocks();
        if (d.genesisTime() != null) return new DevnetStart(d.genesisTime(), history, null);
        Instant fresh = ChainSpec.genesisBefore(now, d.blockInterval(), history);
        if (d.mode() == DevnetConfig.Mode.HISTORY) return new DevnetStart(fresh, history, null);
        if (d.stateFile().isEmpty()) {
            return fresh(
                    fresh,
                    history,
                    "devnet.state_file is empty and devnet.genesis_time is auto, so every start is a new chain");
        }
        Path file = Path.of(d.stateFile());
        JsonObject identity = new JsonObject()
                .put("chain_id", chainId)
                .put("seed", d.seed())
                .put("block_interval_ms", d.blockInterval().toMillis())
                .put("txs_per_block", d.txsPerBlock())
                .put("empty_block_share", d.emptyBlockShare())
                .put("recipients", d.recipients());
        try {
            if (Files.exists(file)) {
                JsonObject saved = new JsonObject(Files.readString(file));
                Instant genesis = Instant.parse(saved.getString("genesis_time"));
                if (sameChain(identity, saved)) {
                    long grown = Duration.between(genesis, now).toNanos()
                                    / d.blockInterval().toNanos()
                            + 1;
                    return new DevnetStart(genesis, Math.max(history, grown), null);
                }
                write(file, identity, fresh);
                return fresh(
                        fresh,
                        history,
                        "the state file " + file
                                + " belongs to another devnet chain (chain id, seed or block settings changed)");
            }
            write(file, identity, fresh);
            return new DevnetStart(fresh, history, null);
        } catch (IOException | RuntimeException e) {
            return fresh(fresh, history, "the state file " + file + " is unusable (" + e.getMessage() + ")");
        }
    }

    private static void write(Path file, JsonObject identity, Instant genesis) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(
                file, identity.copy().put("genesis_time", genesis.toString()).encodePrettily());
    }

    private static DevnetStart fresh(Instant genesis, long history, String why) {
        String warning = "devnet live mode starts a NEW chain (genesis " + genesis + ", " + history
                + " blocks of history): " + why
                + ". A database that indexed an earlier devnet chain would get these blocks after its own, with a gap in block times;"
                + " pin devnet.genesis_time, keep devnet.state_file, or start from an empty database";
        LOG.warn(warning);
        return new DevnetStart(genesis, history, warning);
    }

    private static boolean sameChain(JsonObject identity, JsonObject saved) {
        for (String k : identity.fieldNames()) {
            if (!String.valueOf(identity.getValue(k)).equals(String.valueOf(saved.getValue(k)))) return false;
        }
        return true;
    }
}
