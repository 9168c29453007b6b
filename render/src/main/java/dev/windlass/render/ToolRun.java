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
 * One run of a render tool behind the boundary every render goes through: at most {@link RenderLimits#concurrency()}
 * at once, killed at {@link RenderLimits#timeout()}, its output cut off (and the run failed) past
 * {@link RenderLimits#maxOutputBytes()}, and an environment with nothing of the engine's: no credentials, no
 * kubeconfig, a home of its own. Outcomes are data: it never throws for the tool's trouble.
 */
final class ToolRun {

    /** What came of a run. {@code exit} is -1 when the run was stopped (timeout, too much output) or could not start. */
    record Outcome(int exit, String stdout, String stderr, String stopped) {
        boolean ok() { return exit == 0 && stopped == null; }
    }

    private final RenderLimits limits;
    private final Semaphore slots;

    ToolRun(RenderLimits limits) {
        this.limits = limits;
        this.slots = new Semaphore(limits.concurrency(), true);
    }

    Outcome run(List<String> command, Path workdir, Path home, Map<String, String> env) {
        try {
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(-1, "", "", "interrupted before it started");
        }
        try {
            return runNow(command, workdir, home, env);
        } finally {
            slots.release();
        }
    }

    private Outcome runNow(List<String> command, Path workdir, Path home, Map<String, String> env) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workdir.toFile());
        Map<String, String> e = builder.environment();
        String proxy = System.getenv("HTTPS_PROXY");
        e.clear();
        e.put("PATH", "/usr/bin:/bin");
        e.put("HOME", home.toString());
        e.put("KUBECONFIG", "/dev/null");
        if (proxy != null) e.put("HTTPS_PROXY", proxy);
        e.putAll(env);
        Process process;
        try {
            process = builder.start();
        } catch (IOException ex) {
            return new Outcome(-1, "", "", "could not start " + Path.of(command.get(0)).getFileName() + " (" + ex.getClass().getSimpleName() + ")");
        }
        try {
            process.getOutputStream().close();  // no input
        } catch (IOException ex) {
            // It may have ended already.
        }
        Capped out = new Capped(process.getInputStream(), limits.maxOutputBytes());
        Capped err = new Capped(process.getErrorStream(), 64 * 1024);
        Thread o = daemon(out, "render-out");
        Thread r = daemon(err, "render-err");
        try {
            boolean finished = process.waitFor(limits.timeout().toMillis(), TimeUnit.MILLISECONDS);
            String stopped = null;
            if (!finished) stopped = "did not finish within " + seconds(limits.timeout());
            o.join(finished ? 5_000 : 0);
            if (out.overflowed()) stopped = "wrote more than " + bytes(limits.maxOutputBytes());
            if (stopped != null) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
                return new Outcome(-1, "", err.text(), stopped);
            }
            r.join(5_000);
            return new Outcome(process.exitValue(), out.text(), err.text(), null);
        } catch (InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return new Outcome(-1, "", "", "interrupted");
        }
    }

    private static String seconds(Duration d) { return d.toMillis() < 1000 ? d.toMillis() + " ms" : d.toSeconds() + " s"; }

    private static String bytes(int n) { return n >= 1024 * 1024 ? n / (1024 * 1024) + " MiB" : n + " bytes"; }

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
                    if (kept.size() + n > cap) {
                        overflowed = true;
                        kept.write(buffer, 0, Math.max(0, cap - kept.size()));
                        return;
                    }
                    kept.write(buffer, 0, n);
                }
            } catch (IOException e) {
                // The process was killed: what was read is all there is.
            }
        }

        boolean overflowed() { return overflowed; }

        synchronized String text() { return kept.toString(StandardCharsets.UTF_8); }
    }
}
