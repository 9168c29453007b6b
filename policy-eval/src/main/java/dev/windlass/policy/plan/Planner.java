package dev.windlass.policy.plan;

import dev.windlass.policy.state.Sync;
import dev.windlass.policy.model.TargetKey;

import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.failover.AppFailover;
import dev.windlass.policy.failover.Failovers;
import dev.windlass.policy.remediation.Remediations;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.placement.Placement;
import dev.windlass.policy.suspension.Hold;
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
        Suspensions suspensions = Suspensions.at(desired, state, now);
        Failovers.FailoverDecision failover = decideFailover(desired, observed, state, suspensions, now);
        Map<String, List<String>> placements = placements(desired, state, failover);
        Pass pass = new Pass(desired, observed, state, revisions, now, memo, suspensions, failover, placements);
        for (Application app : desired.apps().values()) pass.planApp(app);
        pass.gateAll();
        for (AppStatus gone : state.apps().values()) pass.leaveDeleted(gone);
        return pass.plan();
    }

    /** Which apps fail over where; a target's health is judged as this pass would plan it, fresh. */
    private static Failovers.FailoverDecision decideFailover(DesiredState desired, ObservedState observed, EngineState state,
                                                             Suspensions suspensions, Instant now) {
        java.util.Set<String> valid = new java.util.TreeSet<>();
        desired.apps().values().stream().filter(Application::valid).forEach(a -> valid.add(a.name()));
        return Failovers.decide(desired, observed, state, suspensions, valid, (app, cluster) -> {
            AppStatus p = state.apps().get(app.name());
            return TargetPlanner.plan(app, observed.cluster(cluster), p == null ? null : p.target(cluster), ref -> false).target().health();
        }, now);
    }

    /** Each valid app's clusters: where its failover put it, else where placement puts it. */
    private static Map<String, List<String>> placements(DesiredState desired, EngineState state, Failovers.FailoverDecision failover) {
        Map<String, List<String>> placements = new TreeMap<>();
        for (Application app : desired.apps().values()) {
            if (!app.valid()) continue;
            AppStatus previous = state.apps().get(app.name());
            AppFailover af = failover.apps().get(app.name());
            placements.put(app.name(), af != null ? af.placement()
                    : Placement.place(app, desired.clusters(), previous == null ? List.of() : previous.placement()));
        }
        return placements;
    }

    /** One pass's inputs and what it has decided so far, filled step by step by {@link #planWith}. */
    private static final class Pass {
        private final DesiredState desired;
        private final ObservedState observed;
        private final EngineState state;
        private final Revisions revisions;
        private final Instant now;
        private final PlanMemo memo;
        private final Suspensions suspensions;
        private final Failovers.FailoverDecision failover;
        private final Map<String, List<String>> placements;
        private final Ownership ownership;

        private final List<Action> applies = new ArrayList<>();
        private final List<Action> deletes = new ArrayList<>();
        private final List<HeldAction> held = new ArrayList<>();
        private final List<AppPlan> apps = new ArrayList<>();
        private final List<Diagnostic> diagnostics;
        private final Map<String, dev.windlass.policy.state.RolloutState> rollouts = new TreeMap<>();
        private final Map<String, AppFailover> failovers = new TreeMap<>();
        private final Map<String, Map<String, Health>> health = new HashMap<>();
        private final Map<TargetKey, TargetPlanner.Result> results = new HashMap<>();
        private boolean recordFirst = false;

        Pass(DesiredState desired, ObservedState observed, EngineState state, Revisions revisions, Instant now, PlanMemo memo,
             Suspensions suspensions, Failovers.FailoverDecision failover, Map<String, List<String>> placements) {
            this.desired = desired;
            this.observed = observed;
            this.state = state;
            this.revisions = revisions;
            this.now = now;
            this.memo = memo;
            this.suspensions = suspensions;
            this.failover = failover;
            this.placements = placements;
            this.ownership = new Ownership(desired.apps(), placements);
            this.diagnostics = new ArrayList<>(desired.diagnostics());
        }

        /** An app's targets on its clusters, its failover settled, and its removal from clusters it has left. */
        void planApp(Application app) {
            AppStatus previous = state.apps().get(app.name());
            if (!app.valid()) {
                apps.add(invalid(app, previous));
                return;
            }
            AppFailover af = failover.apps().get(app.name());
            java.util.Set<String> current = new java.util.TreeSet<>(previous == null ? List.of() : previous.placement());
            // A cluster the app has a record on but is not placed on (a removal still pending) is still to be left.
            if (previous != null) previous.targets().forEach(t -> current.add(t.cluster()));
            if (af != null) current.removeAll(af.orphaned());
            List<String> clusters = placements.get(app.name());
            List<TargetPlan> targets = new ArrayList<>();
            for (String cluster : clusters) targets.add(planTarget(app, cluster, previous, af));
            Map<String, Hold> suspendedOn = new TreeMap<>();
            for (String c : clusters) {
                Hold why = suspensions.hold(app.name(), app.labels(), c);
                if (why != null) suspendedOn.put(c, why);
            }
            if (af != null) af = settle(app, af, targets);
            List<String> removedFrom = leave(app, previous, af, current, clusters);
            apps.add(new AppPlan(app.name(), app.revision(), true, clusters, removedFrom, targets, app.diagnostics(),
                    app.location().path(), suspendedOn, AppPlan.fluxOrigin(app), AppPlan.argoOrigin(app), dev.windlass.policy.model.ImportOrigin.of(app)));
        }

        /** One target's plan, kept in {@link #results} for the gates; a cluster out of reach is Unknown. */
        private TargetPlan planTarget(Application app, String cluster, AppStatus previous, AppFailover af) {
            ClusterObservation obs = observed.cluster(cluster);
            TargetStatus prevTarget = previous == null ? null : previous.target(cluster);
            if (!obs.reachable()) return unknown(cluster, "cluster unreachable: " + obs.message());
            List<dev.windlass.policy.state.PreservedValue> inject = af == null ? List.of() : af.inject().getOrDefault(cluster, List.of());
            Application here = app.on(cluster);
            TargetPlanner.Result r = inject.isEmpty()
                    ? memo.plan(here, obs, prevTarget, ownership.claimedByOthers(app.name(), cluster))
                    : memo.planAfresh(dev.windlass.policy.failover.Injection.into(here, inject), obs, prevTarget,
                            ownership.claimedByOthers(app.name(), cluster));
            results.put(new TargetKey(app.name(), cluster), r);
            health.computeIfAbsent(app.name(), k -> new HashMap<>()).put(cluster, r.target().health());
            return r.target();
        }

        /** The app's failover, moved on by which of its clusters are now Healthy and Synced. */
        private AppFailover settle(Application app, AppFailover af, List<TargetPlan> targets) {
            java.util.Set<String> ready = new java.util.TreeSet<>();
            targets.stream().filter(t -> t.health() == Health.Healthy && t.sync() == Sync.Synced).forEach(t -> ready.add(t.cluster()));
            AppFailover settled = Failovers.settle(af, desired.failoverPolicy(app.name()), ready, now);
            failovers.put(app.name(), settled);
            return settled;
        }

        /** Deletes on the clusters the app had and is no longer placed on; returns those clusters. */
        private List<String> leave(Application app, AppStatus previous, AppFailover af, java.util.Set<String> current,
                                   List<String> clusters) {
            List<String> removedFrom = new ArrayList<>();
            for (String old : current) {
                if (clusters.contains(old)) continue;
                removedFrom.add(old);
                List<Action> removal = removalOf(app.name(), ActionReason.Leave.NoLongerPlaced,
                        observed.cluster(old), previous.target(old), ownership.claimedByOthers(app.name(), old));
                HoldReason graceful = af == null ? null : af.purgeHeld().get(old);
                if (graceful != null) removal.forEach(a -> held.add(new HeldAction(a, graceful)));
                else holdIfSuspended(suspensions, app.name(), app.labels(), old, removal, deletes, held);
            }
            return removedFrom;
        }

        /** Every app's actions through its gates: rollout waves, suspension and dependencies; after all apps are planned. */
        void gateAll() {
            Map<String, AppPlan> byName = new HashMap<>();
            apps.forEach(a -> byName.put(a.app(), a));
            for (Application app : desired.apps().values()) {
                AppPlan planned = byName.get(app.name());
                Map<String, HoldReason> frozen = new TreeMap<>();
                if (planned != null) planned.suspendedOn().forEach((cluster, hold) -> frozen.put(cluster, new HoldReason.Suspended(hold)));
                RolloutGate.Verdict gate = rollout(app, frozen);
                for (String cluster : planned == null ? List.<String>of() : planned.clusters()) release(app, cluster, gate, frozen);
            }
        }

        /** The app's rollout verdict, its state recorded when it is news, and a rollback's actions queued. */
        private RolloutGate.Verdict rollout(Application app, Map<String, HoldReason> frozen) {
            if (desired.rolloutPolicy(app.name()) == null || !placements.containsKey(app.name())) return RolloutGate.NONE;
            RolloutGate.Verdict gate = RolloutGate.decide(app, desired, observed, state.apps().get(app.name()), placements.get(app.name()),
                    results, ownership, revisions, frozen, now);
            AppStatus before = state.apps().get(app.name());
            boolean news = gate.rollout() != null && (gate.rollout().active() || before == null || !gate.rollout().equals(before.rollout()));
            if (news) rollouts.put(app.name(), gate.rollout());
            recordFirst |= gate.recordFirst();
            queueOrHold(gate.rollbackApplies(), frozen, applies);
            queueOrHold(gate.rollbackDeletes(), frozen, deletes);
            replaceTargets(apps, app.name(), gate.rollbackTargets());
            return gate;
        }

        /** Actions onto {@code queue}, except on a suspended cluster, where they are held by its suspension. */
        private void queueOrHold(List<Action> actions, Map<String, HoldReason> frozen, List<Action> queue) {
            for (Action a : actions) {
                if (frozen.containsKey(a.cluster())) held.add(new HeldAction(a, frozen.get(a.cluster())));
                else queue.add(a);
            }
        }

        /** One target's actions go ahead, or are all held by the first thing it waits for. */
        private void release(Application app, String cluster, RolloutGate.Verdict gate, Map<String, HoldReason> frozen) {
            TargetPlanner.Result r = results.get(new TargetKey(app.name(), cluster));
            if (r == null || gate.rolledBack(cluster)) return;
            // A failover's new cluster takes the app at once: rollout waves do not hold it, suspension does.
            boolean failingOver = failovers.containsKey(app.name()) && failovers.get(app.name()).bypass().contains(cluster);
            HoldReason gated = frozen.containsKey(cluster) ? frozen.get(cluster)
                    : gate.holdOf(cluster) != null && !failingOver ? gate.holdOf(cluster) : unmetDependency(app, cluster);
            if (gated == null) {
                // Writes that failed wait their turn: the same ones are not sent again on every pass.
                List<Action> writes = new ArrayList<>(r.applies());
                writes.addAll(r.deletes());
                AppStatus recorded = state.apps().get(app.name());
                gated = Retries.holding(recorded == null ? null : recorded.target(cluster), writes, state.clusters().get(cluster), now);
            }
            HoldReason waitingFor = gated;
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

        /**
         * The first dependency not yet Healthy on this cluster, or, for a Flux Kustomization, whose readiness ({@code wait},
         * {@code healthChecks}) is not met there; null when all are.
         */
        private HoldReason unmetDependency(Application app, String cluster) {
            for (String dep : app.dependsOn()) {
                Map<String, Health> byCluster = health.get(dep);
                if (byCluster == null || !byCluster.containsKey(cluster)) continue;
                Health h = byCluster.get(cluster);
                if (h != Health.Healthy) return new HoldReason.UnmetDependency(dep, h, cluster);
                HoldReason flux = FluxGate.unmet(app, dep, cluster, desired.apps(), health, observed.cluster(cluster));
                if (flux != null) return flux;
            }
            return null;
        }

        /** An app no longer in Git: held as it was while its file cannot be read, else pruned where it allows. */
        void leaveDeleted(AppStatus gone) {
            if (desired.apps().containsKey(gone.name())) return;
            if (gone.definedIn() != null && desired.brokenFiles().contains(gone.definedIn())) {
                apps.add(heldBroken(gone));
                return;
            }
            if (!gone.prune()) return;
            for (TargetStatus t : gone.targets()) {
                holdIfSuspended(suspensions, gone.name(), Map.of(), t.cluster(), removalOf(gone.name(), ActionReason.Leave.AppDeleted,
                        observed.cluster(t.cluster()), t, ownership.claimedByOthers(gone.name(), t.cluster())), deletes, held);
            }
        }

        /** The stages in order (apply, prune, remediate), everything sorted, and the plan's hash. */
        Plan plan() {
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
    }

    /** Deletes of an application leaving a cluster wait, like everything else, while it is suspended there. */
    private static void holdIfSuspended(Suspensions suspensions, String app, Map<String, String> labels, String cluster,
                                        List<Action> removal, List<Action> deletes, List<HeldAction> held) {
        Hold hold = suspensions.hold(app, labels, cluster);
        if (hold == null) deletes.addAll(removal);
        else removal.forEach(a -> held.add(new HeldAction(a, new HoldReason.Suspended(hold))));
    }

    private static List<Action> removalOf(String app, ActionReason.Leave why, ClusterObservation obs, TargetStatus previous,
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
            apps.set(i, new AppPlan(a.app(), a.revision(), a.valid(), a.clusters(), a.removedFrom(), targets, a.diagnostics(), a.definedIn(), a.suspendedOn(),
                    a.fluxOrigin(), a.argoOrigin(), a.origin()));
        }
    }


    private static AppPlan invalid(Application app, AppStatus previous) {
        List<String> clusters = previous == null ? List.of() : previous.placement();
        List<TargetPlan> targets = clusters.stream()
                .map(c -> unknown(c, "application is invalid; nothing is applied until its errors are fixed")).toList();
        return new AppPlan(app.name(), app.revision(), false, clusters, List.of(), targets, app.diagnostics(), app.location().path(), Map.of(),
                AppPlan.fluxOrigin(app), AppPlan.argoOrigin(app), dev.windlass.policy.model.ImportOrigin.of(app));
    }

    private static AppPlan heldBroken(AppStatus gone) {
        List<TargetPlan> targets = gone.placement().stream()
                .map(c -> unknown(c, gone.definedIn() + " cannot be read; the application is held as it was")).toList();
        Diagnostic d = Diagnostic.error(dev.windlass.policy.model.SourceLocation.file(gone.definedIn()),
                "application " + gone.name() + " was defined here and the file cannot be read now; nothing is applied or deleted for it until the file is fixed");
        return new AppPlan(gone.name(), gone.revision(), false, gone.placement(), List.of(), targets, List.of(d), gone.definedIn(), Map.of());
    }

    private static TargetPlan unknown(String cluster, String note) {
        return new TargetPlan(cluster, Sync.Unknown, Health.Unknown, "", List.of(), note, List.of(), "", "", "");
    }

    private static String hash(List<Stage> stages, List<HeldAction> held, List<AppPlan> apps) {
        StringBuilder b = new StringBuilder();
        for (Stage s : stages) {
            b.append("stage ").append(s.name()).append('\n');
            for (Action a : s.actions()) line(b, a).append('\n');
        }
        for (HeldAction h : held) line(b.append("held "), h.action()).append(" by ").append(h.reason().text()).append('\n');
        for (AppPlan a : apps) b.append("app ").append(a.app()).append(' ').append(a.revision()).append(' ').append(a.valid()).append(' ').append(a.clusters()).append('\n');
        return ContentHash.sha256(b.toString()).substring(0, 16);
    }

    private static StringBuilder line(StringBuilder b, Action a) {
        return b.append(a.operation()).append(' ').append(a.app()).append(' ').append(a.cluster()).append(' ').append(a.object())
                .append(' ').append(a.desired() == null ? "-" : a.desired().hash()).append(' ').append(a.strategy());
    }
}
