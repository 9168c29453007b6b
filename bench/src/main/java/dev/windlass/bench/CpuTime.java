package dev.windlass.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the machine's CPU went during a phase of a run, read from Linux's {@code /proc}: this JVM's threads (the
 * engine, or a baseline) split into the JIT compiler's, the garbage collector's and the rest; the child processes (the
 * cluster host, or every process of every real control plane); and every core of the machine. A phase's figures are
 * the difference of two snapshots; a thread or child process that ended between them is left out of its own line
 * (the JVM's total still counts its threads). Where there is no {@code /proc}, nothing is measured.
 *
 * <p>Times are in the kernel's clock ticks, which {@code /proc} gives in hundredths of a second on Linux.
 */
final class CpuTime {
    private static final double TICK_NANOS = 1e7;
    private static final Path PROC = Path.of("/proc");

    /** CPU times in clock ticks at one moment, and the wall clock's nanos then. */
    record Snapshot(long wallNanos, long jvm, long jit, long gc, Map<Long, Long> children, long machineBusy) {}

    /** CPU used from {@code a} to {@code b}, in nanos, and how many cores were busy on average. */
    record Used(double jvmNanos, double jitNanos, double gcNanos, double childrenNanos, double coresBusy) {}

    static boolean available() { return Files.isReadable(PROC.resolve("self/stat")) && Files.isReadable(PROC.resolve("stat")); }

    static Snapshot now() {
        long jit = 0, gc = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(PROC.resolve("self/task"))) {
            for (Path task : tasks) {
                Stat s = stat(task.resolve("stat"));
                if (s == null) continue;
                if (s.name().startsWith("C1 Compiler") || s.name().startsWith("C2 Compiler")) jit += s.ticks();
                else if (gcThread(s.name())) gc += s.ticks();
            }
        } catch (IOException e) {
            // The tasks' lines stay 0; the JVM's total below is still read.
        }
        Map<Long, Long> children = new HashMap<>();
        ProcessHandle.current().descendants().forEach(p -> {
            Stat s = stat(PROC.resolve(p.pid() + "/stat"));
            if (s != null) children.put(p.pid(), s.ticks());
        });
        Stat self = stat(PROC.resolve("self/stat"));
        return new Snapshot(System.nanoTime(), self == null ? 0 : self.ticks(), jit, gc, children, machineBusy());
    }

    static Used between(Snapshot a, Snapshot b) {
        return between(a, b, -1);
    }

    /** As {@link #between(Snapshot, Snapshot)}, with the child process {@code leftOut} not counted among the children. */
    static Used between(Snapshot a, Snapshot b, long leftOut) {
        long children = 0;
        for (Map.Entry<Long, Long> c : b.children().entrySet()) {
            if (c.getKey() != leftOut) children += c.getValue() - a.children().getOrDefault(c.getKey(), 0L);
        }
        double wallSeconds = (b.wallNanos() - a.wallNanos()) / 1e9;
        return new Used((b.jvm() - a.jvm()) * TICK_NANOS, (b.jit() - a.jit()) * TICK_NANOS, (b.gc() - a.gc()) * TICK_NANOS,
                children * TICK_NANOS, wallSeconds <= 0 ? Double.NaN : (b.machineBusy() - a.machineBusy()) / 100.0 / wallSeconds);
    }

    static final String JVM = "  CPU, this JVM (the engine or the baseline)";
    static final String CLUSTERS = "  CPU, the clusters' processes";

    /** Adds a phase's CPU figures under the top-level figure added last. */
    static void report(Figures figures, Used used) {
        figures.addNanos(JVM, (long) used.jvmNanos());
        figures.addNanos("  CPU, this JVM's JIT compiler", (long) used.jitNanos());
        figures.addNanos("  CPU, this JVM's garbage collector", (long) used.gcNanos());
        figures.addNanos(CLUSTERS, (long) used.childrenNanos());
        figures.add("  cores busy, whole machine (average)", Figures.Unit.RATIO, used.coresBusy());
    }

    /**
     * HotSpot's names for the threads of the garbage collectors it ships (G1, Parallel, ZGC, Shenandoah), and its VM
     * thread, which runs the serial collector's pauses and, with any collector, the other work done at a safepoint.
     */
    private static boolean gcThread(String name) {
        return name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("VM Thread") || name.startsWith("ZWorker")
                || name.startsWith("ZDriver") || name.startsWith("Shenandoah") || name.startsWith("Parallel GC");
    }

    private record Stat(String name, long ticks) {}

    /** The user plus system CPU of process {@code pid} so far, in nanos; 0 once it is gone. */
    static long processNanos(long pid) {
        Stat s = stat(PROC.resolve(pid + "/stat"));
        return s == null ? 0 : (long) (s.ticks() * TICK_NANOS);
    }

    /** A process's or thread's name and user plus system time from its {@code stat} file, or null if it is gone. */
    private static Stat stat(Path file) {
        try {
            String line = Files.readString(file);
            int open = line.indexOf('('), close = line.lastIndexOf(')');
            // After the name: state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime, stime.
            String[] f = line.substring(close + 2).split(" ");
            return new Stat(line.substring(open + 1, close), Long.parseLong(f[11]) + Long.parseLong(f[12]));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Ticks every core spent on anything but idling or waiting for I/O, since boot. */
    private static long machineBusy() {
        try {
            String[] f = Files.readAllLines(PROC.resolve("stat")).get(0).trim().split("\\s+");
            long busy = 0;
            // cpu user nice system idle iowait irq softirq steal
            for (int i = 1; i <= 8 && i < f.length; i++) if (i != 4 && i != 5) busy += Long.parseLong(f[i]);
            return busy;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
