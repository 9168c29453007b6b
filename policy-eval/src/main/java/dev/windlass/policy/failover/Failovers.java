package dev.windlass.policy.failover;

import dev.windlass.policy.suspension.Hold;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.plan.HoldReason;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.FailoverPolicy;
import dev.windlass.policy.model.FailoverPolicy.PurgeMode;
import dev.windlass.policy.model.FailoverPolicy.Trigger;
import dev.windlass.policy.model.FailoverSettings;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.placement.Placement;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.EvictionReason;
import dev.windlass.policy.state.EvictionTask;
import dev.windlass.policy.state.EvictionTask.Purge;
import dev.windlass.policy.state.FailoverMemory;
import dev.windlass.policy.state.FailoverRecord;
import dev.windlass.policy.state.PreservedValue;
import dev.windlass.policy.state.TargetStatus;
import dev.windlass.policy.suspension.Suspensions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * Decides failovers: which application leaves which cluster, where it goes, what it carries, and when an
 * evicted cluster returns to the pool. The rules, in the order they are applied:
 * <ol>
 *   <li>A cluster is failing when it has been unreachable or not ready for the policy's cluster toleration; an
 *       application is failing on a cluster when it has been Degraded (or Missing after it was applied) there for the
 *       application toleration. Clocks come from the status branch.</li>
 *   <li>When more clusters are unhealthy than {@code maxUnhealthyClusters}, the engine assumes the fault is its own
 *       and no cluster failover starts.</li>
 *   <li>Nothing moves off a cluster where the application is suspended, and nothing moves onto one.</li>
 *   <li>The new placement is the usual one without the evicted clusters, choosing only healthy clusters the
 *       application does not run on yet. Without a healthy cluster left, the application stays: FailoverBlocked.</li>
 *   <li>At most {@code maxConcurrentFailovers} evictions are in flight across the fleet.</li>
 *   <li>An evicted cluster returns to the pool once its failover is over, its old copy is purged (or orphaned),
 *       and it has been healthy for the toleration.</li>
 * </ol>
 */
public final class Failovers {
    private Failovers() {}

    /** Every application's failover decision for one pass, and the health of every cluster. */
    public record FailoverDecision(Map<String, ClusterHealth> clusters, Map<String, AppFailover> apps, String fleetHold) {
        public FailoverDecision {
            clusters = Map.copyOf(clusters);
            apps = Map.copyOf(apps);
        }
    }

    /**
     * @param placeable the applications that can be planned (valid, no ownership conflicts)
     * @param healthOn  the application's health on a reachable cluster as observed now
     */
    public static FailoverDecision decide(DesiredState desired, ObservedState observed, EngineState state, Suspensions suspensions,
                                  Set<String> placeable, BiFunction<Application, String, Health> healthOn, Instant now) {
        Map<String, ClusterHealth> health = new TreeMap<>();
        for (String name : desired.clusters().keySet()) {
            health.put(name, ClusterHealth.of(observed.cluster(name), state.clusters().get(name), now));
        }
        FailoverSettings settings = desired.settings().failover();
        long unhealthy = health.values().stream().filter(h -> !h.healthy()).count();
        int allowed = settings.maxUnhealthyClusters().of(health.size());
        String fleetHold = unhealthy > allowed && !desired.failoverPolicies().isEmpty()
                ? unhealthy + " of " + health.size() + " clusters are unreachable or not ready, more than maxUnhealthyClusters ("
                        + settings.maxUnhealthyClusters() + (settings.maxUnhealthyClusters().percent() ? " = " + allowed : "")
                        + "); the fault is taken to be the engine's own, so no cluster failover starts"
                : null;
        Slots slots = new Slots(settings.maxConcurrentFailovers() - (int) state.apps().values().stream()
                .flatMap(a -> a.failoverMemory().evictions().stream()).filter(EvictionTask::inFlight).count());

        Map<String, AppFailover> apps = new TreeMap<>();
        for (Application app : desired.apps().values()) {
            if (!placeable.contains(app.name())) continue;
            FailoverPolicy policy = desired.failoverPolicy(app.name());
            AppStatus previous = state.apps().get(app.name());
            if (policy == null && (previous == null || previous.failover() == null)) continue;
            apps.put(app.name(), new AppDecision(app, policy, previous, desired, observed, health, suspensions, healthOn, fleetHold, now)
                    .decide(slots));
        }
        return new FailoverDecision(health, apps, fleetHold);
    }

