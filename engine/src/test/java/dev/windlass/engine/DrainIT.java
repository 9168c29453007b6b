package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.state.RemediationRecord;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CordonAndDrain on a real control plane: a worker whose kubelet stopped is marked, then cordoned and drained through
 * the eviction API, with the application's PodDisruptionBudget, computed by the real disruption controller, deciding
 * which Pods may go; when its kubelet is back and it has been healthy for minHealthyPeriodSeconds, it is uncordoned.
 * The sandbox does not bind Pods to nodes, so this runs on real control planes only.
 */
class DrainIT {
    @TempDir Path dir;

    static String app(int minAvailable) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  replicas: 3
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      topologySpreadConstraints:
                      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}
                      containers: [{name: web, image: "ghcr.io/example/web:1.4.2"}]
                ---
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata: {name: web}
                spec: {minAvailable: %d, selector: {matchLabels: {app: web}}}
                """.formatted(minAvailable);
    }

    static final String POLICY = """
            apiVersion: windlass.dev/v1alpha1
            kind: RemediationPolicy
            metadata: {name: workers}
            spec:
              clusterSelector: {matchLabels: {env: prod}}
              target: {apiVersion: v1, kind: Node}
              checks:
                unhealthyConditions:
                  - {type: Ready, status: Unknown, timeoutSeconds: 60}
              remediation: {action: CordonAndDrain, maxInFlight: 1, maxRetry: 2, retryPeriodSeconds: 60}
            """;

    TestFleet start(int minAvailable) throws Exception {
        TestFleet fleet = new TestFleet(dir, true);
        fleet.push("shop on three workers, and a drain policy", c -> c
                .write("clusters/w.yaml", fleet.clusterYaml("w", "env: prod", 3, 0, ""))
                .write("apps/shop/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: shop}\n"
                        + "spec:\n  namespace: shop\n  placement: {clusterNames: [w]}\n")
                .write("apps/shop/manifests/web.yaml", app(minAvailable))
                .write("policies/remediation.yaml", POLICY));
        fleet.settle();
        assertEquals(dev.windlass.policy.state.Health.Healthy, fleet.engine.reconciler().state().apps().get("shop").target("w").health());
        return fleet;
    }

    static List<Pod> webPods(TestFleet fleet, String node) {
        try (KubernetesClient k = fleet.client("w")) {
            return k.pods().inNamespace("shop").withLabel("app", "web").list().getItems().stream()
                    .filter(p -> node.equals(p.getSpec().getNodeName())).toList();
        }
    }

    static RemediationRecord record(TestFleet fleet, String node) throws Exception {
        return fleet.engine.reconciler().state().clusters().get("w").remediationRecords().stream()
                .filter(r -> r.target().equals("Node " + node)).findFirst().orElseThrow();
    }

    static String story(TestFleet fleet) throws Exception {
        return String.join("\n----\n", fleet.statusLog().stream().map(RevCommit::getFullMessage).toList());
    }

    @Test void aWorkerWhoseKubeletStoppedIsCordonedAndDrainedItsPodsRunElsewhereAndItIsUncordonedOnceBack() throws Exception {
        try (TestFleet fleet = start(2)) {
            assertEquals(1, webPods(fleet, "w-worker-1").size(), "one web Pod per worker");
            fleet.backend.nodeReady("w", "w-worker-1", false);
            for (int i = 0; i < 8 && !RemediationRecord.State.Remediating.equals(record(fleet, "w-worker-1").state()); i++) fleet.passAfter(java.time.Duration.ofSeconds(15));

            RemediationRecord r = record(fleet, "w-worker-1");
            assertEquals(RemediationRecord.State.Remediating, r.state(), r.toString());
            assertEquals(1, r.attempts());
            try (KubernetesClient k = fleet.client("w")) {
                var node = k.nodes().withName("w-worker-1").get();
                assertEquals(Boolean.TRUE, node.getSpec().getUnschedulable(), "cordoned");
                assertTrue(node.getMetadata().getAnnotations().get("windlass.dev/unhealthy").startsWith("Ready=Unknown for "));
            }
            assertTrue(webPods(fleet, "w-worker-1").stream().allMatch(p -> p.getMetadata().getDeletionTimestamp() != null),
                    "evicted (its kubelet is gone, so it stays terminating)");
            for (int i = 0; i < 10 && fleet.engine.reconciler().state().apps().get("shop").target("w").health() != dev.windlass.policy.state.Health.Healthy; i++) {
                fleet.passLater();
            }
            assertEquals(dev.windlass.policy.state.Health.Healthy, fleet.engine.reconciler().state().apps().get("shop").target("w").health(), "the replacement runs on another worker");
            try (KubernetesClient k = fleet.client("w")) {
                assertEquals(3, k.apps().deployments().inNamespace("shop").withName("web").get().getStatus().getAvailableReplicas());
            }
            assertTrue(story(fleet).contains("w: Node w-worker-1 marked unhealthy (Ready=Unknown for"), story(fleet));
            assertTrue(story(fleet).contains("CordonAndDrain attempt 1 of 2"), story(fleet));

            // Its kubelet comes back: the node stays cordoned, and marked, until it has been healthy for minHealthyPeriodSeconds.
            fleet.backend.nodeReady("w", "w-worker-1", true);
            fleet.passAfter(java.time.Duration.ofSeconds(15));
            assertEquals(RemediationRecord.State.Healthy, record(fleet, "w-worker-1").state(), record(fleet, "w-worker-1").toString());
            assertTrue(cordoned(fleet, "w-worker-1"), "healthy for less than minHealthyPeriodSeconds: still cordoned");
            fleet.passAfter(java.time.Duration.ofSeconds(3600));
            try (KubernetesClient k = fleet.client("w")) {
                var node = k.nodes().withName("w-worker-1").get();
                assertTrue(!Boolean.TRUE.equals(node.getSpec().getUnschedulable()), "healthy for an hour: uncordoned");
                assertTrue(node.getMetadata().getAnnotations() == null || !node.getMetadata().getAnnotations().containsKey("windlass.dev/unhealthy"),
                        "and unmarked: " + node.getMetadata().getAnnotations());
            }
            assertEquals(0, record(fleet, "w-worker-1").attempts(), "a fresh retry sequence");
            assertTrue(story(fleet).contains("w: Node w-worker-1 uncordoned and unmarked: healthy for 1h"), story(fleet));
        }
    }

    static boolean cordoned(TestFleet fleet, String node) {
        try (KubernetesClient k = fleet.client("w")) {
            return Boolean.TRUE.equals(k.nodes().withName(node).get().getSpec().getUnschedulable());
        }
    }

    @Test void aBudgetThatCannotSpareAPodHoldsTheDrainAndItIsGivenUpAfterMaxRetry() throws Exception {
        try (TestFleet fleet = start(3)) {
            fleet.backend.nodeReady("w", "w-worker-1", false);
            String failed = null;
            for (int i = 0; i < 30 && !RemediationRecord.State.GaveUp.equals(record(fleet, "w-worker-1").state()); i++) {
                fleet.passAfter(java.time.Duration.ofSeconds(15));
                if (failed == null && record(fleet, "w-worker-1").message().contains("failed")) failed = record(fleet, "w-worker-1").message();
            }
            assertTrue(failed != null && failed.startsWith("CordonAndDrain attempt 1 of 2 failed: evicted 0 pods; a PodDisruptionBudget does not allow evicting shop/web-"),
                    "the record says why the attempt did nothing: " + failed);

            RemediationRecord r = record(fleet, "w-worker-1");
            assertEquals(RemediationRecord.State.GaveUp, r.state(), r.toString());
            assertEquals(2, r.attempts());
            assertTrue(webPods(fleet, "w-worker-1").stream().allMatch(p -> p.getMetadata().getDeletionTimestamp() == null),
                    "the budget (3 of 3 must be available, 2 are) never let the Pod go");
            String story = story(fleet);
            assertTrue(story.contains("w: remediation Drain Node w-worker-1 on w failed: evicted 0 pods; a PodDisruptionBudget does not allow evicting shop/"),
                    "the failure reaches the status branch: " + story);
        }
    }
}
