package dev.windlass.applier;

import java.time.Duration;

/**
 * Limits on how the applier spends time and threads.
 *
 * @param maxParallelClusters clusters worked on at once; more wait for a free thread
 * @param observeDeadline     how long observing one cluster may take, counted from when it starts
 * @param executeDeadline     how long one cluster's share of a plan may take, counted from when it starts, plus
 * @param perAction           this much more for each of its actions: a first sync of thousands of objects to one cluster
 *                            is not a hung cluster (a dead one fails on its first request anyway)
 * @param minAllowance        the least a pass waits for one cluster's observation before going on without it, while
 *                            fewer than half of the pass's other clusters have answered
 * @param allowanceFactor     how many times its usual observation time a pass waits for a cluster
 * @param firstObservationAllowance how long a pass waits for a cluster when no cluster's usual time is known yet
 * @param probeEvery          how often a cluster taken to be not answering is probed in the background
 * @param minPeerAllowance    the least a pass waits for one cluster once more than half of its other clusters have
 *                            answered: then a cluster is waited for {@code allowanceFactor} times the answered ones'
 *                            median time (or its own usual time, if longer), at least this, never more than its allowance
 */
public record ApplierSettings(int maxParallelClusters, Duration observeDeadline, Duration executeDeadline, Duration perAction,
                              Duration minAllowance, int allowanceFactor, Duration firstObservationAllowance, Duration probeEvery,
                              Duration minPeerAllowance) {

    public static final ApplierSettings DEFAULT = new ApplierSettings(8, Duration.ofSeconds(30), Duration.ofMinutes(2),
            Duration.ofMillis(100), Duration.ofSeconds(2), 4, Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofMillis(500));

    /** With the default allowances and probing. */
    public ApplierSettings(int maxParallelClusters, Duration observeDeadline, Duration executeDeadline, Duration perAction) {
        this(maxParallelClusters, observeDeadline, executeDeadline, perAction, DEFAULT.minAllowance(), DEFAULT.allowanceFactor(),
                DEFAULT.firstObservationAllowance(), DEFAULT.probeEvery(), DEFAULT.minPeerAllowance());
    }

    /** With no allowance per action: the deadline is the same for any number of actions. */
    public ApplierSettings(int maxParallelClusters, Duration observeDeadline, Duration executeDeadline) {
        this(maxParallelClusters, observeDeadline, executeDeadline, Duration.ZERO);
    }

    /** The deadline for one cluster's share of a stage of {@code actions} actions. */
    public Duration executeDeadline(int actions) {
        return executeDeadline.plus(perAction.multipliedBy(actions));
    }

    public ApplierSettings {
        if (maxParallelClusters < 1) throw new IllegalArgumentException("maxParallelClusters must be at least 1");
        if (observeDeadline.isNegative() || observeDeadline.isZero() || executeDeadline.isNegative() || executeDeadline.isZero()) {
            throw new IllegalArgumentException("deadlines must be positive");
        }
        if (perAction.isNegative()) throw new IllegalArgumentException("perAction must not be negative");
        if (minAllowance.isNegative() || minPeerAllowance.isNegative() || allowanceFactor < 1) throw new IllegalArgumentException("allowances must be positive");
    }
}
