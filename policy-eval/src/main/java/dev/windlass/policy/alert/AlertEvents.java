package dev.windlass.policy.alert;

import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.model.TargetKey;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionReason;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.remediation.Remediations;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.ClusterStep;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.EvictionTask;
import dev.windlass.policy.state.Reachability;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.state.RolloutState;
import dev.windlass.policy.state.TargetStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The events between two recorded states: what a status commit changed, one event per change. Derived from the records
 * only (never from a message), so a pass that changes nothing yields nothing, and a change recorded once is told once.
 * Events come in the order they happened within a rollout: wave started, wave failed, then the rollout's result.
 */
public final class AlertEvents {
    private AlertEvents() {}

    /** @param source the config commit of the pass; {@code now} its time, part of each event's id */
    public static List<AlertEvent> between(EngineState before, EngineState after, String source, Instant now) {
        return between(before, after, List.of(), source, now);
    }

    /**
     * @param applied what the pass applied: each object self-heal set back ({@link ActionReason.Drift}) is told as
     *                DriftCorrected, one event per application and cluster, since drift that self-heal corrects at once is
     *                never recorded as drift
     */
    public static List<AlertEvent> between(EngineState before, EngineState after, List<ActionResult> applied, String source, Instant now) {
        List<AlertEvent> out = new ArrayList<>();
        Builder b = new Builder(source, now, out);
        selfHealed(b, after, applied);
        for (AppStatus next : after.apps().values()) {
            AppStatus prev = before.apps().get(next.name());
            rollout(b, next.name(), prev == null ? null : prev.rollout(), next.rollout());
            failover(b, next, prev);
            invalid(b, next, prev);
            for (TargetStatus t : next.targets()) targets(b, next, t, prev == null ? null : prev.target(t.cluster()));
        }
        for (ClusterStatus next : after.clusters().values()) cluster(b, next, before.clusters().get(next.name()));
        return out;
    }

    /**
     * The event telling that a revert pull request was opened for the failed {@code revision} of {@code app}; recorded in the
     * same status commit as the pull request itself ({@code detail} names its address).
     */
    public static AlertEvent revertProposed(String app, String revision, String source, String detail, Instant now) {
        List<AlertEvent> out = new ArrayList<>();
        new Builder(source, now, out).add(AlertKind.RevertProposed, app, "", revision, 0, "", detail);
        return out.get(0);
    }

    private static void rollout(Builder b, String app, RolloutState before, RolloutState after) {
        if (after == null || Objects.equals(before, after)) return;
        boolean fresh = before == null || !before.revision().equals(after.revision()) || !Objects.equals(before.startedAt(), after.startedAt());
        String rev = after.revision();
        Builder r = b.ofRollout(after.source());
        if (fresh) r.add(AlertKind.RolloutStarted, app, "", rev, 0, after.policy(), after.waves() + (after.waves() == 1 ? " wave" : " waves"));
        for (int wave = 1; wave <= after.waves(); wave++) {
            List<ClusterStep> now = inWave(after, wave);
            List<ClusterStep> then = fresh ? List.of() : inWave(before, wave);
            boolean startedNow = now.stream().anyMatch(s -> s.startedAt() != null);
            boolean startedThen = then.stream().anyMatch(s -> s.startedAt() != null);
            if (startedNow && !startedThen) r.add(AlertKind.WaveStarted, app, "", rev, wave, "", "on " + clusters(now), names(now));
            List<ClusterStep> failed = now.stream().filter(s -> s.failed() || after.failedClusters().contains(s.cluster())).toList();
            boolean failedThen = then.stream().anyMatch(s -> s.failed() || before.failedClusters().contains(s.cluster()));
            if (!failed.isEmpty() && !failedThen) {
                r.add(AlertKind.WaveFailed, app, failed.size() == 1 ? failed.get(0).cluster() : "", rev, wave, failed.get(0).failed() ? failed.get(0).state().name() : "",
                        "failed on " + clusters(failed), names(failed));
            }
            boolean doneNow = !now.isEmpty() && now.stream().allMatch(s -> s.state() == ClusterStep.State.Succeeded) && startedNow;
            boolean doneThen = !then.isEmpty() && then.stream().allMatch(s -> s.state() == ClusterStep.State.Succeeded);
            if (doneNow && !doneThen) r.add(AlertKind.WaveCompleted, app, "", rev, wave, "", "healthy on " + clusters(now), names(now));
        }
        if (before != null && before.result() == after.result() && !fresh) return;
        AlertKind kind = switch (after.result()) {
            case Succeeded -> AlertKind.RolloutCompleted;
            case Failed -> AlertKind.RolloutFailed;
            case RolledBack -> AlertKind.RolledBack;
            case Paused -> AlertKind.RolloutPaused;
            default -> null;
        };
        if (kind == AlertKind.RolledBack) {
            // The clusters the rollback set back, other than those whose failure ended the rollout (WaveFailed told of them).
            List<String> setBack = after.clusters().stream().filter(s -> s.state() == ClusterStep.State.RolledBack)
                    .map(ClusterStep::cluster).filter(c -> !after.failedClusters().contains(c)).toList();
            r.add(kind, app, "", rev, 0, after.result().name(), "back to " + after.previousRevision() + ": " + after.message(), setBack);
        } else if (kind != null) {
            r.add(kind, app, "", rev, 0, after.result().name(), after.message());
        }
    }

