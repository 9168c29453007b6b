package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.RolloutRecord;
import dev.windlass.policy.state.RolloutState;
import java.time.Instant;

/** A finished rollout ({@code rollouts:}). */
public record RolloutRecordV1(String revision, Instant startedAt, Instant finishedAt, String result, String message) {
    static RolloutRecordV1 of(RolloutRecord r) {
        return new RolloutRecordV1(r.revision(), r.startedAt(), r.finishedAt(), Words.of(r.result()), r.message());
    }

    RolloutRecord toDomain() {
        return new RolloutRecord(revision, startedAt, finishedAt, Words.read(RolloutState.Result.class, result, "rollouts[].result"), message);
    }
}
