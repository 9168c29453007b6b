package dev.windlass.sandbox.sim;

import dev.windlass.sandbox.ClusterSettings;
import dev.windlass.sandbox.Sandbox;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.windlass.sandbox.sim.Fixtures.at;
import static dev.windlass.sandbox.sim.Fixtures.deployment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A never-ready workload looks like a failing rollout, on the clusters the fault names, until the fault is lifted. */
class NeverReadyFaultTest {

    private Sandbox sandbox;
    private Simulator sim;
    private KubernetesClient east;
    private KubernetesClient west;

    @BeforeEach void start() {
        sim = Fixtures.simulator();
        sandbox = new Sandbox(ClusterSettings.defaults(), sim);
        east = sandbox.add("east", 2, 1).newClient();
        west = sandbox.add("west", 2, 1).newClient();
    }

    @AfterEach void stop() {
        east.close();
        west.close();
        sandbox.close();
    }

    @Test void deploymentStaysUnreadyAndShowsProgressDeadlineExceeded() {
        sim.workloadNeverReady("default", "Deployment", "web");
        east.apps().deployments().resource(deployment("web", 2)).create();

        sim.tick(at(0));
        assertEquals("ReplicaSetUpdated", progressing(east, "web").getReason());

        sim.tick(at(2));
        sim.tick(at(30));
        Deployment stuck = east.apps().deployments().withName("web").get();
        assertEquals(0, stuck.getStatus().getReadyReplicas());
        assertEquals(1L, stuck.getStatus().getObservedGeneration());
        DeploymentCondition progressing = progressing(east, "web");
        assertEquals("False", progressing.getStatus());
        assertEquals("ProgressDeadlineExceeded", progressing.getReason());
    }

    @Test void liftingTheFaultMakesItReadyOnTheNextTick() {
        sim.workloadNeverReady("default", "deployment", "web");
        east.apps().deployments().resource(deployment("web", 2)).create();
        sim.tick(at(0));
        sim.tick(at(5));
        assertEquals(0, east.apps().deployments().withName("web").get().getStatus().getReadyReplicas());

        sim.workloadNeverReady(WorkloadMatch.named("default", "Deployment", "web"), false);
        sim.tick(at(6));
        Deployment ready = east.apps().deployments().withName("web").get();
        assertEquals(2, ready.getStatus().getReadyReplicas());
        assertEquals("NewReplicaSetAvailable", progressing(east, "web").getReason());
    }

    @Test void matchByAppLabelOnOneClusterLeavesTheOtherClusterAlone() {
        sim.workloadNeverReady(WorkloadMatch.app("web").onCluster("east"), true);
        east.apps().deployments().resource(deployment("web", 1)).create();
        west.apps().deployments().resource(deployment("web", 1)).create();
        east.apps().deployments().resource(deployment("api", 1)).create();

        sim.tick(at(0));
        sim.tick(at(2));
        assertEquals(0, east.apps().deployments().withName("web").get().getStatus().getReadyReplicas());
        assertEquals(1, east.apps().deployments().withName("api").get().getStatus().getReadyReplicas());
        assertEquals(1, west.apps().deployments().withName("web").get().getStatus().getReadyReplicas());
    }

    @Test void aNeverReadyJobFails() {
        sim.workloadNeverReady("default", "Job", "migrate");
        east.batch().v1().jobs().resource(new JobBuilder()
                .withNewMetadata().withName("migrate").endMetadata()
                .withNewSpec().withBackoffLimit(2).withNewTemplate().withNewSpec().withRestartPolicy("Never")
                .addNewContainer().withName("migrate").withImage("migrate:1").endContainer()
                .endSpec().endTemplate().endSpec().build()).create();
        sim.tick(at(0));
        sim.tick(at(2));
        var status = east.batch().v1().jobs().withName("migrate").get().getStatus();
        assertEquals(3, status.getFailed());
        assertTrue(status.getConditions().stream()
                .anyMatch(c -> "Failed".equals(c.getType()) && "BackoffLimitExceeded".equals(c.getReason())));
    }

    @Test void clearFaultsLiftsEverything() {
        sim.workloadNeverReady("default", "Deployment", "web");
        east.apps().deployments().resource(deployment("web", 1)).create();
        sim.tick(at(0));
        sim.clearFaults();
        sim.tick(at(2));
        assertEquals(1, east.apps().deployments().withName("web").get().getStatus().getReadyReplicas());
    }

    private static DeploymentCondition progressing(KubernetesClient client, String name) {
        return client.apps().deployments().withName(name).get().getStatus().getConditions().stream()
                .filter(c -> "Progressing".equals(c.getType())).findFirst().orElseThrow();
    }
}
