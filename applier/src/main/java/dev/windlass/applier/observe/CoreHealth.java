package dev.windlass.applier.observe;

import static dev.windlass.applier.observe.BodyFields.string;

import dev.windlass.policy.state.Health;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Pods, PersistentVolumeClaims and Services: core kinds whose health shows in a phase or an address. */
final class CoreHealth {

    /** Waiting reasons that will not clear by themselves: the image or the container config needs fixing. */
    private static final Set<String> STUCK = Set.of("CrashLoopBackOff", "ErrImagePull", "ImagePullBackOff",
            "InvalidImageName", "CreateContainerConfigError", "CreateContainerError");

    private CoreHealth() {}

    static Assessment pod(Map<String, Object> p) {
        String phase = string(p, "status", "phase");
        String said = string(p, "status", "message");
        if (phase.equals("Succeeded")) return Assessment.healthy(said);
        if (phase.equals("Failed")) return Assessment.degraded(said.isEmpty() ? "Pod failed" : said);
        List<Map<String, Object>> statuses = new ArrayList<>(BodyFields.maps(p, "status", "initContainerStatuses"));
        statuses.addAll(BodyFields.maps(p, "status", "containerStatuses"));
        for (Map<String, Object> c : statuses) {
            String reason = string(c, "state", "waiting", "reason");
            if (STUCK.contains(reason)) {
                String detail = string(c, "state", "waiting", "message");
                return Assessment.degraded("container " + string(c, "name") + ": " + reason
                        + (detail.isEmpty() ? "" : ": " + detail));
            }
        }
        if (phase.equals("Running")) {
            List<Map<String, Object>> containers = BodyFields.maps(p, "status", "containerStatuses");
            boolean allReady = !containers.isEmpty() && containers.stream().allMatch(c -> BodyFields.isTrue(c, "ready"));
            String restartPolicy = string(p, "spec", "restartPolicy");
            boolean restartsAlways = restartPolicy.isEmpty() || restartPolicy.equals("Always");
            if (allReady || restartsAlways && BodyFields.conditionIs(p, "Ready", "True")) return Assessment.HEALTHY;
            return Assessment.progressing("Waiting for containers to become ready");
        }
        if (phase.isEmpty() || phase.equals("Pending")) {
            return Assessment.progressing(said.isEmpty() ? "Pod is pending" : said);
        }
        return new Assessment(Health.Unknown, "Pod phase " + phase);
    }

    static Assessment persistentVolumeClaim(Map<String, Object> c) {
        return switch (string(c, "status", "phase")) {
            case "Bound" -> Assessment.HEALTHY;
            case "Lost" -> Assessment.degraded("The claim lost its volume");
            case "", "Pending" -> Assessment.progressing("Waiting for the claim to be bound");
            default -> new Assessment(Health.Unknown, "Claim phase " + string(c, "status", "phase"));
        };
    }

    static Assessment service(Map<String, Object> s) {
        boolean loadBalancer = "LoadBalancer".equals(string(s, "spec", "type"));
        if (loadBalancer && BodyFields.maps(s, "status", "loadBalancer", "ingress").isEmpty()) {
            return Assessment.progressing("Waiting for the load balancer to get an address");
        }
        return Assessment.HEALTHY;
    }
}
