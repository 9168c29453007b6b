package dev.windlass.policy.render;

import dev.windlass.policy.state.Sync;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.AppPlan;
import dev.windlass.policy.plan.HeldAction;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.plan.Stage;
import dev.windlass.policy.plan.TargetPlan;
import java.util.List;

/** Renders a plan as Markdown for pull requests, the terminal and {@code plans/<ref>.md}. */
public final class PlanMarkdown {
    private PlanMarkdown() {}

    public static String render(Plan plan, String ref) {
        return render(plan, ref, List.of());
    }

    /** With what the API servers said when asked to dry-run the plan's actions (empty: not asked). */
    public static String render(Plan plan, String ref, List<ActionResult> dryRun) {
        StringBuilder b = new StringBuilder();
        b.append("# Windlass plan for ").append(ref).append("\n\n");
        b.append("**").append(PlanSummary.of(plan)).append("**\n");
        int n = 0;
        for (Stage stage : plan.stages()) {
            b.append("\n## Stage ").append(++n).append(" of ").append(plan.stages().size()).append(": ").append(stage.name()).append('\n');
            if (!stage.gate().isEmpty()) b.append("\nRuns on a cluster once ").append(stage.gate()).append(".\n");
            for (String cluster : stage.clusters()) {
                b.append("\n### ").append(cluster).append("\n\n| action | object | app | reason |\n|---|---|---|---|\n");
                for (Action a : stage.actions()) {
                    if (a.cluster().equals(cluster)) b.append(row(a)).append('\n');
                }
            }
        }
        if (!plan.held().isEmpty()) {
            b.append("\n## Held\n\n| action | object | cluster | app | held by |\n|---|---|---|---|---|\n");
            for (HeldAction h : plan.held()) {
                Action a = h.action();
                b.append("| ").append(a.operation()).append(" | ").append(cell(a.object().toString())).append(" | ").append(a.cluster())
                        .append(" | ").append(a.app()).append(" | ").append(cell(h.reason().text())).append(" |\n");
            }
        }
        b.append("\n## Applications\n\n| app | revision | clusters | state |\n|---|---|---|---|\n");
        for (AppPlan app : plan.apps()) {
            b.append("| ").append(app.app()).append(" | ").append(app.revision() == null ? "-" : app.revision())
                    .append(" | ").append(app.clusters().isEmpty() ? "-" : clusters(app))
                    .append(" | ").append(state(app)).append(" |\n");
        }
        appendImported(b, plan.apps());
        appendRollouts(b, plan);
        appendFailovers(b, plan);
        appendDryRun(b, dryRun);
        appendDrift(b, plan.apps());
        List<Diagnostic> problems = plan.diagnostics();
        if (!problems.isEmpty()) {
            b.append("\n## Problems\n\n");
            for (Diagnostic d : problems) b.append("- `").append(d).append("`\n");
        }
        b.append("\n---\nPlan `").append(plan.hash()).append("` for source `").append(plan.sourceCommit()).append("`\n");
        return b.toString();
    }

    /** Where each application read from a Flux object comes from: the object's file and line (nothing when there are none). */
    static void appendImported(StringBuilder b, List<AppPlan> apps) {
        List<AppPlan> imported = apps.stream().filter(a -> a.fluxOrigin() != null).toList();
        appendImportedFromArgo(b, apps);
        if (imported.isEmpty()) return;
        b.append("\n## Imported from Flux\n\n| app | Kustomization |\n|---|---|\n");
        for (AppPlan a : imported) b.append("| ").append(a.app()).append(" | `").append(a.fluxOrigin()).append("` |\n");
    }

    /** Where each application read from an Argo CD Application comes from: that object's file and line. */
    static void appendImportedFromArgo(StringBuilder b, List<AppPlan> apps) {
        List<AppPlan> imported = apps.stream().filter(a -> a.argoOrigin() != null).toList();
        if (imported.isEmpty()) return;
        b.append("\n## Imported from Argo CD\n\n| app | Application |\n|---|---|\n");
        for (AppPlan a : imported) b.append("| ").append(a.app()).append(" | `").append(a.argoOrigin()).append("` |\n");
    }

    /** The clusters of an application, each with the variant it renders when it is rendered per cluster. */
    public static String clusters(AppPlan app) {
        java.util.Map<String, String> variants = new java.util.HashMap<>();
        for (TargetPlan t : app.targets()) if (!t.variant().isEmpty()) variants.put(t.cluster(), t.variant());
        return String.join(", ", app.clusters().stream().map(c -> variants.containsKey(c) ? c + " (" + variants.get(c) + ")" : c).toList());
    }

    private static String row(Action a) {
        String reason = a.reason().text() + (a.fields().isEmpty() ? "" : ": " + String.join(", ", a.fields().stream().limit(8).toList())
                + (a.fields().size() > 8 ? " and " + (a.fields().size() - 8) + " more" : ""));
        return "| " + symbol(a) + " " + a.operation() + " | " + cell(a.object().toString()) + " | " + a.app() + " | " + cell(reason) + " |";
    }

    private static String symbol(Action a) {
        return switch (a.operation()) {
            case Create -> "+";
            case Update -> "~";
            case Delete -> "-";
            case Orphan -> "!";
            case Patch -> "~";
            case Drain -> "⇣";
        };
    }

    private static String state(AppPlan app) {
        if (!app.valid()) return "**Invalid**";
        java.util.Map<Sync, List<String>> by = new java.util.EnumMap<>(Sync.class);
        for (TargetPlan t : app.targets()) by.computeIfAbsent(t.sync(), k -> new java.util.ArrayList<>()).add(t.cluster());
        String s = by.size() <= 1 && by.containsKey(Sync.Synced) ? "Synced"
                : String.join("; ", by.entrySet().stream().map(e -> e.getKey() + " on " + String.join(", ", e.getValue())).toList());
        return app.removedFrom().isEmpty() ? s : s + "; leaves " + String.join(", ", app.removedFrom());
    }

