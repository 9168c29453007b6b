package dev.windlass.policy.plan;

import dev.windlass.policy.model.TargetKey;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.state.Sync;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.FailoverMemory;
import dev.windlass.policy.failover.AppFailover;
import dev.windlass.policy.state.TargetStatus;
import dev.windlass.policy.suspension.Hold;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the engine remembers after a pass: the previous state, advanced by the plan and by what executing it actually
 * did, and the typed {@link Event}s of what happened, in the status commit's order (failovers, remediation, the rest).
 * Pure, like the planner. It puts the parts together: a target's record ({@link TargetRecord}), what is left of one being
 * removed ({@link Leftover}), health lines ({@link HealthLines}), a cluster's record ({@link ClusterRecord}), rollouts
 * ({@link RolloutMemory}), failovers, remediation and suspension ({@link FailoverRecordKeeping},
 * {@link RemediationRecordKeeping}, {@link SuspensionRecord}). It writes no words: {@link EventLine} does.
 */
public final class Transition {
    private Transition() {}

    public record Result(EngineState state, List<Event> events) {}

    public static Result after(EngineState previous, DesiredState desired, ObservedState observed, Plan plan,
                               ApplyResult applied, Instant now) {
        List<Event> events = new ArrayList<>();
        Map<TargetKey, List<ActionResult>> byTarget = new HashMap<>();
        for (ActionResult r : applied.results()) {
            byTarget.computeIfAbsent(new TargetKey(r.action().app(), r.action().cluster()), k -> new ArrayList<>()).add(r);
        }
        Map<TargetKey, HoldReason> holds = new HashMap<>();
        Map<TargetKey, List<String>> heldDrift = new HashMap<>();
        for (HeldAction h : plan.held()) {
            TargetKey key = new TargetKey(h.action().app(), h.action().cluster());
            holds.putIfAbsent(key, h.reason());
            // A correction that waits is still drift people should see.
            if (h.action().drift()) {
                for (String f : h.action().fields()) heldDrift.computeIfAbsent(key, k -> new ArrayList<>()).add(h.action().object() + ": " + f);
            }
        }

        Map<String, AppStatus> apps = new TreeMap<>();
        HealthLines healthLines = new HealthLines();
        List<Event> failoverEvents = new ArrayList<>();
        List<Event> remediationEvents = new ArrayList<>();
        for (AppPlan ap : plan.apps()) {
            AppStatus prev = previous.apps().get(ap.app());
            Application app = desired.apps().get(ap.app());
            if (!ap.valid()) {
                if (prev == null && app == null) continue;
                apps.put(ap.app(), InvalidApp.status(ap, prev, now, events));
                continue;
            }
            List<TargetStatus> targets = new ArrayList<>();
            for (TargetPlan tp : ap.targets()) {
                TargetStatus prevTarget = prev == null ? null : prev.target(tp.cluster());
                List<ActionResult> results = byTarget.getOrDefault(new TargetKey(ap.app(), tp.cluster()), List.of());
                TargetStatus next = tp.sync() == Sync.Unknown
                        ? unknownTarget(tp, prevTarget)
                        : TargetRecord.next(app, tp, prevTarget, results, holds.get(new TargetKey(ap.app(), tp.cluster())),
                                heldDrift.getOrDefault(new TargetKey(ap.app(), tp.cluster()), List.of()), events);
                next = next.withRetry(Retries.after(prevTarget, results, previous.clusters().get(tp.cluster()), now));
                boolean written = !results.isEmpty();
                boolean waiting = tp.sync() != Sync.Unknown
                        && TargetRecord.waiting(results, holds.get(new TargetKey(ap.app(), tp.cluster())));
                healthLines.add(ap.app(), prevTarget, next, written, waiting);
                driftEvent(ap.app(), prevTarget, next, events);
                targets.add(next);
            }
            for (String left : ap.removedFrom()) {
                TargetStatus rest = Leftover.of(prev.target(left), byTarget.getOrDefault(new TargetKey(ap.app(), left), List.of()), events, ap.app(),
                        holds.get(new TargetKey(ap.app(), left)));
                if (rest != null) targets.add(rest);
                else if (prev.target(left) != null || prev.placement().contains(left)) events.add(new Event.RemovedFrom(ap.app(), left));
            }
            AppFailover af = plan.failovers().get(ap.app());
            targets = FailoverRecordKeeping.targets(targets, af);
            boolean wrote = byTarget.keySet().stream().anyMatch(k -> k.app().equals(ap.app()));
            String source = wrote || prev == null ? desired.commit() : prev.source();
            RolloutMemory memory = RolloutMemory.after(ap, prev, plan.rollouts().get(ap.app()), targets, desired.commit(), events);
            List<Condition> conds = new ArrayList<>(ReadyCondition.of(targets, prev, now, null));
            Condition suspended = SuspensionRecord.condition(ap.app(), false, ap.suspendedOn(), prev == null ? null : prev.condition("Suspended"),
                    desired.author(), now, events);
            if (suspended != null) conds.add(suspended);
            FailoverMemory failover = prev == null ? null : prev.failover();
            if (af != null) {
                failover = FailoverRecordKeeping.memory(af, targets);
                Condition blocked = FailoverRecordKeeping.blocked(af, prev, now);
                if (blocked != null) conds.add(blocked);
                failoverEvents.addAll(FailoverRecordKeeping.events(ap.app(), prev == null ? FailoverMemory.EMPTY : prev.failoverMemory(),
                        failover, prev == null ? null : prev.condition(FailoverRecordKeeping.BLOCKED), af));
            }
            apps.put(ap.app(), new AppStatus(ap.app(), ap.definedIn(), ap.revision(), source, app.syncPolicy().prune(),
                    conds, ap.clusters(), targets, strings(ap.diagnostics()),
                    memory.rollout(), memory.invalidRevisions(), memory.lastGood(), memory.history(), failover, ap.origin()));
        }
        for (AppStatus gone : previous.apps().values()) {
            if (apps.containsKey(gone.name())) continue;
            List<TargetStatus> rest = new ArrayList<>();
            for (TargetStatus t : gone.targets()) {
                TargetStatus r = Leftover.of(t, byTarget.getOrDefault(new TargetKey(gone.name(), t.cluster()), List.of()), events, gone.name(),
                        holds.get(new TargetKey(gone.name(), t.cluster())));
                if (r != null && gone.prune()) rest.add(r);
            }
            if (rest.isEmpty()) events.add(new Event.AppDeleted(gone.name()));
            else apps.put(gone.name(), gone.withConditions(ReadyCondition.of(rest, gone, now, "Deleting")).withPlacement(List.of())
                    .withTargets(rest).withDiagnostics(List.of()));
        }
        events.addAll(healthLines.events());
        Map<String, ClusterStatus> clusters = new TreeMap<>();
        desired.clusters().forEach((name, c) -> {
            ClusterStatus prevCluster = previous.clusters().get(name);
            ClusterStatus next = ClusterRecord.next(name, c.location().path(), observed.clusters().get(name), prevCluster, now, events);
            Condition before = prevCluster == null ? null : prevCluster.conditions().stream().filter(x -> x.type().equals("Suspended")).findFirst().orElse(null);
            Condition suspended = SuspensionRecord.condition(name, true,
                    c.suspend() ? Map.of(name, new Hold(Hold.Reason.ClusterSuspended, "Cluster/" + name + " suspended")) : Map.of(),
                    before, desired.author(), now, events);
            if (suspended != null) {
                List<Condition> conds = new ArrayList<>(next.conditions());
                conds.add(suspended);
                next = next.withConditions(conds);
            }
            next = RemediationRecordKeeping.record(next, plan.remediation().get(name), prevCluster, now, remediationEvents);
            next = RemediationRecordKeeping.failures(next, applied.results());
            clusters.put(name, next);
        });
        java.util.Set<String> policyFiles = new java.util.TreeSet<>();
        desired.freezes().forEach(f -> policyFiles.add(f.location().path()));
        desired.rolloutPolicies().values().forEach(p -> policyFiles.add(p.location().path()));
        // A policy file that cannot be read now is still remembered: it keeps holding until it is fixed.
        previous.policyFiles().stream().filter(desired.brokenFiles()::contains).forEach(policyFiles::add);
        // What moved between clusters leads the commit message, then what was remediated.
        failoverEvents.addAll(remediationEvents);
        remediationFailures(applied, failoverEvents);
        failoverEvents.addAll(events);
        return new Result(EngineState.of(desired.commit(), apps, clusters, policyFiles), failoverEvents);
    }

