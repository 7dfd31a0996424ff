package dev.weft.bench;

import dev.weft.testsupport.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A bench's scratch directory (its embedded PostgreSQL, the devnet's log), deleted when the bench's JVM exits, also when
 * it is stopped with SIGTERM or Ctrl-C: an interrupted 12,000-block run otherwise leaves 3–6 GB behind.
 */
final class BenchWork {
    private BenchWork() {}

    static Path create(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> TestDatabase.deleteTree(dir), "bench-work-cleanup"));
        return dir;
    }

    /**
     * {@code conf/weft.json} with its default chain only: the benches measure one chain against its own baseline (the
     * {@code chains} entries would each need a node of their own; {@code bench/multichain.sh} measures several).
     */
    static io.vertx.core.json.JsonObject singleChainConf() throws IOException {
        io.vertx.core.json.JsonObject conf =
                new io.vertx.core.json.JsonObject(Files.readString(Path.of("conf/weft.json")));
        conf.remove("chains");
        conf.remove("default_chain");
        return conf;
    }
}
