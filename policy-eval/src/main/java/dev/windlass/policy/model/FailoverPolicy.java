package dev.windlass.policy.model;

import java.util.List;

/**
 * When and how the applications it selects move off a cluster: because the application is unhealthy
 * there ({@code application}) or the cluster itself is unreachable or not ready ({@code cluster}).
 * Either trigger may be left out; then that kind of failure never moves the application.
 *
 * @param historyLimit how many completed failovers (and, separately, failed attempts) an application keeps in status
 */
public record FailoverPolicy(String name, LabelSelector selector, Trigger application, Trigger cluster, int historyLimit,
                             SourceLocation location) {

    public static final int DEFAULT_HISTORY_LIMIT = 10;
    public static final int DEFAULT_APPLICATION_TOLERATION_SECONDS = 300;
    public static final int DEFAULT_GRACE_PERIOD_SECONDS = 600;

    /**
     * What happens to the copy on the cluster left behind. {@code Directly}: deleted at once (when the cluster
     * answers); {@code Gracefully}: deleted once the new placement is healthy or the grace period is over;
     * {@code Never}: left running, unmanaged, and marked orphaned in status.
     */
    public enum PurgeMode { Directly, Gracefully, Never }

    /**
     * @param tolerationSeconds how long the failure must last before the application moves; null for the
     *                          {@code cluster} trigger means the Cluster's own {@code unreachableTolerationSeconds}
     * @param gracePeriodSeconds only with {@code Gracefully}
     * @param statePreservation values read from the old copy and carried to the new one as labels
     */
    public record Trigger(Integer tolerationSeconds, PurgeMode purgeMode, int gracePeriodSeconds, List<StateRule> statePreservation) {
        public Trigger { statePreservation = statePreservation == null ? List.of() : List.copyOf(statePreservation); }
    }

    /**
     * Read {@code jsonPath} (Kubernetes JSONPath template, e.g. {@code { .status.offset }}) from the
     * application's object on the failed cluster; write the value as label {@code aliasLabelName} on the
     * same object on the new cluster(s).
     */
    public record StateRule(String aliasLabelName, String jsonPath) {}

    /** The rules a failover for this trigger follows: the cluster trigger falls back to the application's rules. */
    public List<StateRule> rulesFor(Trigger trigger) {
        if (trigger == null) return List.of();
        if (!trigger.statePreservation().isEmpty() || trigger == application || application == null) return trigger.statePreservation();
        return application.statePreservation();
    }
}
