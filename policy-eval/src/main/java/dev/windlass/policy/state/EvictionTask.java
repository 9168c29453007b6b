package dev.windlass.policy.state;

import dev.windlass.policy.model.FailoverPolicy.PurgeMode;
import java.time.Instant;
import java.util.List;

/**
 * An application leaving a cluster because of a failure, recorded on the status branch before anything
 * moves. While it exists the cluster is not a candidate for the application; it is removed once the
 * cluster has been healthy again for the toleration.
 *
 * @param reason         why it left the cluster
 * @param purgeMode      what becomes of the old copy: deleted directly, once the new one is healthy, or never
 * @param preservedState values read from the old copy, written as labels on the new one
 * @param notes          what could not be carried over and why (a JSONPath that matched nothing), never invented
 * @param completedAt    when the new placement was first healthy: the failover is done (null while in flight)
 * @param failedAt       when the attempt was given up: a cluster it moved to failed too before it was healthy
 * @param purge          what became of the old copy: Pending, Done, or Orphaned (purgeMode Never)
 */
public record EvictionTask(String fromCluster, EvictionReason reason, PurgeMode purgeMode, Integer gracePeriodSeconds,
                           List<String> clustersBeforeFailover, List<String> clustersAfterFailover,
                           List<PreservedValue> preservedState, List<String> notes, Instant createdAt,
                           Instant completedAt, Instant failedAt, Purge purge) {

    public EvictionTask {
        java.util.Objects.requireNonNull(purgeMode, "an eviction says what becomes of the old copy");
        clustersBeforeFailover = clustersBeforeFailover == null ? List.of() : List.copyOf(clustersBeforeFailover);
        clustersAfterFailover = clustersAfterFailover == null ? List.of() : List.copyOf(clustersAfterFailover);
        preservedState = preservedState == null ? List.of() : List.copyOf(preservedState);
        notes = notes == null ? List.of() : List.copyOf(notes);
        purge = purge == null ? Purge.Pending : purge;
    }

    /** What became of the old copy. */
    public enum Purge { Pending, Done, Orphaned }

    /** Whether the old copy is {@code p}. */
    public boolean purgeIs(Purge p) { return purge == p; }

    /** In flight: recorded, and its new placement neither healthy yet nor given up. Counts against maxConcurrentFailovers. */
    public boolean inFlight() { return completedAt == null && failedAt == null; }

    /** The clusters this failover brought the application to. */
    public List<String> replacements() {
        return clustersAfterFailover.stream().filter(c -> !clustersBeforeFailover.contains(c)).toList();
    }

    public EvictionTask completed(Instant at) {
        return new EvictionTask(fromCluster, reason, purgeMode, gracePeriodSeconds, clustersBeforeFailover, clustersAfterFailover,
                preservedState, notes, createdAt, at, failedAt, purge);
    }

    public EvictionTask failed(Instant at) {
        return new EvictionTask(fromCluster, reason, purgeMode, gracePeriodSeconds, clustersBeforeFailover, clustersAfterFailover,
                preservedState, notes, createdAt, completedAt, at, purge);
    }

    public EvictionTask purged(Purge how) {
        return new EvictionTask(fromCluster, reason, purgeMode, gracePeriodSeconds, clustersBeforeFailover, clustersAfterFailover,
                preservedState, notes, createdAt, completedAt, failedAt, how);
    }
}