    /**
     * The state to record before a plan that starts rollout steps or evictions is executed: the previous state
     * with only the rollouts and the evictions (and the placement they lead to) advanced. A restart after this
     * commit continues the same steps and the same failover, never repeats or forgets them.
     */
    public static Result intent(EngineState previous, Plan plan) {
        return intent(previous, plan, Instant.EPOCH);
    }

    public static Result intent(EngineState previous, Plan plan, Instant now) {
        List<Event> events = new ArrayList<>();
        Map<String, AppStatus> apps = new TreeMap<>(previous.apps());
        plan.rollouts().forEach((name, rollout) -> {
            AppStatus p = previous.apps().get(name);
            AppPlan ap = plan.apps().stream().filter(a -> a.app().equals(name)).findFirst().orElseThrow();
            RolloutMemory m = RolloutMemory.after(ap, p, rollout, p == null ? List.of() : p.targets(), plan.sourceCommit(), events);
            apps.put(name, p == null
                    ? new AppStatus(name, ap.definedIn(), ap.revision(), null, true, List.of(), ap.clusters(), List.of(), List.of(),
                            m.rollout(), m.invalidRevisions(), m.lastGood(), m.history(), null, ap.origin())
                    : p.withRolloutMemory(m.rollout(), m.invalidRevisions(), m.lastGood(), m.history()).withOrigin(ap.origin()));
        });
        List<Event> failoverEvents = new ArrayList<>();
        plan.failovers().forEach((name, af) -> {
            AppStatus p = apps.get(name);
            if (af.started().isEmpty() || p == null) return;
            failoverEvents.addAll(FailoverRecordKeeping.events(name, p.failoverMemory(), af.memory(), null, null));
            apps.put(name, p.withPlacement(af.placement()).withFailover(af.memory()));
        });
        Map<String, ClusterStatus> clusters = new TreeMap<>(previous.clusters());
        plan.remediation().forEach((name, cr) -> {
            ClusterStatus p = clusters.get(name);
            if (p != null) clusters.put(name, RemediationRecordKeeping.record(p, cr, p, now, failoverEvents));
        });
        failoverEvents.addAll(events);
        return new Result(EngineState.of(previous.source(), apps, clusters, previous.policyFiles()), failoverEvents);
    }

