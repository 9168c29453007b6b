package dev.windlass.policy.plan;

import dev.windlass.policy.model.TargetKey;

import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.failover.AppFailover;
import dev.windlass.policy.failover.Failovers;
import dev.windlass.policy.remediation.Remediations;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.Health;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.placement.Placement;
import dev.windlass.policy.suspension.Suspensions;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.TargetStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one place that decides what a pass does. Pure: same inputs, same plan. Reads Git's desired
 * state, what the clusters look like, and what the engine remembers; writes nothing.
 */
public final class Planner {
    public static final String STAGE_APPLY = "apply";
    public static final String STAGE_PRUNE = "prune";
    public static final String STAGE_REMEDIATE = "remediate";

    private Planner() {}

    public static Plan plan(DesiredState desired, ObservedState observed, EngineState state, Instant now) {
        return plan(desired, observed, state, Revisions.NONE, now);
    }

    public static Plan plan(DesiredState desired, ObservedState observed, EngineState state, Revisions revisions, Instant now) {
        return plan(desired, observed, state, revisions, now, new PlanMemo());
    }

    /**
     * @param memo the last plan's targets, reused where nothing they read has changed; the plan is the same with
     *             any memo, only the work differs ({@link PlanMemo#lastWork()} tells how much)
     */
    public static Plan plan(DesiredState desired, ObservedState observed, EngineState state, Revisions revisions, Instant now,
                            PlanMemo memo) {
        memo.begin();
        Plan plan = planWith(desired, observed, state, revisions, now, memo);
        memo.end();
        return plan;
    }

