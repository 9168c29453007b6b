package dev.windlass.engine.cli;

import dev.windlass.engine.status.HistoryTable;
import dev.windlass.engine.status.StatusFiles;
import dev.windlass.git.Mirror;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.EngineState;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "history", description = "Read the status branch and print an application's failovers: completed, failed, in progress.")
final class HistoryCommand implements Callable<Integer> {
    enum Format { text, yaml }

    /** How many of the app file's newest status commits are searched for failovers (the default status history limit). */
    static final int COMMITS_READ = 1000;

    @Mixin RepoOptions repo;

    @Parameters(index = "0", paramLabel = "APP", description = "the application")
    String app;

    @Option(names = {"-o", "--output"}, defaultValue = "text",
            description = "text, or yaml: the failover memory as the status file records it (default: ${DEFAULT-VALUE})")
    Format output;

    @Spec CommandSpec spec;

    @Override public Integer call() throws Exception {
        try (Mirror mirror = repo.openMirror()) {
            EngineState state = repo.readState(mirror, spec.commandLine().getErr());
            if (state == null) return 1;
            AppStatus status = state.apps().get(app);
            if (status == null) {
                spec.commandLine().getErr().println("no application '" + app + "' in the status; known: " + String.join(", ", state.apps().keySet()));
                return 1;
            }
            spec.commandLine().getOut().print(switch (output) {
                case text -> {
                    String statusBranch = repo.statusBranch(mirror, "main");
                    // Who wrote each failover: the commits of the app's status file, their trailers read strictly.
                    yield HistoryTable.render(status, statusBranch, mirror.log(statusBranch, StatusFiles.APPS + app + ".yaml", COMMITS_READ));
                }
                case yaml -> StatusFiles.yamlText(dev.windlass.engine.status.v1.FailoverMemoryV1.of(status.failoverMemory()));
            });
            return 0;
        }
    }
}
