package dev.windlass.policy.model;

import java.time.Duration;
import java.util.List;

/**
 * How a new revision of the applications it selects reaches the fleet: in ordered groups, a few
 * clusters at a time, each healthy for {@code minSuccessTime} before the next step, failed when not
 * healthy by {@code progressDeadline}.
 */
public record RolloutPolicy(String name, LabelSelector selector, Type type, List<Group> groups, Unassigned unassignedClusters,
                            Amount maxConcurrency, Duration minSuccessTime, Duration progressDeadline, Amount maxFailures,
                            OnFailure onFailure, SourceLocation location, RevertPullRequest revertPullRequest) {

    public RolloutPolicy { groups = List.copyOf(groups); }

    /** Without a revert pull request. */
    public RolloutPolicy(String name, LabelSelector selector, Type type, List<Group> groups, Unassigned unassignedClusters,
                         Amount maxConcurrency, Duration minSuccessTime, Duration progressDeadline, Amount maxFailures,
                         OnFailure onFailure, SourceLocation location) {
        this(name, selector, type, groups, unassignedClusters, maxConcurrency, minSuccessTime, progressDeadline, maxFailures, onFailure,
                location, null);
    }

    /**
     * {@code spec.revertPullRequest}: when a rollout of an application it selects fails, a pull request restoring the
     * application's files to the last good revision is offered through a GitHub or Gitea Provider.
     *
     * @param providerRef the Provider's name
     * @param at          where {@code providerRef} is written: where a missing or wrong Provider is said
     */
    public record RevertPullRequest(String providerRef, SourceLocation at) {}

    /** {@code All}: every cluster at once; {@code Progressive}: in group order, at most maxConcurrency at a time; {@code ProgressivePerGroup}: a whole group at a time. */
    public enum Type { All, Progressive, ProgressivePerGroup }

    public enum Unassigned { LastGroup, Exclude }

    public enum OnFailure { Pause, Rollback }

    public record Group(String name, LabelSelector clusterSelector) {}

    /**
     * A count or a percentage of a total. Percentages round down; {@link #atLeastOne} is for
     * concurrency, where 0 would stall the rollout.
     */
    public record Amount(int value, boolean percent) {
        public int of(int total) {
            return percent ? total * value / 100 : value;
        }

        public int atLeastOne(int total) {
            return Math.max(1, of(total));
        }

        @Override public String toString() { return percent ? value + "%" : Integer.toString(value); }
    }
}
