package dev.windlass.sandbox.sim;

import dev.windlass.sandbox.ClusterSettings;
import dev.windlass.sandbox.Sandbox;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.windlass.sandbox.sim.Fixtures.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The other kinds the simulator knows turn ready after the delay, each with the status fields its controller sets. */
class WorkloadKindsReadinessTest {

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

    @Test void statefulSetReportsEveryReplicaReadyAndOneRevision() {
        StatefulSet created = client.apps().statefulSets().resource(new StatefulSetBuilder()
                .withNewMetadata().withName("db").endMetadata()
                .withNewSpec().withReplicas(2).withServiceName("db")
                .withNewSelector().addToMatchLabels("app", "db").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "db").endMetadata()
                .withNewSpec().addNewContainer().withName("db").withImage("postgres:17").endContainer().endSpec()
                .endTemplate().endSpec().build()).create();

        sim.tick(at(0));
        assertEquals(0, client.apps().statefulSets().withName("db").get().getStatus().getReadyReplicas());

        sim.tick(at(2));
        StatefulSet ready = client.apps().statefulSets().withName("db").get();
        var status = ready.getStatus();
        assertEquals(2, status.getReplicas());
        assertEquals(2, status.getReadyReplicas());
        assertEquals(2, status.getCurrentReplicas());
        assertEquals(2, status.getUpdatedReplicas());
        assertEquals(1L, status.getObservedGeneration());
        assertEquals(status.getUpdateRevision(), status.getCurrentRevision());
        assertEquals(created.getSpec(), ready.getSpec());
    }

    @Test void daemonSetRunsOnEveryNode() {
        client.apps().daemonSets().resource(new DaemonSetBuilder()
                .withNewMetadata().withName("agent").endMetadata()
                .withNewSpec().withNewSelector().addToMatchLabels("app", "agent").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "agent").endMetadata()
                .withNewSpec().addNewContainer().withName("agent").withImage("agent:1").endContainer().endSpec()
                .endTemplate().endSpec().build()).create();

        sim.tick(at(0));
        assertEquals(0, daemonSet().getStatus().getNumberReady());

        sim.tick(at(2));
        var status = daemonSet().getStatus();
        assertEquals(3, status.getDesiredNumberScheduled());
        assertEquals(3, status.getNumberReady());
        assertEquals(3, status.getUpdatedNumberScheduled());
        assertEquals(3, status.getNumberAvailable());
        assertEquals(1L, status.getObservedGeneration());
    }

    @Test void jobCompletes() {
        client.batch().v1().jobs().resource(new JobBuilder()
                .withNewMetadata().withName("migrate").endMetadata()
                .withNewSpec().withNewTemplate().withNewSpec().withRestartPolicy("Never")
                .addNewContainer().withName("migrate").withImage("migrate:1").endContainer()
                .endSpec().endTemplate().endSpec().build()).create();

        sim.tick(at(0));
        Job running = client.batch().v1().jobs().withName("migrate").get();
        assertEquals(1, running.getStatus().getActive());
        assertNull(running.getStatus().getSucceeded());

        sim.tick(at(2));
        var status = client.batch().v1().jobs().withName("migrate").get().getStatus();
        assertEquals(1, status.getSucceeded());
        assertTrue(status.getConditions().stream()
                .anyMatch(c -> "Complete".equals(c.getType()) && "True".equals(c.getStatus())));
    }

    @Test void claimGetsBound() {
        client.persistentVolumeClaims().resource(new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName("data").endMetadata()
                .withNewSpec().withAccessModes("ReadWriteOnce")
                .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources()
                .endSpec().build()).create();

        sim.tick(at(0));
        assertEquals("Pending", claim().getStatus().getPhase());

        sim.tick(at(2));
        PersistentVolumeClaim bound = claim();
        assertEquals("Bound", bound.getStatus().getPhase());
        assertEquals(new Quantity("1Gi"), bound.getStatus().getCapacity().get("storage"));
        assertEquals(List.of("ReadWriteOnce"), bound.getStatus().getAccessModes());
    }

    @Test void loadBalancerGetsAnIngressAndOtherServicesAreLeftAlone() {
        client.services().resource(service("public", "LoadBalancer")).create();
        String internalVersion = client.services().resource(service("internal", "ClusterIP")).create()
                .getMetadata().getResourceVersion();

        sim.tick(at(0));
        assertTrue(client.services().withName("public").get().getStatus().getLoadBalancer().getIngress().isEmpty());

        sim.tick(at(2));
        Service lb = client.services().withName("public").get();
        assertEquals("127.0.0.1", lb.getStatus().getLoadBalancer().getIngress().get(0).getIp());
        assertEquals(internalVersion, client.services().withName("internal").get().getMetadata().getResourceVersion());
    }

    @Test void podRunsAndTurnsReady() {
        client.pods().resource(new PodBuilder().withNewMetadata().withName("tool").endMetadata()
                .withNewSpec().addNewContainer().withName("tool").withImage("busybox:1").endContainer().endSpec()
                .build()).create();

        sim.tick(at(0));
        assertEquals("Pending", pod().getStatus().getPhase());

        sim.tick(at(2));
        Pod running = pod();
        assertEquals("Running", running.getStatus().getPhase());
        assertTrue(running.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
        assertTrue(running.getStatus().getContainerStatuses().get(0).getReady());
    }

    private DaemonSet daemonSet() {
        return client.apps().daemonSets().withName("agent").get();
    }

    private PersistentVolumeClaim claim() {
        return client.persistentVolumeClaims().withName("data").get();
    }

    private Pod pod() {
        return client.pods().withName("tool").get();
    }

    private static Service service(String name, String type) {
        return new ServiceBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withType(type).addToSelector("app", name)
                .addNewPort().withPort(80).endPort().endSpec().build();
    }
}
