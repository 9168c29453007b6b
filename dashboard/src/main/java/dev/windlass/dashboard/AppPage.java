package dev.windlass.dashboard;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.placement.Placement;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EvictionTask;
import dev.windlass.policy.state.FailoverMemory;
import dev.windlass.policy.state.FailoverRecord;
import dev.windlass.policy.state.RolloutState;
import dev.windlass.policy.state.TargetStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One application: where it is placed and why, what each cluster runs (revision, drift, inventory), its rollout drawn
 * as waves over time, its failovers as a timeline (blocked attempts included), and its validation errors.
 */
public final class AppPage {

    public record Placed(String cluster, String href, String labels, boolean eligible, boolean placed, String why, Badge hold, String reason) {}

    public record Target(String cluster, String href, Badge sync, Badge health, String revision, String variant, String message,
                         List<String> drift, List<String> inventory, int inventoryCount, Badge hold, String reason) {}

    /** A cluster's step in a wave, placed on the rollout's time axis in percent. */
    public record Step(String cluster, Badge state, String startedAt, String healthySince, String finishedAt, String left, String width,
                       boolean started, String summary) {}

    public record Wave(int number, List<Step> steps) {}

    public record Rollout(String revision, Badge result, String message, String policy, String gate, String startedAt, String finishedAt,
                          List<Wave> waves, String axisFrom, String axisTo) {}

    public record PastRollout(String revision, Badge result, String startedAt, String finishedAt, String message) {}

    /** One entry of the failover timeline. */
    public record Moment(String at, Badge kind, String title, String detail) {}

    public record ConditionRow(String type, String status, String reason, String message, String since) {}

    /**
     * Where an imported application is read from: the Flux or Argo CD object's kind, name, file and line, as the plan
     * names it; {@code link} opens the file at that line on the Git host when one is configured.
     */
    public record Origin(String tool, String kind, String name, String at, String note, String link) {}

    public record Model(String app, boolean known, List<String> labels, String revision, String definedIn, Origin origin, String placementRule,
                        List<ConditionRow> conditions, List<Placed> placement, List<Target> targets, Rollout rollout,
                        List<PastRollout> rollouts, List<String> invalidRevisions, List<Moment> failovers, List<Problem> problems) {
        public boolean hasConditions() { return !conditions.isEmpty(); }
        public boolean hasTargets() { return !targets.isEmpty(); }
        public boolean hasPastRollouts() { return !rollouts.isEmpty(); }
        public boolean hasInvalidRevisions() { return !invalidRevisions.isEmpty(); }
        public boolean hasFailovers() { return !failovers.isEmpty(); }
        public boolean hasProblems() { return !problems.isEmpty(); }
    }

    private AppPage() {}

    /** Null when neither Git nor the status branch knows the application. */
    public static Model of(FleetView view, String app, ViewBoard board, GitLinks links) {
        Application a = view.desired().apps().get(app);
        AppStatus status = view.state().apps().get(app);
        if (a == null && status == null) return null;
        Holds holds = new Holds(view);
        List<String> labels = a == null ? List.of() : a.labels().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().toList();
        List<ConditionRow> conditions = status == null ? List.of() : status.conditions().stream()
                .map(c -> new ConditionRow(c.type(), c.status().name(), c.reason(), c.message(), Times.show(c.lastTransitionTime()))).toList();
        List<Problem> problems = a == null ? List.of() : a.diagnostics().stream().map(d -> Problem.of(d, view.source(), links)).toList();
        return new Model(app, true, labels, status == null ? (a == null ? null : a.revision()) : status.revision(),
                status != null ? status.definedIn() : a.location() == null ? null : a.location().path(), origin(a, status, view.source(), links),
                a == null ? "not in Git any more: its objects are pruned" : rule(a), conditions, placement(view, a, status, holds),
                targets(view, app, status, holds), rollout(view, status), past(status),
                status == null ? List.of() : status.invalidRevisions(), failovers(status, board.blocked(app)), problems);
    }

    /** The origin as the status branch records it, else as the commit shown reads it; null for a native application. */
    private static Origin origin(Application a, AppStatus status, String commit, GitLinks links) {
        dev.windlass.policy.model.ImportOrigin o = status != null && status.origin() != null ? status.origin()
                : a == null ? null : dev.windlass.policy.model.ImportOrigin.of(a);
        if (o == null) return null;
        return new Origin(o.tool() == dev.windlass.policy.model.ImportOrigin.Tool.Flux ? "Flux" : "Argo CD", o.kind(), o.name(),
                o.at().path() + ":" + o.at().line(), o.kind().equals("HelmRelease") ? "printed by the Kustomization at" : "",
                links.file(commit, o.at().path(), o.at().line()));
    }

