package dev.windlass.applier;

import java.time.Duration;

/**
 * Limits on how the applier spends time and threads.
 *
 * @param maxParallelClusters clusters worked on at once; more wait for a free thread
 * @param observeDeadline     how long observing one cluster may take, counted from when it starts
 * @param executeDeadline     how long one cluster's share of a stage may take, counted from when it starts
 */
public record ApplierSettings(int maxParallelClusters, Duration observeDeadline, Duration executeDeadline) {

    public static final ApplierSettings DEFAULT = new ApplierSettings(8, Duration.ofSeconds(30), Duration.ofMinutes(2));

    public ApplierSettings {
        if (maxParallelClusters < 1) throw new IllegalArgumentException("maxParallelClusters must be at least 1");
        if (observeDeadline.isNegative() || observeDeadline.isZero() || executeDeadline.isNegative() || executeDeadline.isZero()) {
            throw new IllegalArgumentException("deadlines must be positive");
        }
    }
}
