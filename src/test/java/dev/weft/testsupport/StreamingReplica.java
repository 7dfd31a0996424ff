package dev.weft.testsupport;

import dev.weft.store.EmbeddedPostgresServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL primary and a streaming hot standby of it, both from the embedded binaries ({@code initdb},
 * {@code pg_ctl}, {@code postgres}; there is no {@code pg_basebackup}). The primary is an
 * {@link EmbeddedPostgresServer} with {@code wal_level=replica}; the standby is a copy of its data directory taken
 * inside the low-level backup API ({@code pg_backup_start} … {@code pg_backup_stop}, whose label file becomes
 * {@code backup_label}), with {@code standby.signal} and {@code primary_conninfo} naming a replication role allowed by
 * its own {@code pg_hba.conf} line. A physical replication slot created before the copy keeps every WAL segment the
 * standby still needs, so it streams from the backup's start on (PostgreSQL manual, "Making a Base Backup Using the Low
 * Level API" and "Log-Shipping Standby Servers"). Blocking; for tests.
 */
public final class StreamingReplica implements AutoCloseable {
    private static final String SLOT = "weft_test_standby";
    /** Copied by the backup but not wanted on the standby (PostgreSQL manual, "Backing Up the Data Directory"). */
    private static final Set<String> SKIP = Set.of("postmaster.pid", "postmaster.opts", "epg-lock", "backup_label");

    private final Path root;
    private final EmbeddedPostgresServer primary;
    private final Path standbyDir;
    private final Path bin;
    private final int standbyPort;
    private boolean standbyRunning;

    private StreamingReplica(Path root, EmbeddedPostgresServer primary, Path standbyDir, Path bin, int standbyPort) {
        this.root = root;
        this.primary = primary;
        this.standbyDir = standbyDir;
        this.bin = bin;
        this.standbyPort = standbyPort;
    }