    /** The failovers that may still start in this pass (maxConcurrentFailovers less those in flight), shared by all applications. */
    private static final class Slots {
        private int left;

        Slots(int left) { this.left = left; }

        /** Takes a slot for one failover; false when none is left. */
        boolean take() {
            if (left <= 0) return false;
            left--;
            return true;
        }
    }

    /** One application's decision; a short-lived object so the steps can share what they know. */
    private static final class AppDecision {
        private final Application app;
        private final FailoverPolicy policy;
        private final AppStatus previous;
        private final DesiredState desired;
        private final ObservedState observed;
        private final Map<String, ClusterHealth> health;
        private final Suspensions suspensions;
        private final BiFunction<Application, String, Health> healthOn;
        private final String fleetHold;
        private final Instant now;
        private final List<EvictionTask> tasks = new ArrayList<>();
        private final List<FailoverRecord> failed = new ArrayList<>();
        private final List<EvictionTask> started = new ArrayList<>();
        private final Map<String, AppFailover.TargetClock> clocks = new TreeMap<>();
        private final Set<String> orphanedOn = new TreeSet<>();
        private String blocked;
        private FailoverBlock blockedReason;

        AppDecision(Application app, FailoverPolicy policy, AppStatus previous, DesiredState desired, ObservedState observed,
                    Map<String, ClusterHealth> health, Suspensions suspensions, BiFunction<Application, String, Health> healthOn,
                    String fleetHold, Instant now) {
            this.app = app;
            this.policy = policy;
            this.previous = previous;
            this.desired = desired;
            this.observed = observed;
            this.health = health;
            this.suspensions = suspensions;
            this.healthOn = healthOn;
            this.fleetHold = fleetHold;
            this.now = now;
        }

        AppFailover decide(Slots slots) {
            FailoverMemory memory = previous == null ? FailoverMemory.EMPTY : previous.failoverMemory();
            failed.addAll(memory.failedAttempts());
            orphanedOn.addAll(memory.orphanedOn());
            List<String> current = new ArrayList<>(previous == null ? List.of() : previous.placement());
            if (policy == null) {
                // The policy no longer selects the application: its evictions end, in-flight ones as failed attempts.
                for (EvictionTask t : memory.evictions()) {
                    if (t.inFlight()) fail(t, "the FailoverPolicy no longer selects " + app.name(), FailoverPolicy.DEFAULT_HISTORY_LIMIT);
                }
                List<String> placement = Placement.place(app, desired.clusters(), current);
                return result(placement, new FailoverMemory(List.of(), memory.history(), failed, List.copyOf(orphanedOn)), Map.of());
            }
            for (EvictionTask t : memory.evictions()) {
                if (desired.clusters().containsKey(t.fromCluster()) && !backInPool(t)) tasks.add(t);
            }
            for (String c : current) clocks.put(c, clock(c));
            for (String c : new TreeSet<>(current)) {
                if (excluded().contains(c)) continue;
                EvictionReason reason = failing(c);
                if (reason != null) evict(c, reason, current, slots);
            }
            current.removeIf(excluded()::contains);
            List<String> placement = tasks.isEmpty()
                    ? Placement.place(app, desired.clusters(), current)
                    : Placement.place(app, pool(current), current);
            Map<String, List<PreservedValue>> inject = new TreeMap<>();
            for (String c : placement) {
                TargetStatus prev = previous == null ? null : previous.target(c);
                Map<String, PreservedValue> values = new LinkedHashMap<>();
                if (prev != null) prev.injectedState().forEach(v -> values.put(v.object() + "|" + v.label(), v));
                for (EvictionTask t : tasks) {
                    if (t.replacements().contains(c)) t.preservedState().forEach(v -> values.put(v.object() + "|" + v.label(), v));
                }
                if (!values.isEmpty()) inject.put(c, List.copyOf(values.values()));
            }
            for (String c : placement) clocks.putIfAbsent(c, clock(c));
            orphanedOn.removeAll(placement);
            return result(placement, new FailoverMemory(tasks, memory.history(), failed, List.copyOf(orphanedOn)), inject);
        }

