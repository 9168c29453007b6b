package dev.windlass.applier.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.Applier;
import dev.windlass.applier.support.RealCluster;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedTarget;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Operation;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Remediation actions against a real API server: the mark and the cordon as merge patches on a Node Windlass does
 * not manage, and a drain through the eviction API, where a PodDisruptionBudget keeps a pod that may not go.
 */
class RemediationActionsIT {

    private static RealCluster cluster;
    private static Applier applier;

    @BeforeAll static void start() {
        cluster = RealCluster.start();
        applier = cluster.newApplier();
    }

    @AfterAll static void stop() {
        applier.close();
        cluster.close();
    }

    static Action action(Operation op, ObjectRef ref, String apiVersion, Map<String, Object> patch) {
        Manifest body = patch == null ? null : new Manifest(ref, apiVersion, patch, null, "", 0, Manifest.ApplyMode.ALWAYS,
                Manifest.GcPolicy.NEVER, false);
        return new Action("", RealCluster.NAME, ref, apiVersion, op, "remediation test", List.of(), body, Application.ApplyStrategy.ClientSide, false);
    }

    @Test void markCordonAndDrainANodeWhileADisruptionBudgetHolds() {
        String ns = cluster.newNamespace("drain");
        cluster.admin().nodes().resource(new NodeBuilder().withNewMetadata().withName("worker-7")
                .withLabels(Map.of("node-role.kubernetes.io/worker", "")).endMetadata().build()).create();
        for (String name : List.of("web-1", "web-2", "db-1")) {
            cluster.admin().pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName(name)
                    .withLabels(Map.of("app", name.substring(0, name.indexOf('-')))).endMetadata()
                    .withNewSpec().withNodeName("worker-7").addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
                    .build()).create();
        }
        // A Pending pod may always be evicted; db-1 runs, as a kubelet would report it.
        var db = cluster.admin().pods().inNamespace(ns).withName("db-1").get();
        db.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running")
                .addNewCondition().withType("Ready").withStatus("True").endCondition().build());
        cluster.admin().pods().inNamespace(ns).resource(db).updateStatus();
        // No disruption controller runs here: the budget allows no disruption, so db-1 may not be evicted.
        cluster.admin().policy().v1().podDisruptionBudget().inNamespace(ns).resource(new PodDisruptionBudgetBuilder()
                .withNewMetadata().withName("db").endMetadata()
                .withNewSpec().withMinAvailable(new IntOrString(1)).withNewSelector().withMatchLabels(Map.of("app", "db")).endSelector().endSpec()
                .build()).create();

        ObjectRef node = new ObjectRef("", "Node", "", "worker-7");
        List<ActionResult> results = applier.execute(new Stage("remediate", "", List.of(
                action(Operation.Patch, node, "v1", Map.of("metadata", Map.of("annotations", Map.of("windlass.dev/unhealthy", "Ready=False for 5m")))),
                action(Operation.Patch, node, "v1", Map.of("spec", Map.of("unschedulable", true))),
                action(Operation.Drain, node, "v1", null))));

        assertEquals(Outcome.Configured, results.get(0).outcome(), results.get(0).message());
        assertEquals(Outcome.Configured, results.get(1).outcome(), results.get(1).message());
        var live = cluster.admin().nodes().withName("worker-7").get();
        assertEquals("Ready=False for 5m", live.getMetadata().getAnnotations().get("windlass.dev/unhealthy"));
        assertTrue(live.getSpec().getUnschedulable());

        ActionResult drain = results.get(2);
        assertFalse(drain.succeeded(), drain.message());
        assertTrue(drain.transientFailure(), "a budget may allow it later: retried");
        assertEquals("evicted 2 pods; a PodDisruptionBudget does not allow evicting " + ns + "/db-1 now", drain.message());
        for (String evicted : List.of("web-1", "web-2")) {
            var pod = cluster.admin().pods().inNamespace(ns).withName(evicted).get();
            assertTrue(pod == null || pod.getMetadata().getDeletionTimestamp() != null, evicted + " is being evicted (no kubelet here finishes it)");
        }
        assertNull(cluster.admin().pods().inNamespace(ns).withName("db-1").get().getMetadata().getDeletionTimestamp(), "the budget holds");

        // The observer sees the node as a remediation target, with its mark and its cordon.
        var observed = applier.observe(Map.of(RealCluster.NAME, Set.of()), Map.of(RealCluster.NAME, Set.of(new KindRef("v1", "Node"))));
        ObservedTarget t = observed.cluster(RealCluster.NAME).targets().get(new KindRef("v1", "Node")).stream()
                .filter(x -> x.name().equals("worker-7")).findFirst().orElseThrow();
        assertEquals("Ready=False for 5m", t.annotations().get("windlass.dev/unhealthy"));
        assertTrue(t.unschedulable());
        assertFalse(t.createdAt().isEmpty());
    }
}
