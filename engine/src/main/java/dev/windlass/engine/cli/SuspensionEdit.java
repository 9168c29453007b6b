package dev.windlass.engine.cli;

import dev.windlass.git.BranchChange;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.parse.AnnotationEdit;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.parse.SpecFieldEdit;
import dev.windlass.policy.source.Snapshot;
import dev.windlass.policy.suspension.SuspendFreeze;
import java.nio.charset.StandardCharsets;

/**
 * One {@code windlass suspend} or {@code resume} as an edit of the config branch's files: what to write, or why
 * nothing is written. Computed from whatever the tip holds, so after a lost push race it is simply computed again.
 *
 * @param cluster for an application only: suspend it on this one cluster (an open-ended Freeze in its own file),
 *                or null for everywhere ({@code spec.suspend} on the Application)
 * @param reason  why, for a suspend; null for a resume
 */
record SuspensionEdit(Target target, String name, String cluster, boolean suspend, String reason, Author who, String branch) {

    enum Target {
        APP("Application", "app"), CLUSTER("Cluster", "cluster");

        final String kind;
        final String word;

        Target(String kind, String word) {
            this.kind = kind;
            this.word = word;
        }
    }

    /** The change to push, or (with an empty change) a problem (exit 2) or why there is nothing to do (exit 0). */
    record Result(BranchChange change, String problem, String nothingToDo) {}

    /** "web", "web on eu-1", "cluster eu-1": what the messages talk about. */
    String subject() {
        if (target == Target.CLUSTER) return "cluster " + name;
        return cluster == null ? name : name + " on " + cluster;
    }

    /** {@code windlass: suspend web on eu-1: disk full (Alice)}, {@code windlass: resume web on eu-1}. */
    String message() {
        return "windlass: " + (suspend ? "suspend " : "resume ") + subject() + (suspend ? ": " + noted() : "");
    }

    /** The reason as recorded in the repo: with who gave it, since the annotation or Freeze outlives the commit message. */
    String noted() { return reason + " (" + who.name() + ")"; }

    Result on(Snapshot tip) {
        BranchChange change = BranchChange.of(message(), who.name(), who.email());
        DesiredState desired = RepoParser.parse(tip, new dev.windlass.policy.parse.ParseCache(), dev.windlass.policy.parse.Owners.NONE,
                dev.windlass.engine.render.AppRendering.goTemplates());
        if (target == Target.APP && cluster != null) return onOneCluster(tip, desired, change);
        String path = target == Target.APP ? appPath(desired) : clusterPath(desired);
        if (path == null) {
            String ref = target == Target.APP ? "application" : "cluster";
            return problem("no " + ref + " '" + name + "' on branch " + branch + hint(desired));
        }
        boolean suspended = target == Target.APP ? desired.apps().get(name).suspend() : desired.clusters().get(name).suspend();
        // A reason left behind by a hand edit that removed only spec.suspend is cleaned up by a resume too.
        boolean noted = target == Target.APP && desired.apps().get(name).annotations().containsKey(Application.ANNOTATION_SUSPEND_REASON);
        if (suspend && suspended) return nothing(subject() + " is already suspended; nothing to commit");
        if (!suspend && !suspended && !noted) return nothing(subject() + " is not suspended; nothing to commit");
        String text = new String(tip.read(path), StandardCharsets.UTF_8);
        SpecFieldEdit.Outcome spec = suspend ? SpecFieldEdit.set(text, target.kind, name, "suspend", "true")
                : suspended ? SpecFieldEdit.remove(text, target.kind, name, "suspend")
                : new SpecFieldEdit.Outcome(text, null);
        if (!spec.ok()) return problem(path + ": " + spec.problem());
        AnnotationEdit.Outcome annotated = suspend
                ? AnnotationEdit.set(spec.text(), target.kind, name, Application.ANNOTATION_SUSPEND_REASON, noted())
                : AnnotationEdit.remove(spec.text(), target.kind, name, Application.ANNOTATION_SUSPEND_REASON);
        if (!annotated.ok()) return problem(path + ": " + annotated.problem());
        return new Result(change.write(path, annotated.text()), null, null);
    }

    private Result onOneCluster(Snapshot tip, DesiredState desired, BranchChange change) {
        String path = SuspendFreeze.path(name, cluster);
        boolean present = tip.files().containsKey(path);
        if (suspend) {
            if (!desired.apps().containsKey(name)) return problem("no application '" + name + "' on branch " + branch + hint(desired));
            if (!desired.clusters().containsKey(cluster)) return problem("no cluster '" + cluster + "' on branch " + branch + hint(desired));
            if (present) return nothing(subject() + " is already suspended (" + path + "); nothing to commit");
            return new Result(change.write(path, SuspendFreeze.yaml(name, cluster, noted())), null, null);
        }
        // A stale file is removed even when the app or cluster has gone since.
        if (present) return new Result(change.delete(path), null, null);
        if (!desired.apps().containsKey(name)) return problem("no application '" + name + "' on branch " + branch + hint(desired));
        return nothing(subject() + " is not suspended (there is no " + path + "); nothing to commit");
    }

    private String appPath(DesiredState desired) {
        Application a = desired.apps().get(name);
        return a == null ? null : a.location().path();
    }

    private String clusterPath(DesiredState desired) {
        Cluster c = desired.clusters().get(name);
        return c == null ? null : c.location().path();
    }

    /** A definition with errors is not in the parsed state; say where to look instead of only "no such thing". */
    private static String hint(DesiredState desired) {
        return desired.hasErrors() ? " (the branch has errors; `windlass validate` shows them)" : "";
    }

    private Result problem(String text) { return new Result(BranchChange.of(message(), who.name(), who.email()), text, null); }

    private Result nothing(String text) { return new Result(BranchChange.of(message(), who.name(), who.email()), null, text); }
}
