package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.FailoverMemory;
import java.util.List;

/** What an application remembers of failovers ({@code failover:}). */
public record FailoverMemoryV1(List<EvictionTaskV1> evictions, List<FailoverRecordV1> history, List<FailoverRecordV1> failedAttempts,
                               List<String> orphanedOn) {
    public static FailoverMemoryV1 of(FailoverMemory m) {
        return m == null ? null : new FailoverMemoryV1(Words.map(m.evictions(), EvictionTaskV1::of), Words.map(m.history(), FailoverRecordV1::of),
                Words.map(m.failedAttempts(), FailoverRecordV1::of), m.orphanedOn());
    }

    FailoverMemory toDomain() {
        return new FailoverMemory(Words.map(evictions, EvictionTaskV1::toDomain), Words.map(history, FailoverRecordV1::toDomain),
                Words.map(failedAttempts, FailoverRecordV1::toDomain), orphanedOn);
    }
}
