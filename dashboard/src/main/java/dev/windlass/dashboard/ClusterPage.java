package dev.windlass.dashboard;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.Freeze;
import dev.windlass.policy.model.RemediationPolicy;
import dev.windlass.policy.remediation.Quorum;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.state.TargetStatus;
import dev.windlass.policy.suspension.FreezeWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One cluster: reachability over time, nodes and remediation marks, quorum groups with their budgets, suspensions and
 * freezes (with the next freeze window), and the applications placed on it.
 */
public final class ClusterPage {

    public record Tick(String at, Badge state, String message) {}

    public record Mark(String policy, String target, Badge state, String reason, String since, String markedAt, int attempts, String message) {}

    public record Group(String policy, String target, int members, int healthy, int inFlight, int quorum, String budget, Badge verdict, String why) {}

    public record Gate(String policy, String action, String triggerIf, int maxInFlight, int maxRetry) {}

    public record FreezeRow(String name, Badge state, String window, String next, String scope, String reason) {}

    public record AppRow(String app, String href, Badge sync, Badge health, String revision, Badge hold, String reason) {}

    public record ConditionRow(String type, String status, String reason, String message, String since) {}

    public record Model(String cluster, List<String> labels, String connection, Badge reachability, String message, String health,
                        String unhealthySince, String healthySince, String applyStrategy, int nodes, int readyNodes, List<ConditionRow> conditions,
                        List<Tick> history, List<Mark> marks, List<Group> quorumGroups, List<Gate> gates, boolean suspended, String suspendReason,
                        List<FreezeRow> freezes, List<AppRow> apps) {
        public boolean hasConditions() { return !conditions.isEmpty(); }
        public boolean hasMarks() { return !marks.isEmpty(); }
        public boolean hasGroups() { return !quorumGroups.isEmpty(); }
        public boolean hasGates() { return !gates.isEmpty(); }
        public boolean hasFreezes() { return !freezes.isEmpty(); }
    }

    private ClusterPage() {}

