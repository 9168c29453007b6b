package dev.windlass.policy.plan;

import dev.windlass.policy.state.Health;
import dev.windlass.policy.state.Retry;
import dev.windlass.policy.suspension.Hold;
import java.time.Instant;
import java.util.List;

/**
 * Why an action waits instead of going ahead, with what that reason names. Code that decides (review effects, the
 * dashboard, a target's status) reads these records; their words ({@link #text()}) are made only where people read
 * them: the plan, the review comment, the status commit. Like {@link ActionReason}.
 */
public sealed interface HoldReason {

    /** The reason in words, as the plan shows it. */
    String text();

    /** A suspension or a Freeze holds the application on the cluster. */
    record Suspended(Hold hold) implements HoldReason {
        @Override public String text() { return hold.text(); }
    }

    /** The previous revision's objects stay until the new one is Healthy on the cluster. */
    record PruneAwaitsHealth(String revision, String cluster) implements HoldReason {
        @Override public String text() {
            return "revision " + revision + " must be Healthy on " + cluster + " before the previous one is pruned";
        }
    }

    /** A failover with purgeMode Gracefully: the old cluster's copy stays until a replacement is healthy, or the deadline. */
    record GracefulPurge(String fromCluster, List<String> replacements, Instant deadline) implements HoldReason {
        public GracefulPurge {
            replacements = List.copyOf(replacements);
        }

        @Override public String text() {
            return "failover from " + fromCluster + " (purgeMode Gracefully): the old copy is removed once "
                    + String.join(", ", replacements) + " is healthy, or at " + deadline;
        }
    }

    /** The revision's rollout failed; it goes nowhere new until its content changes. */
    record InvalidRevision(String revision, String rolloutMessage) implements HoldReason {
        @Override public String text() {
            return "revision " + revision + " is invalid: its rollout failed" + (rolloutMessage.isEmpty() ? "" : " (" + rolloutMessage + ")")
                    + "; it is not rolled out again until its content changes";
        }
    }

    /** The cluster is in no group of the rollout policy, whose unassigned clusters are excluded. */
    record NotInRolloutGroup(String policy) implements HoldReason {
        @Override public String text() { return "not in any group of RolloutPolicy " + policy + " (unassignedClusters: Exclude)"; }
    }

    /** The rollout failed more than its policy allows; what has not started waits. */
    record RolloutFailed(String message) implements HoldReason {
        @Override public String text() { return "rollout failed: " + message; }
    }

    /** Someone paused the rollout ({@code note}: the pause annotation's words). */
    record RolloutPaused(String note) implements HoldReason {
        @Override public String text() { return "rollout paused: " + note; }
    }

    /** The cluster's wave has not come: {@code wave} is the first unfinished one. */
    record AwaitsWave(String policy, int wave, List<String> progressing) implements HoldReason {
        public AwaitsWave {
            progressing = List.copyOf(progressing);
        }

        @Override public String text() {
            return "rollout " + policy + ": waits for wave " + wave + " (progressing: " + String.join(", ", progressing) + ")";
        }
    }

    /** An application it depends on is not Healthy on the cluster. */
    record UnmetDependency(String dependency, Health health, String cluster) implements HoldReason {
        @Override public String text() { return "dependency " + dependency + " is " + health + " on " + cluster; }
    }

    /**
     * An application it depends on is Healthy, but that application is a Flux Kustomization whose readiness says more
     * ({@code wait: true}, {@code healthChecks}), and {@code awaited} is not Healthy on the cluster yet.
     */
    record AwaitsFluxHealth(String dependency, Awaited awaited, Health health, String cluster) implements HoldReason {
        @Override public String text() {
            return "dependency " + dependency + switch (awaited) {
                case Awaited.PrintedRelease p -> " waits (wait: true) for application " + p.app() + ", which its build printed";
                case Awaited.CheckedApp a -> " waits (healthChecks) for application " + a.app();
                case Awaited.CheckedObject o -> " waits (healthChecks) for " + o.ref();
            } + ", " + health + " on " + cluster;
        }
    }

    /** What a Flux Kustomization's readiness waits for, one part of it. */
    sealed interface Awaited {
        /** The application of a HelmRelease the Kustomization's build printed ({@code wait: true}). */
        record PrintedRelease(String app) implements Awaited {}

        /** The application a {@code healthChecks} entry names (a HelmRelease's or a Kustomization's). */
        record CheckedApp(String app) implements Awaited {}

        /** The object a {@code healthChecks} entry names, on the same cluster. */
        record CheckedObject(dev.windlass.policy.model.ObjectRef ref) implements Awaited {}
    }

    /** The same writes failed before; they wait for the retry's time instead of going out on every pass. */
    record BackingOff(int failures, Retry.Kind kind, Instant next) implements HoldReason {
        @Override public String text() {
            return "backing off: the same writes failed " + failures + (failures == 1 ? " time" : " times in a row") + " ("
                    + (kind == Retry.Kind.Lasting ? "refused by the cluster" : "the cluster did not answer in time or was busy")
                    + "); next try at " + next;
        }
    }

    /** With shards: the coordinator records a rollout step or eviction before any other shard acts on it. */
    record AwaitsCoordinator(int coordinatorShard) implements HoldReason {
        @Override public String text() {
            return "waits for the coordinator (the holder of shard " + coordinatorShard + ") to record the rollout step or eviction first";
        }
    }
}
