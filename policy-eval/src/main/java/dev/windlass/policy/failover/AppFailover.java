package dev.windlass.policy.failover;

import dev.windlass.policy.plan.HoldReason;
import dev.windlass.policy.state.EvictionTask;
import dev.windlass.policy.state.FailoverMemory;
import dev.windlass.policy.state.PreservedValue;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What failover decides for one application in one pass.
 *
 * @param placement where the application runs after this pass's failover decisions
 * @param memory    its failover memory after them: evictions recorded now included, completions and purges not yet
 *                  (they depend on the targets planned from this placement, see {@link Failovers#settle})
 * @param started   evictions recorded this pass; they are committed to the status branch before anything moves
 * @param bypass    clusters taking the application because of a failover in flight: not held back by rollout waves
 * @param inject    per cluster, the values to write as labels on the application's objects there
 * @param targets   per cluster, the failover clocks and observed values to record
 * @param blocked   why a failover that is due cannot happen (the FailoverBlocked condition), or null
 * @param blockedReason why it does not leave, when {@code blocked} is set: the reason of its FailoverBlocked condition
 * @param purgeHeld per old cluster whose copy waits (purgeMode Gracefully), why; filled by {@link Failovers#settle}
 * @param orphaned  old clusters whose copy is left running (purgeMode Never): never deleted, no longer tracked
 */
public record AppFailover(List<String> placement, FailoverMemory memory, List<EvictionTask> started, Set<String> bypass,
                          Map<String, List<PreservedValue>> inject, Map<String, TargetClock> targets, String blocked,
                          FailoverBlock blockedReason, Map<String, HoldReason> purgeHeld, Set<String> orphaned) {

    public AppFailover {
        placement = List.copyOf(placement);
        started = List.copyOf(started);
        bypass = Set.copyOf(bypass);
        inject = Map.copyOf(inject);
        targets = Map.copyOf(targets);
        purgeHeld = Map.copyOf(purgeHeld);
        orphaned = Set.copyOf(orphaned);
    }

    /**
     * One target's failover memory for this pass.
     *
     * @param unhealthySince since when the application has been failing there (null when it is not)
     * @param observed       the state rules' values read there now (or kept from before when the cluster did not answer)
     */
    public record TargetClock(java.time.Instant unhealthySince, List<PreservedValue> observed) {
        public TargetClock { observed = List.copyOf(observed); }
    }
}