    private static void failover(Builder b, AppStatus next, AppStatus prev) {
        List<EvictionTask> then = prev == null ? List.of() : prev.failoverMemory().evictions();
        for (EvictionTask t : next.failoverMemory().evictions()) {
            EvictionTask p = then.stream().filter(x -> x.fromCluster().equals(t.fromCluster()) && Objects.equals(x.createdAt(), t.createdAt()))
                    .findFirst().orElse(null);
            String to = "from " + t.fromCluster() + " to " + String.join(", ", t.clustersAfterFailover());
            if (p == null) b.add(AlertKind.FailoverStarted, next.name(), t.fromCluster(), next.revision(), 0, t.reason().name(), to);
            if (t.completedAt() != null && (p == null || p.completedAt() == null)) {
                b.add(AlertKind.FailoverCompleted, next.name(), t.fromCluster(), next.revision(), 0, t.reason().name(), to);
            }
            if (t.failedAt() != null && (p == null || p.failedAt() == null)) {
                b.add(AlertKind.FailoverFailed, next.name(), t.fromCluster(), next.revision(), 0, t.reason().name(), to);
            }
        }
        Condition blocked = next.condition("FailoverBlocked");
        Condition was = prev == null ? null : prev.condition("FailoverBlocked");
        if (blocked != null && blocked.holds() && (was == null || !was.holds() || !Objects.equals(was.reason(), blocked.reason()))) {
            b.add(AlertKind.FailoverBlocked, next.name(), "", next.revision(), 0, blocked.reason(), blocked.message());
        }
    }

    private static void invalid(Builder b, AppStatus next, AppStatus prev) {
        Condition stalled = next.condition("Stalled");
        if (stalled == null || !stalled.holds() || !"Invalid".equals(stalled.reason())) return;
        if (prev != null && prev.diagnostics().equals(next.diagnostics())) return;
        b.add(AlertKind.ApplicationInvalid, next.name(), "", next.revision(), 0, "Invalid", next.diagnostics().isEmpty() ? "" : next.diagnostics().get(0));
    }

    private static void selfHealed(Builder b, EngineState after, List<ActionResult> applied) {
        Map<TargetKey, List<Action>> corrected = new LinkedHashMap<>();
        for (ActionResult r : applied) {
            if (r.succeeded() && r.action().reason() instanceof ActionReason.Drift) {
                corrected.computeIfAbsent(new TargetKey(r.action().app(), r.action().cluster()), k -> new ArrayList<>()).add(r.action());
            }
        }
        corrected.forEach((key, actions) -> {
            AppStatus app = after.apps().get(key.app());
            Action first = actions.get(0);
            String fields = first.fields().isEmpty() ? "" : " (" + String.join(", ", first.fields()) + ")";
            b.add(AlertKind.DriftCorrected, key.app(), key.cluster(), app == null ? "" : app.revision(), 0, "",
                    actions.size() + (actions.size() == 1 ? " object" : " objects") + " set back: " + first.object() + fields);
        });
    }

