package dev.windlass.policy.plan;

import dev.windlass.policy.model.TargetKey;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.RolloutState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Joins a rollout decision with the planned actions: clusters that wait get their actions held, and
 * clusters rolled back get the previous revision's actions instead of the new one's.
 */
final class RolloutGate {
    record Verdict(RolloutState rollout, Map<String, HoldReason> held, boolean recordFirst, List<Action> rollbackApplies,
                   List<Action> rollbackDeletes, Map<String, TargetPlan> rollbackTargets) {
        HoldReason holdOf(String cluster) { return held.get(cluster); }

        boolean rolledBack(String cluster) { return rollbackTargets.containsKey(cluster); }
    }

    static final Verdict NONE = new Verdict(null, Map.of(), false, List.of(), List.of(), Map.of());

    private RolloutGate() {}

    static Verdict decide(Application app, DesiredState desired, ObservedState observed, AppStatus previous, List<String> placed,
                          Map<TargetKey, TargetPlanner.Result> results, Ownership ownership, Revisions revisions, Map<String, HoldReason> frozen,
                          Instant now) {
        Map<String, Boolean> healthy = new HashMap<>();
        for (String c : placed) healthy.put(c, RolloutPlanner.healthy(results.get(new TargetKey(app.name(), c))));
        Application lastGood = lastGood(app, previous, revisions);
        RolloutPlanner.RolloutDecision d = RolloutPlanner.decide(app, desired.rolloutPolicy(app.name()), desired.commit(), placed,
                desired.clusters(), previous, healthy, lastGood, frozen, now);
        List<Action> applies = new ArrayList<>();
        List<Action> deletes = new ArrayList<>();
        Map<String, TargetPlan> targets = new HashMap<>();
        d.rollback().forEach((cluster, good) -> {
            ClusterObservation obs = observed.cluster(cluster);
            if (!obs.reachable()) return;
            TargetPlanner.Result r = TargetPlanner.plan(good, obs, previous == null ? null : previous.target(cluster),
                    ownership.claimedByOthers(app.name(), cluster));
            ActionReason why = new ActionReason.Rollback(good.revision(), app.revision());
            r.applies().forEach(a -> applies.add(withReason(a, why)));
            r.deletes().forEach(a -> deletes.add(withReason(a, why)));
            targets.put(cluster, r.target());
        });
        return new Verdict(d.next(), d.holds(), !d.startedNow().isEmpty(), applies, deletes, targets);
    }

    /** The revision a rollback returns to: the one recorded with the running rollout, else the last good one. */
    private static Application lastGood(Application app, AppStatus previous, Revisions revisions) {
        if (previous == null) return null;
        RolloutState r = previous.rollout();
        if (r != null && r.revision().equals(app.revision()) && !r.previousRevision().isEmpty()) {
            return revisions.find(app.name(), r.previousRevision(), r.previousSource());
        }
        if (previous.lastGood() == null || previous.lastGood().revision().equals(app.revision())) return null;
        return revisions.find(app.name(), previous.lastGood().revision(), previous.lastGood().source());
    }

    private static Action withReason(Action a, ActionReason reason) {
        return new Action(a.app(), a.cluster(), a.object(), a.apiVersion(), a.operation(), reason, a.fields(), a.desired(), a.strategy(), a.force(), a.drift());
    }
}
