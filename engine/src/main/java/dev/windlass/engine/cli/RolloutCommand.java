package dev.windlass.engine.cli;

import dev.windlass.git.BranchChange;
import dev.windlass.git.CommitOutcome;
import dev.windlass.git.ConfigWriter;
import dev.windlass.git.Mirror;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.parse.AnnotationEdit;
import dev.windlass.policy.parse.RepoParser;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "rollout", description = "Pause or resume an application's rollout by a commit to the config repo (Git stays the source of truth).",
        subcommands = {RolloutCommand.Pause.class, RolloutCommand.Resume.class})
final class RolloutCommand {

    abstract static class Change implements Callable<Integer> {
        @Mixin RepoOptions repo;

        @Option(names = "--branch", defaultValue = "main", description = "config branch (default: ${DEFAULT-VALUE})")
        String branch;

        @Option(names = "--author", description = "commit author as \"Name <email>\" (default: from git config)")
        String author;

        @Parameters(index = "0", paramLabel = "APP") String app;

        @Spec CommandSpec spec;

        abstract String value(Author who);

        abstract String verb();

        @Override public Integer call() throws Exception {
            Author who = Author.of(author);
            AtomicReference<String> problem = new AtomicReference<>();
            try (Mirror mirror = repo.openMirror()) {
                mirror.fetch();
                CommitOutcome out = new ConfigWriter(mirror, branch).write(snapshot -> {
                    problem.set(null);
                    Application a = snapshot.commit() == null ? null : RepoParser.parse(snapshot, new dev.windlass.policy.parse.ParseCache(), dev.windlass.policy.parse.Owners.NONE,
                            dev.windlass.engine.render.AppRendering.goTemplates()).apps().get(app);
                    BranchChange change = BranchChange.of("windlass: " + verb() + " rollout of " + app + (value(who) == null ? "" : ": " + value(who)),
                            who.name(), who.email());
                    if (a == null) {
                        problem.set("no application '" + app + "' on branch " + branch);
                        return change;
                    }
                    String path = a.location().path();
                    String text = new String(snapshot.read(path), StandardCharsets.UTF_8);
                    AnnotationEdit.Outcome edit = value(who) == null
                            ? AnnotationEdit.remove(text, "Application", app, Application.ANNOTATION_ROLLOUT_PAUSED)
                            : AnnotationEdit.set(text, "Application", app, Application.ANNOTATION_ROLLOUT_PAUSED, value(who));
                    if (!edit.ok()) {
                        problem.set(path + ": " + edit.problem());
                        return change;
                    }
                    return change.write(path, edit.text());
                });
                if (problem.get() != null) {
                    spec.commandLine().getErr().println(problem.get());
                    return 2;
                }
                return report(out);
            }
        }

        private int report(CommitOutcome out) {
            if (out instanceof CommitOutcome.Committed c) {
                spec.commandLine().getOut().println(verb() + " rollout of " + app + " in commit " + c.commit().substring(0, 7) + " on " + branch);
                return 0;
            }
            if (out instanceof CommitOutcome.Unchanged) {
                spec.commandLine().getOut().println("rollout of " + app + " is already " + (verb().equals("pause") ? "paused" : "running") + "; nothing to commit");
                return 0;
            }
            spec.commandLine().getErr().println("could not push: " + ((CommitOutcome.Failed) out).reason());
            return 2;
        }
    }

    @Command(name = "pause", description = "Stop starting new clusters; clusters already updating finish their step.")
    static final class Pause extends Change {
        @Option(names = "--reason", required = true, description = "why, recorded in the commit and the status")
        String reason;

        @Override String value(Author who) { return reason + " (" + who.name() + ")"; }

        @Override String verb() { return "pause"; }
    }

    @Command(name = "resume", description = "Continue a paused rollout where it stopped; gates still apply.")
    static final class Resume extends Change {
        @Override String value(Author who) { return null; }

        @Override String verb() { return "resume"; }
    }
}
