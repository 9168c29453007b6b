package dev.windlass.engine.status;

import dev.windlass.policy.remediation.Durations;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.TargetStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code windlass status}: applications by cluster with revision, sync and health, then the clusters. */
public final class StatusTable {
    private StatusTable() {}

    /** The table now, by this host's clock: how long remediation targets have been unhealthy is counted from their since-times. */
    public static String render(EngineState state, String onlyApp) {
        return render(state, onlyApp, Instant.now());
    }

    /** @param now when the table is read: durations shown are counted to it from the since-times the status records */
    public static String render(EngineState state, String onlyApp, Instant now) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"APP", "CLUSTER", "REVISION", "SYNC", "HEALTH", "MESSAGE"});
        for (AppStatus app : state.apps().values()) {
            if (onlyApp != null && !onlyApp.equals(app.name())) continue;
            Condition stalled = app.condition("Stalled");
            if (stalled != null && stalled.holds()) {
                rows.add(new String[] {app.name(), "-", "-", "Invalid", "-", stalled.message()});
            }
            for (TargetStatus t : app.targets()) {
                String message = t.message();
                if (!t.drift().isEmpty()) message = (message.isEmpty() ? "" : message + "; ") + "drift: " + String.join(", ", t.drift());
                String revision = (t.revision().isEmpty() ? "-" : t.revision()) + (t.variant() == null ? "" : " (" + t.variant()
                        + (t.rendered() == null ? "" : ", objects " + t.rendered()) + ")");
                rows.add(new String[] {app.name(), t.cluster(), revision, t.sync().name(), t.health().name(), message});
            }
            if (app.targets().isEmpty() && (stalled == null || !stalled.holds())) {
                rows.add(new String[] {app.name(), "-", "-", "-", "-", "placed on no cluster"});
            }
        }
        StringBuilder b = new StringBuilder(table(rows));
        // Where each imported application is read from: the same record the plan lists under "Imported from Flux" / "Argo CD".
        List<String[]> imported = new ArrayList<>();
        imported.add(new String[] {"IMPORTED", "FROM", "KIND", "NAME", "FILE"});
        for (AppStatus app : state.apps().values()) {
            var o = app.origin();
            if (o == null || onlyApp != null && !onlyApp.equals(app.name())) continue;
            imported.add(new String[] {app.name(), o.tool() == dev.windlass.policy.model.ImportOrigin.Tool.Flux ? "Flux" : "Argo CD", o.kind(), o.name(),
                    o.at().path() + ":" + o.at().line() + (o.kind().equals("HelmRelease") ? " (its Kustomization)" : "")});
        }
        if (imported.size() > 1) b.append('\n').append(table(imported));
        List<String[]> rollouts = new ArrayList<>();
        rollouts.add(new String[] {"ROLLOUT", "REVISION", "RESULT", "CLUSTERS", "MESSAGE"});
        for (AppStatus app : state.apps().values()) {
            if (app.rollout() == null || onlyApp != null && !onlyApp.equals(app.name())) continue;
            var r = app.rollout();
            String clusters = String.join(" ", r.clusters().stream().map(c -> c.cluster() + ":" + c.state()).toList());
            String message = r.message() + (app.invalidRevisions().isEmpty() ? "" : (r.message().isEmpty() ? "" : "; ") + "invalid: " + String.join(", ", app.invalidRevisions()));
            rollouts.add(new String[] {app.name() + " (" + r.policy() + ")", r.revision(), r.result().name(), clusters, message});
        }
        if (rollouts.size() > 1) b.append('\n').append(table(rollouts));
        List<String[]> suspended = new ArrayList<>();
        suspended.add(new String[] {"SUSPENDED", "SINCE", "BY", "WHY"});
        for (AppStatus app : state.apps().values()) {
            Condition c = app.condition("Suspended");
            if (c != null && c.holds() && (onlyApp == null || onlyApp.equals(app.name()))) {
                suspended.add(new String[] {app.name(), String.valueOf(c.lastTransitionTime()), c.by() == null ? "-" : c.by(), c.message()});
            }
        }
        for (ClusterStatus cluster : state.clusters().values()) {
            Condition c = cluster.conditions().stream().filter(x -> x.type().equals("Suspended")).findFirst().orElse(null);
            if (c != null && c.holds() && onlyApp == null) {
                suspended.add(new String[] {"cluster " + cluster.name(), String.valueOf(c.lastTransitionTime()), c.by() == null ? "-" : c.by(), c.message()});
            }
        }
        if (suspended.size() > 1) b.append('\n').append(table(suspended));
        List<String> failoverBlocked = new ArrayList<>();
        for (AppStatus app : state.apps().values()) {
            Condition c = app.condition("FailoverBlocked");
            if (c != null && c.holds() && (onlyApp == null || onlyApp.equals(app.name()))) {
                failoverBlocked.add("failover of " + app.name() + " blocked (" + c.reason() + "): " + c.message());
            }
        }
        if (!failoverBlocked.isEmpty()) b.append('\n');
        failoverBlocked.forEach(line -> b.append(line).append('\n'));
        if (onlyApp == null && !state.clusters().isEmpty()) {
            List<String[]> cr = new ArrayList<>();
            cr.add(new String[] {"CLUSTER", "REACHABLE", "NODES READY", "APPLY", "MESSAGE"});
            for (ClusterStatus c : state.clusters().values()) {
                cr.add(new String[] {c.name(), c.reachability() == null ? "" : c.reachability().name(), c.readyNodes() + "/" + c.nodes(), c.applyStrategy(), c.message()});
            }
            b.append('\n').append(table(cr));
            List<String[]> unhealthy = new ArrayList<>();
            unhealthy.add(new String[] {"CLUSTER", "TARGET", "STATE", "ATTEMPTS", "WHY"});
            List<String> blocked = new ArrayList<>();
            for (ClusterStatus c : state.clusters().values()) {
                for (var r : c.remediationRecords()) {
                    if (r.in(dev.windlass.policy.state.RemediationRecord.State.Healthy) && r.cordonedAt() == null) continue;  // a node still cordoned is not done
                    String why = Durations.held(r, now);
                    unhealthy.add(new String[] {c.name(), r.target(), r.state().name(), Integer.toString(r.attempts()),
                            why + (r.message().isEmpty() ? "" : (why.isEmpty() ? "" : "; ") + r.message())});
                }
                c.conditions().stream().filter(x -> x.type().equals("RemediationBlocked"))
                        .forEach(x -> blocked.add("remediation blocked on " + c.name() + " (" + x.reason() + "): " + x.message()));
            }
            if (unhealthy.size() > 1) b.append('\n').append(table(unhealthy));
            blocked.forEach(line -> b.append(line).append('\n'));
        }
        if (state.source() != null) b.append("\nsource ").append(state.source()).append('\n');
        return b.toString();
    }

    static String table(List<String[]> rows) {
        int cols = rows.get(0).length;
        int[] width = new int[cols];
        for (String[] r : rows) for (int i = 0; i < cols; i++) width[i] = Math.max(width[i], r[i].length());
        StringBuilder b = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < cols; i++) {
                line.append(r[i]);
                if (i < cols - 1) line.append(" ".repeat(width[i] - r[i].length() + 2));
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }
}
