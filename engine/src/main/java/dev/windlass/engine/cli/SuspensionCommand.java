package dev.windlass.engine.cli;

import dev.windlass.git.CommitOutcome;
import dev.windlass.git.ConfigWriter;
import dev.windlass.git.Mirror;
import dev.windlass.policy.source.Snapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** What {@code windlass suspend} and {@code resume} share: where the config repo is, who writes, and how the outcome reads. */
abstract class SuspensionCommand implements Callable<Integer> {
    @Mixin RepoOptions repo;

    @Option(names = "--branch", defaultValue = "main", description = "config branch (default: ${DEFAULT-VALUE})")
    String branch;

    @Option(names = "--author", description = "commit author as \"Name <email>\" (default: from git config)")
    String author;

    @Parameters(index = "0", paramLabel = "NAME") String name;

    @Spec CommandSpec spec;

    abstract SuspensionEdit edit(Author who);

    @Override public Integer call() throws IOException {
        SuspensionEdit edit = edit(Author.of(author));
        PrintWriter err = spec.commandLine().getErr();
        if (edit.suspend() && (edit.reason().isBlank() || edit.reason().chars().anyMatch(Character::isISOControl))) {
            err.println("--reason must be one line saying why (it is recorded in the repo and shown in plans and status)");
            return 2;
        }
        try (Mirror mirror = repo.openMirror()) {
            return write(new ConfigWriter(mirror, branch), edit, edit::on, spec.commandLine().getOut(), err);
        }
    }

    /**
     * Pushes the edit (computed again from the new tip after a lost race) and reports it: 0 when committed or when
     * there was nothing to do, 2 on a problem. {@code computed} is {@code edit::on} except in tests that interfere.
     */
    static int write(ConfigWriter writer, SuspensionEdit edit, Function<Snapshot, SuspensionEdit.Result> computed, PrintWriter out,
                     PrintWriter err) throws IOException {
        AtomicReference<SuspensionEdit.Result> last = new AtomicReference<>();
        CommitOutcome outcome = writer.write(tip -> {
            SuspensionEdit.Result r = computed.apply(tip);
            last.set(r);
            return r.change();
        });
        SuspensionEdit.Result result = last.get();
        if (result != null && result.problem() != null) {
            err.println(result.problem());
            return 2;
        }
        if (outcome instanceof CommitOutcome.Committed c) {
            out.println((edit.suspend() ? "suspended " : "resumed ") + edit.subject() + " in commit " + c.commit().substring(0, 7) + " on " + edit.branch());
            return 0;
        }
        if (outcome instanceof CommitOutcome.Unchanged) {
            out.println(result != null && result.nothingToDo() != null ? result.nothingToDo() : edit.subject() + " is unchanged; nothing to commit");
            return 0;
        }
        err.println("could not push to " + edit.branch() + ": " + ((CommitOutcome.Failed) outcome).reason());
        return 2;
    }
}
