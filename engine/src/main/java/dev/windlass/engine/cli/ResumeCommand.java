package dev.windlass.engine.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "resume", description = "Resume what windlass suspend suspended, by a commit to the config repo; what piled up is applied on the next pass.",
        subcommands = {ResumeCommand.App.class, ResumeCommand.Cluster.class})
final class ResumeCommand {

    @Command(name = "app", description = "Resume an application everywhere (removes spec.suspend and its reason) or on one cluster "
            + "(--cluster: deletes freezes/suspend-<app>-on-<cluster>.yaml).")
    static final class App extends SuspensionCommand {
        @Option(names = "--cluster", paramLabel = "CLUSTER", description = "only on this cluster") String cluster;

        @Override SuspensionEdit edit(Author who) {
            return new SuspensionEdit(SuspensionEdit.Target.APP, name, cluster, false, null, who, branch);
        }
    }

    @Command(name = "cluster", description = "Resume a cluster (removes spec.suspend and its reason).")
    static final class Cluster extends SuspensionCommand {
        @Override SuspensionEdit edit(Author who) {
            return new SuspensionEdit(SuspensionEdit.Target.CLUSTER, name, null, false, null, who, branch);
        }
    }
}
