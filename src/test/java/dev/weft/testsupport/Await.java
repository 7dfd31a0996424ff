package dev.weft.testsupport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * The one place tests wait for state they cannot be told about: a pipeline cursor in the database, a value behind an
 * HTTP endpoint, a file another process writes. It probes every {@value #PROBE_MILLIS} ms until the probe gives a
 * value or the deadline passes; a probe that throws counts as "not yet", and its last exception is the failure's
 * cause. Whatever completes a future or publishes a bus event is awaited on that instead (vertx-junit5, futures).
 */
public final class Await {
    static final long PROBE_MILLIS = 20;

    private Await() {}

    /** A probe that may throw (JDBC, HTTP): an exception means the state is not there yet. */
    @FunctionalInterface
    public interface Probe<T> {
        T get() throws Exception;
    }

    /** A condition that may throw; see {@link Probe}. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Probes until it gives a value (not null) and returns it; an AssertionError naming {@code what} after {@code seconds}. */
    public static <T> T value(String what, int seconds, Probe<T> probe) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Exception last = null;
        while (true) {
            try {
                T v = probe.get();
                if (v != null) return v;
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() > deadline)
                throw new AssertionError("timed out after " + seconds + " s waiting for " + what, last);
            pause();
        }
    }

    /** Waits until {@code condition} holds; an AssertionError naming {@code what} after {@code seconds}. */
    public static void until(String what, int seconds, Condition condition) {
        value(what, seconds, () -> condition.holds() ? Boolean.TRUE : null);
    }

    /** Waits until the pipeline cursor {@code name} (ingest, evm, richlist) in database {@code url} reaches {@code height}. */
    public static void cursor(String url, String name, long height, int seconds) {
        until(name + " cursor " + height, seconds, () -> cursorHeight(url, name) >= height);
    }

    /**
     * The height of pipeline cursor {@code name}: 0 before the pipeline has committed anything, -1 while the database
     * cannot be read (a fault test stops it).
     */
    public static long cursorHeight(String url, String name) {
        try (Connection c = TestDatabase.jdbc(url);
                PreparedStatement st = c.prepareStatement("SELECT height FROM pipeline_cursor WHERE name = ?")) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        } catch (SQLException e) {
            return -1;
        }
    }

    private static void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(PROBE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting", e);
        }
    }
}
