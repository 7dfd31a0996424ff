package dev.weft.bench;

import dev.weft.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What PostgreSQL's client backends are doing, sampled every 10 ms on a thread of its own ({@code pg_stat_activity}):
 * per state, wait event and statement, the share of samples. Says whether the writing backend runs (no wait event),
 * waits on the node's next bytes ({@code idle in transaction} or {@code ClientRead}: the client has not sent the rest of
 * the commit), on the disk ({@code WALWrite}, {@code WALSync}, {@code DataFileExtend}) or on a lock.
 */
final class BackendStates implements AutoCloseable {
    private static final String SAMPLE = """
      SELECT state, coalesce(wait_event_type || ':' || wait_event, 'running'), left(regexp_replace(query, '\\s+', ' ', 'g'), 48)
      FROM pg_stat_activity
      WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND state IS NOT NULL AND state <> 'idle'""";

    private final Map<String, Integer> counts = new TreeMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    private int samples;

    BackendStates(String url) {
        thread = new Thread(
                () -> {
                    try (Connection c = TestDatabase.jdbc(url);
                            Statement st = c.createStatement()) {
                        while (running) {
                            try (ResultSet rs = st.executeQuery(SAMPLE)) {
                                synchronized (counts) {
                                    samples++;
                                    while (rs.next())
                                        counts.merge(
                                                rs.getString(1) + " | " + rs.getString(2) + " | " + rs.getString(3),
                                                1,
                                                Integer::sum);
                                }
                            }
                            Thread.sleep(10);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (Exception e) {
                        System.out.println("backend states: sampling stopped: " + e.getMessage());
                    }
                },
                "bench-backend-states");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops sampling and prints the states seen in at least 1 % of the samples, most frequent first. */
    void print(String what) {
        close();
        synchronized (counts) {
            System.out.printf(
                    Locale.ROOT,
                    "postgres backends during %s (%d samples, 10 ms apart; share of samples, state | wait | statement):%n",
                    what,
                    samples);
            counts.entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .filter(e -> e.getValue() * 100 >= samples)
                    .forEach(e -> System.out.printf(
                            Locale.ROOT, "  %5.1f %%  %s%n", 100.0 * e.getValue() / samples, e.getKey()));
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