        private AppFailover result(List<String> placement, FailoverMemory memory, Map<String, List<PreservedValue>> inject) {
            Set<String> bypass = new TreeSet<>();
            Set<String> orphaned = new TreeSet<>();
            for (EvictionTask t : memory.evictions()) {
                if (t.inFlight()) t.replacements().stream().filter(placement::contains).forEach(bypass::add);
            }
            for (EvictionTask t : memory.evictions()) {
                if (t.purgeMode() == PurgeMode.Never && !placement.contains(t.fromCluster())) orphaned.add(t.fromCluster());
            }
            return new AppFailover(placement, memory, started, bypass, inject, clocks, blocked, blockedReason, Map.of(), orphaned);
        }

        private Set<String> excluded() {
            Set<String> out = new TreeSet<>();
            tasks.forEach(t -> out.add(t.fromCluster()));
            return out;
        }

        /** The failure that makes the application leave {@code cluster} now, or null. */
        private EvictionReason failing(String cluster) {
            ClusterHealth ch = health.get(cluster);
            if (ch == null) return null;
            if (policy.cluster() != null && !ch.healthy() && ch.secondsIn(now) >= clusterToleration(cluster)) {
                if (fleetHold != null) {
                    block(FailoverBlock.TooManyClustersUnhealthy, app.name() + " stays on " + cluster + ": " + fleetHold);
                    return null;
                }
                return EvictionReason.of(ch.state());
            }
            AppFailover.TargetClock clock = clocks.get(cluster);
            if (policy.application() != null && ch.healthy() && clock != null && clock.unhealthySince() != null
                    && now.getEpochSecond() - clock.unhealthySince().getEpochSecond() >= applicationToleration()) {
                return EvictionReason.ApplicationFailure;
            }
            return null;
        }

        private void evict(String from, EvictionReason reason, List<String> current, Slots slots) {
            Hold held = suspensions.hold(app.name(), app.labels(), from);
            if (held != null) {
                block(FailoverBlock.Suspended, app.name() + " stays on " + from + " (" + reason + "): " + held.text() + "; nothing moves while it holds");
                return;
            }
            Set<String> without = excluded();
            without.add(from);
            List<String> staying = current.stream().filter(c -> !without.contains(c)).toList();
            List<String> after = Placement.place(app, pool(current, without), staying);
            List<String> healthyAfter = after.stream().filter(c -> health.get(c) != null && health.get(c).healthy()).toList();
            if (after.isEmpty() || healthyAfter.isEmpty()) {
                block(FailoverBlock.NoEligibleCluster, app.name() + " stays on " + from + " (" + reason + "): " + noEligible(from, without)
                        + "; nothing is purged");
                return;
            }
            if (!slots.take()) {
                block(FailoverBlock.MaxConcurrentFailovers, app.name() + " waits to leave " + from + " (" + reason + "): "
                        + desired.settings().failover().maxConcurrentFailovers()
                        + " failovers are in flight, the most maxConcurrentFailovers allows");
                return;
            }
            Trigger trigger = reason == EvictionReason.ApplicationFailure ? policy.application() : policy.cluster();
            StateRules.Reading carried = carried(from, trigger, reason);
            PurgeMode mode = trigger.purgeMode();
            EvictionTask task = new EvictionTask(from, reason, mode, mode == PurgeMode.Gracefully ? trigger.gracePeriodSeconds() : null,
                    current, after, carried.values(), carried.problems(), now, null, null,
                    mode == PurgeMode.Never ? Purge.Orphaned : Purge.Pending);
            for (int i = 0; i < tasks.size(); i++) {
                EvictionTask t = tasks.get(i);
                if (t.inFlight() && t.clustersAfterFailover().contains(from)) {
                    tasks.set(i, fail(t, from + " failed too (" + reason + ") before " + app.name() + " was healthy there", policy.historyLimit()));
                }
            }
            if (mode == PurgeMode.Never) orphanedOn.add(from);
            tasks.add(task);
            started.add(task);
            current.clear();
            current.addAll(after);
        }

