package dev.windlass.policy.review;

import static dev.windlass.policy.render.PlanMarkdown.cell;

import dev.windlass.policy.diff.ObjectDiff;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.LiveObject;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.AppPlan;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.plan.HeldAction;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.render.PlanMarkdown;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The review of one branch as Markdown: the same text goes to {@code plans/<branch>.md} on the status branch, to
 * the terminal ({@code windlass plan --base --head}) and, behind a hidden marker, into the pull request comment.
 * Deterministic: no clock, no ordering left to chance. Secret values never appear (see {@link ObjectDiff}).
 */
public final class ReviewMarkdown {
    /** Diff lines shown per object; the rest is counted. */
    static final int DIFF_LINES = 40;

    private ReviewMarkdown() {}

    /** The hidden line that finds this review's comment again, so each push edits it instead of adding another. */
    public static String marker(String ref) {
        return "<!-- windlass-plan: " + ref + " -->";
    }

    /** Exactly what is posted as the pull request comment. */
    public static String comment(ReviewInput in) {
        return marker(in.ref()) + "\n" + render(in);
    }

    public static String render(ReviewInput in) {
        StringBuilder b = new StringBuilder();
        b.append("## Windlass plan: `").append(in.ref()).append("` into `").append(in.mainBranch()).append("`\n\n");
        if (!in.mergeable()) {
            b.append("**Cannot plan: the branch conflicts with ").append(in.mainBranch()).append("** in ")
                    .append(String.join(", ", in.conflicts().stream().map(p -> "`" + p + "`").toList()))
                    .append(". Merge ").append(in.mainBranch()).append(" into the branch (or rebase it) and push again.\n");
            footer(b, in, null);
            return b.toString();
        }
        ReviewWaves waves = ReviewWaves.of(in.headPlan());
        b.append(summary(waves)).append('\n');
        List<String> effects = PolicyEffects.of(in);
        if (!effects.isEmpty()) {
            b.append("\n### Policy effects\n\n");
            effects.forEach(e -> b.append("- ").append(e).append('\n'));
        }
        for (ReviewWaves.Wave w : waves.waves()) {
            b.append("\n### Wave ").append(w.number()).append(" of ").append(waves.waves().size())
                    .append(w.number() == 1 ? ": on merge" : "").append('\n');
            if (!w.gates().isEmpty()) {
                b.append('\n');
                w.gates().forEach(g -> b.append("Starts for ").append(g).append(".\n"));
            }
            w.byCluster().forEach((cluster, actions) -> cluster(b, in, cluster, actions));
        }
        held(b, waves.held());
        apps(b, in);
        b.append(PlanMarkdown.dryRunSection(in.dryRun(), "### "));
        List<Diagnostic> problems = in.headPlan().diagnostics();
        if (!problems.isEmpty()) {
            b.append("\n### Validation errors\n\nApplications with an error are not applied; everything else goes on.\n\n");
            for (Diagnostic d : problems) b.append("- `").append(d).append("`\n");
        }
        footer(b, in, in.headPlan().hash());
        return b.toString();
    }

    /** The summary line of the comment: {@link #summaryHeadline} in bold, then {@link #summaryDetail}. */
    static String summary(ReviewWaves waves) {
        return "**" + summaryHeadline(waves) + "**" + summaryDetail(waves);
    }

    /**
     * The summary as plain text, for a commit status and the status commit: "3 objects to create, change or delete on 2
     * clusters, in 2 waves: 1 to create, 1 to change, 1 to delete; 1 held."
     */
    public static String summaryText(Plan plan) {
        ReviewWaves waves = ReviewWaves.of(plan);
        return summaryHeadline(waves) + summaryDetail(waves);
    }

    private static String summaryHeadline(ReviewWaves waves) {
        long total = waves.waves().stream().mapToLong(ReviewWaves.Wave::count).sum();
        if (total == 0 && waves.held().isEmpty()) return "No changes";
        long clusters = waves.clusters();
        return total + (total == 1 ? " object" : " objects") + " to create, change or delete on " + clusters
                + (clusters == 1 ? " cluster" : " clusters") + ", in " + waves.waves().size() + (waves.waves().size() == 1 ? " wave" : " waves");
    }

    private static String summaryDetail(ReviewWaves waves) {
        long total = waves.waves().stream().mapToLong(ReviewWaves.Wave::count).sum();
        if (total == 0 && waves.held().isEmpty()) return ": merging this branch changes nothing on any cluster.";
        long others = total - waves.count(Operation.Create) - waves.count(Operation.Update) - waves.count(Operation.Delete);
        String s = ": " + waves.count(Operation.Create) + " to create, " + waves.count(Operation.Update) + " to change, "
                + waves.count(Operation.Delete) + " to delete";
        if (others > 0) s += ", " + others + " other";
        if (!waves.held().isEmpty()) s += "; " + waves.held().size() + " held";
        return s + ".";
    }

