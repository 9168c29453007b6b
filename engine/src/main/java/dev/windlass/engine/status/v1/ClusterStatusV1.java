package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.ClusterState;
import dev.windlass.policy.state.ClusterStatus;
import dev.windlass.policy.state.Reachability;
import java.time.Instant;
import java.util.List;

/** {@code status/clusters/<name>.yaml}: a cluster, after the file's {@code apiVersion}. */
public record ClusterStatusV1(String name, String definedIn, String reachability, String message, String applyStrategy, int nodes,
                              int readyNodes, List<ConditionV1> conditions, String health, Instant unhealthySince, Instant healthySince,
                              List<RemediationRecordV1> remediation, String kubernetesVersion, List<String> apiVersions) {
    public static ClusterStatusV1 of(ClusterStatus c) {
        return new ClusterStatusV1(c.name(), c.definedIn(), Words.of(c.reachability()), c.message(), c.applyStrategy(), c.nodes(), c.readyNodes(),
                Words.map(c.conditions(), ConditionV1::of), Words.of(c.health()), c.unhealthySince(), c.healthySince(),
                Words.map(c.remediation(), RemediationRecordV1::of), c.kubernetesVersion(), c.apiVersions());
    }

    public ClusterStatus toDomain() {
        return new ClusterStatus(name, definedIn, Words.read(Reachability.class, reachability, "reachability"), message, applyStrategy, nodes, readyNodes,
                Words.map(conditions, ConditionV1::toDomain), Words.read(ClusterState.class, health, "health"), unhealthySince, healthySince,
                Words.map(remediation, RemediationRecordV1::toDomain), kubernetesVersion, apiVersions);
    }
}