    /** A remediation action the cluster refused is an error worth a line; the record keeps its step (no double action). */
    private static void remediationFailures(ApplyResult applied, List<Event> events) {
        for (ActionResult r : applied.results()) {
            if (r.action().app().isEmpty() && !r.succeeded()) {
                events.add(new Event.RemediationFailed(r.action().cluster(), r.action().operation(), r.action().object(), r.message()));
            }
        }
    }

    private static TargetStatus unknownTarget(TargetPlan tp, TargetStatus prev) {
        return new TargetStatus(tp.cluster(), prev == null ? "" : prev.revision(), Sync.Unknown, Health.Unknown, tp.note(),
                prev == null ? List.of() : prev.drift(), prev == null ? List.of() : prev.inventory()).withVariant(prev == null ? null : prev.variant(),
                        prev == null ? null : prev.rendered());
    }

    private static void driftEvent(String app, TargetStatus prev, TargetStatus next, List<Event> events) {
        List<String> before = prev == null ? List.of() : prev.drift();
        if (before.equals(next.drift())) return;
        if (next.drift().isEmpty()) events.add(new Event.DriftGone(app, next.cluster()));
        else events.add(new Event.Drifted(app, next.cluster(), next.drift()));
    }

    private static List<String> strings(List<Diagnostic> ds) { return ds.stream().map(Object::toString).toList(); }
}
