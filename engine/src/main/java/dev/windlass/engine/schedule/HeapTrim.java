package dev.windlass.engine.schedule;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import javax.management.NotificationEmitter;

/**
 * A full collection when the old generation holds much more than it kept after its last collection: between passes,
 * and as soon as it crosses that mark inside one.
 *
 * <p>With the serial collector (the engine's default, docs/performance.md), what a whole pass keeps alive for its
 * seconds (the fleet's observations, its plans, every application's status) outlives young collections and is
 * promoted; when the pass is over, it is garbage in the old generation. The collector does not collect the old
 * generation for that: it grows it, as long as the heap's maximum (a quarter of the machine's memory) is far. Each pass
 * that planned the whole fleet again left its working set behind, and the process kept all of it: at 1,000 apps, 144
 * MiB of old generation for 89 MiB live. A pass ends at a quiet point; collected there, the old generation goes back to
 * what is live, shrinks (the heap is kept within 10-30% free), and the next pass's promotions reuse that room. A pass
 * that promotes a great deal (the first ones after a large fleet's first sync) crosses the mark before it ends; the
 * JVM tells that at the end of the young collection that crossed it (a usage threshold on the pool), and the collection
 * is made then, from the JVM's notification thread, so that what earlier pages and clusters of the same pass left
 * behind is reused instead of the generation growing for it.
 *
 * <p>Only with the serial collector (its old generation is the pool "Tenured Gen"): other collectors size their heaps
 * their own way, and a user who chose one keeps it as it is. One per process: the pool's threshold is the JVM's.
 */
final class HeapTrim {

    /** Growth below this is never collected for: a small fleet's passes promote a few MiB, which the collector can keep. */
    static final long FLOOR = 24L << 20;

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(HeapTrim.class);

    private static final HeapTrim PROCESS = new HeapTrim();

    /** The serial collector's old generation; null with any other collector (then nothing is ever collected here). */
    private final MemoryPoolMXBean old;

    private HeapTrim() {
        MemoryPoolMXBean found = null;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getName().equals("Tenured Gen")) found = pool;
        }
        this.old = found;
        if (old != null && old.isUsageThresholdSupported() && ManagementFactory.getMemoryMXBean() instanceof NotificationEmitter emitter) {
            emitter.addNotificationListener((notification, handback) -> {
                if (MemoryNotificationInfo.MEMORY_THRESHOLD_EXCEEDED.equals(notification.getType())) thresholdCrossed();
            }, null, null);
            arm();
        }
    }

    /** The process's one. */
    static HeapTrim process() { return PROCESS; }

    /**
     * Whether an old generation of {@code used} bytes, which held {@code afterLastCollection} after its last collection,
     * is worth collecting: grown by more than a quarter of that, and by at least {@link #FLOOR}.
     */
    static boolean due(long used, long afterLastCollection) {
        return used > mark(afterLastCollection);
    }

    /** The old generation's size past which it is collected, for one that held {@code afterLastCollection} after its last collection. */
    static long mark(long afterLastCollection) {
        return afterLastCollection + Math.max(FLOOR, afterLastCollection / 4);
    }

    /**
     * Called between passes, on the pass thread: collects when the old generation is {@link #due} against what it held
     * after its last collection, or after the last one made between passes if that was less. A collection inside a
     * pass measured the pass's working set, still alive then; against its mark alone, what the pass leaves behind would
     * wait in the old generation until some later, quiet pass crossed it.
     */
    synchronized void afterPass() {
        if (old == null) return;
        MemoryUsage now = old.getUsage();
        MemoryUsage after = old.getCollectionUsage();
        if (now != null && after != null && due(now.getUsed(), Math.min(after.getUsed(), afterLastPass))) {
            collect("between passes");
            MemoryUsage collected = old.getCollectionUsage();
            afterLastPass = collected == null ? 0 : collected.getUsed();
        }
        arm();
    }

    /** What the old generation held after the last collection made between passes. */
    private long afterLastPass;  // guarded by this

    /** Told by the JVM, after the young collection that crossed the pool's threshold. */
    private synchronized void thresholdCrossed() {
        MemoryUsage now = old.getUsage();
        MemoryUsage after = old.getCollectionUsage();
        if (now != null && after != null && due(now.getUsed(), after.getUsed())) collect("inside a pass");
        arm();
    }

    private void collect(String when) {
        long before = old.getUsage().getUsed();
        long start = System.nanoTime();
        System.gc();
        log.debug("old generation {} MiB: collected {} in {} ms, {} MiB now", before >> 20, when, (System.nanoTime() - start) / 1_000_000,
                old.getUsage().getUsed() >> 20);
    }

    /** The threshold at the mark of the last collection (the collector's own included), so that crossing it is told once. */
    private void arm() {
        if (!old.isUsageThresholdSupported()) return;
        MemoryUsage after = old.getCollectionUsage();
        old.setUsageThreshold(mark(after == null ? 0 : after.getUsed()));
    }
}
