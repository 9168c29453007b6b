package dev.windlass.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's memory: heap in use sampled every few milliseconds (its peak includes garbage not yet collected),
 * live heap right after a full collection, and resident set size from {@code /proc/self/status}.
 */
final class Memory implements AutoCloseable {
    private static final MemoryMXBean HEAP = ManagementFactory.getMemoryMXBean();
    private volatile long peakHeap;
    private volatile boolean running = true;
    private final Thread sampler;

    Memory() {
        sampler = new Thread(() -> {
            while (running) {
                long used = HEAP.getHeapMemoryUsage().getUsed();
                if (used > peakHeap) peakHeap = used;
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "bench-heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Starts a new peak: heap sampling and the kernel's resident-set high-water mark (where it may be reset). */
    void resetPeaks() {
        System.gc();
        peakHeap = HEAP.getHeapMemoryUsage().getUsed();
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        } catch (IOException | RuntimeException ignored) {
            // Not Linux, or not allowed: the high-water mark then counts from the start of the process.
        }
    }

    long peakHeapBytes() { return peakHeap; }

    /** Heap still reachable after a full collection. */
    static long liveHeapBytes() {
        System.gc();
        System.gc();
        return HEAP.getHeapMemoryUsage().getUsed();
    }

    /** Peak resident set size since the last reset (VmHWM), or -1 where /proc is not there. */
    static long peakRssBytes() { return procStatus("VmHWM:"); }

    static long rssBytes() { return procStatus("VmRSS:"); }

    private static long procStatus(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field)) return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]) * 1024;
            }
        } catch (IOException | RuntimeException ignored) {
            // fall through
        }
        return -1;
    }

    @Override public void close() {
        running = false;
        sampler.interrupt();
    }
}
