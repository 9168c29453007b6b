package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.EvictionReason;
import dev.windlass.policy.state.FailoverRecord;
import java.time.Instant;
import java.util.List;

/** A failover in an application's history, or a failed attempt ({@code failover.history}, {@code failover.failedAttempts}). */
public record FailoverRecordV1(List<String> clustersBeforeFailover, List<String> clustersAfterFailover, String reason, Instant startTime,
                               Instant endTime, List<PreservedValueV1> preservedState, String failure) {
    static FailoverRecordV1 of(FailoverRecord r) {
        return new FailoverRecordV1(r.clustersBeforeFailover(), r.clustersAfterFailover(), Words.of(r.reason()), r.startTime(), r.endTime(),
                Words.map(r.preservedState(), PreservedValueV1::of), r.failure());
    }

    FailoverRecord toDomain() {
        return new FailoverRecord(clustersBeforeFailover, clustersAfterFailover,
                Words.read(EvictionReason.class, reason, "failover.history[].reason (or failedAttempts[])"), startTime, endTime,
                Words.map(preservedState, PreservedValueV1::toDomain), failure);
    }
}
