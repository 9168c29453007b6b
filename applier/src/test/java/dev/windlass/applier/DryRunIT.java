package dev.windlass.applier;

import static dev.windlass.applier.support.Fixtures.configMap;
import static dev.windlass.applier.support.Fixtures.create;
import static dev.windlass.applier.support.Fixtures.delete;
import static dev.windlass.applier.support.Fixtures.manifest;
import static dev.windlass.applier.support.Fixtures.serverSide;
import static dev.windlass.applier.support.Fixtures.update;
import static dev.windlass.applier.support.Fixtures.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.applier.cluster.ClusterClients;
import dev.windlass.applier.support.RealCluster;
import dev.windlass.kubetest.RequestCounts;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.plan.Stage;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Server-side dry-run: the API server says what each action would do, or why it would refuse it, and stores nothing. */
class DryRunIT {

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

    @Test void saysWhatWouldHappenAndWritesNothing() {
        String ns = cluster.newNamespace("dry");
        applier.execute(new Stage("apply", "", List.of(
                serverSide(create(RealCluster.NAME, configMap(ns, "same", "1"))),
                serverSide(create(RealCluster.NAME, configMap(ns, "changed", "1"))),
                serverSide(create(RealCluster.NAME, configMap(ns, "doomed", "1"))))));
        var invalid = manifest("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: broken, namespace: %s}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: other}}
                    spec: {containers: [{name: web, image: nginx}]}
                """.formatted(ns));
        Stage stage = new Stage("apply", "", List.of(
                serverSide(create(RealCluster.NAME, configMap(ns, "fresh", "1"))),
                serverSide(create(RealCluster.NAME, invalid)),
                serverSide(update(RealCluster.NAME, configMap(ns, "same", "1"))),
                serverSide(update(RealCluster.NAME, configMap(ns, "changed", "2"))),
                delete(RealCluster.NAME, configMap(ns, "doomed", "1").ref())));
        RequestCounts before = cluster.counts();

        List<ActionResult> results = applier.dryRun(stage, Set.of(RealCluster.NAME));

        RequestCounts between = cluster.countsSince(before);
        assertEquals(List.of(Outcome.Created, Outcome.Failed, Outcome.Unchanged, Outcome.Configured, Outcome.Deleted),
                results.stream().map(ActionResult::outcome).toList(), results.toString());
        assertTrue(results.get(0).message().startsWith("dry run: "), results.get(0).message());
        assertTrue(results.get(1).message().contains("spec.template.metadata.labels: Invalid value"), results.get(1).message());
        assertFalse(results.get(1).transientFailure());
        assertTrue(results.get(3).message().contains("data.key"), results.get(3).message());
        assertEquals(0, between.writes(), between.samples().toString());
        assertTrue(between.dryRuns("configmaps") >= 3, between.samples().toString());
        var k = cluster.admin();
        assertNull(k.configMaps().inNamespace(ns).withName("fresh").get(), "nothing created");
        assertNull(k.apps().deployments().inNamespace(ns).withName("broken").get());
        assertEquals("1", k.configMaps().inNamespace(ns).withName("changed").get().getData().get("key"), "nothing changed");
        assertNotNull(k.configMaps().inNamespace(ns).withName("doomed").get(), "nothing deleted");
    }

    @Test void whatNeedsANamespaceOrKindThisStageCreatesIsSkippedNotFailed() {
        String ns = "dry-new-namespace";
        var namespace = manifest(yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}\n"), true);
        Stage stage = new Stage("apply", "", List.of(
                serverSide(create(RealCluster.NAME, namespace)),
                serverSide(create(RealCluster.NAME, CustomResourcesIT.crd("dryruns.windlass.example", "DryRun", "dryruns"))),
                serverSide(create(RealCluster.NAME, configMap(ns, "inside", "1"))),
                serverSide(create(RealCluster.NAME, manifest("""
                        apiVersion: windlass.example/v1
                        kind: DryRun
                        metadata: {name: one, namespace: default}
                        """)))));

        List<ActionResult> results = applier.dryRun(stage, Set.of(RealCluster.NAME));

        assertEquals(List.of(Outcome.Created, Outcome.Created, Outcome.Skipped, Outcome.Skipped),
                results.stream().map(ActionResult::outcome).toList(), results.toString());
        assertEquals("not checked: namespace dry-new-namespace does not exist yet (this stage creates it first)",
                results.get(2).message());
        assertTrue(results.get(3).message().contains("CustomResourceDefinition"), results.get(3).message());
        assertNull(cluster.admin().namespaces().withName(ns).get(), "nothing created");
    }

    @Test void clustersWithoutServerSideApplyAnswerSkipped() {
        ClusterClients clients = new ClusterClients();
        clients.register("sandbox", cluster.server().config(), false);
        try (Applier sandboxApplier = new Applier(clients)) {
            List<ActionResult> results = sandboxApplier.dryRun(
                    new Stage("apply", "", List.of(create("sandbox", configMap("default", "x", "1")))), Set.of("sandbox"));

            assertEquals(Outcome.Skipped, results.get(0).outcome());
            assertEquals("dry-run not supported by this cluster", results.get(0).message());
        }
    }
}
