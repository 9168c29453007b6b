package dev.windlass.engine;

import static dev.windlass.engine.DaemonE2E.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code windlass demo} as a user runs it, the production jar in its own JVM, stopped in the middle of its story: by
 * SIGTERM while a render tool runs, and with {@code --serve} by Ctrl-C (SIGINT) between two scenes. It exits, says it
 * stopped, and leaves no process of its own behind.
 */
class DemoStopIT {
    static final Path JAR = Path.of("target", "windlass.jar");
    /** Generous: the demo stops within a second or two; this only keeps a broken stop from hanging the build. */
    static final long EXIT_WAIT_SECONDS = 20;

    @TempDir Path dir;

    @Test
    void sigtermWhileTheFirstSyncRendersStopsTheDemoAndItsRenderTools() throws Exception {
        Path out = dir.resolve("out.txt");
        Process demo = start(List.of(), out);
        try {
            await(() -> read(out).contains("## 1. First sync"), "the first scene");
            // shop is built by kustomize and greeter by helm: wait until one of them runs as the demo's child.
            List<ProcessHandle> before = new ArrayList<>();
            await(() -> {
                before.addAll(demo.descendants().toList());
                return !before.isEmpty() || !demo.isAlive();
            }, "a render tool running under the demo");
            assertTrue(demo.isAlive(), read(out));

            long signalled = System.nanoTime();
            demo.destroy();  // SIGTERM

            assertStoppedAndAlone(demo, before, out, 143, signalled);
        } finally {
            demo.destroyForcibly();
        }
    }

    @Test
    void ctrlCBetweenTwoScenesWithServeStopsTheDemo() throws Exception {
        Path out = dir.resolve("out.txt");
        Process demo = start(List.of("--serve"), out);
        try {
            await(() -> read(out).contains("## 2. A developer bumps web"), "the second scene");
            List<ProcessHandle> before = demo.descendants().toList();

            long signalled = System.nanoTime();
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(demo.pid())).inheritIO().start();
            assertEquals(0, kill.waitFor());

            assertStoppedAndAlone(demo, before, out, 130, signalled);
        } finally {
            demo.destroyForcibly();
        }
    }

    private void assertStoppedAndAlone(Process demo, List<ProcessHandle> before, Path out, int exit, long signalled) throws Exception {
        assertTrue(demo.waitFor(EXIT_WAIT_SECONDS, TimeUnit.SECONDS), "the demo is still running after the signal:\n" + read(out));
        // Reported, not asserted: how long it took depends on the machine's load.
        System.out.printf("demo exited %d ms after the signal, %d child process(es) seen before it%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled), before.size());
        assertEquals(exit, demo.exitValue(), "ended by the signal (128 + its number), not by the story's end:\n" + read(out));
        String told = read(out);
        assertTrue(told.stripTrailing().endsWith("Stopped: the fleet and the dashboard are closed."), told);
        assertFalse(told.contains("## 4."), "the story did not go on after the signal:\n" + told);
        for (ProcessHandle child : before) {
            assertTrue(child.onExit().completeOnTimeout(child, EXIT_WAIT_SECONDS, TimeUnit.SECONDS).thenApply(c -> !c.isAlive()).get(),
                    "a process the demo started is still running: " + child.pid() + " " + child.info().commandLine().orElse("?"));
        }
    }

    /**
     * The jar as {@code ./windlass demo} runs it. {@code env --default-signal=INT}: a JVM leaves SIGINT alone when it
     * starts with it ignored (as a background job's children do), and a terminal's Ctrl-C reaches a demo that was not.
     */
    private Process start(List<String> options, Path out) throws Exception {
        assertTrue(Files.exists(JAR), "run by failsafe after the jar is packaged: " + JAR.toAbsolutePath());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT", java, "-Dwindlass.home=" + Path.of("..").toAbsolutePath().normalize(),
                "-jar", JAR.toString(), "demo", "--dir", dir.resolve("demo").toString()));
        command.addAll(options);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    }

    private static String read(Path file) throws Exception {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