    /** Starts a primary and its standby, the standby streaming and accepting read-only connections. */
    public static StreamingReplica start() {
        Path root;
        try {
            root = Files.createTempDirectory("weft-replica");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        EmbeddedPostgresServer primary = EmbeddedPostgresServer.start(
                root.resolve("primary"),
                0,
                false,
                Map.of(
                        "wal_level", "replica",
                        "max_wal_senders", "4",
                        "max_replication_slots", "4",
                        "shared_buffers", "32MB",
                        "wal_keep_size", "64MB"));
        StreamingReplica r = null;
        try {
            r = new StreamingReplica(root, primary, root.resolve("standby"), binaries(), Ports.free());
            r.baseBackup();
            r.startStandby();
            return r;
        } catch (IOException | SQLException | RuntimeException e) {
            if (r != null) r.close();
            else primary.close();
            throw new IllegalStateException("cannot start a streaming replica: " + e.getMessage(), e);
        }
    }

    /** The primary's URL (superuser {@code postgres}, database {@code postgres}). */
    public String primaryUrl() {
        return primary.url();
    }

    /** The standby's URL: the same database, read-only. */
    public String standbyUrl() {
        return "postgresql://postgres@127.0.0.1:" + standbyPort + "/postgres";
    }

    /** The name Weft gives the standby in {@code /status} and metrics. */
    public String standbyName() {
        return "127.0.0.1:" + standbyPort + "/postgres";
    }

    public Connection primaryJdbc() throws SQLException {
        return TestDatabase.jdbc(primaryUrl());
    }

    public Connection standbyJdbc() throws SQLException {
        return TestDatabase.jdbc(standbyUrl());
    }

    /** Stops applying the WAL it receives ({@code pg_wal_replay_pause}): its data stays as it is now. */
    public void pauseReplay() throws SQLException {
        onStandby("SELECT pg_wal_replay_pause()");
    }

    public void resumeReplay() throws SQLException {
        onStandby("SELECT pg_wal_replay_resume()");
    }

    /** Stops the standby (fast shutdown); the primary keeps running. */
    public synchronized void stopStandby() {
        if (!standbyRunning) return;
        standbyRunning = false;
        run(List.of(pgCtl(), "-D", standbyDir.toString(), "-m", "fast", "-w", "-t", "60", "stop"));
    }

    private void onStandby(String sql) throws SQLException {
        try (Connection c = standbyJdbc();
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private void baseBackup() throws IOException, SQLException {
        Path primaryDir = primary.dataDir();
        try (Connection c = primaryJdbc();
                Statement st = c.createStatement()) {
            st.execute("CREATE ROLE weft_replicator WITH REPLICATION LOGIN");
            Files.writeString(
                    primaryDir.resolve("pg_hba.conf"),
                    "\nhost replication weft_replicator 127.0.0.1/32 trust\n",
                    StandardOpenOption.APPEND);
            st.execute("SELECT pg_reload_conf()");
            // reserves WAL from now on, before the copy's start point
            st.execute("SELECT pg_create_physical_replication_slot('" + SLOT + "', true)");
            st.execute("SELECT pg_backup_start('weft', true)");
            copyTree(primaryDir, standbyDir);
            String label;
            try (ResultSet rs = st.executeQuery("SELECT labelfile FROM pg_backup_stop(false)")) {
                rs.next();
                label = rs.getString(1);
            }
            Files.writeString(standbyDir.resolve("backup_label"), label);
        }
        Files.createFile(standbyDir.resolve("standby.signal"));
        // the primary runs with max_connections 200 (EmbeddedPostgresServer): a hot standby needs at least as many
        Files.writeString(
                standbyDir.resolve("postgresql.auto.conf"),
                String.join(
                        "\n",
                        "",
                        "port = " + standbyPort,
                        "listen_addresses = '127.0.0.1'",
                        "unix_socket_directories = '" + standbyDir + "'",
                        "max_connections = 200",
                        "max_wal_senders = 4",
                        "max_replication_slots = 4",
                        "shared_buffers = 32MB",
                        "fsync = off",
                        "hot_standby = on",
                        "hot_standby_feedback = on",
                        "primary_conninfo = 'host=127.0.0.1 port=" + primary.port()
                                + " user=weft_replicator application_name=weft_test_standby'",
                        "primary_slot_name = '" + SLOT + "'",
                        ""),
                StandardOpenOption.APPEND);
    }

    private void startStandby() {
        run(List.of(
                pgCtl(),
                "-D",
                standbyDir.toString(),
                "-l",
                root.resolve("standby.log").toString(),
                "-w",
                "-t",
                "120",
                "start"));
        standbyRunning = true;
    }

    /** A data directory copy: directories 0700 as PostgreSQL demands, pg_wal's segments left for streaming. */
    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path rel = from.relativize(p);
                if (rel.getNameCount() == 1 && SKIP.contains(rel.toString())) continue;
                Path target = to.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwx------"));
                } else if (rel.startsWith("pg_wal") && !Files.isDirectory(p)) {
                    // segments come from the primary through the slot; only the directory structure is needed
                } else if (Files.isRegularFile(p)) {
                    try {
                        Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                    } catch (java.nio.file.NoSuchFileException gone) {
                        // a temporary file removed while we walk: not part of the backup
                    }
                }
            }
        }
    }

    /** Where zonky unpacked the embedded binaries (the primary's start did). */
    private static Path binaries() throws IOException {
        Path base = Path.of(System.getProperty("java.io.tmpdir"), "embedded-pg");
        try (Stream<Path> dirs = Files.list(base)) {
            return dirs.map(d -> d.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
                    .findFirst()
                    .orElseThrow(() -> new IOException("no embedded PostgreSQL binaries under " + base));
        }
    }

    private String pgCtl() {
        return bin.resolve("pg_ctl").toString();
    }

    /**
     * Runs a binary as zonky does: through {@code unshare -U} when we are root, since PostgreSQL refuses to run as
     * root and the user namespace maps us to an unprivileged user.
     */
    private void run(List<String> cmd) {
        List<String> full = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) full.addAll(List.of("unshare", "-U"));
        full.addAll(cmd);
        try {
            Path log = root.resolve("pg_ctl.log");
            Process p = new ProcessBuilder(full)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + " did not finish");
            }
            if (p.exitValue() != 0)
                throw new IllegalStateException(String.join(" ", cmd) + " failed (" + p.exitValue() + "): "
                        + Files.readString(log, StandardCharsets.UTF_8)
                        + tail(root.resolve("standby.log")));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String tail(Path log) {
        try {
            String s = Files.readString(log);
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (IOException e) {
            return "";
        }
    }

    /** Stops the standby, then the primary, and removes both directories. */
    @Override
    public void close() {
        try {
            stopStandby();
        } catch (RuntimeException e) {
            // still stop the primary and clean up
        }
        primary.close();
        TestDatabase.deleteTree(root);
    }
}
