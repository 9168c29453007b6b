package dev.windlass.policy.state;

import java.time.Instant;
import java.util.List;

/**
 * One failover in an application's history: where it ran before and after, why it moved, when it started
 * (the eviction was recorded) and ended (the new placement was healthy), and the state carried over.
 * A failed attempt has the same shape, {@code endTime} when it was given up and {@code failure} saying why.
 */
public record FailoverRecord(List<String> clustersBeforeFailover, List<String> clustersAfterFailover, EvictionReason reason,
                             Instant startTime, Instant endTime, List<PreservedValue> preservedState, String failure) {
    public FailoverRecord {
        clustersBeforeFailover = clustersBeforeFailover == null ? List.of() : List.copyOf(clustersBeforeFailover);
        clustersAfterFailover = clustersAfterFailover == null ? List.of() : List.copyOf(clustersAfterFailover);
        preservedState = preservedState == null ? List.of() : List.copyOf(preservedState);
    }
}
