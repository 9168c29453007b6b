package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.kubetest.KubeCluster;
import dev.windlass.kubetest.RequestCounts;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.state.TargetStatus;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Manifests nobody here wrote, each set as one application, on a real control plane (API server, controller-manager,
 * scheduler, kwok nodes) reached through a kubeconfig with server-side apply: every object applies, the application
 * becomes Healthy through the real controllers (a LoadBalancer Service stays Progressing: no cloud gives it an
 * address here), and five idle passes after that write nothing, as the API server itself counts.
 */
class RealWorldSetsIT {
    static final int IDLE_PASSES = 5;

    static KubeCluster cluster;
    static KubernetesClient admin;

    @BeforeAll static void start() {
        cluster = KubeCluster.start(2);
        admin = cluster.newClient();
    }

    @AfterAll static void stop() {
        admin.close();
        cluster.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"online-boutique", "podinfo", "podinfo-database", "ingress-nginx", "kube-prometheus", "cert-manager-crds"})
    void appliesBecomesHealthyAndThenWritesNothing(String set, @TempDir Path dir) throws Exception {
        Path kubeconfig = cluster.kubeconfig(dir.resolve("lab.kubeconfig"));
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("add " + set, c -> TestFleet.folder(RealWorldFixtures.folder().resolve(set), "apps/" + set + "/manifests/").apply(c
                    .write("clusters/lab.yaml", """
                            apiVersion: windlass.dev/v1alpha1
                            kind: Cluster
                            metadata: {name: lab}
                            spec: {connection: {kubeconfig: {path: "%s"}}}
                            """.formatted(kubeconfig))
                    .write("apps/" + set + "/app.yaml", """
                            apiVersion: windlass.dev/v1alpha1
                            kind: Application
                            metadata: {name: %s}
                            spec:
                              namespace: %s
                              placement: {clusterNames: [lab]}
                            """.formatted(set, set))));

            PassReport first = fleet.pass();
            assertEquals(List.of(), first.desired().diagnostics().stream().filter(d -> d.isError()).toList());
            Application app = first.desired().apps().get(set);
            List<ActionResult> notCreated = first.applied().results().stream().filter(r -> r.outcome() != Outcome.Created).toList();
            assertEquals(List.of(), notCreated, "every object is created server-side");

            TargetStatus lab = settled(fleet, set);
            assertEquals("Synced", lab.sync(), lab.toString());
            if (servesALoadBalancer(app)) {
                assertEquals("Progressing", lab.health(), lab.toString());
                assertTrue(lab.message().contains("Waiting for the load balancer to get an address"), lab.message());
            } else {
                assertEquals("Healthy", lab.health(), lab.toString());
            }

            Set<String> resources = resourcesOf(app);
            RequestCounts before = cluster.requestCounts();
            for (int i = 0; i < IDLE_PASSES; i++) {
                PassReport idle = fleet.pass();
                assertFalse(idle.plan().hasChanges(), "idle pass " + i + " plans nothing:\n" + idle.plan());
                assertFalse(idle.committed(), "idle pass " + i + " records nothing");
            }
            RequestCounts idle = cluster.requestCounts().since(before);
            List<String> written = new ArrayList<>();
            for (String r : resources) if (idle.objectWrites(r) > 0) written.add(r + ": " + idle.objectWrites(r));
            assertEquals(List.of(), written, "writes to " + resources + " over " + IDLE_PASSES + " idle passes");
        }
    }

    /**
     * Runs passes as real time goes by until the application is in sync and no longer progressing, except for what no
     * controller here can finish (a load balancer's address), or a minute has passed.
     */
    private static TargetStatus settled(TestFleet fleet, String app) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        TargetStatus lab = null;
        PassReport r = null;
        while (System.nanoTime() < deadline) {
            r = fleet.pass();
            lab = fleet.engine.reconciler().state().apps().get(app).target("lab");
            boolean waitingOnlyForAnAddress = lab.message().contains("load balancer");
            if (!r.plan().hasChanges() && "Synced".equals(lab.sync()) && ("Healthy".equals(lab.health()) || waitingOnlyForAnAddress)) {
                return lab;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("did not settle within 90 s: " + lab.sync() + ", " + lab.health() + " " + lab.message()
                + "; the last pass planned:\n" + r.plan().stages());
    }

    private static boolean servesALoadBalancer(Application app) {
        return app.manifests().stream().anyMatch(m -> m.ref().kind().equals("Service")
                && m.body().get("spec") instanceof java.util.Map<?, ?> spec && "LoadBalancer".equals(spec.get("type")));
    }

    /** The plural resource names of every kind the set declares, as the API server's discovery names them, and inventories. */
    private static Set<String> resourcesOf(Application app) {
        Set<String> out = new TreeSet<>(List.of("configmaps", "namespaces"));
        for (Manifest m : app.manifests()) {
            for (APIResource r : admin.getApiResources(m.apiVersion()).getResources()) {
                if (r.getKind().equals(m.ref().kind()) && !r.getName().contains("/")) out.add(r.getName());
            }
        }
        return out;
    }
}
