package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An autoscaler owning a Deployment's replica count, on a real control plane: Git says one replica, a real
 * HorizontalPodAutoscaler (min 2) scales it to two through the real controller. Without ignoreDifferences that is
 * drift Windlass cannot correct without taking the field from the autoscaler; with it (by pointer or by the
 * autoscaler's field manager) Windlass leaves the count alone, also when it updates the Deployment for a change in Git.
 */
class IgnoreDifferencesIT {
    @TempDir Path dir;

    static String app(String ignore) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\nspec:\n  namespace: web\n"
                + "  placement: {clusterNames: [lab]}\n" + ignore;
    }

    static String manifests(String image) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: web, image: "%s", resources: {requests: {cpu: 100m}}}]}
                ---
                apiVersion: autoscaling/v2
                kind: HorizontalPodAutoscaler
                metadata: {name: web}
                spec:
                  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
                  minReplicas: 2
                  maxReplicas: 4
                  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]
                """.formatted(image);
    }

    static int replicas(TestFleet fleet) {
        try (KubernetesClient k = fleet.client("lab")) {
            return k.apps().deployments().inNamespace("web").withName("web").get().getSpec().getReplicas();
        }
    }

    /** Waits (real time) until the autoscaler has scaled the Deployment to its minimum, then lets the engine see it. */
    static void scaledByTheAutoscaler(TestFleet fleet) throws Exception {
        dev.windlass.kubetest.Await.until(Duration.ofSeconds(60), "the real autoscaler to scale web to minReplicas",
                () -> replicas(fleet), n -> n == 2);
        fleet.passAfter(Duration.ofSeconds(5));
    }

    TestFleet start(String ignore) throws Exception {
        TestFleet fleet = new TestFleet(dir, true);
        fleet.push("web with an autoscaler", c -> c.write("clusters/lab.yaml", fleet.clusterYaml("lab", "", 2, 0, ""))
                .write("apps/web/app.yaml", app(ignore)).write("apps/web/manifests/web.yaml", manifests("web:1")));
        fleet.pass();
        scaledByTheAutoscaler(fleet);
        return fleet;
    }

    @Test void withoutTheRuleTheAutoscalersCountIsDriftThatWindlassMayNotTake() throws Exception {
        try (TestFleet fleet = start("")) {
            // The pass that saw the autoscaler's count tried to take it back, and the server refused: it waits its turn.
            PassReport waiting = fleet.pass();
            assertTrue(waiting.plan().held().stream().anyMatch(h -> h.action().fields().contains("spec.replicas")
                    && h.reason().text().startsWith("backing off: the same writes failed 1 time (refused by the cluster); next try at ")),
                    "the refused write waits its turn:\n" + waiting.plan());
            PassReport r = fleet.passAfter(Duration.ofSeconds(10));
            assertTrue(r.plan().actions().stream().anyMatch(a -> a.fields().contains("spec.replicas")), "drift on spec.replicas:\n" + r.plan());
            assertTrue(r.applied().results().stream().anyMatch(x -> !x.succeeded() && x.message().startsWith("conflict:")),
                    "the autoscaler owns the field: a conflict, reported, not forced: " + r.applied().results());
            assertEquals(2, replicas(fleet));
        }
    }

    @Test void aJsonPointerLeavesTheCountToTheAutoscalerAlsoWhenGitChanges() throws Exception {
        ignored("  ignoreDifferences:\n  - {group: apps, kind: Deployment, jsonPointers: [/spec/replicas]}\n");
    }

    @Test void theAutoscalersFieldManagerLeavesTheCountToItToo() throws Exception {
        ignored("  ignoreDifferences:\n  - {group: apps, kind: Deployment, managedFieldsManagers: [kube-controller-manager]}\n");
    }

    private void ignored(String rule) throws Exception {
        try (TestFleet fleet = start(rule)) {
            fleet.backend.resetWrites("lab");
            for (int i = 0; i < 3; i++) {
                PassReport idle = fleet.pass();
                assertFalse(idle.plan().hasChanges(), "no drift:\n" + idle.plan());
            }
            assertEquals(0, fleet.backend.writes("lab"));
            assertEquals(dev.windlass.policy.state.Sync.Synced, fleet.engine.reconciler().state().apps().get("web").target("lab").sync());

            fleet.push("web 2", c -> c.write("apps/web/manifests/web.yaml", manifests("web:2")));
            PassReport updated = fleet.pass();
            assertTrue(updated.applied().results().stream().allMatch(x -> x.succeeded()), updated.applied().results().toString());
            try (KubernetesClient k = fleet.client("lab")) {
                var d = k.apps().deployments().inNamespace("web").withName("web").get();
                assertEquals("web:2", d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage(), "Git's change applied");
                assertEquals(2, d.getSpec().getReplicas(), "the autoscaler's count kept");
            }
        }
    }
}