    private static void targets(Builder b, AppStatus app, TargetStatus t, TargetStatus prev) {
        if (prev != null && !prev.drift().isEmpty() && t.drift().isEmpty() && t.retry() == null) {
            b.add(AlertKind.DriftCorrected, app.name(), t.cluster(), t.revision(), 0, "",
                    prev.drift().size() + (prev.drift().size() == 1 ? " field" : " fields") + " set back: " + prev.drift().get(0));
        }
        if (t.retry() != null && (prev == null || prev.retry() == null || !prev.retry().input().equals(t.retry().input()))) {
            b.add(AlertKind.ApplyFailed, app.name(), t.cluster(), app.revision(), 0, t.retry().kind().name(), t.message());
        }
    }

    private static void cluster(Builder b, ClusterStatus next, ClusterStatus prev) {
        if (prev != null && prev.reachability() != next.reachability()) {
            b.add(next.reachability() == Reachability.Unreachable ? AlertKind.ClusterUnreachable : AlertKind.ClusterReachable, "", next.name(), "", 0,
                    next.reachability().name(), next.message());
        } else if (prev == null && next.reachability() == Reachability.Unreachable) {
            b.add(AlertKind.ClusterUnreachable, "", next.name(), "", 0, next.reachability().name(), next.message());
        }
        Condition blocked = condition(next, Remediations.BLOCKED);
        Condition was = prev == null ? null : condition(prev, Remediations.BLOCKED);
        if (blocked != null && blocked.holds() && (was == null || !was.holds() || !Objects.equals(was.reason(), blocked.reason()))) {
            b.add(AlertKind.RemediationBlocked, "", next.name(), "", 0, blocked.reason(), blocked.message());
        }
        List<RemediationRecord> then = prev == null ? List.of() : prev.remediationRecords();
        for (RemediationRecord r : next.remediationRecords()) {
            RemediationRecord p = then.stream().filter(x -> x.policy().equals(r.policy()) && x.target().equals(r.target())).findFirst().orElse(null);
            boolean changed = p == null || p.state() != r.state() || p.attempts() != r.attempts();
            if (!changed) continue;
            String what = r.target() + " (" + r.policy() + ")";
            switch (r.state()) {
                case Marked -> b.add(AlertKind.RemediationMarked, "", next.name(), "", 0, r.reason(), what + ": " + r.message());
                case Remediating -> b.add(AlertKind.RemediationActed, "", next.name(), "", 0, r.reason(), what + ": " + r.message());
                case GaveUp -> b.add(AlertKind.RemediationOutOfRetries, "", next.name(), "", 0, r.reason(), what + ": " + r.message());
                default -> { }
            }
        }
    }

    private static Condition condition(ClusterStatus c, String type) {
        return c.conditions().stream().filter(x -> x.type().equals(type)).findFirst().orElse(null);
    }

    private static List<ClusterStep> inWave(RolloutState r, int wave) {
        return r == null ? List.of() : r.clusters().stream().filter(s -> s.wave() == wave).toList();
    }

    private static String clusters(List<ClusterStep> steps) { return String.join(", ", names(steps)); }

    private static List<String> names(List<ClusterStep> steps) { return steps.stream().map(ClusterStep::cluster).toList(); }

    /**
     * Makes events with ids from what they are about and when the pass recorded them.
     *
     * @param rolloutSource the config commit of the rollout the events are about; "" for others
     */
    private record Builder(String source, Instant now, List<AlertEvent> out, String rolloutSource) {
        Builder(String source, Instant now, List<AlertEvent> out) { this(source, now, out, ""); }

        Builder ofRollout(String rolloutSource) { return new Builder(source, now, out, rolloutSource); }

        void add(AlertKind kind, String app, String cluster, String revision, int wave, String reason, String detail) {
            add(kind, app, cluster, revision, wave, reason, detail, List.of());
        }

        void add(AlertKind kind, String app, String cluster, String revision, int wave, String reason, String detail, List<String> clusters) {
            String id = ContentHash.sha256(String.join("\u0000", kind.name(), app, cluster, revision == null ? "" : revision,
                    Integer.toString(wave), reason == null ? "" : reason, source == null ? "" : source, now.toString())).substring(0, 20);
            out.add(new AlertEvent(id, kind, kind.severity(), app, cluster, revision, source, wave, reason, detail, now, clusters, rolloutSource));
        }
    }
}
