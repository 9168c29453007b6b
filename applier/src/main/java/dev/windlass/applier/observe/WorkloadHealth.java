package dev.windlass.applier.observe;

import static dev.windlass.applier.observe.BodyFields.number;
import static dev.windlass.applier.observe.BodyFields.string;

import java.util.Map;

/** Deployments, StatefulSets and DaemonSets: healthy once the controller has rolled out the current spec. */
final class WorkloadHealth {

    private WorkloadHealth() {}

    static Assessment deployment(Map<String, Object> d) {
        if (BodyFields.isTrue(d, "spec", "paused")) return Assessment.suspended("Deployment is paused");
        if (stale(d)) {
            return Assessment.progressing("Waiting for rollout to finish: observed deployment generation less than desired generation");
        }
        boolean deadlineExceeded = BodyFields.condition(d, "Progressing")
                .map(c -> "ProgressDeadlineExceeded".equals(c.get("reason"))).orElse(false);
        if (deadlineExceeded) {
            return Assessment.degraded("Deployment \"" + string(d, "metadata", "name") + "\" exceeded its progress deadline");
        }
        long replicas = number(d, 1, "spec", "replicas");
        long updated = number(d, 0, "status", "updatedReplicas");
        long current = number(d, 0, "status", "replicas");
        long available = number(d, 0, "status", "availableReplicas");
        if (updated < replicas) {
            return Assessment.progressing("Waiting for rollout to finish: " + updated + " out of " + replicas
                    + " new replicas have been updated...");
        }
        if (current > updated) {
            return Assessment.progressing("Waiting for rollout to finish: " + (current - updated)
                    + " old replicas are pending termination...");
        }
        if (available < updated) {
            return Assessment.progressing("Waiting for rollout to finish: " + available + " of " + updated
                    + " updated replicas are available...");
        }
        return Assessment.HEALTHY;
    }

    static Assessment statefulSet(Map<String, Object> s) {
        if (stale(s)) return Assessment.progressing("Waiting for statefulset spec update to be observed...");
        long replicas = number(s, 1, "spec", "replicas");
        long ready = number(s, 0, "status", "readyReplicas");
        if (ready < replicas) return Assessment.progressing("Waiting for " + (replicas - ready) + " pods to be ready...");
        if ("OnDelete".equals(string(s, "spec", "updateStrategy", "type"))) return Assessment.HEALTHY;
        long updated = number(s, 0, "status", "updatedReplicas");
        long partition = number(s, 0, "spec", "updateStrategy", "rollingUpdate", "partition");
        if (partition > 0) {
            // Only pods at or above the partition ordinal are updated; the rest are meant to stay behind.
            long target = Math.max(replicas - partition, 0);
            return updated < target
                    ? Assessment.progressing("Waiting for partitioned roll out to finish: " + updated + " out of "
                            + target + " new pods have been updated...")
                    : Assessment.healthy("partitioned roll out complete: " + updated + " new pods have been updated...");
        }
        String updateRevision = string(s, "status", "updateRevision");
        if (!updateRevision.isEmpty() && !updateRevision.equals(string(s, "status", "currentRevision"))) {
            return Assessment.progressing("waiting for statefulset rolling update to complete " + updated
                    + " pods at revision " + updateRevision + "...");
        }
        return Assessment.HEALTHY;
    }

    static Assessment daemonSet(Map<String, Object> d) {
        if (stale(d)) return Assessment.progressing("Waiting for daemon set spec update to be observed...");
        // With OnDelete, pods change only when someone deletes them: there is no rollout to wait for.
        if ("OnDelete".equals(string(d, "spec", "updateStrategy", "type"))) return Assessment.HEALTHY;
        String name = string(d, "metadata", "name");
        long desired = number(d, 0, "status", "desiredNumberScheduled");
        long updated = number(d, 0, "status", "updatedNumberScheduled");
        long available = number(d, 0, "status", "numberAvailable");
        if (updated < desired) {
            return Assessment.progressing("Waiting for daemon set \"" + name + "\" rollout to finish: " + updated
                    + " out of " + desired + " new pods have been updated...");
        }
        if (available < desired) {
            return Assessment.progressing("Waiting for daemon set \"" + name + "\" rollout to finish: " + available
                    + " of " + desired + " updated pods are available...");
        }
        return Assessment.HEALTHY;
    }

    /** The controller has not yet seen the latest spec, so every other status field describes an older one. */
    private static boolean stale(Map<String, Object> o) {
        return number(o, 0, "status", "observedGeneration") < number(o, 0, "metadata", "generation");
    }
}
