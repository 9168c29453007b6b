package dev.windlass.applier.write;

import dev.windlass.policy.plan.ActionReason;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import dev.windlass.kubetest.Await;
import java.time.Duration;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Remediation actions on a real control plane: the mark and the cordon as merge patches on a Node Windlass does not
 * manage, and a drain through the eviction API, where a PodDisruptionBudget that the real disruption controller keeps
 * up to date holds a Pod that may not go. Every Pod is scheduled by the scheduler and run by a kwok kubelet; nothing
 * here writes a status.
 */
class RemediationActionsIT {

    private static RealCluster cluster;
    private static Applier applier;

    @BeforeAll static void start() {
        cluster = RealCluster.withNodes("worker-7", "worker-8");
        applier = cluster.newApplier();
    }

    @AfterAll static void stop() {
        applier.close();
        cluster.close();
    }

    static Action action(Operation op, ObjectRef ref, String apiVersion, Map<String, Object> patch) {
        Manifest body = patch == null ? null : new Manifest(ref, apiVersion, patch, null, "", 0, Manifest.ApplyMode.ALWAYS,
                Manifest.GcPolicy.NEVER, false);
        return new Action("", RealCluster.NAME, ref, apiVersion, op, new ActionReason.Remediation("test", ActionReason.Step.Delete, "a test"), List.of(), body, Application.ApplyStrategy.ClientSide, false);
    }

    /** A Deployment whose Pods the scheduler places on worker-7 (a user pinning them there). */
    static void onWorker7(String ns, String app, int replicas) {
        cluster.admin().apps().deployments().inNamespace(ns).resource(new DeploymentBuilder()
                .withNewMetadata().withName(app).endMetadata()
                .withNewSpec().withReplicas(replicas).withNewSelector().withMatchLabels(Map.of("app", app)).endSelector()
                .withNewTemplate().withNewMetadata().withLabels(Map.of("app", app)).endMetadata()
                .withNewSpec().withNodeSelector(Map.of("kubernetes.io/hostname", "worker-7"))
                .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
                .endTemplate().endSpec().build()).create();
    }

    @Test void markCordonAndDrainANodeWhileADisruptionBudgetHolds() {
        String ns = cluster.newNamespace("drain");
        onWorker7(ns, "web", 2);
        onWorker7(ns, "db", 1);
        cluster.admin().policy().v1().podDisruptionBudget().inNamespace(ns).resource(new PodDisruptionBudgetBuilder()
                .withNewMetadata().withName("db").endMetadata()
                .withNewSpec().withMinAvailable(new IntOrString(1)).withNewSelector().withMatchLabels(Map.of("app", "db")).endSelector().endSpec()
                .build()).create();
        Await.until(Duration.ofSeconds(60), "three Pods running on worker-7 and the budget computed",
                () -> cluster.admin().policy().v1().podDisruptionBudget().inNamespace(ns).withName("db").get(),
                b -> b.getStatus() != null && b.getStatus().getCurrentHealthy() == 1
                        && cluster.admin().pods().inNamespace(ns).list().getItems().stream().filter(p -> p.getStatus() != null
                                && "Running".equals(p.getStatus().getPhase())).count() == 3);
        String db = cluster.admin().pods().inNamespace(ns).withLabel("app", "db").list().getItems().get(0).getMetadata().getName();

        ObjectRef node = new ObjectRef("", "Node", "", "worker-7");
        List<ActionResult> results = applier.execute(new Stage("remediate", "", List.of(
                action(Operation.Patch, node, "v1", Map.of("metadata", Map.of("annotations", Map.of("windlass.dev/unhealthy", "Ready=Unknown for 5m")))),
                action(Operation.Patch, node, "v1", Map.of("spec", Map.of("unschedulable", true))),
                action(Operation.Drain, node, "v1", null))));

        assertEquals(Outcome.Configured, results.get(0).outcome(), results.get(0).message());
        assertEquals(Outcome.Configured, results.get(1).outcome(), results.get(1).message());
        var live = cluster.admin().nodes().withName("worker-7").get();
        assertEquals("Ready=Unknown for 5m", live.getMetadata().getAnnotations().get("windlass.dev/unhealthy"));
        assertTrue(live.getSpec().getUnschedulable());

        ActionResult drain = results.get(2);
        assertFalse(drain.succeeded(), drain.message());
        assertTrue(drain.transientFailure(), "a budget may allow it later: retried");
        assertEquals("evicted 2 pods; a PodDisruptionBudget does not allow evicting " + ns + "/" + db + " now", drain.message());
        Await.until(Duration.ofSeconds(30), "web's Pods evicted and gone", () -> cluster.admin().pods().inNamespace(ns).withLabel("app", "web")
                .list().getItems().stream().filter(p -> "worker-7".equals(p.getSpec().getNodeName())).count(), n -> n == 0);
        assertNull(cluster.admin().pods().inNamespace(ns).withName(db).get().getMetadata().getDeletionTimestamp(), "the budget holds");

        // The observer sees the node as a remediation target, with its mark and its cordon.
        var observed = applier.observe(Map.of(RealCluster.NAME, Set.of()), Map.of(RealCluster.NAME, Set.of(new KindRef("v1", "Node"))));
        ObservedTarget t = observed.cluster(RealCluster.NAME).targets().get(new KindRef("v1", "Node")).stream()
                .filter(x -> x.name().equals("worker-7")).findFirst().orElseThrow();
        assertEquals("Ready=Unknown for 5m", t.annotations().get("windlass.dev/unhealthy"));
        assertTrue(t.unschedulable());
        assertFalse(t.createdAt().isEmpty());
    }
}