    private static void appendDrift(StringBuilder b, List<AppPlan> apps) {
        boolean header = false;
        for (AppPlan app : apps) {
            for (TargetPlan t : app.targets()) {
                if (t.drift().isEmpty() && t.note().isEmpty()) continue;
                if (!header) {
                    b.append("\n## Notes\n\n");
                    header = true;
                }
                for (String d : t.drift()) b.append("- ").append(app.app()).append(" on ").append(t.cluster()).append(": drift not corrected (self-heal off): ").append(d).append('\n');
                if (!t.note().isEmpty()) b.append("- ").append(app.app()).append(" on ").append(t.cluster()).append(": ").append(t.note()).append('\n');
            }
        }
    }

    private static void appendRollouts(StringBuilder b, Plan plan) {
        for (var e : new java.util.TreeMap<>(plan.rollouts()).entrySet()) {
            var r = e.getValue();
            b.append("\n## Rollout of ").append(e.getKey()).append(' ').append(r.revision()).append(" (").append(r.policy()).append("): ")
                    .append(r.result()).append("\n\n").append(r.gate()).append(".\n");
            if (!r.message().isEmpty()) b.append("\n").append(r.message()).append("\n");
            b.append("\n| wave | cluster | step |\n|---|---|---|\n");
            for (var s : r.clusters()) {
                b.append("| ").append(s.wave()).append('/').append(r.waves()).append(" | ").append(s.cluster()).append(" | ").append(s.state()).append(" |\n");
            }
        }
    }

    /** Evictions started or under way, blocked failovers, and a fleet-wide hold: only what concerns this pass. */
    private static void appendFailovers(StringBuilder b, Plan plan) {
        List<String> lines = new java.util.ArrayList<>();
        if (plan.failoverHold() != null) lines.add("- **No cluster failover starts:** " + plan.failoverHold());
        for (var e : new java.util.TreeMap<>(plan.failovers()).entrySet()) {
            String app = e.getKey();
            var af = e.getValue();
            for (var t : af.memory().evictions()) {
                String to = String.join(", ", t.replacements().isEmpty() ? t.clustersAfterFailover() : t.replacements());
                String phase = af.started().contains(t) ? "starts now" : t.inFlight() ? "in flight since " + t.createdAt()
                        : t.completedAt() != null ? "done at " + t.completedAt() + "; " + t.fromCluster() + " excluded until healthy for the toleration"
                        : "failed at " + t.failedAt() + "; " + t.fromCluster() + " excluded until healthy for the toleration";
                StringBuilder line = new StringBuilder("- ").append(app).append(": ").append(t.fromCluster()).append(" → ").append(to)
                        .append(" (").append(t.reason()).append("), ").append(phase).append("; old copy ").append(t.purgeMode())
                        .append(": ").append(t.purge());
                if (af.purgeHeld().containsKey(t.fromCluster())) line.append(" (").append(af.purgeHeld().get(t.fromCluster()).text()).append(')');
                if (!t.preservedState().isEmpty()) line.append("; carries ").append(String.join(", ",
                        t.preservedState().stream().map(v -> "`" + v.label() + "=" + v.value() + "` on " + v.object()).toList()));
                lines.add(line.toString());
                t.notes().forEach(n -> lines.add("  - " + n));
            }
            if (af.blocked() != null) lines.add("- " + app + ": **FailoverBlocked** (" + af.blockedReason() + "): " + af.blocked());
        }
        if (lines.isEmpty()) return;
        b.append("\n## Failover\n\n");
        lines.forEach(l -> b.append(l).append('\n'));
    }

    private static void appendDryRun(StringBuilder b, List<ActionResult> dryRun) {
        b.append(dryRunSection(dryRun, "## "));
    }

    /** What the API servers said about a plan's actions, under a heading of the given level; "" when not asked. */
    public static String dryRunSection(List<ActionResult> dryRun, String heading) {
        StringBuilder b = new StringBuilder();
        if (dryRun.isEmpty()) return "";
        long skipped = dryRun.stream().filter(r -> r.outcome() == Outcome.Skipped).count();
        List<ActionResult> rejected = dryRun.stream().filter(r -> !r.succeeded()).toList();
        long checked = dryRun.size() - skipped;
        b.append("\n").append(heading).append("Server dry-run\n\n");
        if (checked == 0) b.append("No action was checked by an API server");
        else b.append(checked - rejected.size()).append(" of ").append(checked).append(" checked actions accepted by the API servers");
        if (skipped > 0) b.append(checked == 0 ? ": " : "; ").append(skipped).append(" not checked (").append(dryRun.stream()
                .filter(r -> r.outcome() == Outcome.Skipped).map(ActionResult::message).distinct().sorted().findFirst().orElse("")).append(")");
        b.append(".\n");
        if (rejected.isEmpty()) return b.toString();
        b.append("\n| action | object | cluster | the server says |\n|---|---|---|---|\n");
        for (ActionResult r : rejected) {
            Action a = r.action();
            b.append("| ✗ ").append(a.operation()).append(" | ").append(cell(a.object().toString())).append(" | ").append(a.cluster())
                    .append(" | ").append(cell(r.message())).append(" |\n");
        }
        return b.toString();
    }

    /** Text safe inside a Markdown table cell. */
    public static String cell(String s) { return s.replace("|", "\\|").replace("\n", " "); }
}