    private static String rule(Application a) {
        Application.Placement p = a.placement();
        List<String> parts = new ArrayList<>();
        if (p.clusterSelector() != null && !p.clusterSelector().isEmpty()) parts.add("clusters whose labels match " + selector(p.clusterSelector()));
        if (!p.clusterNames().isEmpty()) parts.add("clusters named " + String.join(", ", p.clusterNames()));
        String rule = parts.isEmpty() ? "no cluster (the placement selects none)" : String.join(", and ", parts);
        if (p.maxClusters() > 0) rule += "; at most " + p.maxClusters() + " (clusters it runs on stay, then by name)";
        return rule;
    }

    static String selector(dev.windlass.policy.model.LabelSelector s) {
        List<String> parts = new ArrayList<>();
        s.matchLabels().forEach((k, v) -> parts.add(k + "=" + v));
        for (var r : s.matchExpressions()) parts.add(r.key() + " " + r.operator() + (r.values().isEmpty() ? "" : " (" + String.join(", ", r.values()) + ")"));
        return String.join(", ", parts);
    }

    private static List<Placed> placement(FleetView view, Application a, AppStatus status, Holds holds) {
        Set<String> eligible = a == null ? Set.of() : Placement.eligible(a, view.desired().clusters());
        Set<String> placed = status == null ? Set.of() : Set.copyOf(status.placement());
        FleetView v = view;
        List<Placed> out = new ArrayList<>();
        for (Cluster c : v.desired().clusters().values()) {
            String name = c.name();
            boolean isEligible = eligible.contains(name);
            boolean isPlaced = placed.contains(name);
            String why;
            EvictionTask eviction = status == null ? null : status.failoverMemory().eviction(name);
            if (a == null) why = "the application left Git";
            else if (isPlaced && a.placement().clusterNames().contains(name)) why = "named in placement.clusterNames";
            else if (isPlaced && eviction == null) why = "its labels match the placement's selector";
            else if (isPlaced) why = "placed; a failover from here is under way";
            else if (eviction != null) why = "evicted by failover (" + eviction.reason() + ") since " + eviction.createdAt()
                    + "; it returns to the pool once healthy for the toleration";
            else if (isEligible && a.placement().maxClusters() > 0) why = "eligible, left out: maxClusters " + a.placement().maxClusters() + " is reached";
            else if (isEligible) why = "eligible, not placed yet: its next pass places it";
            else why = "not selected: its labels do not match";
            Holds.Hold hold = isPlaced && a != null ? holds.of(a.name(), name) : null;
            String labels = c.labels().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().reduce((x, y) -> x + ", " + y).orElse("");
            out.add(new Placed(name, "/clusters/" + name, labels, isEligible, isPlaced, why, hold == null ? null : Badge.held(hold.suspended()),
                    hold == null ? null : hold.reason()));
        }
        return out;
    }

    private static List<Target> targets(FleetView view, String app, AppStatus status, Holds holds) {
        if (status == null) return List.of();
        List<Target> out = new ArrayList<>();
        for (TargetStatus t : status.targets()) {
            Holds.Hold hold = holds.of(app, t.cluster());
            List<String> inventory = t.inventory().stream().map(i -> i.kind() + " " + (i.namespace() == null || i.namespace().isEmpty() ? "" : i.namespace() + "/")
                    + i.name()).toList();
            out.add(new Target(t.cluster(), "/clusters/" + t.cluster(), Badge.sync(t.sync()), Badge.health(t.health()),
                    t.revision(), t.variant() == null ? null : t.variant() + (t.rendered() == null ? "" : ", objects " + t.rendered()), t.message(), t.drift(), inventory, inventory.size(),
                    hold == null ? null : Badge.held(hold.suspended()), hold == null ? null : hold.reason()));
        }
        return out;
    }

