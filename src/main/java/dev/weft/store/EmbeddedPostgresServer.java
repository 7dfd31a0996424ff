package dev.weft.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PostgreSQL (zonky binaries, run through {@code unshare} when we are root) with a persistent data
 * directory, so a restart keeps the indexed data. Blocking: call it from a worker thread or before Vert.x starts.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresServer.class);

    private final EmbeddedPostgres pg;
    private final Path dataDir;
    private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);

    private EmbeddedPostgresServer(EmbeddedPostgres pg, Path dataDir) {
        this.pg = pg;
        this.dataDir = dataDir;
    }

    /** Starts (initialising the directory on first use) and waits until the server accepts connections. */
    public static EmbeddedPostgresServer start(
            Path dataDir, int port, boolean fsync, Map<String, String> serverConfig) {
        return start(dataDir, port, fsync, serverConfig, Duration.ZERO);
    }

    /**
     * @param stopGrace at JVM shutdown, how long to leave the owner to stop the server itself (after its verticles have
     *                  finished their last commits) before the server is stopped anyway; zero: stop it at once
     */
    public static EmbeddedPostgresServer start(
            Path dataDir, int port, boolean fsync, Map<String, String> serverConfig, Duration stopGrace) {
        try {
            Path dir = dataDir.toAbsolutePath().normalize();
            Files.createDirectories(dir);
            stopOrphanedPostmaster(dir);
            EmbeddedPostgres.Builder b = EmbeddedPostgres.builder()
                    .setDataDirectory(dir)
                    .setCleanDataDirectory(false)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("shared_buffers", "256MB")
                    .setServerConfig("fsync", fsync ? "on" : "off")
                    .setServerConfig("synchronous_commit", fsync ? "on" : "off")
                    .setServerConfig("full_page_writes", fsync ? "on" : "off");
            serverConfig.forEach(b::setServerConfig);
            if (port > 0) b.setPort(port);
            // zonky's own hook would stop the server while the node is still stopping (shutdown hooks run
            // concurrently):
            // ours gives the node a grace period first
            b.setRegisterShutdownHook(false);
            EmbeddedPostgres pg = b.start();
            LOG.info("embedded PostgreSQL listening on 127.0.0.1:{} with data in {}", pg.getPort(), dir);
            EmbeddedPostgresServer server = new EmbeddedPostgresServer(pg, dir);
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                try {
                                    server.closed.await(
                                            stopGrace.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                                server.close();
                            },
                            "weft-embedded-postgres-stop"));
            return server;
        } catch (IOException | RuntimeException e) {
            throw new DatabaseUnavailableException(
                    "cannot start the embedded PostgreSQL in " + dataDir + ": " + rootMessage(e), e);
        }
    }

    public int port() {
        return pg.getPort();
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The URL other processes (cluster nodes on this machine) can use to share this server. */
    public String url() {
        return "postgresql://postgres@127.0.0.1:" + port() + "/postgres";
    }

    @Override
    public synchronized void close() {
        if (closed.getCount() == 0) return;
        closed.countDown();
        try {
            pg.close();
        } catch (IOException e) {
            LOG.warn("stopping the embedded PostgreSQL failed: {}", e.getMessage());
        }
    }

    /**
     * A JVM killed with SIGKILL leaves its postmaster running on the data directory; the next start would fail on
     * {@code postmaster.pid}. If no live JVM holds the directory's lock, stop that orphan (fast shutdown) first.
     */
    private static void stopOrphanedPostmaster(Path dir) throws IOException {
        Path pidFile = dir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) return;
        Path lockFile = dir.resolve("epg-lock");
        if (Files.exists(lockFile)) {
            try (RandomAccessFile raf = new RandomAccessFile(lockFile.toFile(), "rw");
                    FileChannel ch = raf.getChannel()) {
                FileLock lock = ch.tryLock();
                if (lock == null) throw new IOException("the data directory is in use by another running Weft process");
                lock.release();
            } catch (java.nio.channels.OverlappingFileLockException e) {
                throw new IOException("the data directory is already in use by this process");
            }
        }
        List<String> lines = Files.readAllLines(pidFile);
        if (lines.isEmpty()) return;
        long pid;
        try {
            pid = Long.parseLong(lines.get(0).trim());
        } catch (NumberFormatException e) {
            return;
        }
        Optional<ProcessHandle> ph = ProcessHandle.of(pid);
        if (ph.isEmpty() || !ph.get().isAlive()) return;
        LOG.warn("stopping an orphaned PostgreSQL (pid {}) left on {} by a process that did not shut down", pid, dir);
        signal(pid, "-INT");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (ph.get().isAlive() && System.nanoTime() < deadline) sleep(100);
        if (ph.get().isAlive()) {
            signal(pid, "-KILL");
            sleep(500);
        }
    }

    private static void signal(long pid, String sig) {
        try {
            new ProcessBuilder("kill", sig, Long.toString(pid))
                    .inheritIO()
                    .start()
                    .waitFor();
        } catch (IOException e) {
            LOG.warn("kill {} {} failed: {}", sig, pid, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return m.replaceAll("[\\r\\n]+", " ");
    }
}