    /** Null when neither Git nor the status branch knows the cluster. */
    public static Model of(FleetView view, String name, ViewBoard board) {
        Cluster c = view.desired().clusters().get(name);
        ClusterStatus s = view.state().clusters().get(name);
        if (c == null && s == null) return null;
        Map<String, String> labels = c == null ? Map.of() : c.labels();
        List<Tick> history = board.reachability(name).stream()
                .map(x -> new Tick(Times.show(x.at()), Badge.reachability(x.reachability(), x.health()), x.message())).toList();
        List<Mark> marks = s == null ? List.of() : s.remediationRecords().stream().map(r -> new Mark(r.policy(), r.target(),
                Badge.remediation(r.state()), r.reason(), Times.show(r.unhealthySince()), Times.show(r.markedAt()), r.attempts(), r.message())).toList();
        List<Group> groups = new ArrayList<>();
        List<Gate> gates = new ArrayList<>();
        for (RemediationPolicy p : view.desired().remediationPolicies().values()) {
            if (p.clusterSelector() != null && !p.clusterSelector().matches(labels)) continue;
            gates.add(new Gate(p.name(), p.action().name(), p.triggerIf().toString(), p.maxInFlight(), p.maxRetry()));
            if (!p.quorum()) continue;
            List<RemediationRecord> members = s == null ? List.of() : s.remediationRecords().stream().filter(r -> r.policy().equals(p.name())).toList();
            int healthy = (int) members.stream().filter(r -> r.in(RemediationRecord.State.Healthy) || r.in(RemediationRecord.State.Pending)).count();
            int inFlight = (int) members.stream().filter(RemediationRecord::inFlight).count();
            int quorum = members.size() / 2 + 1;
            String target = p.target().kind() + (p.target().selector() == null ? "" : " " + AppPage.selector(p.target().selector()));
            if (members.isEmpty()) {
                groups.add(new Group(p.name(), target, 0, 0, 0, 0, "no member seen yet", new Badge("?", "Unknown", "unknown"), ""));
                continue;
            }
            int spare = healthy - quorum;
            String budget = spare >= 0 ? spare + " more may fail and quorum holds" : "quorum lost: " + (quorum - healthy) + " short";
            var verdict = Quorum.allows(members.size(), Math.min(healthy, members.size()), inFlight);
            Badge badge = healthy == members.size() ? new Badge("♥", "All healthy", "ok")
                    : verdict.allowed() ? new Badge("✓", "May remediate", "warn") : new Badge("⊘", "Blocked", "bad");
            groups.add(new Group(p.name(), target, members.size(), healthy, inFlight, quorum, budget, badge, verdict.why()));
        }
        List<FreezeRow> freezes = new ArrayList<>();
        for (Freeze f : view.desired().freezes()) {
            if (!f.coversCluster(name, labels)) continue;
            Optional<FreezeWindow.Window> open = FreezeWindow.openAt(f, view.at());
            Optional<java.time.Instant> next = FreezeWindow.nextOpening(f, view.at());
            String scope = f.selector() == null && f.applications().isEmpty() ? "every application"
                    : String.join(", ", concat(f.applications(), f.selector() == null ? null : "apps matching " + AppPage.selector(f.selector())));
            freezes.add(new FreezeRow(f.name(), open.isPresent() ? new Badge("❄", "Frozen now", "held") : new Badge("○", "Not in force", "unknown"),
                    open.map(w -> FreezeWindow.describe(f, w)).orElse(f.schedule() == null ? "" : "schedule " + f.schedule()
                            + (f.duration() == null ? "" : " for " + hours(f.duration()))),
                    next.map(n -> Times.show(n) + (f.duration() == null ? "" : " until " + Times.show(n.plus(f.duration())))).orElse(f.schedule() == null ? "—" : "none"),
                    scope, f.reason() == null ? "" : f.reason()));
        }
        Holds holds = new Holds(view);
        List<AppRow> apps = new ArrayList<>();
        for (AppStatus a : view.state().apps().values()) {
            TargetStatus t = a.target(name);
            if (t == null && !a.placement().contains(name)) continue;
            Holds.Hold hold = holds.of(a.name(), name);
            apps.add(new AppRow(a.name(), "/apps/" + a.name(), Badge.sync(t == null ? null : t.sync()), Badge.health(t == null ? null : t.health()),
                    t == null ? null : t.revision(), hold == null ? null : Badge.held(hold.suspended()), hold == null ? null : hold.reason()));
        }
        List<ConditionRow> conditions = s == null ? List.of() : s.conditions().stream()
                .map(x -> new ConditionRow(x.type(), x.status().name(), x.reason(), x.message(), Times.show(x.lastTransitionTime()))).toList();
        String suspendReason = c == null ? null : c.annotations().get(Application.ANNOTATION_SUSPEND_REASON);
        return new Model(name, labels.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().toList(), connection(c),
                s == null ? Badge.reachability(null, null) : Badge.reachability(s.reachability(), s.health()), s == null ? "" : s.message(),
                s == null || s.health() == null ? null : s.health().name(), s == null ? null : Times.show(s.unhealthySince()), s == null ? null : Times.show(s.healthySince()),
                s == null ? null : s.applyStrategy(), s == null ? 0 : s.nodes(), s == null ? 0 : s.readyNodes(), conditions, history, marks, groups,
                gates, c != null && c.suspend(), suspendReason, freezes, apps);
    }

    private static String hours(java.time.Duration d) {
        return d.toMinutesPart() == 0 ? d.toHours() + "h" : d.toHours() + "h" + d.toMinutesPart() + "m";
    }

    private static List<String> concat(List<String> names, String more) {
        List<String> out = new ArrayList<>(names);
        if (more != null) out.add(more);
        return out;
    }

    /** How the engine reaches it, without anything secret: a kubeconfig's path, a Secret's name. */
    private static String connection(Cluster c) {
        if (c == null) return "not in Git any more";
        if (c.connection() instanceof Cluster.Kubeconfig k) return "kubeconfig " + k.path() + (k.context() == null ? "" : " (context " + k.context() + ")");
        if (c.connection() instanceof Cluster.KubeconfigSecret k) return "kubeconfig in Secret " + k.name();
        if (c.connection() instanceof Cluster.Sandbox s) return "sandbox, " + s.nodes() + " nodes";
        return "the cluster the engine runs in";
    }
}
