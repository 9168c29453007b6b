package dev.windlass.engine.status.v1;

import dev.windlass.policy.model.FailoverPolicy.PurgeMode;
import dev.windlass.policy.state.EvictionReason;
import dev.windlass.policy.state.EvictionTask;
import java.time.Instant;
import java.util.List;

/** An application leaving a cluster ({@code failover.evictions}). */
public record EvictionTaskV1(String fromCluster, String reason, String purgeMode, Integer gracePeriodSeconds, List<String> clustersBeforeFailover,
                             List<String> clustersAfterFailover, List<PreservedValueV1> preservedState, List<String> notes, Instant createdAt,
                             Instant completedAt, Instant failedAt, String purge) {
    /** Names earlier engines wrote, read as what they meant: an eviction recorded then is finished as it was meant. */
    private static final java.util.Map<String, PurgeMode> OLD_NAMES = java.util.Map.of("Immediately", PurgeMode.Directly, "Graciously", PurgeMode.Gracefully);

    static EvictionTaskV1 of(EvictionTask t) {
        return new EvictionTaskV1(t.fromCluster(), Words.of(t.reason()), Words.of(t.purgeMode()), t.gracePeriodSeconds(), t.clustersBeforeFailover(),
                t.clustersAfterFailover(), Words.map(t.preservedState(), PreservedValueV1::of), t.notes(), t.createdAt(), t.completedAt(),
                t.failedAt(), Words.of(t.purge()));
    }

    /**
     * The eviction, or an error naming the field when its purge mode is missing or a word this engine does not know:
     * never read as a mode that deletes the old copy.
     */
    EvictionTask toDomain() {
        if (purgeMode == null) throw new IllegalArgumentException("failover.evictions[].purgeMode is missing: one of Directly, Gracefully, Never");
        PurgeMode mode = OLD_NAMES.containsKey(purgeMode) ? OLD_NAMES.get(purgeMode)
                : Words.read(PurgeMode.class, purgeMode, "failover.evictions[].purgeMode");
        return new EvictionTask(fromCluster, Words.read(EvictionReason.class, reason, "failover.evictions[].reason"), mode, gracePeriodSeconds, clustersBeforeFailover, clustersAfterFailover,
                Words.map(preservedState, PreservedValueV1::toDomain), notes, createdAt, completedAt, failedAt,
                Words.read(EvictionTask.Purge.class, purge, "failover.evictions[].purge"));
    }
}
