package dev.windlass.policy.plan;

import dev.windlass.policy.model.TargetKey;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.state.ClusterState;
import dev.windlass.policy.state.Reachability;
import dev.windlass.policy.state.Sync;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.Condition;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.FailoverMemory;
import dev.windlass.policy.failover.AppFailover;
import dev.windlass.policy.failover.ClusterHealth;
import dev.windlass.policy.state.TargetStatus;
import dev.windlass.policy.suspension.Hold;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the engine remembers after a pass: the previous state, advanced by the plan and by what
 * executing it actually did. Pure, like the planner; the events become the status commit message.
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
        Map<HealthLine, List<String>> healthChanges = new TreeMap<>();
        List<Event> failoverEvents = new ArrayList<>();
        List<Event> remediationEvents = new ArrayList<>();
        for (AppPlan ap : plan.apps()) {
            AppStatus prev = previous.apps().get(ap.app());
            Application app = desired.apps().get(ap.app());
            if (!ap.valid()) {
                if (prev == null && app == null) continue;
                apps.put(ap.app(), invalid(ap, prev, now, events));
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
                healthChange(ap.app(), prevTarget, next, written, waiting, healthChanges);
                driftEvent(ap.app(), prevTarget, next, events);
                targets.add(next);
            }
            for (String left : ap.removedFrom()) {
                TargetStatus rest = leftover(prev.target(left), byTarget.getOrDefault(new TargetKey(ap.app(), left), List.of()), events, ap.app(),
                        holds.get(new TargetKey(ap.app(), left)));
                if (rest != null) targets.add(rest);
                else if (prev.target(left) != null || prev.placement().contains(left)) events.add(new Event.RemovedFrom(ap.app(), left));
            }
            AppFailover af = plan.failovers().get(ap.app());
            targets = FailoverRecordKeeping.targets(targets, af);
            boolean wrote = byTarget.keySet().stream().anyMatch(k -> k.app().equals(ap.app()));
            String source = wrote || prev == null ? desired.commit() : prev.source();
            RolloutMemory memory = RolloutMemory.after(ap, prev, plan.rollouts().get(ap.app()), targets, desired.commit(), events);
            List<Condition> conds = new ArrayList<>(conditions(targets, prev, now, null));
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
                    memory.rollout(), memory.invalidRevisions(), memory.lastGood(), memory.history(), failover));
        }
        for (AppStatus gone : previous.apps().values()) {
            if (apps.containsKey(gone.name())) continue;
            List<TargetStatus> rest = new ArrayList<>();
            for (TargetStatus t : gone.targets()) {
                TargetStatus r = leftover(t, byTarget.getOrDefault(new TargetKey(gone.name(), t.cluster()), List.of()), events, gone.name(),
                        holds.get(new TargetKey(gone.name(), t.cluster())));
                if (r != null && gone.prune()) rest.add(r);
            }
            if (rest.isEmpty()) events.add(new Event.AppDeleted(gone.name()));
            else apps.put(gone.name(), gone.withConditions(conditions(rest, gone, now, "Deleting")).withPlacement(List.of())
                    .withTargets(rest).withDiagnostics(List.of()));
        }
        healthChanges.forEach((line, clusters) -> events.add(new Event.HealthChanged(line.app(), line.health(), clusters, line.message(), line.waiting())));
        Map<String, ClusterStatus> clusters = new TreeMap<>();
        desired.clusters().forEach((name, c) -> {
            ClusterStatus prevCluster = previous.clusters().get(name);
            ClusterStatus next = cluster(name, c.location().path(), observed.clusters().get(name), prevCluster, now, events);
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
                            m.rollout(), m.invalidRevisions(), m.lastGood(), m.history())
                    : p.withRolloutMemory(m.rollout(), m.invalidRevisions(), m.lastGood(), m.history()));
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

    private static AppStatus invalid(AppPlan ap, AppStatus prev, Instant now, List<Event> events) {
        List<String> diagnostics = strings(ap.diagnostics());
        if (prev == null || !prev.diagnostics().equals(diagnostics)) {
            long errors = ap.diagnostics().stream().filter(Diagnostic::isError).count();
            events.add(new Event.AppInvalid(ap.app(), errors, diagnostics.isEmpty() ? "" : diagnostics.get(0)));
        }
        Condition stalled = new Condition("Stalled", Condition.Status.True, "Invalid", diagnostics.isEmpty() ? "" : diagnostics.get(0), now);
        Condition ready = new Condition("Ready", Condition.Status.False, "Invalid", "the application's files have errors; nothing is applied", now);
        List<Condition> conds = List.of(ready.since(prev == null ? null : prev.condition("Ready")),
                stalled.since(prev == null ? null : prev.condition("Stalled")));
        if (prev == null) {
            return new AppStatus(ap.app(), ap.definedIn(), ap.revision(), null, true, conds, List.of(), List.of(), diagnostics);
        }
        return prev.withConditions(conds).withDiagnostics(diagnostics);
    }

    private static TargetStatus unknownTarget(TargetPlan tp, TargetStatus prev) {
        return new TargetStatus(tp.cluster(), prev == null ? "" : prev.revision(), Sync.Unknown, Health.Unknown, tp.note(),
                prev == null ? List.of() : prev.drift(), prev == null ? List.of() : prev.inventory()).withVariant(prev == null ? null : prev.variant(),
                        prev == null ? null : prev.rendered());
    }

    /** What is left of a target being removed: null when everything it had is gone. */
    private static TargetStatus leftover(TargetStatus t, List<ActionResult> results, List<Event> events, String app, HoldReason hold) {
        if (t == null) return null;
        var inventory = new ArrayList<>(t.inventory());
        List<String> failures = new ArrayList<>();
        for (ActionResult r : results) {
            if (r.succeeded()) inventory.removeIf(e -> e.ref().equals(r.action().object()));
            else failures.add(r.action().describe() + " failed: " + r.message());
        }
        for (ActionResult r : results) {
            if (!r.succeeded()) events.add(new Event.RemovalFailed(app, r.action().cluster(), r.action().operation(), r.action().object(), r.message()));
        }
        inventory.removeIf(e -> e.gcIs(Manifest.GcPolicy.NEVER));
        if (inventory.isEmpty()) return null;
        String message = !failures.isEmpty() ? String.join("; ", failures)
                : hold != null ? "removal pending: " + hold.text() : "removal pending: cluster not reachable";
        return new TargetStatus(t.cluster(), t.revision(), Sync.OutOfSync, t.health(), message, List.of(), inventory);
    }

    /**
     * Collects health transitions by application, health and message so that one line covers every
     * cluster ("web healthy on eu-1, eu-2"). A target just written to is expected to progress: no line.
     */
    private static void healthChange(String app, TargetStatus prev, TargetStatus next, boolean written, boolean waiting,
                                     Map<HealthLine, List<String>> out) {
        Health before = prev == null ? null : prev.health();
        Health now = next.health();
        boolean sameHealth = before == now;
        if (sameHealth && (now == Health.Healthy || prev.message().equals(next.message()))) return;
        if (now == Health.Progressing && written) return;
        if (before == null && now != Health.Healthy && now != Health.Degraded && !waiting) return;
        String message = now == Health.Healthy ? "" : next.message();
        out.computeIfAbsent(new HealthLine(app, now, message, waiting), k -> new ArrayList<>()).add(next.cluster());
    }

    /** One line of the pass's health events: the clusters where {@code app} reached {@code health} with one message. */
    private record HealthLine(String app, Health health, String message, boolean waiting) implements Comparable<HealthLine> {
        private static final java.util.Comparator<HealthLine> ORDER = java.util.Comparator.comparing(HealthLine::app)
                .thenComparing(l -> l.health().name()).thenComparing(HealthLine::message).thenComparing(HealthLine::waiting);

        @Override public int compareTo(HealthLine o) { return ORDER.compare(this, o); }
    }

    private static void driftEvent(String app, TargetStatus prev, TargetStatus next, List<Event> events) {
        List<String> before = prev == null ? List.of() : prev.drift();
        if (before.equals(next.drift())) return;
        if (next.drift().isEmpty()) events.add(new Event.DriftGone(app, next.cluster()));
        else events.add(new Event.Drifted(app, next.cluster(), next.drift()));
    }

    private static List<Condition> conditions(List<TargetStatus> targets, AppStatus prev, Instant now, String override) {
        boolean ready = override == null && targets.stream().allMatch(t -> t.sync() == Sync.Synced && t.health() == Health.Healthy);
        String reason = override != null ? override
                : targets.stream().anyMatch(t -> t.sync() == Sync.Unknown) ? "ClusterUnreachable"
                : targets.stream().anyMatch(t -> !t.message().isEmpty() && t.sync() == Sync.OutOfSync) ? "ApplyFailed"
                : targets.stream().anyMatch(t -> !t.drift().isEmpty()) ? "Drifted"
                : targets.stream().anyMatch(t -> t.sync() != Sync.Synced) ? "OutOfSync"
                : ready ? "Synced" : "Progressing";
        Condition c = new Condition("Ready", Condition.Status.of(ready), reason,
                ready ? "synced and healthy on " + targets.size() + (targets.size() == 1 ? " cluster" : " clusters") : "", now);
        return List.of(c.since(prev == null ? null : prev.condition("Ready")));
    }

    private static ClusterStatus cluster(String name, String definedIn, ClusterObservation obs, ClusterStatus prev, Instant now, List<Event> events) {
        if (obs == null) obs = ClusterObservation.unreachable(name, "not observed");
        Reachability reach = obs.reachability();
        if (prev != null && prev.reachability() != reach) {
            events.add(obs.reachable() ? new Event.ClusterReachable(name) : new Event.ClusterUnreachable(name, obs.message()));
        }
        String strategy = obs.reachable() ? (obs.serverSideApply() ? "ServerSide" : "ClientSide (this cluster has no server-side apply)")
                : prev == null ? "" : prev.applyStrategy();
        long ready = obs.nodes().stream().filter(n -> n.ready()).count();
        ClusterHealth health = ClusterHealth.of(obs, prev, now);
        boolean notReady = health.state() == ClusterState.ClusterNotReady;
        ClusterState before = prev == null ? null : prev.health();
        if (obs.reachable() && before != null && before != health.state() && (notReady || before == ClusterState.ClusterNotReady)) {
            events.add(notReady ? new Event.ClusterNotReady(name, health.message()) : new Event.ClusterReady(name));
        }
        Condition c = new Condition("Ready", Condition.Status.of(health.healthy()),
                health.healthy() ? "Reachable" : notReady ? "NotReady" : "Unreachable", health.message(), now);
        return new ClusterStatus(name, definedIn, reach, obs.reachable() ? "" : obs.message(), strategy,
                obs.reachable() ? obs.nodes().size() : prev == null ? 0 : prev.nodes(),
                obs.reachable() ? (int) ready : prev == null ? 0 : prev.readyNodes(),
                List.of(c.since(prev == null ? null : prev.conditions().stream().filter(x -> x.type().equals("Ready")).findFirst().orElse(null))),
                health.state(), health.healthy() ? null : health.since(), health.healthy() ? health.since() : null,
                null, obs.reachable() && obs.server().known() ? obs.server().version() : prev == null ? null : prev.kubernetesVersion(),
                obs.reachable() && obs.server().known() ? obs.server().apiVersions() : prev == null ? null : prev.apiVersions());
    }

    private static List<String> strings(List<Diagnostic> ds) { return ds.stream().map(Object::toString).toList(); }
}