    private static Rollout rollout(FleetView view, AppStatus status) {
        if (status == null || status.rollout() == null) return null;
        RolloutState r = status.rollout();
        Instant from = r.startedAt();
        Instant to = r.finishedAt() != null ? r.finishedAt() : view.at();
        for (ClusterStep s : r.clusters()) {
            Instant end = s.finishedAt();
            if (end != null && (to == null || end.isAfter(to))) to = end;
        }
        if (from == null) from = view.at();
        if (to == null || !to.isAfter(from)) to = from.plusSeconds(1);
        double span = Duration.between(from, to).toMillis();
        Map<Integer, List<Step>> waves = new TreeMap<>();
        for (ClusterStep s : r.clusters()) {
            Instant start = s.startedAt();
            Instant end = s.finishedAt() != null ? s.finishedAt() : start == null ? null : to;
            double left = start == null ? 0 : Math.max(0, Duration.between(from, start).toMillis() / span * 100);
            double width = start == null ? 0 : Math.max(1.5, Duration.between(start, end).toMillis() / span * 100);
            width = Math.min(width, 100 - left);
            boolean soaking = s.state() == ClusterStep.State.Progressing && s.healthySince() != null;
            Badge b = Badge.step(s.state(), soaking, s.pausedAt() != null && !s.finished());
            String summary = s.cluster() + ": " + b.text() + (s.startedAt() == null ? "" : ", started " + Times.show(s.startedAt()))
                    + (s.healthySince() == null ? "" : ", healthy since " + Times.show(s.healthySince()))
                    + (s.finishedAt() == null ? "" : ", finished " + Times.show(s.finishedAt()))
                    + (s.pausedAt() == null ? "" : ", paused at " + Times.show(s.pausedAt()));
            waves.computeIfAbsent(s.wave(), k -> new ArrayList<>()).add(new Step(s.cluster(), b, Times.show(s.startedAt()),
                    Times.show(s.healthySince()), Times.show(s.finishedAt()),
                    String.format(java.util.Locale.ROOT, "%.2f", left), String.format(java.util.Locale.ROOT, "%.2f", width), start != null, summary));
        }
        List<Wave> list = waves.entrySet().stream().map(e -> new Wave(e.getKey(), e.getValue())).toList();
        return new Rollout(r.revision(), Badge.rollout(r.result()), r.message(), r.policy(), r.gate(), Times.show(r.startedAt()),
                Times.show(r.finishedAt()), list, Times.show(from), Times.show(to));
    }

    private static List<PastRollout> past(AppStatus status) {
        if (status == null) return List.of();
        return status.rollouts().stream().map(r -> new PastRollout(r.revision(), Badge.rollout(r.result()), Times.show(r.startedAt()), Times.show(r.finishedAt()),
                r.message())).toList();
    }

    private static List<Moment> failovers(AppStatus status, List<ViewBoard.Blocked> blocked) {
        List<Moment> out = new ArrayList<>();
        FailoverMemory m = status == null ? FailoverMemory.EMPTY : status.failoverMemory();
        for (FailoverRecord r : m.history()) {
            out.add(new Moment(Times.show(r.startTime()), new Badge("⇄", "Failed over", "warn"), "moved from " + String.join(", ", r.clustersBeforeFailover())
                    + " to " + String.join(", ", r.clustersAfterFailover()) + " (" + r.reason() + ")",
                    "done " + Times.show(r.endTime()) + carried(r.preservedState())));
        }
        for (FailoverRecord r : m.failedAttempts()) {
            out.add(new Moment(Times.show(r.startTime()), new Badge("✖", "Attempt failed", "bad"), "from " + String.join(", ", r.clustersBeforeFailover())
                    + " to " + String.join(", ", r.clustersAfterFailover()) + " (" + r.reason() + ")",
                    "given up " + Times.show(r.endTime()) + (r.failure() == null ? "" : ": " + r.failure())));
        }
        for (EvictionTask e : m.evictions()) {
            if (e.completedAt() != null) continue;
            out.add(new Moment(Times.show(e.createdAt()), new Badge("◔", "Under way", "busy"), "leaving " + e.fromCluster() + " (" + e.reason() + ")",
                    "to " + String.join(", ", e.clustersAfterFailover()) + "; old copy: " + e.purge() + carried(e.preservedState())));
        }
        for (ViewBoard.Blocked b : blocked) {
            out.add(new Moment(Times.show(b.from()), new Badge("⊘", "Blocked", "bad"), "a failover was due and could not happen (" + b.reason() + ")",
                    b.message() + (b.until().equals(b.from()) ? "" : "; until " + Times.show(b.until()))));
        }
        Condition c = status == null ? null : status.condition("FailoverBlocked");
        // The condition says the same as the stretches this dashboard saw; it stands alone when the dashboard saw none.
        if (c != null && c.holds() && blocked.isEmpty()) {
            out.add(new Moment(Times.show(c.lastTransitionTime()), new Badge("⊘", "Blocked", "bad"), "a failover is due and cannot happen (" + c.reason() + ")",
                    c.message()));
        }
        for (String orphan : m.orphanedOn()) {
            out.add(new Moment(null, new Badge("⚑", "Left running", "warn"), "a copy is left running on " + orphan, "purgeMode Never: no longer managed"));
        }
        out.sort(Comparator.comparing((Moment x) -> x.at() == null ? "" : x.at()).reversed());
        return out;
    }

    private static String carried(List<dev.windlass.policy.state.PreservedValue> values) {
        if (values.isEmpty()) return "";
        return "; carried over: " + String.join(", ", values.stream().map(v -> v.label() + "=" + v.value()).toList());
    }
}
