package dev.windlass.render;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The file-system boundary every render tool runs in: the kernel's Landlock LSM, applied by a launcher
 * ({@link RenderTools#sandbox()}, built pinned by {@code scripts/render-tools.sh}) before it executes the tool. The tool,
 * and everything it starts, may read and write the render's own directory (the files of the repo it reaches, its home,
 * its temporary files) and execute kustomize, helm, sops, crane and windlass-gotemplate, and nothing else of the host: a chart home, a values file, a
 * remote base or a generator config that names a path outside the render's directory, by whatever spelling the field
 * checks ({@code KustomizeReach}) missed, is refused by the kernel. A render that may fetch (a chart from a repository
 * or registry, remote bases the engine allows) may also read what name resolution and TLS need; one that runs
 * {@code git} for remote bases, the system's libraries.
 *
 * <p>No privilege is needed: Landlock restricts an unprivileged process (the image runs as a non-root user with every
 * capability dropped). Where the kernel has no Landlock, {@link Mode#REQUIRED} (the default) fails every render,
 * saying so; {@link Mode#OFF}, which only the engine's own flag sets, never the repo, renders without it.
 */
public final class RenderSandbox {

    /** Whether renders must run in the sandbox. */
    public enum Mode {
        /** Every render runs in the sandbox; where it cannot, the render fails saying why. */
        REQUIRED,
        /** Renders run without the file-system boundary: the tools may read any file the engine can. */
        OFF;

        /** The word of a flag or environment variable ({@code required}, {@code off}), or null when it is none of them. */
        public static Mode of(String word) {
            for (Mode m : values()) if (m.name().toLowerCase(Locale.ROOT).equals(word)) return m;
            return null;
        }
    }

    /** Files a render that fetches over the network reads: name resolution and the CA bundle. */
    private static final List<String> NETWORK_FILES = List.of("/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/gai.conf",
            "/etc/host.conf");
    /** Folders {@code git} and its helpers are read from, for remote bases. */
    private static final List<String> SYSTEM_DIRS = List.of("/usr", "/lib", "/lib64", "/etc/ssl", "/etc/ca-certificates",
            "/etc/alternatives");
    /** By launcher, what its check found: "" when the sandbox works, else why it cannot be had. */
    private static final Map<Path, String> PROBED = new ConcurrentHashMap<>();

    private final Mode mode;
    private final RenderTools tools;

    public RenderSandbox(Mode mode, RenderTools tools) {
        this.mode = mode;
        this.tools = tools;
    }

    public Mode mode() { return mode; }

    /** What one run may reach besides its own directory. */
    public enum Reach {
        /** Its own directory, kustomize and helm: nothing else. */
        LOCAL,
        /** Also name resolution and the CA bundle: a chart from a repository or a registry. */
        NETWORK,
        /** Also the system's folders, for {@code git}: remote bases. */
        NETWORK_AND_GIT
    }

    /**
     * {@code command} as the sandbox runs it, able to read and write {@code work} only (plus what {@code reach} adds), or
     * null with {@link #unavailable()} saying why when the sandbox is required and cannot be had.
     */
    List<String> wrap(List<String> command, Path work, Reach reach) {
        if (mode == Mode.OFF) return command;
        if (unavailable() != null) return null;
        List<String> out = new ArrayList<>(List.of(tools.sandbox().toString(), "-rw", work.toString(), "-rwfiles", "/dev/null"));
        List<String> executables = new ArrayList<>();
        for (Path tool : List.of(tools.kustomize(), tools.helm(), tools.sops(), tools.crane(), tools.goTemplate())) if (Files.isRegularFile(tool)) executables.add(tool.toString());
        if (!executables.isEmpty()) {
            out.add("-rofiles");
            out.addAll(executables);
        }
        if (reach != Reach.LOCAL) {
            List<String> files = new ArrayList<>(existing(NETWORK_FILES, false));
            files.addAll(existing(List.of(caBundle()), false));
            if (!files.isEmpty()) {
                out.add("-rofiles");
                out.addAll(files);
            }
        }
        if (reach == Reach.NETWORK_AND_GIT) {
            List<String> dirs = existing(SYSTEM_DIRS, true);
            if (!dirs.isEmpty()) {
                out.add("-ro");
                out.addAll(dirs);
            }
        }
        out.add("--");
        out.addAll(command);
        return out;
    }

    /** The CA bundle a run that fetches is given ({@code SSL_CERT_FILE}), the one the image and Debian have by default. */
    static String caBundle() {
        String given = System.getenv("SSL_CERT_FILE");
        return given != null && !given.isBlank() ? given : "/etc/ssl/certs/ca-certificates.crt";
    }

    private static List<String> existing(List<String> paths, boolean dirs) {
        List<String> out = new ArrayList<>();
        for (String p : paths) {
            Path path = Path.of(p);
            if (dirs ? Files.isDirectory(path) : Files.isRegularFile(path)) out.add(p);
        }
        return out;
    }

    /**
     * Why the sandbox cannot be had, or null when renders run in it (or need not). Found out once per launcher: it is
     * started with a rule set that lets it execute nothing, and must then be refused executing a tool. A kernel without
     * Landlock runs the tool instead, and renders are refused with that said.
     */
    public String unavailable() {
        if (mode == Mode.OFF) return null;
        Path launcher = tools.sandbox();
        if (!Files.isExecutable(launcher)) {
            return "the render sandbox's launcher is not installed at " + launcher + ": run scripts/render-tools.sh, or set WINDLASS_TOOLS_DIR;"
                    + " the engine's --render-sandbox=off renders without it";
        }
        String known = PROBED.get(launcher);
        if (known != null) return known.isEmpty() ? null : known;
        Probe found = probe(launcher, tools);
        // A check that could not finish (the launcher did not start or answer in time) is tried again at the next render.
        if (found.lasting()) PROBED.put(launcher, found.why() == null ? "" : found.why());
        return found.why();
    }

    /** What a check found: why the sandbox cannot be had (null: it works), and whether that holds until a restart. */
    private record Probe(String why, boolean lasting) {}

    private static Probe probe(Path launcher, RenderTools tools) {
        Path tool = Files.isExecutable(tools.helm()) ? tools.helm() : tools.kustomize();
        if (!Files.isExecutable(tool)) return new Probe(null, false);  // nothing to run: the render says which tool is missing
        Path empty = null;
        try {
            empty = Files.createTempDirectory("windlass-sandbox-probe-");
            Path said = empty.resolve("said");
            Process p = new ProcessBuilder(launcher.toString(), "-rw", empty.toString(), "--", tool.toString(), "version")
                    .redirectErrorStream(true).redirectOutput(said.toFile()).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Probe("the render sandbox's launcher did not answer within 10 s", false);
            }
            String out = Files.readString(said);
            Files.delete(said);
            if (p.exitValue() == 0) {
                return new Probe("this host's kernel does not enforce Landlock (Linux 5.13 or newer, with landlock in its lsm= list), so renders"
                        + " cannot be confined to the repo; the engine's --render-sandbox=off renders without it", true);
            }
            if (out.contains("execve") && out.contains("permission denied")) return new Probe(null, true);
            String first = out.strip().lines().findFirst().orElse("exit " + p.exitValue());
            return new Probe("the render sandbox's launcher failed: " + (first.length() > 200 ? first.substring(0, 200) : first), true);
        } catch (IOException e) {
            return new Probe("the render sandbox's launcher could not start (" + e.getClass().getSimpleName() + ")", false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Probe("interrupted while checking the render sandbox", false);
        } finally {
            if (empty != null) empty.toFile().delete();
        }
    }
}
