package dev.windlass.engine.cli;

import dev.windlass.engine.status.StatusTable;
import dev.windlass.git.Mirror;
import dev.windlass.policy.state.EngineState;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "status", description = "Read the status branch and print applications by cluster: revision, sync, health.")
final class StatusCommand implements Callable<Integer> {
    @Mixin RepoOptions repo;

    @Parameters(index = "0", arity = "0..1", paramLabel = "APP", description = "only this application")
    String app;

    @Spec CommandSpec spec;

    @Override public Integer call() throws Exception {
        try (Mirror mirror = repo.openMirror()) {
            EngineState state = repo.readState(mirror, spec.commandLine().getErr());
            // Whether the tip is applied at all comes first: a refused commit is why nothing below changed.
            dev.windlass.policy.source.Verification verification = repo.readVerification(mirror);
            if (verification != null) {
                spec.commandLine().getOut().println((verification.refusing() ? "Not applied: " : "Signatures: ") + verification.text());
            }
            if (state == null) return 1;
            if (app != null && !state.apps().containsKey(app)) {
                spec.commandLine().getErr().println("no application '" + app + "' in the status; known: " + String.join(", ", state.apps().keySet()));
                return 1;
            }
            spec.commandLine().getOut().print(StatusTable.render(state, app));
            return 0;
        }
    }
}
