package dev.windlass.render;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The render tools running now in this JVM, each with the folder it renders in: what {@link #stopAll()} kills and
 * deletes when the engine stops, so that no render process or temporary folder outlives it. A JVM that exits without
 * calling it (a one-off command stopped by Ctrl-C) does the same from a shutdown hook, unless its owner said it stops
 * them itself ({@link #stoppedByOwner()}: the daemon lets the pass in flight finish its renders within its grace first).
 */
public final class LiveRenders {

    private static final Map<Process, Path> LIVE = new ConcurrentHashMap<>();
    private static final Map<Process, Long> STARTED = new ConcurrentHashMap<>();
    private static volatile boolean byOwner;
    private static volatile boolean jvmStopping;

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                if (!byOwner) stopAll();
            }, "windlass-render-stop"));
        } catch (IllegalStateException shutdownInProgress) {
            // The first render of this JVM began while it was already stopping (a signal during the first sync): no hook
            // can be added now, and no render may outlive it, so every render started from now on is stopped at once.
            jvmStopping = true;
        }
    }

    private LiveRenders() {}

    static void started(Process process, Path work) {
        STARTED.put(process, System.nanoTime());
        LIVE.put(process, work);
        if (jvmStopping) stopAll();
    }

    static void ended(Process process) {
        LIVE.remove(process);
        STARTED.remove(process);
    }

    /**
     * Whether render tools run now and every one of them has run for {@code slow} or longer: then no render is getting
     * anywhere soon, and whoever waits for renders may go on without them.
     */
    public static boolean onlySlowOnes(java.time.Duration slow) {
        if (STARTED.isEmpty()) return false;
        long now = System.nanoTime();
        return STARTED.values().stream().allMatch(t -> now - t >= slow.toNanos());
    }

    /** The process's owner calls {@link #stopAll()} itself when it stops; the shutdown hook leaves them alone. */
    public static void stoppedByOwner() { byOwner = true; }

    /** How many render tools run now. */
    public static int running() { return LIVE.size(); }

    /**
     * Kills every render tool running now, and every process each started, and deletes their folders. The renders they
     * were for fail ("interrupted" or past their time); nothing waits for them.
     */
    public static void stopAll() {
        for (Map.Entry<Process, Path> e : List.copyOf(LIVE.entrySet())) {
            kill(e.getKey());
            delete(e.getValue());
            LIVE.remove(e.getKey());
            STARTED.remove(e.getKey());
        }
    }

    /**
     * Kills {@code process} and every process it started. Its descendants are read from the kernel again until none is
     * left, so one forked while the others were killed is killed too.
     */
    static void kill(Process process) {
        for (int round = 0; round < 5; round++) {
            List<ProcessHandle> tree = process.descendants().toList();
            if (tree.isEmpty()) break;
            for (int i = tree.size() - 1; i >= 0; i--) tree.get(i).destroyForcibly();
        }
        process.destroyForcibly();
        try {
            process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) return;
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Left behind: nothing more to do about it here.
        }
    }
}
