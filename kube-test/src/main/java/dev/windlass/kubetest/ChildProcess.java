package dev.windlass.kubetest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One server process with its output in a log file: a pipe nobody reads would fill up and stall the server,
 * and the file's tail is what explains a server that did not come up.
 */
final class ChildProcess {

    private final String name;
    private final Process process;
    private final Path log;

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    static ChildProcess start(String name, List<String> command, Path log) throws IOException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
        return new ChildProcess(name, process, log);
    }

    String name() { return name; }

    boolean alive() { return process.isAlive(); }

    long pid() { return process.pid(); }

    /** Fails with the end of the log when the process has exited already. */
    void requireAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with code " + process.exitValue() + "; last log lines:\n" + tail(30));
        }
    }

    /**
     * Sends a signal by name ({@code STOP}, {@code CONT}, {@code KILL}): a stopped server keeps its sockets open and
     * accepts connections but never answers, which is how a hung cluster looks from outside.
     */
    void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).redirectErrorStream(true).start();
            String said = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (kill.waitFor() != 0 && process.isAlive()) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " (" + this.name + ") failed: " + said);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill -" + name + " for " + this.name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + this.name, e);
        }
    }

    /** SIGTERM, and SIGKILL if it does not end within a few seconds. A stopped process is continued first. */
    void stop() {
        if (!process.isAlive()) return;
        try {
            signal("CONT");
        } catch (IllegalStateException e) {
            // It ended meanwhile, or kill is missing: destroy below still ends it.
        }
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    String tail(int lines) {
        try {
            // Decoded leniently: a log cut mid-character must still be readable.
            List<String> all = List.of(new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\n"));
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }
}