    private static Plan planWith(DesiredState desired, ObservedState observed, EngineState state, Revisions revisions, Instant now,
                                 PlanMemo memo) {
        List<Action> applies = new ArrayList<>();
        Map<String, dev.windlass.policy.state.RolloutState> rollouts = new TreeMap<>();
        boolean recordFirst = false;
        List<Action> deletes = new ArrayList<>();
        List<HeldAction> held = new ArrayList<>();
        List<AppPlan> apps = new ArrayList<>();
        List<Diagnostic> diagnostics = new ArrayList<>(desired.diagnostics());
        Map<String, Map<String, Health>> health = new HashMap<>();
        Map<TargetKey, TargetPlanner.Result> results = new HashMap<>();

        Suspensions suspensions = Suspensions.at(desired, state, now);
        java.util.Set<String> valid = new java.util.TreeSet<>();
        desired.apps().values().stream().filter(Application::valid).forEach(a -> valid.add(a.name()));
        Failovers.FailoverDecision failover = Failovers.decide(desired, observed, state, suspensions, valid, (app, cluster) -> {
            AppStatus p = state.apps().get(app.name());
            return TargetPlanner.plan(app, observed.cluster(cluster), p == null ? null : p.target(cluster), ref -> false).target().health();
        }, now);
        Map<String, AppFailover> failovers = new TreeMap<>();

        Map<String, List<String>> placements = new TreeMap<>();
        for (Application app : desired.apps().values()) {
            if (!app.valid()) continue;
            AppStatus previous = state.apps().get(app.name());
            AppFailover af = failover.apps().get(app.name());
            placements.put(app.name(), af != null ? af.placement()
                    : Placement.place(app, desired.clusters(), previous == null ? List.of() : previous.placement()));
        }
        Ownership ownership = new Ownership(desired.apps(), placements);

        for (Application app : desired.apps().values()) {
            AppStatus previous = state.apps().get(app.name());
            if (!app.valid()) {
                apps.add(invalid(app, previous));
                continue;
            }
            AppFailover af = failover.apps().get(app.name());
            java.util.Set<String> current = new java.util.TreeSet<>(previous == null ? List.of() : previous.placement());
            // A cluster the app has a record on but is not placed on (a removal still pending) is still to be left.
            if (previous != null) previous.targets().forEach(t -> current.add(t.cluster()));
            if (af != null) current.removeAll(af.orphaned());
            List<String> clusters = placements.get(app.name());
            List<TargetPlan> targets = new ArrayList<>();
            for (String cluster : clusters) {
                ClusterObservation obs = observed.cluster(cluster);
                TargetStatus prevTarget = previous == null ? null : previous.target(cluster);
                if (!obs.reachable()) {
                    targets.add(unknown(cluster, "cluster unreachable: " + obs.message()));
                    continue;
                }
                List<dev.windlass.policy.state.PreservedValue> inject = af == null ? List.of() : af.inject().getOrDefault(cluster, List.of());
                Application here = app.on(cluster);
                TargetPlanner.Result r = inject.isEmpty()
                        ? memo.plan(here, obs, prevTarget, ownership.claimedByOthers(app.name(), cluster))
                        : memo.planAfresh(dev.windlass.policy.failover.Injection.into(here, inject), obs, prevTarget,
                                ownership.claimedByOthers(app.name(), cluster));
                results.put(new TargetKey(app.name(), cluster), r);
                health.computeIfAbsent(app.name(), k -> new HashMap<>()).put(cluster, r.target().health());
                targets.add(r.target());
            }
            List<String> removedFrom = new ArrayList<>();
            Map<String, String> suspendedOn = new TreeMap<>();
            for (String c : clusters) {
                String why = suspensions.heldBy(app.name(), app.labels(), c);
                if (why != null) suspendedOn.put(c, why);
            }
            if (af != null) {
                java.util.Set<String> ready = new java.util.TreeSet<>();
                targets.stream().filter(t -> t.health() == Health.Healthy && t.sync() == TargetPlan.Sync.Synced).forEach(t -> ready.add(t.cluster()));
                af = Failovers.settle(af, desired.failoverPolicy(app.name()), ready, now);
                failovers.put(app.name(), af);
            }
            for (String old : current) {
                if (clusters.contains(old)) continue;
                removedFrom.add(old);
                List<Action> removal = removalOf(app.name(), "application no longer placed on " + old,
                        observed.cluster(old), previous.target(old), ownership.claimedByOthers(app.name(), old));
                String graceful = af == null ? null : af.purgeHeld().get(old);
                if (graceful != null) removal.forEach(a -> held.add(new HeldAction(a, graceful)));
                else holdIfSuspended(suspensions, app.name(), app.labels(), old, removal, deletes, held);
            }
            apps.add(new AppPlan(app.name(), app.revision(), true, clusters, removedFrom, targets, app.diagnostics(),
                    app.location().path(), suspendedOn));
        }

        Map<String, AppPlan> byName = new HashMap<>();
        apps.forEach(a -> byName.put(a.app(), a));
        for (Application app : desired.apps().values()) {
            RolloutGate.Verdict gate = RolloutGate.NONE;
            AppPlan planned = byName.get(app.name());
            Map<String, String> frozen = planned == null ? Map.of() : planned.suspendedOn();
            if (desired.rolloutPolicy(app.name()) != null && placements.containsKey(app.name())) {
                gate = RolloutGate.decide(app, desired, observed, state.apps().get(app.name()), placements.get(app.name()), results,
                        ownership, revisions, frozen, now);
                AppStatus before = state.apps().get(app.name());
                boolean news = gate.rollout() != null && (gate.rollout().active() || before == null || !gate.rollout().equals(before.rollout()));
                if (news) rollouts.put(app.name(), gate.rollout());
                recordFirst |= gate.recordFirst();
                for (Action a : gate.rollbackApplies()) {
                    if (frozen.containsKey(a.cluster())) held.add(new HeldAction(a, frozen.get(a.cluster())));
                    else applies.add(a);
                }
                for (Action a : gate.rollbackDeletes()) {
                    if (frozen.containsKey(a.cluster())) held.add(new HeldAction(a, frozen.get(a.cluster())));
                    else deletes.add(a);
                }
                replaceTargets(apps, app.name(), gate.rollbackTargets());
            }
            for (String cluster : planned == null ? List.<String>of() : planned.clusters()) {
                TargetPlanner.Result r = results.get(new TargetKey(app.name(), cluster));
                if (r == null || gate.rolledBack(cluster)) continue;
                // A failover's new cluster takes the app at once: rollout waves do not hold it, suspension does.
                boolean failingOver = failovers.containsKey(app.name()) && failovers.get(app.name()).bypass().contains(cluster);
                String waitingFor = frozen.containsKey(cluster) ? frozen.get(cluster)
                        : gate.heldBy(cluster) != null && !failingOver ? gate.heldBy(cluster) : unmetDependency(app, cluster, health);
                if (waitingFor == null) {
                    applies.addAll(r.applies());
                    deletes.addAll(r.deletes());
                    held.addAll(r.held());
                } else {
                    r.applies().forEach(a -> held.add(new HeldAction(a, waitingFor)));
                    r.deletes().forEach(a -> held.add(new HeldAction(a, waitingFor)));
                    r.held().forEach(h -> held.add(new HeldAction(h.action(), waitingFor)));
                }
            }
        }

        for (AppStatus gone : state.apps().values()) {
            if (desired.apps().containsKey(gone.name())) continue;
            if (gone.definedIn() != null && desired.brokenFiles().contains(gone.definedIn())) {
                apps.add(heldBroken(gone));
                continue;
            }
            if (!gone.prune()) continue;
            for (TargetStatus t : gone.targets()) {
                holdIfSuspended(suspensions, gone.name(), Map.of(), t.cluster(), removalOf(gone.name(), "application deleted from Git",
                        observed.cluster(t.cluster()), t, ownership.claimedByOthers(gone.name(), t.cluster())), deletes, held);
            }
        }

        applies.sort(ApplyOrder.APPLY);
        deletes.sort(ApplyOrder.DELETE);
        List<Stage> stages = new ArrayList<>();
        if (!applies.isEmpty()) stages.add(new Stage(STAGE_APPLY, "", applies));
        if (!deletes.isEmpty()) stages.add(new Stage(STAGE_PRUNE, "every apply on the same cluster succeeded", deletes));
        Remediations.RemediationDecision remediation = Remediations.decide(desired, observed, state, suspensions, now);
        if (!remediation.actions().isEmpty()) {
            // Its own stage, last: a cluster whose applies failed is not also remediated in the same pass.
            stages.add(new Stage(STAGE_REMEDIATE, "every apply and prune on the same cluster succeeded", remediation.actions()));
            recordFirst = true;
        }
        apps.sort(java.util.Comparator.comparing(AppPlan::app));
        held.sort(java.util.Comparator.comparing(HeldAction::action, ApplyOrder.APPLY));
        diagnostics.sort(null);
        // Evictions are on the status branch before anything moves, like rollout steps.
        recordFirst |= failovers.values().stream().anyMatch(f -> !f.started().isEmpty());
        return new Plan(desired.commit(), stages, held, apps, diagnostics, hash(stages, held, apps), rollouts, recordFirst, failovers,
                failover.fleetHold(), remediation.clusters());
    }

