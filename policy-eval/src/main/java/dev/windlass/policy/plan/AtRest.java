package dev.windlass.policy.plan;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Freeze;
import dev.windlass.policy.observe.ClusterObservation;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.ClusterState;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.EngineState;
import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.Reachability;
import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.policy.state.Sync;
import dev.windlass.policy.state.TargetStatus;
import dev.windlass.policy.suspension.FreezeWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Whether a fleet is at rest after a pass, and until when: a pass that finds the same inputs before then (the same
 * commit, the same recorded status, the same objects on every cluster, every cluster ready) plans nothing, applies
 * nothing and records nothing, so the engine may skip it.
 *
 * <p>At rest means all of these, as the pass left them:
 * <ul>
 *   <li>its plan has no action and holds none;</li>
 *   <li>every cluster answered, said it is ready, is healthy with every node ready, and no remediation record is open
 *       (each is healthy, with no mark or cordon left to take off);</li>
 *   <li>every application's targets are synced and healthy, with no retry due, no rollout under way, no eviction or
 *       orphaned copy left from a failover;</li>
 *   <li>planned again at the end of the {@link #HORIZON}, with nothing else changed, the plan still has no action and
 *       holds none: what only time moves on (a toleration, a cluster's return after it was healthy long enough) shows
 *       there.</li>
 * </ul>
 * The rest lasts at most the horizon, and ends earlier when a Freeze window opens or closes. Pure.
 */
public final class AtRest {
    private AtRest() {}

    /** How long a fleet at rest is taken to stay so without a whole pass: how long a pass is skipped at most. */
    public static final Duration HORIZON = Duration.ofMinutes(1);

    /**
     * Until when passes with the inputs of this one may be skipped, or empty when the fleet is not at rest.
     *
     * @param state the state the pass recorded (after it)
     * @param plan  the pass's plan
     * @param memo  the memo the pass planned with: the plan at the horizon reuses every target whose inputs are the
     *              same (a target's plan does not depend on the time), so it costs a comparison per target
     */
    public static Optional<Instant> until(DesiredState desired, ObservedState observed, EngineState state, Revisions revisions,
                                          Plan plan, Instant now, PlanMemo memo) {
        if (!idle(plan) || !answered(observed) || !settled(state)) return Optional.empty();
        Instant until = now.plus(HORIZON);
        for (Freeze f : desired.freezes()) until = earliest(until, boundary(f, now));
        if (!until.isAfter(now)) return Optional.empty();
        if (!idle(Planner.plan(desired, observed, state, revisions, until, memo))) return Optional.empty();
        return Optional.of(until);
    }

    static boolean idle(Plan plan) { return !plan.hasChanges() && plan.held().isEmpty(); }

    static boolean answered(ObservedState observed) {
        for (ClusterObservation o : observed.clusters().values()) {
            if (!o.reachable() || (o.notReady() != null && !o.notReady().isEmpty())) return false;
        }
        return true;
    }

    static boolean settled(EngineState state) {
        for (ClusterStatus c : state.clusters().values()) {
            if (c.reachability() != Reachability.Reachable || c.health() != ClusterState.Healthy || c.unhealthySince() != null
                    || c.readyNodes() != c.nodes()) return false;
            for (RemediationRecord r : c.remediation() == null ? List.<RemediationRecord>of() : c.remediation()) {
                if (!r.in(RemediationRecord.State.Healthy) || r.markedAt() != null || r.cordonedAt() != null) return false;
            }
        }
        for (AppStatus a : state.apps().values()) {
            if (a.rollout() != null && a.rollout().active()) return false;
            if (a.failover() != null && (!a.failover().evictions().isEmpty() || !a.failover().orphanedOn().isEmpty())) return false;
            for (TargetStatus t : a.targets()) {
                if (t.sync() != Sync.Synced || t.health() != Health.Healthy || t.unhealthySince() != null || t.retry() != null) return false;
            }
        }
        return true;
    }

    /** When {@code f}'s window in force closes, or else when its next one opens; null when neither happens. */
    private static Instant boundary(Freeze f, Instant now) {
        Optional<FreezeWindow.Window> open = FreezeWindow.openAt(f, now);
        if (open.isPresent()) return open.get().until();
        return FreezeWindow.nextOpening(f, now).orElse(null);
    }

    private static Instant earliest(Instant a, Instant b) { return b != null && b.isBefore(a) ? b : a; }
}
