package dev.windlass.policy.model;

/**
 * Fleet-wide limits on failover, from {@code Settings.spec.failover}.
 *
 * @param maxConcurrentFailovers evictions in flight at once across the fleet (an eviction is in flight from the
 *                               moment it is recorded until its new placement is healthy or it fails)
 * @param maxUnhealthyClusters   when more clusters than this are unreachable or not ready at once, the engine
 *                               assumes the trouble is its own (its network, its credentials) and starts no cluster
 *                               failover at all; a count or a percentage of the fleet, rounding down
 */
public record FailoverSettings(int maxConcurrentFailovers, RolloutPolicy.Amount maxUnhealthyClusters) {
    public static final FailoverSettings DEFAULT = new FailoverSettings(3, new RolloutPolicy.Amount(50, true));
}
