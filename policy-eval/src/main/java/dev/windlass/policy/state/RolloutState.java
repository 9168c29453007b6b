package dev.windlass.policy.state;

import java.time.Instant;
import java.util.List;

/**
 * A rollout of one revision of one application, as recorded on the status branch before each step
 * it guards, so a restarted engine continues it: never from wave 1 again, never past maxConcurrency.
 *
 * @param source           the config commit the revision was taken from
 * @param previousRevision the last good revision, the one a rollback returns to ("" when none)
 * @param previousSource   the commit that holds the last good revision
 * @param gate             what takes a cluster from one step to the next, in words (from the policy)
 * @param failedClusters   the clusters whose failure ended it (Failed or RolledBack), as they stood before a rollback
 *                         marked every touched step RolledBack; empty otherwise
 */
public record RolloutState(String revision, String source, String previousRevision, String previousSource, String policy,
                           String gate, Result result, String message, int waves, Instant startedAt, Instant finishedAt,
                           List<ClusterStep> clusters, List<String> failedClusters) {

    public enum Result { Progressing, Paused, Succeeded, Failed, RolledBack, Superseded }

    public RolloutState(String revision, String source, String previousRevision, String previousSource, String policy, String gate, Result result,
                        String message, int waves, Instant startedAt, Instant finishedAt, List<ClusterStep> clusters) {
        this(revision, source, previousRevision, previousSource, policy, gate, result, message, waves, startedAt, finishedAt, clusters, List.of());
    }

    public RolloutState {
        clusters = clusters == null ? List.of() : List.copyOf(clusters);
        failedClusters = failedClusters == null ? List.of() : List.copyOf(failedClusters);
        message = message == null ? "" : message;
    }

    public boolean active() { return result == Result.Progressing || result == Result.Paused; }

    public ClusterStep step(String cluster) {
        return clusters.stream().filter(s -> s.cluster().equals(cluster)).findFirst().orElse(null);
    }
}
