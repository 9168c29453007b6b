package dev.windlass.engine.cli;

import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.git.RetryPolicy;
import dev.windlass.git.StatusWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where the config repo is and where its local mirror lives. Credentials come from the environment only. */
final class RepoOptions {
    @Option(names = "--repo", required = true, paramLabel = "URL",
            description = "config repo: file://, http(s):// or a local path. Credentials from WINDLASS_GIT_TOKEN(_FILE) or WINDLASS_GIT_USERNAME/PASSWORD(_FILE)")
    String repo;

    @Option(names = "--status-branch", description = "status branch (default: the repo's Settings spec.statusBranch, else "
            + StatusWriter.DEFAULT_BRANCH + ")")
    String statusBranch;

    @Option(names = "--workdir", paramLabel = "DIR", description = "where to keep the local mirror (default: ~/.cache/windlass/mirrors/<hash of url>)")
    Path workdir;

    Mirror openMirror() throws IOException {
        GitRemote remote = GitRemote.fromEnvironment(repo);
        return Mirror.open(mirrorDir(), remote);
    }

    StatusWriter statusWriter(Mirror mirror) throws IOException {
        return new StatusWriter(mirror, statusBranch(mirror, "main"), RetryPolicy.DEFAULT);
    }

    /**
     * The status branch: as given, else what the config branch's Settings say ({@code spec.statusBranch}), else the
     * default. Read from the mirror as fetched; decided once per command.
     */
    String statusBranch(Mirror mirror, String configBranch) throws IOException {
        if (statusBranch != null) return statusBranch;
        String head = mirror.resolve(configBranch).orElse(null);
        statusBranch = head == null ? StatusWriter.DEFAULT_BRANCH
                : dev.windlass.policy.parse.RepoParser.parse(mirror.snapshot(head)).settings().statusBranch();
        return statusBranch;
    }

    /**
     * The engine state on the status branch, or null after telling the user there is none yet (the engine may
     * not be running).
     */
    dev.windlass.policy.state.EngineState readState(Mirror mirror, java.io.PrintWriter err) throws IOException {
        mirror.fetch();
        var state = dev.windlass.engine.status.StatusFiles.read(new java.util.TreeMap<>(statusWriter(mirror).readStatusFiles("status/")));
        if (state.apps().isEmpty() && state.clusters().isEmpty()) {
            err.println("no status yet on branch " + statusBranch(mirror, "main") + " of " + repo + "; is the engine running?");
            return null;
        }
        return state;
    }

    /** The signature check the engine recorded, as {@link #readState} brought the status branch; null when none is in force. */
    dev.windlass.policy.source.Verification readVerification(Mirror mirror) throws IOException {
        return dev.windlass.engine.status.StatusFiles.readVerification(new java.util.TreeMap<>(statusWriter(mirror).readStatusFiles("status/")));
    }

    private Path mirrorDir() {
        if (workdir != null) return workdir;
        String id = dev.windlass.policy.diff.ContentHash.sha256(repo).substring(0, 16);
        return Path.of(System.getProperty("user.home"), ".cache", "windlass", "mirrors", id);
    }

    static String utf8(byte[] b) { return new String(b, StandardCharsets.UTF_8); }
}
