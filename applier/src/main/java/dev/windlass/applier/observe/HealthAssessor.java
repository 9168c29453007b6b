package dev.windlass.applier.observe;

import dev.windlass.policy.model.ObjectRef;
import java.util.Map;

/**
 * The health of one object from its body alone (no cluster access), with the semantics users expect from
 * GitOps tools: built-in workloads by their rollout counters, pods by phase and container state, volume
 * claims by binding, load balancers by address, everything else by its {@code Ready}/{@code Stalled}/
 * {@code Reconciling} conditions and observed generation.
 */
public final class HealthAssessor {

    private HealthAssessor() {}

    public static Assessment assess(Map<String, Object> body) {
        if (BodyFields.has(body, "metadata", "deletionTimestamp")) return Assessment.progressing("Pending deletion");
        String group = ObjectRef.groupOf(BodyFields.string(body, "apiVersion"));
        return switch (group + "/" + BodyFields.string(body, "kind")) {
            case "apps/Deployment" -> WorkloadHealth.deployment(body);
            case "apps/StatefulSet" -> WorkloadHealth.statefulSet(body);
            case "apps/DaemonSet" -> WorkloadHealth.daemonSet(body);
            case "batch/Job" -> ConditionHealth.job(body);
            case "/Pod" -> CoreHealth.pod(body);
            case "/PersistentVolumeClaim" -> CoreHealth.persistentVolumeClaim(body);
            case "/Service" -> CoreHealth.service(body);
            default -> ConditionHealth.generic(body);
        };
    }
}
