package dev.windlass.policy.state;

import java.util.List;

/**
 * A cluster as recorded on the status branch ({@code status/clusters/<name>.yaml}).
 *
 * @param health         Healthy, ClusterUnreachable or ClusterNotReady (API server not ready, or no Ready node)
 * @param unhealthySince since when it has been unhealthy without a break (null when healthy): the toleration clock of cluster failovers
 * @param healthySince   since when it has been healthy without a break (null when unhealthy): how a cluster returns to the pool
 */
public record ClusterStatus(String name, String definedIn, String reachability, String message,
                            String applyStrategy, int nodes, int readyNodes, List<Condition> conditions,
                            String health, String unhealthySince, String healthySince) {

    public ClusterStatus(String name, String definedIn, String reachability, String message, String applyStrategy, int nodes,
                         int readyNodes, List<Condition> conditions) {
        this(name, definedIn, reachability, message, applyStrategy, nodes, readyNodes, conditions, null, null, null);
    }

    public ClusterStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        message = message == null ? "" : message;
    }

    public ClusterStatus withConditions(List<Condition> replaced) {
        return new ClusterStatus(name, definedIn, reachability, message, applyStrategy, nodes, readyNodes, replaced, health,
                unhealthySince, healthySince);
    }
}
