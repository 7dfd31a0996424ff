package dev.weft.bench;

import static dev.weft.testsupport.TestNodes.await;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.vertx.micrometer.backends.BackendRegistries;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Samples a long run twice a second on its own thread: the ingest cursor and tx total, this JVM's heap (used, and left
 * after the last collection), the node's PostgreSQL connections, and every queue and window gauge of the node's meter
 * registry (their maxima). Samples are grouped by phase (the role running).
 */
final class RunSampler {
    /** The gauges of a queue or a window: pipeline windows and in-flight fetches, event-bus and pool wait queues. */
    private static final Pattern BOUNDED = Pattern.compile(
            "weft_\\w+_(window_blocks|window_heights|in_flight|buffered_bytes|window_limit)|weft_track_open_transfers"
                    + "|vertx_eventbus_pending|vertx_pool_queue_pending|vertx_pool_in_use");

    private static final long PERIOD_MS = 500;

    /** @param heapFloor the least heap left after a collection since the previous sample (-1: no collection) */
    record Sample(long nanos, long height, long txs, long heapUsed, long heapFloor) {}

    private final Pool monitor;
    private final List<Sample> ingest = new ArrayList<>();
    private final Map<String, Double> gaugeMax = new TreeMap<>();
    private final List<Sample> phaseSamples = new ArrayList<>();
    private volatile String phase;
    private volatile boolean running;
    private int maxConnections;
    private Thread thread;
    /** The least heap after a collection since the last sample (G1's old-gen "collection usage" counts old garbage). */
    private final java.util.concurrent.atomic.AtomicLong afterGc =
            new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);

    RunSampler(Pool monitor) {
        this.monitor = monitor;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (!(gc instanceof javax.management.NotificationEmitter emitter)) continue;
            emitter.addNotificationListener(
                    (n, h) -> {
                        if (!n.getType()
                                .equals(
                                        com.sun.management.GarbageCollectionNotificationInfo
                                                .GARBAGE_COLLECTION_NOTIFICATION)) return;
                        var info = com.sun.management.GarbageCollectionNotificationInfo.from(
                                (javax.management.openmbean.CompositeData) n.getUserData());
                        long after = 0;
                        for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet())
                            if (isHeap(e.getKey())) after += e.getValue().getUsed();
                        long a = after;
                        afterGc.accumulateAndGet(a, Math::min);
                    },
                    null,
                    null);
        }
    }

    private static boolean isHeap(String pool) {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
            if (p.getName().equals(pool)) return p.getType() == MemoryType.HEAP;
        return false;
    }

    void start() {
        running = true;
        thread = new Thread(this::loop, "bench-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    void stop() throws InterruptedException {
        running = false;
        thread.join();
    }

    /** Starts a phase: a collection first, so each role starts from the same heap. */
    synchronized void phase(String name) {
        System.gc();
        phaseSamples.clear();
        phase = name;
    }

    /** Ends the phase; its heap line. */
    synchronized String endPhase() {
        sample();
        long peak = 0;
        for (Sample x : phaseSamples) peak = Math.max(peak, x.heapUsed());
        int n = phaseSamples.size();
        int tenth = Math.max(1, n / 10);
        long firstFloor = floor(phaseSamples, 0, tenth);
        long lastFloor = floor(phaseSamples, n - tenth, n);
        long maxFloor = 0;
        for (int i = 0; i + tenth <= n; i += tenth) maxFloor = Math.max(maxFloor, floor(phaseSamples, i, i + tenth));
        String line = String.format(
                Locale.ROOT,
                "%-9s most heap used (sampled) %4d MB; heap floor (least heap after a collection) per tenth of the phase: first %s, "
                        + "last %s, highest %s; %d samples",
                phase,
                peak >> 20,
                mb(firstFloor),
                mb(lastFloor),
                mb(maxFloor),
                n);
        phase = null;
        return line;
    }

    long cursor(String name) {
        var rows = await(monitor.preparedQuery("SELECT height FROM pipeline_cursor WHERE name = $1")
                .execute(Tuple.of(name)));
        return rows.size() == 0 ? 0 : rows.iterator().next().getLong(0);
    }

    int maxConnections() {
        return maxConnections;
    }

    private void loop() {
        while (running) {
            try {
                sample();
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                System.out.println("sampler: " + e.getMessage());
            }
        }
    }

    private synchronized void sample() {
        if (phase == null) return;
        Row r = await(monitor.query(
                                "SELECT (SELECT height FROM pipeline_cursor WHERE name = 'ingest'), (SELECT txs FROM ingest_totals), "
                                        + "(SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' "
                                        + "AND pid <> pg_backend_pid())")
                        .execute())
                .iterator()
                .next();
        maxConnections = Math.max(maxConnections, r.getLong(2).intValue());
        long used = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
            if (p.getType() == MemoryType.HEAP) used += p.getUsage().getUsed();
        long floor = afterGc.getAndSet(Long.MAX_VALUE);
        Sample s = new Sample(
                System.nanoTime(),
                r.getLong(0) == null ? 0 : r.getLong(0),
                r.getLong(1),
                used,
                floor == Long.MAX_VALUE ? -1 : floor);
        phaseSamples.add(s);
        if (phase.equals("ingest")) ingest.add(s);
        MeterRegistry registry = BackendRegistries.getDefaultNow();
        if (registry == null) return;
        for (Meter m : registry.getMeters()) {
            String name = m.getId().getName().replace('.', '_');
            if (!(m instanceof Gauge g) || !BOUNDED.matcher(name).matches()) continue;
            double v = g.value();
            if (Double.isNaN(v)) continue;
            StringBuilder key = new StringBuilder(name);
            for (Tag t : m.getId().getTags())
                if (!t.getKey().equals("chain_id"))
                    key.append(' ').append(t.getKey()).append('=').append(t.getValue());
            gaugeMax.merge(key.toString(), v, Math::max);
        }
    }

    /** The classes holding the most heap (a full collection first): where a live heap that grows goes. */
    static void printHistogram(String when, int top) {
        try {
            var name = new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand");
            String out = (String) ManagementFactory.getPlatformMBeanServer()
                    .invoke(name, "gcClassHistogram", new Object[] {new String[0]}, new String[] {
                        String[].class.getName()
                    });
            String[] lines = out.split("\n");
            System.out.println("histogram " + when + ": the classes holding the most live heap");
            for (int i = 0; i < Math.min(lines.length, top + 2); i++) System.out.println("  " + lines[i]);
        } catch (Exception e) {
            System.out.println("histogram unavailable: " + e.getMessage());
        }
    }

    /** The least heap after a collection over samples [from, to), or -1 when none collected. */
    private static long floor(List<Sample> samples, int from, int to) {
        long min = Long.MAX_VALUE;
        for (int i = Math.max(0, from); i < to; i++)
            if (samples.get(i).heapFloor() >= 0)
                min = Math.min(min, samples.get(i).heapFloor());
        return min == Long.MAX_VALUE ? -1 : min;
    }

    private static String mb(long bytes) {
        return bytes < 0 ? "(no collection)" : (bytes >> 20) + " MB";
    }

    void printGaugeMaxima() {
        if (gaugeMax.isEmpty()) System.out.println("  (no gauge sampled: metrics are off)");
        gaugeMax.forEach((k, v) -> System.out.printf(Locale.ROOT, "  %-70s %,.0f%n", k, v));
    }

    /**
     * Prints the ingestion by tenth of the chain (txs/s, heap) and returns the rate of the last tenth over the rate of
     * the second (10–20 %: past the JIT's warm-up, while the tables are still small).
     */
    double printTenths(long head) {
        System.out.println(
                "tenths    of the chain: heights, txs/s, most heap used, heap floor (least heap left after a collection) while ingesting it");
        double[] rates = new double[11];
        int from = 0;
        for (int k = 1; k <= 10; k++) {
            long upTo = head * k / 10;
            int to = firstAt(upTo, from);
            if (to < 0) break;
            Sample a = from == 0 && k == 1 ? new Sample(ingest.get(0).nanos(), 0, 0, 0, 0) : ingest.get(from);
            Sample b = ingest.get(to);
            long heap = 0;
            for (int i = from; i <= to; i++) heap = Math.max(heap, ingest.get(i).heapUsed());
            long floor = floor(ingest, from + 1, to + 1);
            double secs = Math.max(1e-9, (b.nanos() - a.nanos()) / 1e9);
            rates[k] = (b.txs() - a.txs()) / secs;
            System.out.printf(
                    Locale.ROOT,
                    "  %3d–%3d %%  heights %7d–%7d  %8.0f txs/s  heap %5d MB  floor %s%n",
                    (k - 1) * 10,
                    k * 10,
                    a.height(),
                    b.height(),
                    rates[k],
                    heap >> 20,
                    mb(floor));
            from = to;
        }
        return rates[2] > 0 ? rates[10] / rates[2] : Double.NaN;
    }

    /** Seconds per block over the last tenth of the chain, or 0 when not sampled. */
    double lastTenthSecondsPerBlock(long head) {
        int a = firstAt(head * 9 / 10, 0);
        int b = firstAt(head, 0);
        if (a < 0 || b <= a) return 0;
        return (ingest.get(b).nanos() - ingest.get(a).nanos())
                / 1e9
                / (ingest.get(b).height() - ingest.get(a).height());
    }

    private int firstAt(long height, int from) {
        for (int i = from; i < ingest.size(); i++) if (ingest.get(i).height() >= height) return i;
        return -1;
    }
}
