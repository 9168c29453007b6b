package dev.windlass.sandbox.sim;

import dev.windlass.sandbox.ClusterSettings;
import dev.windlass.sandbox.Sandbox;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.windlass.sandbox.sim.Fixtures.at;
import static dev.windlass.sandbox.sim.Fixtures.deployment;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A Deployment turns ready once the delay has passed on the simulator's clock, not before; a spec change starts the
 * delay again; a settled cluster is not written to.
 */
class DeploymentReadinessTest {

    private Sandbox sandbox;
    private Simulator sim;
    private KubernetesClient client;

    @BeforeEach void start() {
        sim = Fixtures.simulator();
        sandbox = new Sandbox(ClusterSettings.defaults(), sim);
        client = sandbox.add("east", 3, 1).newClient();
    }

    @AfterEach void stop() {
        client.close();
        sandbox.close();
    }

    @Test void deploymentIsReadyOnlyAfterTheDelayAndItsSpecIsUntouched() {
        Deployment created = client.apps().deployments().resource(deployment("web", 3)).create();

        sim.tick(at(0));
        sim.tick(at(1));
        Deployment early = get("web");
        assertEquals(1L, early.getStatus().getObservedGeneration());
        assertEquals(0, early.getStatus().getReadyReplicas());
        assertEquals("ReplicaSetUpdated", condition(early, "Progressing").getReason());
        assertEquals("False", condition(early, "Available").getStatus());

        sim.tick(at(2));
        Deployment ready = get("web");
        var status = ready.getStatus();
        assertEquals(3, status.getReplicas());
        assertEquals(3, status.getReadyReplicas());
        assertEquals(3, status.getUpdatedReplicas());
        assertEquals(3, status.getAvailableReplicas());
        assertEquals(1L, status.getObservedGeneration());
        assertEquals("True", condition(ready, "Available").getStatus());
        assertEquals("True", condition(ready, "Progressing").getStatus());
        assertEquals("NewReplicaSetAvailable", condition(ready, "Progressing").getReason());
        assertEquals("2030-01-01T00:00:02Z", condition(ready, "Available").getLastTransitionTime());
        assertEquals(created.getSpec(), ready.getSpec());
        assertEquals(1L, ready.getMetadata().getGeneration());
    }

    @Test void replicasDefaultToOne() {
        client.apps().deployments().resource(deployment("solo", null)).create();
        sim.tick(at(0));
        sim.tick(at(5));
        assertEquals(1, get("solo").getStatus().getReadyReplicas());
    }

    @Test void aSpecChangeStartsTheDelayAgain() {
        client.apps().deployments().resource(deployment("web", 2)).create();
        sim.tick(at(0));
        sim.tick(at(2));
        client.apps().deployments().withName("web").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:1.28\"}]}}}}");

        sim.tick(at(10));
        Deployment rolling = get("web");
        assertEquals(2L, rolling.getMetadata().getGeneration());
        assertEquals(2L, rolling.getStatus().getObservedGeneration());
        assertEquals(0, rolling.getStatus().getReadyReplicas());

        sim.tick(at(12));
        assertEquals(2, get("web").getStatus().getReadyReplicas());
    }

    @Test void aSettledClusterIsNotWrittenAgain() {
        client.apps().deployments().resource(deployment("web", 1)).create();
        client.apps().deployments().resource(deployment("broken", 1)).create();
        client.services().resource(service("public", "LoadBalancer")).create();
        client.persistentVolumeClaims().resource(new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName("data").endMetadata().withNewSpec().withAccessModes("ReadWriteOnce")
                .endSpec().build()).create();
        client.pods().resource(new PodBuilder().withNewMetadata().withName("tool").endMetadata()
                .withNewSpec().addNewContainer().withName("tool").withImage("busybox:1").endContainer().endSpec()
                .build()).create();
        sim.workloadNeverReady("default", "Deployment", "broken");
        sim.nodeReady("east-worker-1", false);
        sim.tick(at(0));
        sim.tick(at(2));
        String settled = client.pods().list().getMetadata().getResourceVersion(); // the store's global counter

        sim.tick(at(3));
        sim.tick(at(600));
        assertEquals(settled, client.pods().list().getMetadata().getResourceVersion());
    }

    private Deployment get(String name) {
        return client.apps().deployments().withName(name).get();
    }

    private static DeploymentCondition condition(Deployment d, String type) {
        return d.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElseThrow();
    }

    private static Service service(String name, String type) {
        return new ServiceBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withType(type).addToSelector("app", name)
                .addNewPort().withPort(80).endPort().endSpec().build();
    }
}
