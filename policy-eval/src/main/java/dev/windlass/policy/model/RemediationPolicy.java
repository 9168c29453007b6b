package dev.windlass.policy.model;

import java.util.List;
import java.util.Set;

/**
 * How unhealthy objects of one kind ({@code target}, e.g. control-plane Nodes) on the clusters it selects
 * are remediated: which conditions make one unhealthy ({@code unhealthyConditions}, each held for its
 * timeout), when remediation may act at all ({@code triggerIf}, and {@code quorum} for a consensus group),
 * what it does ({@code action}) and how often. Fleet-level: it selects clusters, not applications.
 *
 * @param startupTimeoutSeconds how long a new target may take to become healthy before it counts as unhealthy; 0: no startup check
 * @param maxInFlight           remediations under way at once on one cluster
 * @param maxRetry              remediations of one target before it is left alone (and reported)
 * @param retryPeriodSeconds    the wait before a target that is still unhealthy is remediated again
 * @param minHealthyPeriodSeconds how long a remediated target must stay healthy before its retries start over
 */
public record RemediationPolicy(String name, LabelSelector clusterSelector, Target target, List<UnhealthyCondition> unhealthyConditions,
                                int startupTimeoutSeconds, Gate triggerIf, boolean quorum, Action action, int maxInFlight, int maxRetry,
                                int retryPeriodSeconds, int minHealthyPeriodSeconds, SourceLocation location) {

    public static final Action DEFAULT_ACTION = Action.Annotate;
    public static final int DEFAULT_MAX_IN_FLIGHT = 1;
    public static final int DEFAULT_MAX_RETRY = 3;
    public static final int DEFAULT_RETRY_PERIOD_SECONDS = 300;
    public static final int DEFAULT_MIN_HEALTHY_PERIOD_SECONDS = 3600;

    /** The workload kinds {@link Action#Restart} applies to. */
    public static final Set<String> RESTARTABLE_KINDS = Set.of("Deployment", "StatefulSet", "DaemonSet");

    public RemediationPolicy {
        unhealthyConditions = List.copyOf(unhealthyConditions);
        triggerIf = triggerIf == null ? Gate.ALWAYS : triggerIf;
    }

    /**
     * What remediation does to an unhealthy target. {@code Annotate}: marks it (for an owner that acts on the
     * mark) and changes nothing else; {@code Delete}: deletes it so its owner recreates it; {@code CordonAndDrain}:
     * Nodes only, cordons the node and evicts its pods; {@code Restart}: Deployments, StatefulSets and DaemonSets
     * only, restarts their pods.
     */
    public enum Action { Annotate, Delete, CordonAndDrain, Restart }

    /** The objects remediated: every object of {@code apiVersion}/{@code kind} whose labels match {@code selector}. */
    public record Target(String apiVersion, String kind, LabelSelector selector) {}

    /** A target is unhealthy once condition {@code type} has had {@code status} for {@code timeoutSeconds}. */
    public record UnhealthyCondition(String type, ConditionStatus status, int timeoutSeconds) {}

    public enum ConditionStatus { True, False, Unknown }

    /**
     * When remediation may act, by how many of the cluster's targets are unhealthy: {@link Always},
     * {@link AtMost} a count or a percentage of the targets (rounded down), or {@link InRange} (both ends inclusive).
     */
    public sealed interface Gate permits Always, AtMost, InRange {
        Gate ALWAYS = new Always();
    }

    public record Always() implements Gate {
        @Override public String toString() { return "always"; }
    }

    public record AtMost(RolloutPolicy.Amount max) implements Gate {
        @Override public String toString() { return "at most " + max; }
    }

    public record InRange(int min, int max) implements Gate {
        public InRange {
            if (min < 0 || min > max) throw new IllegalArgumentException("range [" + min + "-" + max + "] needs 0 <= min <= max");
        }

        @Override public String toString() { return "[" + min + "-" + max + "]"; }
    }
}
