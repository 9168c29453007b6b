package dev.windlass.policy.state;

import java.time.Instant;
import java.util.List;

/**
 * A cluster as recorded on the status branch ({@code status/clusters/<name>.yaml}).
 *
 * @param health         Healthy, ClusterUnreachable or ClusterNotReady (API server not ready, or no Ready node)
 * @param unhealthySince since when it has been unhealthy without a break (null when healthy): the toleration clock of cluster failovers
 * @param healthySince   since when it has been healthy without a break (null when unhealthy): how a cluster returns to the pool
 * @param remediation    the targets remediation policies watch here, with their clocks and attempts (null when none)
 * @param kubernetesVersion what its API server said it is ({@code /version}, e.g. v1.34.4) when last asked; null before
 *                       it ever answered. Helm charts for this cluster render for this version.
 * @param apiVersions    every group/version its API server served when last asked (null before it ever answered): the
 *                       API versions Helm charts for this cluster see
 */
public record ClusterStatus(String name, String definedIn, Reachability reachability, String message,
                            String applyStrategy, int nodes, int readyNodes, List<Condition> conditions,
                            ClusterState health, Instant unhealthySince, Instant healthySince, List<RemediationRecord> remediation,
                            String kubernetesVersion, List<String> apiVersions) {

    public ClusterStatus(String name, String definedIn, Reachability reachability, String message, String applyStrategy, int nodes,
                         int readyNodes, List<Condition> conditions, ClusterState health, Instant unhealthySince, Instant healthySince,
                         List<RemediationRecord> remediation) {
        this(name, definedIn, reachability, message, applyStrategy, nodes, readyNodes, conditions, health, unhealthySince, healthySince,
                remediation, null, null);
    }

    public ClusterStatus(String name, String definedIn, Reachability reachability, String message, String applyStrategy, int nodes,
                         int readyNodes, List<Condition> conditions, ClusterState health, Instant unhealthySince, Instant healthySince) {
        this(name, definedIn, reachability, message, applyStrategy, nodes, readyNodes, conditions, health, unhealthySince, healthySince, null);
    }

    public ClusterStatus(String name, String definedIn, Reachability reachability, String message, String applyStrategy, int nodes,
                         int readyNodes, List<Condition> conditions) {
        this(name, definedIn, reachability, message, applyStrategy, nodes, readyNodes, conditions, null, null, null, null);
    }

    public ClusterStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        message = message == null ? "" : message;
        remediation = remediation == null || remediation.isEmpty() ? null : List.copyOf(remediation);
        apiVersions = apiVersions == null || apiVersions.isEmpty() ? null : List.copyOf(apiVersions);
    }

    /** The remediation records, never null. */
    public List<RemediationRecord> remediationRecords() { return remediation == null ? List.of() : remediation; }

    public ClusterStatus withRemediation(List<RemediationRecord> records) {
        return new ClusterStatus(name, definedIn, reachability, message, applyStrategy, nodes, readyNodes, conditions, health,
                unhealthySince, healthySince, records, kubernetesVersion, apiVersions);
    }

    public ClusterStatus withConditions(List<Condition> replaced) {
        return new ClusterStatus(name, definedIn, reachability, message, applyStrategy, nodes, readyNodes, replaced, health,
                unhealthySince, healthySince, remediation, kubernetesVersion, apiVersions);
    }
}
