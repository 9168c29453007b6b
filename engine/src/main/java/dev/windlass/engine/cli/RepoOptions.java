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

    @Option(names = "--status-branch", defaultValue = StatusWriter.DEFAULT_BRANCH, description = "status branch (default: ${DEFAULT-VALUE})")
    String statusBranch;

    @Option(names = "--workdir", paramLabel = "DIR", description = "where to keep the local mirror (default: ~/.cache/windlass/mirrors/<hash of url>)")
    Path workdir;

    Mirror openMirror() throws IOException {
        GitRemote remote = GitRemote.fromEnvironment(repo);
        return Mirror.open(mirrorDir(), remote);
    }

    StatusWriter statusWriter(Mirror mirror) {
        return new StatusWriter(mirror, statusBranch, RetryPolicy.DEFAULT);
    }

    /**
     * The engine state on the status branch, or null after telling the user there is none yet (the engine may
     * not be running).
     */
    dev.windlass.policy.state.EngineState readState(Mirror mirror, java.io.PrintWriter err) throws IOException {
        mirror.fetch();
        var state = dev.windlass.engine.status.StatusFiles.read(new java.util.TreeMap<>(statusWriter(mirror).readStatusFiles("status/")));
        if (state.apps().isEmpty() && state.clusters().isEmpty()) {
            err.println("no status yet on branch " + statusBranch + " of " + repo + "; is the engine running?");
            return null;
        }
        return state;
    }

    private Path mirrorDir() {
        if (workdir != null) return workdir;
        String id = dev.windlass.policy.diff.ContentHash.sha256(repo).substring(0, 16);
        return Path.of(System.getProperty("user.home"), ".cache", "windlass", "mirrors", id);
    }

    static String utf8(byte[] b) { return new String(b, StandardCharsets.UTF_8); }
}
