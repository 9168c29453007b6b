package dev.windlass.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.Outcome;
import dev.windlass.policy.state.TargetStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;

/**
 * Manifests nobody here wrote, one set as one application on one cluster: every object is created, the application
 * becomes Healthy once its workloads are ready (simulated on the sandbox, by the real controllers on a control plane,
 * where a LoadBalancer Service stays Progressing: no cloud gives it an address), and five idle passes after that plan
 * nothing, record nothing and write nothing, as the cluster's server side counts it. Run by RealWorldSetsE2E (sandbox)
 * and RealWorldSetsIT (real control planes).
 */
final class RealWorldScenario {
    static final int IDLE_PASSES = 5;

    private RealWorldScenario() {}

    static void appliesBecomesHealthyAndThenWritesNothing(TestFleet fleet, String set) throws Exception {
        fleet.push("add " + set, c -> TestFleet.folder(RealWorldFixtures.folder().resolve(set), "apps/" + set + "/manifests/").apply(c
                .write("clusters/lab.yaml", fleet.clusterYaml("lab", "env: lab", 2, 0, ""))
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
        assertEquals(List.of(), notCreated, "every object is created");
        assertAllOn(fleet, "lab", app.manifests());

        TargetStatus lab = settled(fleet, set);
        assertEquals(dev.windlass.policy.state.Sync.Synced, lab.sync(), lab.toString());
        assertEquals(app.manifests().stream().filter(m -> !m.implicit()).count(), lab.inventory().size(), "every object is in the inventory");
        if (fleet.backend.real() && servesALoadBalancer(app)) {
            assertEquals(dev.windlass.policy.state.Health.Progressing, lab.health(), lab.message());
            assertTrue(lab.message().contains("Waiting for the load balancer to get an address"), lab.message());
        } else {
            assertEquals(dev.windlass.policy.state.Health.Healthy, lab.health(), lab.message());
        }

        fleet.backend.resetWrites("lab");
        for (int i = 0; i < IDLE_PASSES; i++) {
            PassReport idle = fleet.pass();
            assertFalse(idle.plan().hasChanges(), "idle pass " + i + " plans nothing:\n" + idle.plan());
            assertFalse(idle.committed(), "idle pass " + i + " records nothing");
        }
        long writes = fleet.backend.writes("lab");
        assertEquals(0, writes, "writes over " + IDLE_PASSES + " idle passes" + (writes == 0 ? "" : ": " + fleet.backend.writesSeen("lab")));
    }

    /**
     * Passes as time goes by until the application is in sync and done progressing, but for what no controller here
     * can finish (a load balancer's address on a real control plane).
     */
    private static TargetStatus settled(TestFleet fleet, String app) throws Exception {
        TargetStatus lab = null;
        PassReport r = null;
        for (int i = 0; i < 30; i++) {
            r = fleet.passLater();
            lab = fleet.engine.reconciler().state().apps().get(app).target("lab");
            boolean waitingOnlyForAnAddress = fleet.backend.real() && lab.message().contains("load balancer");
            if (!r.plan().hasChanges() && lab.sync() == dev.windlass.policy.state.Sync.Synced && (lab.health() == dev.windlass.policy.state.Health.Healthy || waitingOnlyForAnAddress)) {
                if (fleet.backend.real()) awaitFinishedJobsRemoved(fleet, r.desired().apps().get(app).manifests());
                return lab;
            }
        }
        throw new AssertionError("did not settle: " + lab.sync() + ", " + lab.health() + " " + lab.message()
                + "; the last pass planned:\n" + r.plan().stages());
    }

    /**
     * A real cluster deletes a finished Job that has {@code ttlSecondsAfterFinished} (its TTL controller, then its
     * garbage collector, each write it once), right after the Job completes and so after the application turned
     * Healthy. The idle passes come after the cluster is done with them: they must not create the Jobs again, and the
     * server counts the cluster's own writes as it counts the engine's.
     */
    private static void awaitFinishedJobsRemoved(TestFleet fleet, List<Manifest> manifests) {
        try (KubernetesClient k = fleet.client("lab")) {
            for (Manifest m : manifests) {
                if (!m.ref().kind().equals("Job") || !(m.body().get("spec") instanceof java.util.Map<?, ?> spec)
                        || spec.get("ttlSecondsAfterFinished") == null) continue;
                dev.windlass.kubetest.Await.until(java.time.Duration.ofSeconds(60), m.ref() + " removed by the cluster once finished",
                        () -> k.batch().v1().jobs().inNamespace(m.ref().namespace()).withName(m.ref().name()).get(), java.util.Objects::isNull);
            }
        }
    }

    /** Every one of {@code manifests} is on {@code cluster}, read back with an admin client. */
    static void assertAllOn(TestFleet fleet, String cluster, List<Manifest> manifests) {
        try (KubernetesClient k = fleet.client(cluster)) {
            for (Manifest m : manifests) {
                var kind = k.genericKubernetesResources(m.apiVersion(), m.ref().kind());
                GenericKubernetesResource live = m.ref().namespaced()
                        ? kind.inNamespace(m.ref().namespace()).withName(m.ref().name()).get() : kind.withName(m.ref().name()).get();
                assertTrue(live != null, m.ref() + " on " + cluster);
            }
        }
    }

    private static boolean servesALoadBalancer(Application app) {
        return app.manifests().stream().anyMatch(m -> m.ref().kind().equals("Service")
                && m.body().get("spec") instanceof java.util.Map<?, ?> spec && "LoadBalancer".equals(spec.get("type")));
    }

    /** Runs the scenario in a fleet of its own. */
    static void run(Path dir, boolean real, String set) throws Exception {
        try (TestFleet fleet = new TestFleet(dir, real)) {
            appliesBecomesHealthyAndThenWritesNothing(fleet, set);
        }
    }
}
