package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.ClusterStep;
import java.time.Instant;

/** One cluster's step in a rollout ({@code rollout.clusters:}). */
public record ClusterStepV1(String cluster, String state, int wave, Instant startedAt, Instant healthySince, Instant finishedAt,
                            Instant pausedAt) {
    static ClusterStepV1 of(ClusterStep s) {
        return new ClusterStepV1(s.cluster(), Words.of(s.state()), s.wave(), s.startedAt(), s.healthySince(), s.finishedAt(), s.pausedAt());
    }

    ClusterStep toDomain() {
        return new ClusterStep(cluster, Words.read(ClusterStep.State.class, state, "rollout.clusters[].state"), wave, startedAt, healthySince,
                finishedAt, pausedAt);
    }
}
