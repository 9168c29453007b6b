package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.RolloutState;
import java.time.Instant;
import java.util.List;

/** The current or last rollout of an application ({@code rollout:}); {@code failedClusters} absent when none (and before it was recorded). */
public record RolloutStateV1(String revision, String source, String previousRevision, String previousSource, String policy, String gate,
                             String result, String message, int waves, Instant startedAt, Instant finishedAt, List<ClusterStepV1> clusters,
                             List<String> failedClusters) {
    static RolloutStateV1 of(RolloutState r) {
        return r == null ? null : new RolloutStateV1(r.revision(), r.source(), r.previousRevision(), r.previousSource(), r.policy(), r.gate(),
                Words.of(r.result()), r.message(), r.waves(), r.startedAt(), r.finishedAt(), Words.map(r.clusters(), ClusterStepV1::of),
                r.failedClusters().isEmpty() ? null : r.failedClusters());
    }

    RolloutState toDomain() {
        return new RolloutState(revision, source, previousRevision, previousSource, policy, gate,
                Words.read(RolloutState.Result.class, result, "rollout.result"), message, waves, startedAt, finishedAt,
                Words.map(clusters, ClusterStepV1::toDomain), failedClusters);
    }
}