    private static void cluster(StringBuilder b, ReviewInput in, String cluster, List<Action> actions) {
        b.append("\n#### ").append(cluster).append("\n\n| action | object | app | reason |\n|---|---|---|---|\n");
        for (Action a : actions) {
            String reason = a.reason().text() + (a.fields().isEmpty() ? "" : ": " + String.join(", ", a.fields().stream().limit(8).toList())
                    + (a.fields().size() > 8 ? " and " + (a.fields().size() - 8) + " more" : ""));
            b.append("| ").append(symbol(a.operation())).append(' ').append(a.operation()).append(" | ").append(cell(a.object().toString()))
                    .append(" | ").append(a.app()).append(" | ").append(cell(reason)).append(" |\n");
        }
        for (Action a : actions) {
            String diff = diff(in, a);
            if (!diff.isEmpty()) b.append("\n```diff\n").append(diff).append(diff.endsWith("\n") ? "" : "\n").append("```\n");
        }
    }

    private static String diff(ReviewInput in, Action a) {
        if (a.operation() != Operation.Create && a.operation() != Operation.Update && a.operation() != Operation.Delete) return "";
        Map<String, Object> live = null;
        ClusterObservation obs = in.observed() == null ? null : in.observed().cluster(a.cluster());
        if (obs != null && a.operation() != Operation.Create) {
            LiveObject o = obs.objects().get(a.object());
            live = o == null ? null : o.body();
        }
        if (a.operation() == Operation.Delete && live == null) return "";
        Map<String, Object> desired = a.operation() == Operation.Delete || a.desired() == null ? null : a.desired().body();
        if (a.operation() == Operation.Update && live == null) return "";
        return ObjectDiff.unified(a.object() + " on " + a.cluster(), live, desired, DIFF_LINES);
    }

    private static void held(StringBuilder b, List<HeldAction> held) {
        if (held.isEmpty()) return;
        b.append("\n### Held\n\nNot applied on merge; each waits for what holds it.\n\n| action | object | cluster | app | held by |\n|---|---|---|---|---|\n");
        for (HeldAction h : held) {
            Action a = h.action();
            b.append("| ").append(a.operation()).append(" | ").append(cell(a.object().toString())).append(" | ").append(a.cluster())
                    .append(" | ").append(a.app()).append(" | ").append(cell(h.reason().text())).append(" |\n");
        }
    }

    /** Applications whose revision, validity or placement the branch changes. */
    private static void apps(StringBuilder b, ReviewInput in) {
        Map<String, AppPlan> before = new TreeMap<>();
        if (in.basePlan() != null) in.basePlan().apps().forEach(a -> before.put(a.app(), a));
        StringBuilder rows = new StringBuilder();
        for (AppPlan app : in.headPlan().apps()) {
            AppPlan was = before.remove(app.app());
            boolean same = was != null && Objects.equals(was.revision(), app.revision()) && was.valid() == app.valid()
                    && was.clusters().equals(app.clusters());
            if (same) continue;
            rows.append("| ").append(app.app()).append(app.fluxOrigin() == null ? "" : " (Flux Kustomization `" + app.fluxOrigin() + "`)")
                    .append(app.argoOrigin() == null ? "" : " (Argo CD Application `" + app.argoOrigin() + "`)")
                    .append(" | ").append(was == null ? "new" : rev(was.revision())).append(" → ")
                    .append(rev(app.revision())).append(" | ").append(app.clusters().isEmpty() ? "-" : dev.windlass.policy.render.PlanMarkdown.clusters(app))
                    .append(" | ").append(app.valid() ? "valid" : "**Invalid**: not applied").append(" |\n");
        }
        before.values().forEach(gone -> rows.append("| ").append(gone.app()).append(" | ").append(rev(gone.revision()))
                .append(" → removed | - | pruned where its gc policy allows |\n"));
        if (rows.isEmpty()) return;
        b.append("\n### Applications\n\n| app | revision | clusters | state |\n|---|---|---|---|\n").append(rows);
    }

    private static String rev(String r) { return r == null || r.isEmpty() ? "-" : r; }

    private static String symbol(Operation op) {
        return switch (op) {
            case Create -> "+";
            case Update, Patch -> "~";
            case Delete -> "-";
            case Orphan -> "!";
            case Drain -> "⇣";
        };
    }

    private static void footer(StringBuilder b, ReviewInput in, String hash) {
        b.append("\n---\n");
        if (hash != null) b.append("Plan `").append(hash).append("` · ");
        b.append(in.mainBranch()).append(" `").append(shortId(in.baseCommit())).append("` · head `").append(shortId(in.headCommit())).append('`');
        if (in.mergeCommit() != null && !in.mergeCommit().equals(in.headCommit())) b.append(" · merge preview `").append(shortId(in.mergeCommit())).append('`');
        b.append('\n');
    }

    private static String shortId(String sha) { return sha == null ? "-" : sha.substring(0, Math.min(12, sha.length())); }
}
