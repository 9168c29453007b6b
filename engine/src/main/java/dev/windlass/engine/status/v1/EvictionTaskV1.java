package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.EvictionTask;
import java.time.Instant;
import java.util.List;

/** An application leaving a cluster ({@code failover.evictions}). */
public record EvictionTaskV1(String fromCluster, String reason, String purgeMode, Integer gracePeriodSeconds, List<String> clustersBeforeFailover,
                             List<String> clustersAfterFailover, List<PreservedValueV1> preservedState, List<String> notes, Instant createdAt,
                             Instant completedAt, Instant failedAt, String purge) {
    static EvictionTaskV1 of(EvictionTask t) {
        return new EvictionTaskV1(t.fromCluster(), t.reason(), t.purgeMode(), t.gracePeriodSeconds(), t.clustersBeforeFailover(),
                t.clustersAfterFailover(), Words.map(t.preservedState(), PreservedValueV1::of), t.notes(), t.createdAt(), t.completedAt(),
                t.failedAt(), Words.of(t.purge()));
    }

    EvictionTask toDomain() {
        return new EvictionTask(fromCluster, reason, purgeMode, gracePeriodSeconds, clustersBeforeFailover, clustersAfterFailover,
                Words.map(preservedState, PreservedValueV1::toDomain), notes, createdAt, completedAt, failedAt,
                Words.read(EvictionTask.Purge.class, purge, "failover.evictions[].purge"));
    }
}