        private EvictionTask fail(EvictionTask t, String why, int limit) {
            EvictionTask done = t.failed(now);
            List<FailoverRecord> next = FailoverMemory.appended(failed, new FailoverRecord(t.clustersBeforeFailover(),
                    t.clustersAfterFailover(), t.reason(), t.createdAt(), now, t.preservedState(), why), limit);
            failed.clear();
            failed.addAll(next);
            return done;
        }

        private StateRules.Reading carried(String from, Trigger trigger, EvictionReason reason) {
            var rules = policy.rulesFor(trigger);
            ClusterObservation obs = observed.cluster(from);
            if (rules.isEmpty()) return new StateRules.Reading(List.of(), List.of());
            if (obs.reachable()) return StateRules.read(app.on(from), rules, obs);
            AppFailover.TargetClock clock = clocks.get(from);
            return StateRules.remembered(rules, clock == null ? List.of() : clock.observed(), from, reason.name());
        }

        /** Clusters a new placement may use: the ones it runs on, plus healthy ones it is not suspended on, minus the excluded. */
        private Map<String, Cluster> pool(List<String> current) { return pool(current, excluded()); }

        private Map<String, Cluster> pool(List<String> current, Set<String> without) {
            Map<String, Cluster> out = new TreeMap<>();
            desired.clusters().forEach((name, c) -> {
                if (without.contains(name)) return;
                boolean usable = health.get(name).healthy() && suspensions.hold(app.name(), app.labels(), name) == null;
                if (current.contains(name) || usable) out.put(name, c);
            });
            return out;
        }

        /** Why no cluster can take the application, naming each candidate and what rules it out. */
        private String noEligible(String from, Set<String> without) {
            Application unlimited = app.withPlacement(new Application.Placement(app.placement().clusterSelector(), app.placement().clusterNames(), 0));
            List<String> candidates = Placement.place(unlimited, desired.clusters(), List.of());
            List<String> why = new ArrayList<>();
            for (String c : candidates) {
                if (c.equals(from)) continue;
                ClusterHealth h = health.get(c);
                Hold held = suspensions.hold(app.name(), app.labels(), c);
                if (without.contains(c)) why.add(c + " is excluded after an earlier failover");
                else if (!h.healthy()) why.add(c + " is " + h.state());
                else if (held != null) why.add(c + " is suspended (" + held.text() + ")");
            }
            String placed = candidates.size() <= 1 ? "its placement selects no cluster but " + from
                    : "its placement selects " + String.join(", ", candidates);
            return why.isEmpty() ? placed : placed + "; " + String.join(", ", why);
        }

        private void block(FailoverBlock reason, String message) {
            if (blocked == null) {
                blocked = message;
                blockedReason = reason;
            }
        }

        private AppFailover.TargetClock clock(String cluster) {
            TargetStatus prev = previous == null ? null : previous.target(cluster);
            ClusterObservation obs = observed.cluster(cluster);
            if (!obs.reachable()) {
                return new AppFailover.TargetClock(prev == null ? null : prev.unhealthySince(), prev == null ? List.of() : prev.observedState());
            }
            Health h = healthOn.apply(app, cluster);
            boolean applied = prev != null && !prev.inventory().isEmpty();
            boolean failing = h == Health.Degraded || h == Health.Missing && applied;
            Instant since = !failing ? null : prev != null && prev.unhealthySince() != null ? prev.unhealthySince() : now;
            var rules = new ArrayList<>(policy.rulesFor(policy.application()));
            policy.rulesFor(policy.cluster()).stream().filter(r -> !rules.contains(r)).forEach(rules::add);
            List<PreservedValue> values = rules.isEmpty() ? List.of() : StateRules.read(app.on(cluster), rules, obs).values();
            return new AppFailover.TargetClock(since, values);
        }

