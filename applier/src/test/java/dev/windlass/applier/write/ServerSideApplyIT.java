package dev.windlass.applier.write;

import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.forced;
import static dev.windlass.applier.support.Fixtures.manifest;
import static dev.windlass.applier.support.Fixtures.serverSide;
import static dev.windlass.applier.support.Fixtures.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.Applier;
import dev.windlass.applier.support.RealCluster;
import dev.windlass.kubetest.RequestCounts;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Server-side apply against a real API server: create, update, no-op without writes, conflicts and forcing. */
class ServerSideApplyIT {

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

    @Test void createsUpdatesAndSendsNothingWhenUnchanged() {
        String ns = cluster.newNamespace("ssa");

        ActionResult created = run(serverSide(create(RealCluster.NAME, deployment(ns, 2))));
        assertEquals(Outcome.Created, created.outcome(), created.message());
        Deployment live = live(ns);
        assertEquals(2, live.getSpec().getReplicas());
        assertEquals("windlass", live.getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
        assertTrue(live.getMetadata().getManagedFields().stream()
                .anyMatch(f -> f.getManager().equals("windlass") && f.getOperation().equals("Apply")), "owned by windlass through Apply");

        RequestCounts before = cluster.counts();
        ActionResult again = run(serverSide(update(RealCluster.NAME, deployment(ns, 2))));
        RequestCounts between = cluster.countsSince(before);
        assertEquals(Outcome.Unchanged, again.outcome(), again.message());
        assertEquals(0, between.writes("deployments"), between.samples().toString());

        ActionResult scaled = run(serverSide(update(RealCluster.NAME, deployment(ns, 3))));
        assertEquals(Outcome.Configured, scaled.outcome(), scaled.message());
        assertTrue(scaled.message().contains("spec.replicas"), scaled.message());
        assertEquals(3, live(ns).getSpec().getReplicas());
    }

    @Test void aCreateIsOneRequestAndAnObjectSomeoneMadeMeanwhileIsReportedAdopted() {
        String ns = cluster.newNamespace("create");
        RequestCounts before = cluster.counts();
        ActionResult created = run(serverSide(create(RealCluster.NAME, deployment(ns, 1))));
        RequestCounts between = cluster.countsSince(before);
        assertEquals(Outcome.Created, created.outcome(), created.message());
        assertEquals(1, between.writes("deployments"), between.samples().toString());
        assertEquals(0, between.count("GET", "deployments"), "no look before a create the plan decided: " + between.samples());

        // Created by hand (without the field Git sets) after the plan saw nothing there.
        String other = cluster.newNamespace("adopt");
        Deployment byHand = cluster.admin().getKubernetesSerialization().convertValue(deployment(other, 1).body(), Deployment.class);
        byHand.getSpec().setReplicas(null);
        cluster.admin().apps().deployments().inNamespace(other).resource(byHand).create();
        ActionResult adopted = run(serverSide(create(RealCluster.NAME, deployment(other, 1))));
        assertEquals(Outcome.Configured, adopted.outcome(), adopted.message());
        assertTrue(adopted.message().startsWith("adopted existing object"), adopted.message());
        assertEquals("windlass", cluster.admin().apps().deployments().inNamespace(other).withName("web").get()
                .getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
    }

    @Test void aFieldOwnedByAnotherManagerIsAConflictUntilForced() {
        String ns = cluster.newNamespace("conflict");
        Deployment byHand = cluster.admin().getKubernetesSerialization().convertValue(deployment(ns, 5).body(), Deployment.class);
        cluster.admin().apps().deployments().inNamespace(ns).resource(byHand).fieldManager("kubectl-edit").serverSideApply();

        ActionResult refused = run(serverSide(update(RealCluster.NAME, deployment(ns, 2))));

        assertEquals(Outcome.Failed, refused.outcome(), refused.message());
        assertFalse(refused.transientFailure(), "a conflict waits for a person");
        assertTrue(refused.message().contains("kubectl-edit") && refused.message().contains(".spec.replicas"), refused.message());
        assertEquals(5, live(ns).getSpec().getReplicas());

        ActionResult taken = run(forced(serverSide(update(RealCluster.NAME, deployment(ns, 2)))));

        assertEquals(Outcome.Configured, taken.outcome(), taken.message());
        assertEquals(2, live(ns).getSpec().getReplicas());
        List<ManagedFieldsEntry> owners = live(ns).getMetadata().getManagedFields();
        assertTrue(owners.stream().anyMatch(f -> f.getManager().equals("windlass")
                && f.getFieldsV1().getAdditionalProperties().toString().contains("f:replicas")), owners.toString());
    }

    private static ActionResult run(Action action) {
        List<ActionResult> results = applier.execute(new Stage("apply", "", List.of(action)));
        return results.get(0);
    }

    private static Deployment live(String ns) {
        return cluster.admin().apps().deployments().inNamespace(ns).withName("web").get();
    }

    static Manifest deployment(String ns, int replicas) {
        return manifest("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: %s}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers:
                      - name: web
                        image: nginx:1.27
                        ports: [{containerPort: 80}]
                """.formatted(ns, replicas));
    }
}
