package dev.windlass.engine.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "suspend", description = "Suspend an application or a cluster by a commit to the config repo: nothing it covers is applied, "
        + "pruned, corrected or rolled out until it is resumed. Observation and status go on.",
        subcommands = {SuspendCommand.App.class, SuspendCommand.Cluster.class})
final class SuspendCommand {

    @Command(name = "app", description = "Suspend an application everywhere (spec.suspend in its file) or on one cluster "
            + "(--cluster: an open-ended Freeze in freezes/suspend-<app>-on-<cluster>.yaml).")
    static final class App extends SuspensionCommand {
        @Option(names = "--cluster", paramLabel = "CLUSTER", description = "only on this cluster") String cluster;

        @Option(names = "--reason", required = true, description = "why, recorded in the repo with your name and shown in plans and status")
        String reason;

        @Override SuspensionEdit edit(Author who) {
            return new SuspensionEdit(SuspensionEdit.Target.APP, name, cluster, true, reason, who, branch);
        }
    }

    @Command(name = "cluster", description = "Suspend a cluster (spec.suspend in its file): no application is changed there.")
    static final class Cluster extends SuspensionCommand {
        @Option(names = "--reason", required = true, description = "why, recorded in the repo with your name and shown in plans and status")
        String reason;

        @Override SuspensionEdit edit(Author who) {
            return new SuspensionEdit(SuspensionEdit.Target.CLUSTER, name, null, true, reason, who, branch);
        }
    }
}
