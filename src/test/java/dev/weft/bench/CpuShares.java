package dev.weft.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;

/**
 * CPU time of the bench's processes at one instant: this JVM (the node; its JIT compiler and GC threads apart), the
 * PostgreSQL processes and the devnet's JVM. The difference of two instants says where a phase's cores went, which
 * varies far less from run to run than the phase's wall time on a 2-core machine.
 */
record CpuShares(double nodeSecs, double jitSecs, double gcSecs, double postgresSecs, double devnetSecs) {
    static CpuShares now(Process devnet) {
        double node = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                        .getProcessCpuTime()
                / 1e9;
        // HotSpot's thread names: "C2 CompilerThread0", "C1 CompilerThre…"; G1's "GC Thread#0", "G1 Conc#0", "G1
        // Refine#0",
        // "G1 Main Marker", "G1 Service"
        double jit = threadsSecs(name -> name.contains("CompilerThre"));
        double gc = threadsSecs(name -> name.startsWith("GC Thread") || name.startsWith("G1 "));
        double postgres = ProcessHandle.allProcesses()
                .filter(p ->
                        p.info().command().map(c -> c.endsWith("/postgres")).orElse(false))
                .mapToDouble(p -> seconds(p.info().totalCpuDuration().orElse(Duration.ZERO)))
                .sum();
        double dev = devnet == null
                ? 0
                : seconds(devnet.toHandle().info().totalCpuDuration().orElse(Duration.ZERO));
        return new CpuShares(node, jit, gc, postgres, dev);
    }

    /** A phase's readings at its start, to tell at its end how much of the machine it left idle and what each process spent. */
    record Span(long[] machineTicks, CpuShares start, Process devnet) {
        static Span start(Process devnet) {
            return new Span(RouteBench.machineTicks(), now(devnet), devnet);
        }

        /** What the phase spent from its start to now. */
        Spent end() {
            long[] ticks = RouteBench.machineTicks();
            return new Spent(
                    RouteBench.idleShare(machineTicks, ticks), now(devnet).minus(start));
        }
    }

    /** The share of the machine's CPU a phase left idle, and the CPU each process spent in it. */
    record Spent(double idle, CpuShares cpu) {}

    CpuShares minus(CpuShares before) {
        return new CpuShares(
                nodeSecs - before.nodeSecs,
                jitSecs - before.jitSecs,
                gcSecs - before.gcSecs,
                postgresSecs - before.postgresSecs,
                devnetSecs - before.devnetSecs);
    }

    CpuShares plus(CpuShares other) {
        return new CpuShares(
                nodeSecs + other.nodeSecs,
                jitSecs + other.jitSecs,
                gcSecs + other.gcSecs,
                postgresSecs + other.postgresSecs,
                devnetSecs + other.devnetSecs);
    }

    void print(double wallSecs, long txs) {
        print("", wallSecs, txs);
    }

    /** The line, {@code what} (e.g. "second half: ") before it. */
    void print(String what, double wallSecs, long txs) {
        print(what, wallSecs, txs, "tx");
    }

    /** The line, with the CPU per {@code unit} ("tx", "internal tx") of the {@code count} the phase wrote. */
    void print(String what, double wallSecs, long count, String unit) {
        System.out.printf(
                Locale.ROOT,
                "         %sCPU in %.1f s on %d cores: node %.1f s (%.0f µs per %s; its JIT compiler %.1f s, its GC %.1f s of it), "
                        + "PostgreSQL %.1f s (%.0f µs per %s), devnet %.1f s (%.0f µs per %s)%n",
                what,
                wallSecs,
                Runtime.getRuntime().availableProcessors(),
                nodeSecs,
                1e6 * nodeSecs / count,
                unit,
                jitSecs,
                gcSecs,
                postgresSecs,
                1e6 * postgresSecs / count,
                unit,
                devnetSecs,
                1e6 * devnetSecs / count,
                unit);
    }

    /**
     * The CPU time of this JVM's threads whose names {@code named} accepts (Linux: {@code /proc/self/task/<id>/stat};
     * the JVM's own compilation counter is its compiler threads' elapsed time, inflated when the cores are busy). Clock
     * ticks of 10 ms; 0 where there is no {@code /proc}.
     */
    private static double threadsSecs(java.util.function.Predicate<String> named) {
        try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/task"))) {
            return tasks.mapToDouble(t -> {
                        try {
                            String stat = java.nio.file.Files.readString(t.resolve("stat"));
                            String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                            if (!named.test(name)) return 0;
                            String[] f =
                                    stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime, stime
                        } catch (java.io.IOException | RuntimeException e) {
                            return 0; // a thread that ended
                        }
                    })
                    .sum();
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
