package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.policy.state.TargetStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Manifests nobody here wrote (Online Boutique, podinfo), each folder as one application on a sandbox
 * cluster: every object is created, and the application is reported Healthy once the simulator has
 * made its workloads ready. A second pass then writes nothing.
 */
class RealWorldManifestsE2E {
    @TempDir Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"online-boutique", "podinfo", "podinfo-database"})
    void appliesEveryObjectAndReportsHealthy(String folder) throws Exception {
        Path manifests = RealWorldFixtures.folder().resolve(folder);
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("add " + folder, c -> TestFleet.folder(manifests, "apps/" + folder + "/manifests/").apply(c
                    .write("clusters/lab.yaml", """
                            apiVersion: windlass.dev/v1alpha1
                            kind: Cluster
                            metadata: {name: lab, labels: {env: lab}}
                            spec: {connection: {sandbox: {nodes: 2}}}
                            """)
                    .write("apps/" + folder + "/app.yaml", """
                            apiVersion: windlass.dev/v1alpha1
                            kind: Application
                            metadata: {name: %s}
                            spec:
                              namespace: %s
                              placement: {clusterNames: [lab]}
                            """.formatted(folder, folder))));
            PassReport first = fleet.pass();
            assertEquals(java.util.List.of(), first.desired().diagnostics().stream().filter(d -> d.isError()).toList());
            var app = first.desired().apps().get(folder);
            long objects = app.manifests().stream().filter(m -> !m.implicit()).count();
            assertTrue(objects >= 3, folder + " has " + objects + " objects");
            assertTrue(first.applied().results().stream().allMatch(r -> r.outcome() == Outcome.Created),
                    first.applied().results().toString());
            fleet.settle();

            try (KubernetesClient k = fleet.cluster("lab").newClient()) {
                for (Manifest m : app.manifests()) {
                    GenericKubernetesResource live = k.genericKubernetesResources(m.apiVersion(), m.ref().kind())
                            .inNamespace(m.ref().namespace()).withName(m.ref().name()).get();
                    assertNotNull(live, m.ref() + " on the cluster");
                }
            }
            AppStatus status = fleet.engine.reconciler().state().apps().get(folder);
            TargetStatus lab = status.target("lab");
            assertEquals("Healthy", lab.health(), lab.toString());
            assertEquals("Synced", lab.sync(), lab.toString());
            assertEquals(objects, lab.inventory().size(), "every object is in the inventory");

            fleet.resetRequestCounts();
            PassReport again = fleet.pass();
            assertEquals(0, fleet.writes(), "re-apply of unchanged manifests writes nothing");
            assertTrue(!again.committed());
        }
    }
}
