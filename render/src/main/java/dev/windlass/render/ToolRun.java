package dev.windlass.render;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One run of a render tool behind the boundary every render goes through: in the render sandbox
 * ({@link RenderSandbox}), at most {@link RenderLimits#concurrency()} at once, its output cut off (and the run failed)
 * past {@link RenderLimits#maxOutputBytes()}, and an environment with nothing of the engine's: no credentials, no
 * kubeconfig, a home and a temporary folder of its own. At {@link RenderLimits#timeout()} the tool and every process it
 * started are killed, without waiting on their output first, so a template loop or a source that never answers holds
 * nobody past that. Outcomes are data: it never throws for the tool's trouble.
 */
final class ToolRun {

    /** What came of a run. {@code exit} is -1 when the run was stopped (timeout, too much output) or could not start. */
    record Outcome(int exit, String stdout, String stderr, String stopped) {
        boolean ok() { return exit == 0 && stopped == null; }
    }

    /** How long the output of a killed run is waited for: its pipes close as its processes die. */
    private static final long DRAIN_MILLIS = 2_000;

    private final RenderLimits limits;
    private final RenderSandbox sandbox;
    private final Semaphore slots;
    /** This boundary's tools running now: what {@link #stopAll()} kills. */
    private final java.util.Set<Process> running = java.util.concurrent.ConcurrentHashMap.newKeySet();

    ToolRun(RenderLimits limits, RenderSandbox sandbox) {
        this.limits = limits;
        this.sandbox = sandbox;
        this.slots = new Semaphore(limits.concurrency(), true);
    }

    /**
     * Runs {@code command} in {@code workdir}, confined to {@code work} (which holds {@code workdir} and {@code home}),
     * plus what {@code reach} adds.
     */
    Outcome run(List<String> command, Path work, Path workdir, Path home, Map<String, String> env, RenderSandbox.Reach reach) {
        return run(command, work, workdir, home, env, reach, null);
    }

    /**
     * {@link #run(List, Path, Path, Path, Map, RenderSandbox.Reach)}, with {@code input} (null: none) written to the tool's
     * standard input and closed: what the tool reads without it being on disk (a file sops decrypts).
     */
    Outcome run(List<String> command, Path work, Path workdir, Path home, Map<String, String> env, RenderSandbox.Reach reach, byte[] input) {
        List<String> confined = sandbox.wrap(command, work, reach);
        if (confined == null) return new Outcome(-1, "", "", "cannot run in the render sandbox: " + sandbox.unavailable());
        try {
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(-1, "", "", "interrupted before it started");
        }
        try {
            return runNow(confined, Path.of(command.get(0)).getFileName().toString(), work, workdir, home, env, input);
        } finally {
            slots.release();
        }
    }

    private Outcome runNow(List<String> command, String tool, Path work, Path workdir, Path home, Map<String, String> env, byte[] input) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workdir.toFile());
        Map<String, String> e = builder.environment();
        String proxy = System.getenv("HTTPS_PROXY");
        e.clear();
        e.put("PATH", "/usr/bin:/bin");
        e.put("HOME", home.toString());
        e.put("TMPDIR", work.resolve("tmp").toString());
        e.put("KUBECONFIG", "/dev/null");
        e.put("SSL_CERT_FILE", RenderSandbox.caBundle());
        if (proxy != null) e.put("HTTPS_PROXY", proxy);
        e.putAll(env);
        Process process;
        try {
            java.nio.file.Files.createDirectories(work.resolve("tmp"));
            process = builder.start();
        } catch (IOException ex) {
            return new Outcome(-1, "", "", "could not start " + tool + " (" + ex.getClass().getSimpleName() + ")");
        }
        LiveRenders.started(process, work);
        running.add(process);
        try {
            if (input == null) {
                try {
                    process.getOutputStream().close();  // no input
                } catch (IOException ex) {
                    // It may have ended already.
                }
            } else {
                daemon(() -> {
                    try (var stdin = process.getOutputStream()) {
                        stdin.write(input);
                    } catch (IOException ex) {
                        // It ended, or was killed, before reading all of it: its outcome says why.
                    }
                }, "render-in");
            }
            Capped out = new Capped(process.getInputStream(), limits.maxOutputBytes());
            Capped err = new Capped(process.getErrorStream(), 64 * 1024);
            Thread o = daemon(out, "render-out");
            Thread r = daemon(err, "render-err");
            long deadline = System.nanoTime() + limits.timeout().toNanos();
            String stopped = null;
            // Waits for the tool to end, for its output to overflow, or for the time limit, whichever comes first.
            while (process.isAlive()) {
                if (out.overflowed()) {
                    stopped = "wrote more than " + limits.outputLimitSaid();
                    break;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    stopped = "did not finish within " + seconds(limits.timeout());
                    break;
                }
                process.waitFor(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, 50), TimeUnit.MILLISECONDS);
            }
            if (stopped == null) {
                // The tool ended; what it started may still hold its pipes open: those are waited for only so long.
                o.join(DRAIN_MILLIS);
                r.join(DRAIN_MILLIS);
                if (out.overflowed()) stopped = "wrote more than " + limits.outputLimitSaid();
                else if (o.isAlive()) stopped = "ended, but a process it started kept its output open";
            }
            if (stopped != null) {
                LiveRenders.kill(process);
                r.join(DRAIN_MILLIS);
                return new Outcome(-1, "", err.text(), stopped);
            }
            return new Outcome(process.exitValue(), out.text(), err.text(), null);
        } catch (InterruptedException ex) {
            LiveRenders.kill(process);
            Thread.currentThread().interrupt();
            return new Outcome(-1, "", "", "interrupted");
        } finally {
            running.remove(process);
            LiveRenders.ended(process);
        }
    }

    /** Kills every tool this boundary runs now, and what each started; their renders fail. */
    void stopAll() {
        for (Process p : List.copyOf(running)) LiveRenders.kill(p);
    }

    private static String seconds(Duration d) { return d.toMillis() < 1000 ? d.toMillis() + " ms" : d.toSeconds() + " s"; }

    static String bytes(long n) {
        if (n >= 1024L * 1024 * 1024 && n % (1024L * 1024 * 1024) == 0) return n / (1024L * 1024 * 1024) + " GiB";
        return n >= 1024 * 1024 ? n / (1024 * 1024) + " MiB" : n + " bytes";
    }

    private static Thread daemon(Runnable task, String name) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Reads a stream to its end, keeping at most {@code cap} bytes; past that it only notes that there was more. */
    private static final class Capped implements Runnable {
        private final InputStream in;
        private final int cap;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private volatile boolean overflowed;

        Capped(InputStream in, int cap) {
            this.in = in;
            this.cap = cap;
        }

        @Override public void run() {
            byte[] buffer = new byte[64 * 1024];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    synchronized (this) {
                        if (kept.size() + n > cap) {
                            overflowed = true;
                            kept.write(buffer, 0, Math.max(0, cap - kept.size()));
                            return;
                        }
                        kept.write(buffer, 0, n);
                    }
                }
            } catch (IOException e) {
                // The process was killed: what was read is all there is.
            }
        }

        boolean overflowed() { return overflowed; }

        synchronized String text() { return kept.toString(StandardCharsets.UTF_8); }
    }
}