        /** A finished eviction whose cluster has been healthy for the toleration, its old copy gone or orphaned. */
        private boolean backInPool(EvictionTask t) {
            if (t.inFlight() || t.purgeIs(Purge.Pending)) return false;
            ClusterHealth h = health.get(t.fromCluster());
            if (h == null || !h.healthy()) return false;
            long toleration = t.reason() == EvictionReason.ApplicationFailure ? applicationToleration() : clusterToleration(t.fromCluster());
            Instant done = t.completedAt() != null ? t.completedAt() : t.failedAt();
            Instant from = done.isAfter(h.since()) ? done : h.since();
            return now.getEpochSecond() - from.getEpochSecond() >= toleration;
        }

        private long clusterToleration(String cluster) {
            Trigger t = policy.cluster();
            if (t != null && t.tolerationSeconds() != null) return t.tolerationSeconds();
            return desired.clusters().get(cluster).unreachableTolerationSeconds();
        }

        private long applicationToleration() {
            Trigger t = policy.application();
            if (t != null && t.tolerationSeconds() != null) return t.tolerationSeconds();
            return FailoverPolicy.DEFAULT_APPLICATION_TOLERATION_SECONDS;
        }
    }

    /**
     * Completes what the planned targets show is done: an eviction whose new placement is Healthy and in sync
     * everywhere ends, and becomes a history entry. Then decides the old copies: Directly goes now, Gracefully
     * when its failover is done or its grace period is over, Never stays.
     *
     * @param ready clusters of the placement where the application is Healthy and in sync now
     */
    public static AppFailover settle(AppFailover decided, FailoverPolicy policy, Set<String> ready, Instant now) {
        FailoverMemory m = decided.memory();
        List<EvictionTask> tasks = new ArrayList<>();
        List<FailoverRecord> history = new ArrayList<>(m.history());
        int limit = policy == null ? FailoverPolicy.DEFAULT_HISTORY_LIMIT : policy.historyLimit();
        for (EvictionTask t : m.evictions()) {
            List<String> after = t.clustersAfterFailover().stream().filter(decided.placement()::contains).toList();
            if (t.inFlight() && !after.isEmpty() && ready.containsAll(after)) {
                t = t.completed(now);
                history = FailoverMemory.appended(history, new FailoverRecord(t.clustersBeforeFailover(), t.clustersAfterFailover(),
                        t.reason(), t.createdAt(), t.completedAt(), t.preservedState(), null), limit);
            }
            tasks.add(t);
        }
        Map<String, HoldReason> purgeHeld = new TreeMap<>();
        for (EvictionTask t : tasks) {
            if (t.purgeMode() != PurgeMode.Gracefully || !t.purgeIs(Purge.Pending) || !t.inFlight()) continue;
            Instant deadline = t.createdAt().plusSeconds(t.gracePeriodSeconds() == null ? 0 : t.gracePeriodSeconds());
            if (now.isBefore(deadline)) {
                purgeHeld.put(t.fromCluster(), new HoldReason.GracefulPurge(t.fromCluster(),
                        t.replacements().isEmpty() ? t.clustersAfterFailover() : t.replacements(), deadline));
            }
        }
        return new AppFailover(decided.placement(), new FailoverMemory(tasks, history, m.failedAttempts(), m.orphanedOn()),
                decided.started(), decided.bypass(), decided.inject(), decided.targets(), decided.blocked(), decided.blockedReason(),
                purgeHeld, decided.orphaned());
    }
}