    /** Deletes of an application leaving a cluster wait, like everything else, while it is suspended there. */
    private static void holdIfSuspended(Suspensions suspensions, String app, Map<String, String> labels, String cluster,
                                        List<Action> removal, List<Action> deletes, List<HeldAction> held) {
        String why = suspensions.heldBy(app, labels, cluster);
        if (why == null) deletes.addAll(removal);
        else removal.forEach(a -> held.add(new HeldAction(a, why)));
    }

    private static List<Action> removalOf(String app, String why, ClusterObservation obs, TargetStatus previous,
                                          java.util.function.Predicate<dev.windlass.policy.model.ObjectRef> claimedByOthers) {
        if (!obs.reachable()) return List.of();
        var recorded = TargetPlanner.inventoryOf(previous, obs.inventories().get(app));
        return TargetPlanner.removal(app, why, obs, List.copyOf(recorded.values()), claimedByOthers);
    }

    private static void replaceTargets(List<AppPlan> apps, String app, Map<String, TargetPlan> replacements) {
        if (replacements.isEmpty()) return;
        for (int i = 0; i < apps.size(); i++) {
            AppPlan a = apps.get(i);
            if (!a.app().equals(app)) continue;
            List<TargetPlan> targets = a.targets().stream().map(t -> replacements.getOrDefault(t.cluster(), t)).toList();
            apps.set(i, new AppPlan(a.app(), a.revision(), a.valid(), a.clusters(), a.removedFrom(), targets, a.diagnostics(), a.definedIn(), a.suspendedOn()));
        }
    }


    /** The first dependency not yet Healthy on this cluster, in words, or null when all are. */
    private static String unmetDependency(Application app, String cluster, Map<String, Map<String, Health>> health) {
        for (String dep : app.dependsOn()) {
            Map<String, Health> byCluster = health.get(dep);
            if (byCluster == null || !byCluster.containsKey(cluster)) continue;
            Health h = byCluster.get(cluster);
            if (h != Health.Healthy) return "dependency " + dep + " is " + h + " on " + cluster;
        }
        return null;
    }

    private static AppPlan invalid(Application app, AppStatus previous) {
        List<String> clusters = previous == null ? List.of() : previous.placement();
        List<TargetPlan> targets = clusters.stream()
                .map(c -> unknown(c, "application is invalid; nothing is applied until its errors are fixed")).toList();
        return new AppPlan(app.name(), app.revision(), false, clusters, List.of(), targets, app.diagnostics(), app.location().path(), Map.of());
    }

    private static AppPlan heldBroken(AppStatus gone) {
        List<TargetPlan> targets = gone.placement().stream()
                .map(c -> unknown(c, gone.definedIn() + " cannot be read; the application is held as it was")).toList();
        Diagnostic d = Diagnostic.error(dev.windlass.policy.model.SourceLocation.file(gone.definedIn()),
                "application " + gone.name() + " was defined here and the file cannot be read now; nothing is applied or deleted for it until the file is fixed");
        return new AppPlan(gone.name(), gone.revision(), false, gone.placement(), List.of(), targets, List.of(d), gone.definedIn(), Map.of());
    }

    private static TargetPlan unknown(String cluster, String note) {
        return new TargetPlan(cluster, TargetPlan.Sync.Unknown, Health.Unknown, "", List.of(), note, List.of(), "", "");
    }

    private static String hash(List<Stage> stages, List<HeldAction> held, List<AppPlan> apps) {
        StringBuilder b = new StringBuilder();
        for (Stage s : stages) {
            b.append("stage ").append(s.name()).append('\n');
            for (Action a : s.actions()) line(b, a).append('\n');
        }
        for (HeldAction h : held) line(b.append("held "), h.action()).append(" by ").append(h.heldBy()).append('\n');
        for (AppPlan a : apps) b.append("app ").append(a.app()).append(' ').append(a.revision()).append(' ').append(a.valid()).append(' ').append(a.clusters()).append('\n');
        return ContentHash.sha256(b.toString()).substring(0, 16);
    }

    private static StringBuilder line(StringBuilder b, Action a) {
        return b.append(a.operation()).append(' ').append(a.app()).append(' ').append(a.cluster()).append(' ').append(a.object())
                .append(' ').append(a.desired() == null ? "-" : a.desired().hash()).append(' ').append(a.strategy());
    }
}
